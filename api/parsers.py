"""What the API accepts as a request body, before any view sees it: JSON no larger than DIAMONDS_MAX_BODY_BYTES and
no deeper than DIAMONDS_MAX_JSON_DEPTH, with finite numbers and text the database can store (no NUL character, no
lone surrogate: PostgreSQL refuses both, so they would fail at the write as a 500). Forms are held to the same text
rule. Every refusal is a JSON 400 (413 for size) that says what was wrong, and nothing is stored.

The size is also refused before the body is read, by BodySizeLimitMiddleware, from its Content-Length.
"""

from __future__ import annotations

import json
import math

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.http import JsonResponse
from django.utils.translation import gettext as _
from rest_framework import parsers, status
from rest_framework.exceptions import APIException, ParseError


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def too_large_message(size: int | None) -> str:
    limit = settings.DIAMONDS_MAX_BODY_BYTES
    told = f"{size} bytes" if size is not None else "more bytes"
    return f"the body is {told}; at most {limit} bytes are accepted"


class BodySizeLimitMiddleware:
    """A body announced larger than DIAMONDS_MAX_BODY_BYTES is answered 413 (JSON, saying why) without reading it;
    Django's own limit would answer an HTML 400 that does not say why. Sync and async alike: a synchronous-only
    middleware would make Django run the async long-poll in a thread for its whole wait (runtime/asgi_routing.py)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response):
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request):
        if self.is_async:
            return self._acall(request)
        return self._refusal(request) or self.get_response(request)

    async def _acall(self, request):
        return self._refusal(request) or await self.get_response(request)

    @staticmethod
    def _refusal(request) -> JsonResponse | None:
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return JsonResponse({"detail": "Content-Length is not a number", "code": "parse_error"}, status=400)
        if size > settings.DIAMONDS_MAX_BODY_BYTES:
            return JsonResponse({"detail": too_large_message(size), "code": "too_large"}, status=413)
        return None


def unstorable_text(value: str) -> str | None:
    """Why `value` cannot be stored (None if it can): PostgreSQL text and jsonb refuse NUL, and UTF-8 refuses lone
    surrogates."""
    if "\x00" in value:
        return _("NUL characters (\\u0000) cannot be stored")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return _("lone surrogates (\\ud800-\\udfff) are not text")
    return None


def json_depth(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest, counted without parsing it (the parser itself would
    recurse once per level, and a thousand levels overflow Python's stack)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def check_storable(value, path: str = "body") -> None:
    """ParseError naming the first string (key or value) in `value` that cannot be stored, or non-finite number."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            why = unstorable_text(item)
            if why:
                raise ParseError(_("%(where)s: %(why)s") % {"where": where, "why": why})
        elif isinstance(item, float) and not math.isfinite(item):
            raise ParseError(_("%(where)s: numbers must be finite") % {"where": where})
        elif isinstance(item, dict):
            for k, v in item.items():
                why = unstorable_text(k)
                if why:
                    raise ParseError(_("%(where)s: a key: %(why)s") % {"where": where, "why": why})
                stack.append((v, f"{where}.{k}"))
        elif isinstance(item, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(item))


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as infinity, which JSON cannot say and the database cannot hold
        raise ValueError(f"{text} is too large a number")
    return value


def _no_constant(name: str):
    raise ValueError(f"{name} is not JSON")


class JSONParser(parsers.JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        limit = settings.DIAMONDS_MAX_BODY_BYTES
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:  # no Content-Length (a chunked body) gets here: the middleware could not see it
            raise BodyTooLarge(too_large_message(None))
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as e:
            raise ParseError(_("the body is not %(encoding)s text: %(error)s") % {"encoding": encoding, "error": e}
                             ) from None
        depth, most = json_depth(text), settings.DIAMONDS_MAX_JSON_DEPTH
        if depth > most:
            raise ParseError(_("JSON nested %(depth)s deep; at most %(most)s levels are accepted") % {
                "depth": depth, "most": most})
        try:
            data = json.loads(text, parse_float=_finite, parse_constant=_no_constant)
        except (ValueError, RecursionError) as e:  # ValueError: JSONDecodeError, a number too long to read
            raise ParseError(_("JSON parse error - %(error)s") % {"error": e}) from None
        if not isinstance(data, dict):  # every body this API takes is an object; views read it with .get
            raise ParseError(_("the body is a JSON object, not %(type)s") % {
                "type": type(data).__name__ if data is not None else "null"})
        check_storable(data)
        return data


class FormParser(parsers.FormParser):
    def parse(self, stream, media_type=None, parser_context=None):
        data = super().parse(stream, media_type, parser_context)
        check_storable(dict(data.lists()))
        return data


class MultiPartParser(parsers.MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        result = super().parse(stream, media_type, parser_context)
        check_storable(dict(result.data.lists()))
        return result
