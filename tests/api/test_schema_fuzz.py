"""Schemathesis: requests generated from the OpenAPI schema, sent to the app in-process as each kind of caller (no
credentials, a club's organiser, the account holding a seat at a live match), get no 5xx answer and pass
schemathesis' checks: content types and bodies as the schema documents them (refusals included), credentials
honoured, no server error...

Three checks are left out, because the schema is looser than the service and says so: which rulesets, points
tables or bot settings are valid is decided by the engine and league.limits, not by JSON Schema, so a schema-valid
body may well be refused (positive_data_acceptance), some schema-invalid ones are taken as harmless (extra query
parameters: negative_data_rejection), and not every 404/405/409 is listed per operation (status_code_conformance).

The budget per operation and role is small for CI (the three roles cost about as much as one did at 8); the
DIAMONDS_FUZZ_EXAMPLES variable raises it (e.g. 200 for a longer hunt).
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import checks

from .conftest import live_match

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
EXAMPLES = int(os.environ.get("DIAMONDS_FUZZ_EXAMPLES", "2"))
ROLES = ["anonymous", "organiser", "seat"]


@pytest.fixture
def _keep_the_test_connection():
    """Requests go straight to the WSGI app, not through Django's test client, so Django would close the test's
    database connection (and its transaction) after each one; the test client keeps it the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(params=ROLES)
def fuzz_auth(request, accounts, settings, _keep_the_test_connection):
    settings.DIAMONDS_TURNS_MAX_WAIT = 0.01  # a generated ?wait= must not hold the run up
    live_match(accounts, ["ext-1", "ann", "greedy-1"])  # something to find at low ids, with ext-1's seat awaited
    from api.tokens import issue_token

    account = {"anonymous": None, "organiser": accounts["organiser"], "seat": accounts["players"]["ext-1"].user}
    user = account[request.param]
    return {"Authorization": f"Token {issue_token(user)}"} if user else {}


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_request_gets_a_server_error_or_fails_a_check(case, fuzz_auth):
    response = case.call_and_validate(headers=fuzz_auth, excluded_checks=[
        checks.positive_data_acceptance, checks.negative_data_rejection, checks.status_code_conformance])
    assert response.status_code < 500, f"{case.method} {case.formatted_path} -> {response.status_code}"
