"""GET /healthz: 200 when the database, the cache and (with REDIS_URL) the broker answer; 503 naming the failing
check, never why (the endpoint is public); nothing but GET and HEAD."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def test_healthz_answers_ok_when_everything_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["checks"]["database"] == "ok" and body["checks"]["cache"] == "ok"
    assert response["Cache-Control"].startswith("max-age=0")
    assert client.head("/healthz").status_code == 200


def test_healthz_is_503_naming_the_failing_check_but_not_why(client, monkeypatch, settings):
    from django.core.cache import cache

    def broken(*args, **kwargs):
        raise ConnectionError("cache.example:6379 refused the connection")

    monkeypatch.setattr(cache, "get", broken)
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body == {"status": "failing", "checks": {"database": "ok", "cache": "failing", "broker": "failing"}}
    assert b"cache.example" not in response.content and b"127.0.0.1" not in response.content


def test_healthz_takes_no_writes(client):
    assert client.post("/healthz").status_code == 405
