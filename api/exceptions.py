"""Every refusal has the one shape the schema documents (ErrorSerializer): `detail`, a sentence saying why, and
`code`. A serializer's field errors keep their fields as keys beside it ({"rounds": ["..."], "detail": "rounds:
..."}), so a client can still tell which field was refused."""

from __future__ import annotations

from rest_framework import status
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.views import exception_handler as drf_exception_handler


class Conflict(APIException):
    """409: a duplicate (a name taken, a player entered twice) or a state that does not allow it."""

    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"


def _sentence(errors) -> str:
    if isinstance(errors, dict):
        return "; ".join(f"{field}: {_sentence(value)}" if field != "detail" else _sentence(value)
                         for field, value in errors.items())
    if isinstance(errors, list):
        return " ".join(_sentence(e) for e in errors)
    return str(errors)


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, Conflict):
        response.data = {"detail": str(exc.detail), "code": "conflict"}
    if response is None or not isinstance(exc, ValidationError):
        return response
    data = response.data
    body = dict(data) if isinstance(data, dict) else {}
    body["detail"] = _sentence(data)
    body.setdefault("code", "invalid")
    response.data = body
    return response
