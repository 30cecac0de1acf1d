"""Schemathesis: requests generated from the OpenAPI schema, sent to the app in-process as a staff account (so the
organiser paths are exercised too), never get a 5xx answer.

The budget per operation is small for CI; DIAMONDS_FUZZ_EXAMPLES raises it (e.g. 200 for a longer hunt).
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings

from .conftest import live_match

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
EXAMPLES = int(os.environ.get("DIAMONDS_FUZZ_EXAMPLES", "8"))


@pytest.fixture
def _keep_the_test_connection():
    """Requests go straight to the WSGI app, not through Django's test client, so Django would close the test's
    database connection (and its transaction) after each one; the test client keeps it the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_auth(accounts, settings, _keep_the_test_connection):
    settings.DIAMONDS_TURNS_MAX_WAIT = 0.01  # a generated ?wait= must not hold the run up
    live_match(accounts, ["ann", "ext-1", "greedy-1"])  # something to find at low ids
    from api.tokens import issue_token

    return {"Authorization": f"Token {issue_token(accounts['staff'])}"}


@pytest.mark.django_db
@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_request_gets_a_server_error(case, fuzz_auth):
    response = case.call(headers=fuzz_auth)
    assert response.status_code < 500, f"{case.method} {case.formatted_path} -> {response.status_code}"
