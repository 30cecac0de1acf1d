"""Refused decisions: each answers with its HTTP status (and rule id when the rules refuse it) and leaves the
stored match exactly as it was."""

from __future__ import annotations

import pytest

from league.models import Match

from .conftest import live_match, snapshot

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/api/v1/matches/{}/decisions/"


@pytest.fixture
def table(accounts):
    """Two people and two external bots; the dealer is to choose the pass count."""
    match = live_match(accounts, ["ann", "ext-1", "bob", "ext-2"])
    names = ["ann", "ext-1", "bob", "ext-2"]
    state = accounts["clients"]["anon"].get(f"/api/v1/matches/{match.pk}/state/").json()
    dealer = state["dealer"]
    assert state["pending"]["kind"] == "pass_count"
    return {"match": match, "dealer": names[dealer], "other": names[(dealer + 1) % 4], "accounts": accounts}


def post(client, match, body, **kw):
    return client.post(URL.format(match.pk), body, format="json", **kw)


def test_illegal_pass_count_is_400_naming_the_rule(table):
    match, client = table["match"], table["accounts"]["clients"][table["dealer"]]
    before = snapshot(match)
    r = post(client, match, {"move_number": 0, "decision": {"kind": "pass_count", "count": 5}})
    assert r.status_code == 400 and r.json()["rule"] == "R-PASS-1" and r.json()["code"] == "illegal"
    assert snapshot(match) == before


def test_wrong_turn_is_400_naming_the_rule(table):
    match, client = table["match"], table["accounts"]["clients"][table["other"]]
    before = snapshot(match)
    r = post(client, match, {"move_number": 0, "decision": {"kind": "pass_count", "count": 2}})
    assert r.status_code == 400 and r.json()["rule"] == "R-PASS-1"
    assert snapshot(match) == before


def test_card_not_in_hand_and_not_following_suit_name_their_rules(table):
    accounts, match = table["accounts"], table["match"]
    clients = accounts["clients"]
    post(clients[table["dealer"]], match, {"move_number": 0, "decision": {"kind": "pass_count", "count": 1}})
    for name in ("ann", "ext-1", "bob", "ext-2"):
        legal = clients[name].get(f"/api/v1/matches/{match.pk}/legal/").json()
        card = legal["pass_cards"]["from"][0]
        assert (
            post(
                clients[name],
                match,
                {"move_number": legal["move_number"], "decision": {"kind": "pass_cards", "cards": [card]}},
            ).status_code
            == 201
        )
    names = ["ann", "ext-1", "bob", "ext-2"]
    state = clients["anon"].get(f"/api/v1/matches/{match.pk}/state/").json()
    leader = names[state["pending"]["seats"][0]]
    mine = clients[leader].get(f"/api/v1/matches/{match.pk}/state/").json()
    missing = next(f"{s}{r}" for s in "DHSC" for r in range(1, 16) if f"{s}{r}" not in mine["hand"])
    before = snapshot(match)
    r = post(
        clients[leader], match, {"move_number": mine["move_number"], "decision": {"kind": "play", "card": missing}}
    )
    assert r.status_code == 400 and r.json()["rule"] == "R-DEAL-1"
    assert snapshot(match) == before
    # Lead, then find a follower holding the led suit who tries another one.
    lead = mine["legal"][0]
    assert (
        post(
            clients[leader], match, {"move_number": mine["move_number"], "decision": {"kind": "play", "card": lead}}
        ).status_code
        == 201
    )
    nxt = names[(names.index(leader) + 1) % 4]
    view = clients[nxt].get(f"/api/v1/matches/{match.pk}/state/").json()
    off = [c for c in view["hand"] if c[0] != lead[0]]
    if len(off) < len(view["hand"]) and off:  # it can follow, and holds something else
        before = snapshot(match)
        r = post(
            clients[nxt], match, {"move_number": view["move_number"], "decision": {"kind": "play", "card": off[0]}}
        )
        assert r.status_code == 400 and r.json()["rule"] == "R-FOLLOW-1"
        assert snapshot(match) == before


