"""The API in French (Accept-Language: fr): the rules' refusals name their rule id with a French sentence, DRF's and
the API's own messages keep the one Error shape in French, and the data itself keeps its machine formats."""

from __future__ import annotations

import gc

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient

from .conftest import live_match, snapshot

pytestmark = pytest.mark.django_db(transaction=True)

FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}
URL = "/api/v1/matches/{}/decisions/"


@pytest.fixture
def table(accounts):
    match = live_match(accounts, ["ann", "ext-1", "bob", "ext-2"])
    names = ["ann", "ext-1", "bob", "ext-2"]
    state = accounts["clients"]["anon"].get(f"/api/v1/matches/{match.pk}/state/").json()
    assert state["pending"]["kind"] == "pass_count"
    return {"match": match, "dealer": accounts["clients"][names[state["dealer"]]], "accounts": accounts}


def test_an_illegal_move_is_refused_in_french_naming_its_rule(table):
    match, client = table["match"], table["dealer"]
    before = snapshot(match)
    body = {"move_number": 0, "decision": {"kind": "pass_count", "count": 5}}
    french = client.post(URL.format(match.pk), body, format="json", **FR)
    assert french.status_code == 400
    assert french.json()["rule"] == "R-PASS-1" and french.json()["code"] == "illegal"
    assert french.json()["detail"] == "Seul le donneur choisit combien de cartes sont passées\u00a0: 1, 2 ou 3."
    assert french["Content-Language"] == "fr"
    # In English the engine's own sentence, with the same rule id and code; and nothing was stored either way.
    english = client.post(URL.format(match.pk), body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["rule"] == "R-PASS-1" and "not 5" in english.json()["detail"]
    assert snapshot(match) == before


def test_the_error_shape_holds_in_french(table):
    accounts, match = table["accounts"], table["match"]
    anon, outsider = accounts["clients"]["anon"], accounts["clients"]["outsider"]
    not_found = anon.get("/api/v1/matches/999999/", **FR)
    assert not_found.status_code == 404 and not_found.json() == {"detail": "Introuvable.", "code": "not_found"}
    unauthenticated = anon.post(URL.format(match.pk), {}, format="json", **FR)
    assert unauthenticated.status_code in (401, 403)
    assert unauthenticated.json()["code"] == "not_authenticated"
    assert "authentification" in unauthenticated.json()["detail"].lower()
    # The API's own refusals: a malformed body (DRF's parse error) and a seat that is not the caller's.
    malformed = table["dealer"].post(URL.format(match.pk), {"move_number": 0}, format="json", **FR)
    assert malformed.status_code == 400 and malformed.json() == {
        "detail": "le corps doit contenir 'move_number' et 'decision'", "code": "parse_error"}
    stranger = outsider.post(URL.format(match.pk), {"move_number": 0, "decision": {"kind": "pass_count", "count": 1}},
                             format="json", **FR)
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_your_seat"
    assert stranger.json()["detail"] == f"vous n'avez pas de siège à la partie {match.pk}"
    # A form's refusals per field, in French (DRF's own catalogue), under `errors`.
    club = accounts["clients"]["staff"].post("/api/v1/clubs/", {"name": ""}, format="json", **FR)
    assert club.status_code == 400 and club.json()["errors"]["name"] == ["Ce champ ne peut être vide."]
    # A URL no view matches (Django's handler, not DRF's) answers JSON in French too.
    assert anon.get("/api/v1/matches/abc/", **FR).json() == {"detail": "Introuvable.", "code": "not_found"}


def test_the_data_keeps_machine_formats_in_french(table):
    anon, match = table["accounts"]["clients"]["anon"], table["match"]
    english = anon.get(f"/api/v1/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").json()
    french = anon.get(f"/api/v1/matches/{match.pk}/", **FR).json()
    assert french == english  # dates stay ISO 8601, numbers stay numbers, statuses stay their codes
    assert french["status"] in ("pending", "running")


def test_the_asynchronous_long_poll_refuses_in_french(accounts):
    """/me/turns/ is a coroutine under ASGI: the request's language reaches its refusals too."""
    headers = {"Authorization": f"Token {accounts['tokens']['ext-1']}", "Accept-Language": "fr"}

    async def scenario():
        client = AsyncClient()
        french = await client.get("/api/v1/me/turns/?wait=abc", headers=headers)
        english = await client.get("/api/v1/me/turns/?wait=abc", headers={**headers, "Accept-Language": "en"})
        return french, english

    french, english = async_to_sync(scenario)()
    assert french.status_code == 400
    assert french.json() == {"detail": "wait doit être un nombre de secondes", "code": "parse_error"}
    assert english.json()["detail"] == "wait must be a number of seconds"
    gc.collect()  # the requests' threads leave their connections behind: closed now, so the test database can go
