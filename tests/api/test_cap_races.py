"""Per-person caps and limits hit by simultaneous requests (issue 27, "caps under concurrency"), on PostgreSQL where
requests really run at once (threads, each with its own connection): the cap holds exactly, the requests past it
are refused with the cap's own 4xx, and nothing past the cap is stored.

The finding: six simultaneous requests to open lobby tables gave [201, 201, 201, 201, 409, 409] against a cap of
three open tables per person (the count and the insert were not serialised per person)."""

from __future__ import annotations

from collections import Counter

import pytest
from rest_framework.test import APIClient

from league.limits import MAX_RUNNING_COMPARISONS_PER_ACCOUNT
from league.models import Comparison, ComparisonStatus, LobbySeat, LobbyStatus, LobbyTable, WebhookEndpoint
from league.services.lobby import MAX_OPEN_TABLES_PER_PERSON, create_table
from league.services.webhooks import MAX_ENDPOINTS_PER_OWNER, create_endpoint
from tests.races import race, skip_unless_postgres

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = "/api/v1/lobby/tables/"


@pytest.fixture(autouse=True)
def _postgres_only():
    skip_unless_postgres()


def _post(user, url: str, body: dict | None = None):
    """A request as its own client (one per thread), answered with its status."""
    def call():
        client = APIClient()
        client.force_authenticate(user)
        return client.post(url, body or {}, format="json").status_code
    return call


def _open_seats(player) -> int:
    return LobbySeat.objects.filter(player=player, table__status=LobbyStatus.OPEN).count()


@pytest.mark.parametrize("attempt", range(3))
def test_six_simultaneous_new_tables_open_three(accounts, attempt):
    """Finding: six simultaneous "open a table" requests by one person opened four tables, not three."""
    ann = accounts["players"]["ann"]
    body = {"game": "diamonds", "seats": 4, "options": {"rounds": 1}}
    statuses = race(*[_post(ann.user, TABLES, body)] * 6)
    assert Counter(statuses) == {201: MAX_OPEN_TABLES_PER_PERSON, 409: 6 - MAX_OPEN_TABLES_PER_PERSON}, statuses
    assert _open_seats(ann) == MAX_OPEN_TABLES_PER_PERSON


@pytest.mark.parametrize("attempt", range(3))
def test_six_simultaneous_joins_seat_three(accounts, attempt):
    """Finding (the same cap, taken by joining): six simultaneous joins of six other people's tables."""
    ann = accounts["players"]["ann"]
    hosts = [accounts["players"]["bob"].user, accounts["outsider"]]
    tables = [create_table(user=hosts[i % 2], game="diamonds", seats=4) for i in range(6)]
    statuses = race(*[_post(ann.user, f"{TABLES}{t.pk}/join/") for t in tables])
    assert Counter(statuses) == {200: MAX_OPEN_TABLES_PER_PERSON, 409: 6 - MAX_OPEN_TABLES_PER_PERSON}, statuses
    assert _open_seats(ann) == MAX_OPEN_TABLES_PER_PERSON


def test_simultaneous_opens_and_joins_share_the_cap(accounts):
    """Finding: the cap counts a seat however it was taken, opening or joining, also when both happen at once."""
    ann = accounts["players"]["ann"]
    tables = [create_table(user=accounts["players"]["bob"].user, game="diamonds", seats=4) for _ in range(3)]
    body = {"game": "diamonds", "seats": 4, "options": {"rounds": 1}}
    calls = [_post(ann.user, f"{TABLES}{t.pk}/join/") for t in tables] + [_post(ann.user, TABLES, body)] * 3
    statuses = race(*calls)
    assert sum(s in (200, 201) for s in statuses) == MAX_OPEN_TABLES_PER_PERSON, statuses
    assert Counter(s for s in statuses if s not in (200, 201)) == {409: 6 - MAX_OPEN_TABLES_PER_PERSON}
    assert _open_seats(ann) == MAX_OPEN_TABLES_PER_PERSON
    assert LobbyTable.objects.filter(host=ann).count() <= 3


def test_simultaneous_webhooks_past_the_cap_make_one(accounts, settings):
    """Audit of issue 27's finding: webhooks per owner (MAX_ENDPOINTS_PER_OWNER) were counted, then created, without
    a lock: an owner one short of the cap got several more."""
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True
    ann = accounts["players"]["ann"].user
    for i in range(MAX_ENDPOINTS_PER_OWNER - 1):
        create_endpoint(owner=ann, url=f"http://127.0.0.1:9/h{i}", events=["match.finished"])
    body = {"url": "http://127.0.0.1:9/last", "events": ["match.finished"]}
    statuses = race(*[_post(ann, "/api/v1/me/webhooks/", body)] * 5)
    assert Counter(statuses) == {201: 1, 400: 4}, statuses
    assert WebhookEndpoint.objects.filter(owner=ann).count() == MAX_ENDPOINTS_PER_OWNER


def test_simultaneous_comparisons_past_the_cap_run_three(accounts, monkeypatch):
    """Audit of issue 27's finding: comparisons running per account (MAX_RUNNING_COMPARISONS_PER_ACCOUNT)."""
    # The pairs' games are not what this is about: they wait in the outbox instead of being played in the threads.
    monkeypatch.setattr("league.services.outbox.record", lambda **kw: None)
    p = accounts["players"]
    body = {"candidate": p["greedy-1"].pk, "baseline": p["random-1"].pk, "ruleset": {"players": 4, "rounds": 1},
            "elo0": 0, "elo1": 100, "max_pairs": 20}
    statuses = race(*[_post(accounts["outsider"], "/api/v1/comparisons/", body)] * 5)
    assert Counter(statuses) == {201: MAX_RUNNING_COMPARISONS_PER_ACCOUNT,
                                 403: 5 - MAX_RUNNING_COMPARISONS_PER_ACCOUNT}, statuses
    assert Comparison.objects.filter(owner=accounts["outsider"], status=ComparisonStatus.RUNNING).count() == 3


def test_simultaneous_new_tokens_for_one_bot_leave_one_that_works(accounts):
    """Audit of issue 27's finding: a bot has one token; two simultaneous "new token" requests both deleted the old
    one and both created one, and the second creation broke the one-token-per-account rule (a 500)."""
    owner = accounts["players"]["ann"].user
    made = APIClient()
    made.force_authenticate(owner)
    bot = made.post("/api/v1/players/", {"kind": "external_bot", "name": "twin-token"}, format="json").json()

    def regenerate():
        client = APIClient()
        client.force_authenticate(owner)
        answer = client.post(f"/api/v1/players/{bot['id']}/regenerate-token/")
        return answer.status_code, answer.json().get("token")

    results = race(*[regenerate] * 4)
    assert not any(isinstance(r, Exception) for r in results), results  # the test client raises what was a 500
    assert [status for status, _token in results] == [200] * 4, results
    working = [token for _status, token in results
               if APIClient(HTTP_AUTHORIZATION=f"Token {token}").get("/api/v1/me/").status_code == 200]
    assert len(working) == 1, results
