"""Every page that shows a secret is `Cache-Control: no-store` (issue 27): a bot's new token, a webhook's signing
secret, a lobby table's invitation link (the waiting room, its JSON, the invitation page)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league.models import LobbyTable
from runtime.throttling import STORE

from .support import administrators_account

pytestmark = pytest.mark.django_db


@pytest.fixture
def ann():
    cache.clear()
    STORE.clear_local()
    client = Client()
    client.force_login(administrators_account("ann"))  # verified: it may make bots
    return client


def assert_never_stored(response, secret: str):
    assert response.status_code == 200
    assert secret in response.content.decode()
    assert "no-store" in response.get("Cache-Control", ""), response.headers


def test_a_bots_new_token_is_never_stored(ann):
    page = ann.post("/bots/create/", {"name": "annbot"}, follow=True)
    assert_never_stored(page, "new-token")


def test_a_webhooks_signing_secret_is_never_stored(ann, settings):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True  # a local receiver, as in production only when allowed
    page = ann.post("/webhooks/", {"url": "http://127.0.0.1:9/hook", "events": ["match.finished"]})
    assert_never_stored(page, "whsec_")


def test_a_lobby_tables_invitation_is_never_stored(ann):
    ann.post(reverse("web:lobby"), {"game": "diamonds", "seats": 2, "rounds": 1, "clubs": "", "public": "",
                                    "bot_kind": "", "turn_deadline": 120})
    table = LobbyTable.objects.get()
    assert_never_stored(ann.get(reverse("web:lobby-table", args=[table.pk])), table.token)
    assert_never_stored(ann.get(reverse("web:lobby-table-live", args=[table.pk])), table.token)
    guest = Client()
    guest.force_login(get_user_model().objects.create_user("bob"))
    assert_never_stored(guest.get(reverse("web:lobby-invite", args=[table.token])), table.token)
