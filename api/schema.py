"""The OpenAPI schema's last pass (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]): the refusals every operation can
answer, said once here rather than on each view, so that the schema documents every status the server sends.

- Every 4xx body is the `Error` shape in JSON (api.errors), even where the 200 may be CSV.
- Any operation can answer 401: a request with an Authorization header that names no account is refused before
  the view runs, and one that needs an account answers 401 without one.
- An operation that takes a body answers 413 for one larger than the server accepts.
- An operation with a path id answers 404 for an id with no object; one that reads query parameters or a body
  answers 400 for a value it cannot take; a write answers 403 to an account that may not make it and 429 past the
  rate limit (api.throttling).
- A request body is documented as JSON, the API's language (the parsers also take forms, for the browsable API).
- A path id is a whole number the URL accepts (no sign): the documented range is the one the server routes.

The committed copy of the result is api/openapi.yaml (tests/api/test_schema_file.py keeps it current).
"""

from __future__ import annotations

from django.core.exceptions import FieldDoesNotExist
from django.db.backends.base.operations import BaseDatabaseOperations
from drf_spectacular import openapi
from rest_framework.permissions import SAFE_METHODS, IsAuthenticatedOrReadOnly

ERROR_REF = {"$ref": "#/components/schemas/Error"}
WRITES = {"post", "put", "patch", "delete"}

GENERIC = {
    "400": "Invalid input: a parameter or body value it cannot take (`errors` names the fields).",
    "401": "Not signed in, or the Authorization header names no account.",
    "403": "Signed in, but this account may not do it.",
    "404": "No such object.",
    "413": "The body is larger than the server accepts (DIAMONDS_MAX_BODY_BYTES).",
    "429": "Too many writes: see Retry-After.",
}


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's, with two corrections:

    - it documents a read as open to anonymous callers only for DRF's own IsAuthenticatedOrReadOnly class: ours
      (api.permissions) are its subclasses, and are open to them as well;
    - a model's integer field gets its bounds from the database in use (Django asks the connection), so the schema
      would differ between SQLite (64 bits for every column) and PostgreSQL (smallint, integer...): the documented
      bounds are the column types' own (Django's portable ranges, PostgreSQL's), on either database.
    """

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        model_field = _model_field(field)
        ranges = BaseDatabaseOperations.integer_field_ranges
        column = ranges.get(model_field.get_internal_type()) if model_field is not None else None
        if column and schema.get("type") == "integer":
            low, high = column
            if "minimum" in schema:
                schema["minimum"] = max(schema["minimum"], low)
            if "maximum" in schema:
                schema["maximum"] = min(schema["maximum"], high)
                if schema["maximum"] <= 2**31 - 1 and schema.get("format") == "int64":
                    del schema["format"]
        return schema

    def get_auth(self):
        auths = super().get_auth()
        permissions = self.view.get_permissions()
        anonymous = not permissions or (self.method in SAFE_METHODS
                                        and all(isinstance(p, IsAuthenticatedOrReadOnly) for p in permissions))
        if anonymous and {} not in auths:
            auths.append({})
        return auths


def _model_field(field):
    """The model field a ModelSerializer built `field` from (None for any other field)."""
    model = getattr(getattr(getattr(field, "parent", None), "Meta", None), "model", None)
    if model is None or not isinstance(getattr(field, "source", None), str) or "." in field.source:
        return None
    try:
        return model._meta.get_field(field.source)
    except FieldDoesNotExist:
        return None


def _error(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}


def refusals(result, generator, request, public):
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in {"get", "post", "put", "patch", "delete"}:
                continue
            params = operation.get("parameters", [])
            for param in params:
                schema = param.get("schema", {})
                if param.get("in") == "path" and schema.get("type") == "integer":
                    schema.update(minimum=0, maximum=2**63 - 1)
            body = operation.get("requestBody", {}).get("content")
            if body and "application/json" in body:  # the API speaks JSON (forms are the browsable API's)
                operation["requestBody"]["content"] = {"application/json": body["application/json"]}
            responses = operation.setdefault("responses", {})
            wanted = {"401"}
            if any(p.get("in") == "path" for p in params):
                wanted.add("404")
            if any(p.get("in") == "query" for p in params) or "requestBody" in operation:
                wanted.add("400")
            if "requestBody" in operation:  # the body size limit (api.parsers, branch issue-15a) answers first
                wanted.add("413")
            if method in WRITES:
                wanted |= {"400", "403", "429"}
            for status in wanted:
                responses.setdefault(status, _error(GENERIC[status]))
            for status, response in responses.items():
                if status.startswith("4"):  # errors are JSON, whatever the 200 is (api.errors)
                    response["content"] = {"application/json": {"schema": ERROR_REF}}
            operation["responses"] = dict(sorted(responses.items()))
    return result