def test_stale_and_repeated_move_numbers_are_409(table):
    match, client = table["match"], table["accounts"]["clients"][table["dealer"]]
    before = snapshot(match)
    r = post(client, match, {"move_number": 3, "decision": {"kind": "pass_count", "count": 2}})
    assert r.status_code == 409 and r.json()["code"] == "stale_move"
    assert snapshot(match) == before
    assert post(client, match, {"move_number": 0, "decision": {"kind": "pass_count", "count": 2}}).status_code == 201
    after = snapshot(match)
    r = post(client, match, {"move_number": 0, "decision": {"kind": "pass_count", "count": 2}})
    assert r.status_code == 409
    assert snapshot(match) == after


def test_another_players_seat_and_no_seat_are_403(table):
    accounts, match = table["accounts"], table["match"]
    names = ["ann", "ext-1", "bob", "ext-2"]
    dealer_seat = names.index(table["dealer"])
    intruder = "bob" if table["dealer"] != "bob" else "ann"
    before = snapshot(match)
    r = post(
        accounts["clients"][intruder],
        match,
        {"move_number": 0, "seat": dealer_seat, "decision": {"kind": "pass_count", "count": 2}},
    )
    assert r.status_code == 403
    r = post(accounts["clients"]["outsider"], match, {"move_number": 0, "decision": {"kind": "pass_count", "count": 2}})
    assert r.status_code == 403
    r = accounts["clients"]["outsider"].get(f"/api/v1/matches/{match.pk}/legal/")
    assert r.status_code == 403
    r = accounts["clients"][intruder].get(f"/api/v1/matches/{match.pk}/state/?seat={dealer_seat}")
    assert r.status_code == 403
    r = post(accounts["clients"]["anon"], match, {"move_number": 0, "decision": {"kind": "pass_count", "count": 2}})
    assert r.status_code in (401, 403)
    assert snapshot(match) == before


@pytest.mark.parametrize(
    "body",
    [
        '{"move_number": 0, "decision": ',  # not JSON
        "[1, 2]",
        '{"decision": {"kind": "pass_count", "count": 2}}',
        '{"move_number": 0}',
        '{"move_number": "zero", "decision": {"kind": "pass_count", "count": 2}}',
        '{"move_number": 0, "decision": {"kind": "dance"}}',
        '{"move_number": 0, "decision": {"kind": "play", "card": "X99"}}',
        '{"move_number": 0, "decision": "play H7"}',
        '{"move_number": 0, "seat": "first", "decision": {"kind": "pass_count", "count": 2}}',
    ],
)
def test_malformed_requests_are_400(table, body):
    match, client = table["match"], table["accounts"]["clients"][table["dealer"]]
    before = snapshot(match)
    r = client.post(URL.format(match.pk), body, content_type="application/json")
    assert r.status_code == 400, r.content
    assert snapshot(match) == before


def test_unknown_ids_are_404(accounts):
    client = accounts["clients"]["ann"]
    for url in (
        "/api/v1/matches/999999/",
        "/api/v1/matches/999999/state/",
        "/api/v1/matches/999999/legal/",
        "/api/v1/matches/999999/tricks/",
        "/api/v1/matches/999999/record/",
        "/api/v1/clubs/999999/",
        "/api/v1/players/999999/",
        "/api/v1/tournaments/999999/",
        "/api/v1/tournaments/999999/standings/",
        "/api/v1/ratings/999999/",
    ):
        assert client.get(url).status_code == 404, url
    r = client.post(
        URL.format(999999), {"move_number": 0, "decision": {"kind": "pass_count", "count": 2}}, format="json"
    )
    assert r.status_code == 404


def test_a_finished_match_takes_no_decision(accounts):
    from .support import play_out

    match = live_match(accounts, ["ann", "greedy-1"], {"players": 2})
    play_out([accounts["clients"]["ann"]], match.pk)
    match = Match.objects.get(pk=match.pk)
    before = snapshot(match)
    r = post(
        accounts["clients"]["ann"],
        match,
        {"move_number": match.move_number, "decision": {"kind": "play", "card": "H7"}},
    )
    assert r.status_code == 409 and r.json()["code"] == "not_in_play"
    assert snapshot(match) == before


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/matches/99999999999999999999999/",
        "/api/v1/matches/99999999999999999999999/state/",
        "/api/v1/matches/?club=99999999999999999999999",
        "/api/v1/ratings/?player=-5",
        "/api/v1/matches/1/state/?seat=99999999999999999999999",
    ],
)
def test_out_of_range_ids_are_client_errors(accounts, url):
    assert accounts["clients"]["ann"].get(url).status_code in (400, 403, 404)
