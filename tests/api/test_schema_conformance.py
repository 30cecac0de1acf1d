"""The schema tells the truth: schemathesis sends requests generated from /api/v1/schema/ to every operation, as an
anonymous caller, as a seat (an external bot with a seat in a live match) and as the club's organiser, over a
database with data in every table (tests/api/populated.py), and checks each answer against what the schema documents
for it: its status code, content type, headers and body (response schema conformance), and that it is no 5xx.

Path ids are mostly ones that exist (a generated id would nearly always be a 404, and the 200s are what clients
read), the rest as generated. The budget is DIAMONDS_SCHEMA_EXAMPLES requests per operation and role (a few for
CI; raise it for a longer hunt). Every non-conforming answer is collected, so one run lists them all.
"""

from __future__ import annotations

import itertools
import os
import re

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from .populated import populate, resource_of

EXAMPLES = int(os.environ.get("DIAMONDS_SCHEMA_EXAMPLES", "5"))
# The checks that judge one answer against the schema. Not schemathesis' positive_data_acceptance: a request the
# schema allows may still be refused for what it means (a player id of no player, a finished match), and the
# schema documents those 4xx; the stateful checks (use_after_free...) need a run of linked calls, not these.
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]

schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", get_wsgi_application())
OPERATIONS = [result.ok() for result in schema.get_all_operations()]


@pytest.fixture
def keep_the_test_connection():
    """Requests go straight to the WSGI app, not through Django's test client, so Django would close the test's
    database connection (and its transaction) after each one; the test client keeps it the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def api_routes() -> set[str]:
    """Every route under /api/v1/ as the schema writes paths (`{id}`), but the API root and the schema itself."""
    from django.urls import URLResolver, get_resolver

    def walk(patterns, prefix):
        for pattern in patterns:
            route = prefix + str(pattern.pattern).lstrip("^").rstrip("$")
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, route)
            else:
                yield route

    routes = set()
    for route in walk(get_resolver().url_patterns, "/"):
        if route.startswith("/api/v1/") and "format" not in route:  # not DRF's .json suffix copies
            route = route.replace("(?P<pk>[^/.]+)", "{id}").replace("<int:pk>", "{id}")
            route = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", route)  # a router's own groups: admins/{username}/
            routes.add(re.sub(r"<int:(\w+)>", r"{\1}", route))  # another id in the path keeps its name
    return routes - {"/api/v1/", "/api/v1/schema/"}


def test_the_schema_covers_every_route_of_the_api():
    """Every /api/v1/ route is an operation of the schema, so the conformance run below reaches all of them."""
    documented = {op.path for op in OPERATIONS}
    assert api_routes() == documented
    assert {"/api/v1/tournaments/{id}/standings/", "/api/v1/seasons/{id}/standings/",
            "/api/v1/matches/{id}/corrections/", "/api/v1/tournaments/{id}/rounds/", "/api/v1/me/turns/"} <= documented


def send_and_check(operation, known: list, headers: dict, failures: dict, answered: dict, role: str) -> None:
    """EXAMPLES generated requests to `operation`, three in four with a path id that exists (`known`)."""
    counter = itertools.count()

    @given(case=operation.as_strategy())
    @hypothesis_settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
                         derandomize=True, database=None)
    def run(case):
        n = next(counter)
        if case.path_parameters and "id" in case.path_parameters and n % 4 != 3 and known[0] is not None:
            case.path_parameters["id"] = known[n % len(known)]
        response = case.call(headers=headers)
        answered.setdefault((role, operation.label), set()).add(response.status_code)
        try:
            case.validate_response(response, checks=CHECKS)
        except BaseException as e:  # schemathesis' FailureGroup is a BaseExceptionGroup
            if isinstance(e, KeyboardInterrupt | SystemExit):
                raise
            # A failed check: kept, to list every operation's at the end
            failures.setdefault(f"{role} {operation.label}", f"{case.method} {case.formatted_path} "
                                f"{case.query or ''} -> {response.status_code}: {e}"[:1500])

    run()


@pytest.mark.django_db
def test_every_answer_is_what_the_schema_documents(accounts, django_capture_on_commit_callbacks, settings,
                                                   keep_the_test_connection):
    """As each role in turn, over one populated database (filling it is the slow part)."""
    settings.DIAMONDS_TURNS_MAX_WAIT = 0.01  # a generated ?wait= must not hold the run up
    data = populate(accounts, django_capture_on_commit_callbacks)
    failures: dict[str, str] = {}
    answered: dict[str, set[int]] = {}
    for role, token in data["tokens"].items():
        headers = {"Authorization": f"Token {token}"} if token else {}
        for operation in OPERATIONS:
            cache.clear()  # each operation starts with a full write budget (api.throttling)
            known = data["ids"].get(resource_of(operation.path))
            send_and_check(operation, known if isinstance(known, list) else [known], headers,
                           failures, answered, role)

    assert not failures, "\n\n".join(f"{label}: {failure}" for label, failure in failures.items())
    # The run read real objects: every GET of one object answered 200 at least once, for every role (legal/ only
    # for the seat: it is the caller's seat's; results/ not for anonymous callers: a table's entered results are
    # for the accounts at the table and its organisers; a club's guests/ (its roster) for its organisers only; /me/
    # objects, each account's own notifications and webhooks, are 404 to every other account by design, and
    # tests/api/test_notifications_api.py reads them as their owner).
    reads = [(role, op.label) for role in data["tokens"] for op in OPERATIONS if op.method == "get"
             and "{id}" in op.path and (role == "seat" or not op.path.endswith("/legal/"))
             and (role != "anonymous" or not op.path.endswith("/results/"))
             and (role == "organiser" or not op.path.endswith("/guests/"))
             and not op.path.startswith("/api/v1/me/")]
    missed = [read for read in reads if 200 not in answered.get(read, set())]
    assert not missed, missed
