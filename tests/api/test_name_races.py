"""Look-alike names requested at the same moment, on PostgreSQL (issue 27, "names" under concurrency): the check
that refuses a name confusable with another player's ran, for both requests, before either was stored, so both
passed. The unique look-alike key (Player.name_key) is the last word; a request that loses to it is refused as the
check refuses it (409, naming the other player), never a 500, and nothing of it is stored."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import Player
from league.names import name_key
from tests.races import race, skip_unless_postgres

pytestmark = pytest.mark.django_db(transaction=True)

CYRILLIC_A = "\u0430"
LOOK_ALIKES = ["racer", "RACER", "r" + CYRILLIC_A + "cer", "Racer\u200b"]


@pytest.fixture(autouse=True)
def _postgres_only():
    skip_unless_postgres()


def _request(user, method: str, url: str, body: dict):
    def call():
        client = APIClient()
        client.force_authenticate(user)
        answer = getattr(client, method)(url, body, format="json")
        return answer.status_code, answer.json()
    return call


@pytest.mark.parametrize("attempt", range(3))
def test_look_alike_bots_made_at_once_make_one(accounts, attempt):
    """Finding: two simultaneous requests creating confusable bot names could both pass the look-alike check."""
    ann = accounts["players"]["ann"].user
    results = race(*(_request(ann, "post", "/api/v1/players/", {"kind": "external_bot", "name": name})
                     for name in LOOK_ALIKES))
    assert not any(isinstance(r, Exception) for r in results), results
    assert Counter(status for status, _body in results) == {201: 1, 409: 3}, results
    made = Player.objects.get(name_key=name_key("racer"))
    for status, body in results:
        if status == 409:
            assert made.name in body["detail"], body  # the check's own sentence: it names the other player
    assert get_user_model().objects.filter(username__iregex=r"^bot-r.cer$").count() == 1  # no orphan account


@pytest.mark.parametrize("attempt", range(3))
def test_look_alike_display_names_chosen_at_once_go_to_one(accounts, attempt):
    """Finding: two people renaming themselves at once to confusable names could both have them."""
    people = [accounts["players"]["ann"].user, accounts["players"]["bob"].user, accounts["outsider"],
              accounts["organiser"]]
    results = race(*(_request(user, "patch", "/api/v1/me/profile/", {"display_name": name})
                     for user, name in zip(people, LOOK_ALIKES, strict=True)))
    assert not any(isinstance(r, Exception) for r in results), results
    assert Counter(status for status, _body in results) == {200: 1, 409: 3}, results
    assert Player.objects.filter(name_key=name_key("racer")).count() == 1
