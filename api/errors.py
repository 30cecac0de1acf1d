"""One shape for every refusal, whatever raised it: the schema's `Error`.

    {"detail": "why, in one sentence", "code": "invalid", "rule": "R-FOLLOW-1", "errors": {"vault.0": ["..."]}}

`detail` is always there; `code` says which kind of refusal (DRF's codes: invalid, parse_error, not_found,
permission_denied, not_authenticated, throttled..., and ours: conflict, too_large, and the rules' refusals); `rule`
names the rule id when the rules refuse a decision; `errors` lists a form's refusals per field (a nested field as a
dotted path, `vault.0`), so a client can show each beside its field. DRF's own shapes (`{"name": ["..."]}`, a bare
list, `{"detail": ["..."]}`) differ from one refusal to the next, and a client generated from the schema can only
read one; so `exception_handler` (REST_FRAMEWORK["EXCEPTION_HANDLER"]) rewrites them all into this one, and
`error_response` is how a view refuses without raising.

An error is JSON even when the caller asked for CSV (?format=csv): a spreadsheet has nothing to do with it, and
the schema documents every 4xx as application/json.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class Conflict(exceptions.APIException):
    """409: a duplicate (a name taken, a player entered twice) or a state that does not allow it."""

    status_code = 409
    default_code = "conflict"


class ErrorSerializer(serializers.Serializer):
    """Every 4xx answer: `detail` says why; `code` which kind of refusal; a decision refused by the rules names the
    rule id (`rule`); a refused form lists its refusals per field (`errors`)."""

    detail = serializers.CharField()
    code = serializers.CharField(required=False)
    rule = serializers.CharField(required=False, allow_null=True)
    # DRF's serializer metaclass takes declared fields out of the class, so Serializer.errors stays the property.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()), required=False,
        help_text="Per field (a nested one as a dotted path): why it was refused.")


def error_body(detail: str, code: str, *, rule: str | None = None, errors: dict[str, list[str]] | None = None) -> dict:
    body: dict[str, object] = {"detail": detail, "code": code}
    if rule is not None:
        body["rule"] = rule
    if errors:
        body["errors"] = errors
    return body


def error_response(detail: str, code: str, status: int, *, rule: str | None = None) -> Response:
    return Response(error_body(detail, code, rule=rule), status=status)


def _flatten(details, path: str, out: dict[str, list[tuple[str, str]]]) -> None:
    """ValidationError's nested details as {dotted path: [(message, code)]}."""
    if isinstance(details, dict):
        for key, value in details.items():
            _flatten(value, f"{path}.{key}" if path else str(key), out)
    elif isinstance(details, list | tuple):
        for i, value in enumerate(details):
            if isinstance(value, dict | list | tuple):
                _flatten(value, f"{path}.{i}" if path else str(i), out)
            else:
                _flatten(value, path, out)
    else:
        code = getattr(details, "code", None) or "invalid"
        out.setdefault(path, []).append((str(details), code))


def validation_body(exc: exceptions.ValidationError) -> dict:
    flat: dict[str, list[tuple[str, str]]] = {}
    _flatten(exc.detail, "", flat)
    # `{"detail": "..."}` raised by a view and a bare message are the whole refusal, not a field's.
    general = flat.pop("detail", []) + flat.pop("", []) + flat.pop("non_field_errors", [])
    parts = [message for message, _ in general] + [f"{field}: {'; '.join(m for m, _ in messages)}"
                                                     for field, messages in flat.items()]
    codes = [code for _, code in general] + [code for messages in flat.values() for _, code in messages]
    errors = {field: [m for m, _ in messages] for field, messages in flat.items()}
    return error_body(". ".join(parts) or gettext("invalid input"), codes[0] if codes else "invalid", errors=errors)


def _code(exc) -> str:
    if isinstance(exc, Http404):  # Django's own, which DRF answers as its NotFound
        return "not_found"
    if isinstance(exc, DjangoPermissionDenied):
        return "permission_denied"
    codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
    return codes if isinstance(codes, str) else getattr(exc, "default_code", "error")


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is None:  # not an API refusal: a 500, left to Django (and its logging)
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = validation_body(exc)
    else:
        data = response.data if isinstance(response.data, dict) else {"detail": response.data}
        detail = str(data.get("detail", ""))
        if isinstance(exc, Http404) and not translation.get_language().startswith("en"):
            # Django's own Http404 texts ("No Match matches the given query.") have no translation: DRF's has.
            detail = str(exceptions.NotFound.default_detail)
        response.data = error_body(detail, _code(exc), rule=data.get("rule"))
    request = context.get("request")
    if request is not None:  # JSON, even if CSV was asked for (finalize_response renders with the request's choice)
        request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
    return response


# The refusals the schema names, per kind of endpoint.
E400 = OpenApiResponse(ErrorSerializer, description="Invalid input.")
E403 = OpenApiResponse(ErrorSerializer, description="Not signed in, or not an organiser of the club.")
E404 = OpenApiResponse(ErrorSerializer, description="No such object.")
E409 = OpenApiResponse(ErrorSerializer, description="The object's state does not allow it.")
E429 = OpenApiResponse(ErrorSerializer, description="Too many writes: see Retry-After.")
READ_ERRORS = {404: E404}
# A list answers 400 for a filter value it cannot take and 404 for a page past the end.
LIST_ERRORS = {400: OpenApiResponse(ErrorSerializer, description="A filter value it cannot take."),
               404: OpenApiResponse(ErrorSerializer, description="No such page.")}
WRITE_ERRORS = {400: E400, 401: E403, 403: E403, 404: E404, 429: E429}


def conflict(error: Exception) -> Response:
    """409: what was asked is well formed, but the object's state does not allow it (the error says why)."""
    return error_response(str(error), "conflict", 409)
