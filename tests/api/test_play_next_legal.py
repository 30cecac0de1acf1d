"""The decision POST's answer carries the caller's next `legal` (what GET legal/ would answer for the first of its
seats the match awaits), so a bot saves a round trip per decision; never another account's seat (its hand). The
turns long-poll with ?legal=1 carries each awaited seat's legal decisions the same way."""

from __future__ import annotations

import random

import pytest

from api.tokens import issue_token
from league.models import Player
from league.models.player import EXTERNAL_BOT
from league.services import create_match
from league.services.decisions import advance_match
from league.services.players import create_external_bot

from .conftest import client_for
from .support import choose

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = [("diamonds", 4), ("diamoniak", 3), ("ringrace", 4)]
# Diamoniak's random games run to the turn limit (K-WIN-1, 200 turns): a lower limit ends them in a few seconds, with
# every kind of decision played on the way.
SHORTER = {"diamoniak": {"max_turns": 40}}


def ruleset_of(game: str, players: int) -> dict:
    return {"players": players, **SHORTER.get(game, {})}


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_answer_s_legal_is_what_a_following_legal_read_answers(game, players):
    # One account holding every seat: the match always awaits one of its seats, so every answer carries `legal`.
    first = create_external_bot(name=f"holder-{game}")
    seats = [first] + [Player.objects.create(name=f"holder-{game}-{i}", user=first.user, bot_kind=EXTERNAL_BOT)
                       for i in range(1, players)]
    client = client_for(token=issue_token(first.user))
    match = create_match(players=seats, ruleset=ruleset_of(game, players), seed=f"next-legal/{game}", game=game)
    advance_match(match_id=match.pk)
    rng = random.Random(5)
    legal = client.get(f"/api/v1/matches/{match.pk}/legal/").json()
    made = 0
    for _ in range(3000):
        assert legal["my_turn"]
        response = client.post(f"/api/v1/matches/{match.pk}/decisions/",
                               {"move_number": legal["move_number"], "decision": choose(legal, rng),
                                "seat": legal["seat"]}, format="json")
        assert response.status_code == 201, response.content
        made += 1
        body = response.json()
        if body["over"]:
            assert body["legal"] is None
            break
        read = client.get(f"/api/v1/matches/{match.pk}/legal/").json()
        assert body["legal"] == read
        assert client.get(f"/api/v1/matches/{match.pk}/legal/?seat={read['seat']}").json() == read
        legal = body["legal"]
    else:
        raise AssertionError("the match did not end")
    assert made > 10


def match_of_one_account_per_seat(game: str, players: int, name: str):
    """A live match of `game` whose seats are external bots of an account each; their API clients in seat order."""
    bots = [create_external_bot(name=f"{name}-{game}-{i}") for i in range(players)]
    clients = [client_for(token=issue_token(b.user)) for b in bots]
    match = create_match(players=bots, ruleset=ruleset_of(game, players), seed=f"{name}/{game}", game=game)
    advance_match(match_id=match.pk)
    return match, clients


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_the_answer_never_carries_another_account_s_seat(game, players):
    match, clients = match_of_one_account_per_seat(game, players, "apart")
    rng = random.Random(9)
    carried = 0
    for _ in range(3000):
        legals = [c.get(f"/api/v1/matches/{match.pk}/legal/").json() for c in clients]
        mine = [s for s, legal in enumerate(legals) if legal["my_turn"]]
        if not mine:
            break
        seat = mine[0]
        response = clients[seat].post(f"/api/v1/matches/{match.pk}/decisions/",
                                      {"move_number": legals[seat]["move_number"],
                                       "decision": choose(legals[seat], rng)}, format="json")
        assert response.status_code == 201, response.content
        body = response.json()
        if body["legal"] is None:
            # None of the caller's seats is awaited now.
            assert not clients[seat].get(f"/api/v1/matches/{match.pk}/legal/").json()["my_turn"]
        else:
            carried += 1
            assert body["legal"]["seat"] == seat  # the caller's one seat, never the next player's
            assert body["legal"] == clients[seat].get(f"/api/v1/matches/{match.pk}/legal/").json()
    else:
        raise AssertionError("the match did not end")


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_turns_with_legal_carry_each_awaited_seat_s_legal_decisions_so_a_bot_needs_no_legal_read(game, players):
    # An account per seat, each deciding only from what the long-poll answered it: the match is played to its end.
    match, clients = match_of_one_account_per_seat(game, players, "polled")
    rng = random.Random(3)
    plain = [t for c in clients for t in c.get("/api/v1/me/turns/?wait=0").json()["turns"]]
    assert plain and all(t["legal"] is None for t in plain)  # only asked for
    made = 0
    for _ in range(3000):
        answers = [c.get("/api/v1/me/turns/?wait=0&legal=1").json()["turns"] for c in clients]
        awaited = [(s, turns[0]) for s, turns in enumerate(answers) if turns]
        if not awaited:
            break
        for seat, turn in awaited:
            assert turn["seat"] == seat and turn["legal"]["seat"] == seat and turn["legal"]["my_turn"]
            assert turn["legal"]["move_number"] == turn["move_number"]
            assert turn["legal"] == clients[seat].get(f"/api/v1/matches/{match.pk}/legal/").json()
        seat, turn = awaited[0]
        response = clients[seat].post(f"/api/v1/matches/{match.pk}/decisions/",
                                      {"move_number": turn["legal"]["move_number"],
                                       "decision": choose(turn["legal"], rng)}, format="json")
        assert response.status_code == 201, response.content
        made += 1
    else:
        raise AssertionError("the match did not end")
    match.refresh_from_db()
    assert match.status == "finished" and made > 10
    assert clients[0].get("/api/v1/me/turns/?wait=0&legal=yes").status_code == 400
