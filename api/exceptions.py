"""Every refusal has the one shape the schema documents (ErrorSerializer): `detail`, a sentence saying why, and
`code`. A serializer's field errors keep their fields as keys beside it ({"rounds": ["..."], "detail": "rounds:
..."}), so a client can still tell which field was refused."""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.views import exception_handler as drf_exception_handler


def _sentence(errors) -> str:
    if isinstance(errors, dict):
        return "; ".join(f"{field}: {_sentence(value)}" if field != "detail" else _sentence(value)
                         for field, value in errors.items())
    if isinstance(errors, list):
        return " ".join(_sentence(e) for e in errors)
    return str(errors)


def exception_handler(exc, context):
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, ValidationError):
        return response
    data = response.data
    body = dict(data) if isinstance(data, dict) else {}
    body["detail"] = _sentence(data)
    body.setdefault("code", "invalid")
    response.data = body
    return response
