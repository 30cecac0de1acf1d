"""Every API answer that carries a secret is `Cache-Control: no-store` (issue 27): a new bot's token, a renewed
one, the token for a username and password, a webhook's signing secret, a lobby table's invitation token."""

from __future__ import annotations

import pytest

from league.models import Player

pytestmark = pytest.mark.django_db


def assert_never_stored(answer, secret: str):
    assert answer.status_code in (200, 201), answer.content
    assert answer.json()[secret]
    assert "no-store" in answer.headers.get("Cache-Control", ""), answer.headers


def test_a_new_bots_token_and_a_renewed_one_are_never_stored(accounts):
    ann = accounts["clients"]["ann"]
    created = ann.post("/api/v1/players/", {"kind": "external_bot", "name": "annbot"}, format="json")
    assert_never_stored(created, "token")
    bot = Player.objects.get(name="annbot")
    assert_never_stored(ann.post(f"/api/v1/players/{bot.pk}/regenerate-token/"), "token")


def test_the_token_for_a_username_and_password_is_never_stored(accounts):
    answer = accounts["clients"]["anon"].post("/api/v1/auth/token/", {"username": "ann", "password": "pw-ann-123"},
                                              format="json")
    assert_never_stored(answer, "token")


def test_a_webhooks_signing_secret_is_never_stored(accounts, settings):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True  # a local receiver, as in production only when allowed
    answer = accounts["clients"]["ann"].post("/api/v1/me/webhooks/", {"url": "http://127.0.0.1:9/h",
                                                                      "events": ["match.finished"]}, format="json")
    assert_never_stored(answer, "secret")


def test_a_lobby_tables_invitation_token_is_never_stored(accounts):
    ann = accounts["clients"]["ann"]
    table = ann.post("/api/v1/lobby/tables/", {"game": "diamonds", "seats": 2, "public": False}, format="json")
    assert_never_stored(table, "token")
    assert_never_stored(ann.get(f"/api/v1/lobby/tables/{table.json()['id']}/"), "token")
