"""Limits and control through the API: every ruleset field of every game is bounded (400 naming the field and the
bound, nothing created), so are the integers beside a ruleset (turn deadlines, tournament rounds, a ladder's tables
per tick); and an organiser (or staff) cancels a match or a tournament, others get 403, anonymous callers 401/403."""

from __future__ import annotations

import pytest

from engine.diamonds.ruleset import MAX_ROUNDS
from engine.diamoniak.rules import TURN_LIMIT_BOUND
from league.limits import MAX_TOURNAMENT_ROUNDS, MAX_TURN_DEADLINE_SECONDS
from league.models import Ladder, Match, MatchStatus, RoundStatus, Tournament, TournamentStatus
from league.services.registration import register_players
from league.services.rounds import seat_round

from .conftest import live_match, snapshot

pytestmark = pytest.mark.django_db

MATCHES, TOURNAMENTS, LADDERS = "/api/v1/matches/", "/api/v1/tournaments/", "/api/v1/ladders/"


def bots(accounts, n: int) -> list[int]:
    from league.services import create_bot_player

    return [create_bot_player(name=f"limit-bot-{i}", kind="random", clubs=[accounts["club"]]).pk for i in range(n)]


def counts() -> tuple[int, int, int]:
    return Match.objects.count(), Tournament.objects.count(), Ladder.objects.count()


# (game, players, ruleset fields, what the 400 must name) -- every field of every game, over its bound or mistyped
OUT_OF_BOUNDS = [
    ("diamonds", 4, {"rounds": 1000000}, ["rounds", f"from 1 to {MAX_ROUNDS}"]),
    ("diamonds", 4, {"rounds": 10**9}, ["rounds", f"from 1 to {MAX_ROUNDS}"]),
    ("diamonds", 4, {"rounds": 10**30}, ["rounds", f"from 1 to {MAX_ROUNDS}"]),
    ("diamonds", 4, {"rounds": "3"}, ["rounds", f"from 1 to {MAX_ROUNDS}"]),
    ("diamonds", 4, {"hand_size": 10**6}, ["hand_size", "from 1 to"]),
    ("diamonds", 4, {"hand_size": 16}, ["do not fit"]),
    ("diamonds", 4, {"deck_ranks": 99}, ["deck_ranks", "from 1 to 15"]),
    ("diamonds", 4, {"deck_ranks": [15]}, ["deck_ranks"]),
    ("diamonds", 4, {"partnerships": "yes"}, ["partnerships", "true or false"]),
    ("diamonds", 4, {"perfect": 1}, ["perfect", "true or false"]),
    ("diamonds", 4, {"clubs": {"x": 1}}, ["clubs", "'thief'"]),
    ("diamonds", 4, {"turns": 5}, ["unknown ruleset fields", "turns"]),
    ("diamoniak", 3, {"max_turns": 10**9}, ["max_turns", f"from 1 to {TURN_LIMIT_BOUND}"]),
    ("diamoniak", 3, {"max_turns": 0}, ["max_turns", f"from 1 to {TURN_LIMIT_BOUND}"]),
    ("diamoniak", 3, {"max_turns": 2.5}, ["max_turns"]),
    ("diamoniak", 3, {"rounds": 3}, ["unknown ruleset fields", "rounds"]),
    ("ringrace", 3, {"debts": "no"}, ["debts", "true or false"]),
    ("ringrace", 3, {"max_turns": 10}, ["unknown ruleset fields", "max_turns"]),
]


@pytest.mark.parametrize("game, players, ruleset, named", OUT_OF_BOUNDS)
def test_a_match_with_a_ruleset_out_of_bounds_is_a_400_naming_the_field_and_creates_nothing(
        accounts, game, players, ruleset, named):
    before = counts()
    response = accounts["clients"]["organiser"].post(MATCHES, {
        "players": bots(accounts, players), "game": game, "ruleset": ruleset, "club": accounts["club"].pk,
    }, format="json")
    assert response.status_code == 400, response.content
    message = str(response.json()["errors"]["ruleset"])
    assert all(part in message for part in named), message
    assert counts() == before


