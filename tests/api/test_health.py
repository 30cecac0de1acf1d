"""GET /healthz: 200 "ok" when the database, the cache, (with REDIS_URL) the broker and the outbox relay answer;
200 "degraded" when only the database does (the web still serves); 503 "failing" without the database. It names the
failing check, never why (the endpoint is public); nothing but GET and HEAD."""

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


def test_healthz_is_degraded_naming_the_failing_check_but_not_why(client, monkeypatch, settings):
    from django.core.cache import cache

    def broken(*args, **kwargs):
        raise ConnectionError("cache.example:6379 refused the connection")

    monkeypatch.setattr(cache, "ping" if hasattr(cache, "ping") else "get", broken, raising=False)
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    response = client.get("/healthz")
    # The web still serves without its cache and broker (reads, decisions into the outbox): it stays in rotation.
    assert response.status_code == 200
    body = response.json()
    assert body == {"status": "degraded",
                    "checks": {"database": "ok", "cache": "failing", "broker": "failing", "outbox": "ok"}}
    assert b"cache.example" not in response.content and b"127.0.0.1" not in response.content


def test_healthz_is_503_without_the_database(client, monkeypatch):
    from config import health

    def broken():
        raise ConnectionError("db.example:5432 refused the connection")

    monkeypatch.setattr(health, "_database", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing" and body["checks"]["database"] == "failing"
    assert body["checks"]["outbox"] == "unknown" and body["checks"]["cache"] == "ok"
    assert b"db.example" not in response.content


def test_healthz_is_degraded_when_outbox_rows_wait_unsent(client):
    from datetime import timedelta

    from django.utils import timezone

    from league.models import OutboxMessage

    from ..league.matches_support import VARIANTS, bot_match

    match = bot_match(VARIANTS["3p-thief"], seed="healthz-outbox")
    # Recorded five minutes ago, never sent (its sends failed, or no relay runs): someone should look.
    OutboxMessage.objects.create(kind="play_match", match=match, created_at=timezone.now() - timedelta(minutes=5),
                                 send_after=timezone.now() + timedelta(seconds=3), sends=40)
    body = client.get("/healthz").json()
    assert body["status"] == "degraded" and body["checks"]["outbox"] == "failing"


def test_healthz_takes_no_writes(client):
    assert client.post("/healthz").status_code == 405