@pytest.mark.parametrize("game, players, ruleset, named", OUT_OF_BOUNDS)
def test_a_tournament_or_ladder_with_a_ruleset_out_of_bounds_is_a_400_and_creates_nothing(
        accounts, game, players, ruleset, named):
    before = counts()
    client = accounts["clients"]["organiser"]
    body = {"name": "bounded", "game": game, "ruleset": ruleset, "table_size": players, "club": accounts["club"].pk}
    for url, extra in ((TOURNAMENTS, {"rounds": 2}), (LADDERS, {})):
        response = client.post(url, {**body, **extra}, format="json")
        assert response.status_code == 400, (url, response.content)
        assert all(part in str(response.json()) for part in named), response.json()
    assert counts() == before


@pytest.mark.parametrize("ruleset", [[1, 2], "rounds=3", 7])
def test_a_competition_ruleset_that_is_not_an_object_is_a_400(accounts, ruleset):
    before = counts()
    client = accounts["clients"]["organiser"]
    for url, extra in ((TOURNAMENTS, {"rounds": 2}), (LADDERS, {})):
        response = client.post(url, {"name": "odd", "ruleset": ruleset, "club": accounts["club"].pk, **extra},
                               format="json")
        assert response.status_code == 400, (url, response.content)
        assert "ruleset" in str(response.json())
    assert counts() == before


@pytest.mark.parametrize("seconds", [MAX_TURN_DEADLINE_SECONDS + 1, 10**12, 10**30, 0])
def test_turn_deadlines_are_bounded_everywhere_they_are_set(accounts, seconds):
    client = accounts["clients"]["organiser"]
    before = counts()
    created = client.post(MATCHES, {"players": bots(accounts, 4), "turn_deadline_seconds": seconds,
                                    "club": accounts["club"].pk}, format="json")
    assert created.status_code == 400 and "turn_deadline_seconds" in created.json()["errors"]
    tournament = client.post(TOURNAMENTS, {"name": "slow", "rounds": 2, "turn_deadline_seconds": seconds,
                                           "club": accounts["club"].pk}, format="json")
    assert tournament.status_code == 400 and "turn_deadline_seconds" in tournament.json()["errors"]
    assert counts() == before
    match = live_match(accounts, ["ann", "greedy-1", "random-1", "bob"])
    kept = snapshot(match)
    response = client.post(f"{MATCHES}{match.pk}/deadline/", {"turn_deadline_seconds": seconds}, format="json")
    assert response.status_code == 400 and "turn_deadline_seconds" in response.json()["errors"]
    assert snapshot(match) == kept
    ok = client.post(f"{MATCHES}{match.pk}/deadline/", {"turn_deadline_seconds": MAX_TURN_DEADLINE_SECONDS},
                     format="json")
    assert ok.status_code == 200 and ok.json()["turn_deadline_seconds"] == MAX_TURN_DEADLINE_SECONDS


@pytest.mark.parametrize("rounds", [MAX_TOURNAMENT_ROUNDS + 1, 32767, 10**9, 0])
def test_a_tournament_s_rounds_are_bounded(accounts, rounds):
    response = accounts["clients"]["organiser"].post(TOURNAMENTS, {"name": "long", "rounds": rounds,
                                                                   "club": accounts["club"].pk}, format="json")
    assert response.status_code == 400, response.content
    assert Tournament.objects.count() == 0


@pytest.mark.parametrize("tables", [0, 10**6, 10**12])
def test_a_ladder_s_tables_per_tick_are_bounded(accounts, tables):
    client = accounts["clients"]["organiser"]
    response = client.post(LADDERS, {"name": "big", "club": accounts["club"].pk, "max_tables_per_tick": tables},
                           format="json")
    assert response.status_code == 400 and Ladder.objects.count() == 0
    ladder = client.post(LADDERS, {"name": "small", "club": accounts["club"].pk}, format="json").json()
    changed = client.patch(f"{LADDERS}{ladder['id']}/", {"max_tables_per_tick": tables}, format="json")
    assert changed.status_code == 400 and "max_tables_per_tick" in str(changed.json())
    assert Ladder.objects.get(pk=ladder["id"]).max_tables_per_tick == 50


# ---- cancelling -----------------------------------------------------------------------------------------------


def test_an_organiser_cancels_a_live_match_and_its_decisions_are_refused(accounts):
    match = live_match(accounts, ["ann", "greedy-1", "random-1", "bob"])
    response = accounts["clients"]["organiser"].post(f"{MATCHES}{match.pk}/cancel/", {"reason": "table closed"},
                                                     format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "cancelled" and body["error"] == "cancelled by olga: table closed"
    assert not any(seat["awaiting"] for seat in body["seat_players"])
    legal = accounts["clients"]["ann"].get(f"{MATCHES}{match.pk}/legal/")
    assert legal.status_code == 200 and legal.json()["my_turn"] is False and legal.json()["decisions"] == []
    decision = accounts["clients"]["ann"].post(f"{MATCHES}{match.pk}/decisions/", {
        "move_number": match.move_number, "decision": {"kind": "pass_count", "count": 1}}, format="json")
    assert decision.status_code == 409 and decision.json()["code"] == "not_in_play", (legal.content, decision.content)
    again = accounts["clients"]["staff"].post(f"{MATCHES}{match.pk}/cancel/", format="json")
    assert again.status_code == 200 and again.json()["error"] == "cancelled by olga: table closed"


@pytest.mark.parametrize("who, codes", [("outsider", {403}), ("ann", {403}), ("ext-1", {403}), ("anon", {401, 403})])
def test_only_organisers_and_staff_may_cancel_a_match(accounts, who, codes):
    match = live_match(accounts, ["ann", "greedy-1", "random-1", "bob"])
    kept = snapshot(match)
    response = accounts["clients"][who].post(f"{MATCHES}{match.pk}/cancel/", format="json")
    assert response.status_code in codes
    assert snapshot(match) == kept


def test_a_finished_match_cannot_be_cancelled_409(accounts):
    from league.services import create_match, play_bot_match

    match = create_match(players=[accounts["players"]["greedy-1"], accounts["players"]["random-1"]],
                         ruleset={"players": 2, "rounds": 1}, club=accounts["club"], seed="api-cancel-done")
    assert play_bot_match(match_id=match.pk).status == "finished"
    response = accounts["clients"]["organiser"].post(f"{MATCHES}{match.pk}/cancel/", format="json")
    assert response.status_code == 409 and "finished" in response.json()["detail"]
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED


@pytest.mark.parametrize("body", [{"reason": "x" * 501}, {"reason": ["a"]}, [1]])
def test_a_bad_cancel_request_is_a_400_and_cancels_nothing(accounts, body):
    match = live_match(accounts, ["ann", "greedy-1", "random-1", "bob"])
    kept = snapshot(match)
    response = accounts["clients"]["organiser"].post(f"{MATCHES}{match.pk}/cancel/", body, format="json")
    assert response.status_code == 400
    assert snapshot(match) == kept


def test_an_organiser_cancels_a_tournament_and_others_may_not(accounts):
    client = accounts["clients"]["organiser"]
    t = client.post(TOURNAMENTS, {"name": "cancel me", "rounds": 2, "club": accounts["club"].pk},
                    format="json").json()
    tournament = Tournament.objects.get(pk=t["id"])
    register_players(tournament=tournament, players=[accounts["players"][n] for n in ("ann", "bob", "ext-1",
                                                                                       "ext-2")])
    rnd = seat_round(tournament=tournament)
    for who, codes in (("outsider", {403}), ("ann", {403}), ("anon", {401, 403})):
        assert accounts["clients"][who].post(f"{TOURNAMENTS}{t['id']}/cancel/").status_code in codes
    assert Tournament.objects.get(pk=t["id"]).status == TournamentStatus.REGISTERING
    response = client.post(f"{TOURNAMENTS}{t['id']}/cancel/", {"reason": "rain"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert set(rnd.matches.values_list("status", flat=True)) == {MatchStatus.CANCELLED}
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED
    nxt = client.post(f"{TOURNAMENTS}{t['id']}/start-round/")
    assert nxt.status_code == 409 and "cancelled" in nxt.json()["detail"]
    assert accounts["clients"]["staff"].post(f"{TOURNAMENTS}{t['id']}/cancel/").status_code == 200


@pytest.mark.parametrize("bot_settings", [{"playouts": 10**9}, {"seconds": 3600}, {"thinking": "hard"},
                                          {"playouts": "x"}])
def test_an_engine_bot_with_settings_out_of_bounds_is_a_400_and_creates_nothing(accounts, bot_settings):
    """A search bot told to think for ever would hold a worker through a cancel: its settings are bounded."""
    from league.models import Player

    before = Player.objects.count()
    response = accounts["clients"]["organiser"].post("/api/v1/players/", {
        "kind": "engine_bot", "name": "deep-thought", "bot_kind": "search", "bot_settings": bot_settings,
        "club": accounts["club"].pk}, format="json")
    assert response.status_code == 400 and "settings" in str(response.json()), response.content
    assert Player.objects.count() == before
