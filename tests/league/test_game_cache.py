"""league.selectors.games.GAME_CACHE: a decision may start from the process's cached game instead of replaying the
match, so the cached game must be exactly the stored one, refusals must still change nothing, and a step that is
rolled back must never be cached.

Tests run inside a transaction whose commit never comes, so they run the on-commit callbacks (which fill the
cache) with django_capture_on_commit_callbacks(execute=True)."""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from engine import SeatView
from league.models import Match
from league.selectors.games import GAME_CACHE, _rebuild, load_match_game
from league.selectors.live import legal_decisions, match_game
from league.services import create_match
from league.services.decisions import IllegalMove, NotYourSeat, StaleMove, advance_match, submit_decision
from league.services.players import create_external_bot

from .matches_support import stored_play

pytestmark = pytest.mark.django_db


def stored(match_id: int):
    """The move number and everything stored of the match's play."""
    return Match.objects.get(pk=match_id).move_number, stored_play(match_id)


def same_game(a, b) -> bool:
    return a.move_number == b.move_number and all(
        SeatView(a, s).to_dict() == SeatView(b, s).to_dict() for s in range(a.n))


def a_decision(game, seat: int, rng: random.Random) -> dict:
    legal = legal_decisions(game, seat)
    if legal["pass_cards"]:
        return {"kind": "pass_cards", "cards": rng.sample(legal["pass_cards"]["from"], legal["pass_cards"]["count"])}
    return rng.choice(legal["decisions"])


@pytest.fixture
def live(django_capture_on_commit_callbacks):
    players = [create_external_bot(name=f"ext{i}") for i in range(4)]
    match = create_match(players=players, ruleset={"players": 4}, seed="cache", first_dealer=0)
    advance_match(match_id=match.pk)

    def decide(seat: int, move_number: int, decision: dict, player=None):
        with django_capture_on_commit_callbacks(execute=True):
            return submit_decision(match=match, player=player or players[seat], move_number=move_number,
                                   decision_json=decision, seat=seat)

    return match, players, decide


def test_the_cached_game_is_the_stored_game_all_the_way(live):
    match, _, decide = live
    rng = random.Random(5)
    hits = 0
    while True:
        row = Match.objects.get(pk=match.pk)
        rebuilt, marks = _rebuild(row)
        cached = GAME_CACHE.get(row)
        if cached is not None:
            hits += 1
            assert same_game(cached[0], rebuilt) and cached[1] == marks
        if rebuilt.over:
            break
        seat = rebuilt.pending.seats[0]
        decide(seat, rebuilt.move_number, a_decision(rebuilt, seat, rng))
    assert hits > 100  # every state after the first stored decision came from the cache


def test_refusals_from_a_cached_game_change_nothing(live):
    match, players, decide = live
    rng = random.Random(6)
    for _ in range(6):
        game = match_game(Match.objects.get(pk=match.pk))
        decide(game.pending.seats[0], game.move_number, a_decision(game, game.pending.seats[0], rng))
    row = Match.objects.get(pk=match.pk)
    assert GAME_CACHE.get(row) is not None
    before = stored(match.pk)
    game = match_game(row)
    seat = game.pending.seats[0]
    other = (seat + 1) % 4
    with pytest.raises(StaleMove):
        decide(seat, game.move_number - 1, a_decision(game, seat, rng))
    with pytest.raises(NotYourSeat):
        decide(seat, game.move_number, a_decision(game, seat, rng), player=players[other])
    with pytest.raises(IllegalMove):
        decide(other, game.move_number, {"kind": "pass_count", "count": 0})
    assert stored(match.pk) == before
    cached, _ = load_match_game(Match.objects.get(pk=match.pk), cached=True)
    assert same_game(cached, _rebuild(Match.objects.get(pk=match.pk))[0])
    outcome = decide(seat, game.move_number, a_decision(game, seat, rng))
    assert outcome.move_number == game.move_number + 1
    with pytest.raises(StaleMove):  # the same move number again: the cached game moved on with the stored one
        decide(seat, game.move_number, a_decision(game, seat, rng))


def test_a_rolled_back_step_is_not_cached(live, django_capture_on_commit_callbacks):
    match, players, decide = live
    rng = random.Random(7)
    game = match_game(Match.objects.get(pk=match.pk))
    seat = game.pending.seats[0]
    decide(seat, game.move_number, a_decision(game, seat, rng))  # running now, so its games are cached
    game = match_game(Match.objects.get(pk=match.pk))
    seat = game.pending.seats[0]
    # The capture is outside the rolled-back block, as a real commit would be: what the block registered is gone.
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        submit_decision(match=match, player=players[seat], move_number=game.move_number,
                        decision_json=a_decision(game, seat, rng), seat=seat)
        raise RuntimeError("roll the step back")
    row = Match.objects.get(pk=match.pk)
    assert row.move_number == game.move_number
    row.move_number += 1  # where the rolled-back step would have left the match
    assert GAME_CACHE.get(row) is None
    outcome = decide(seat, game.move_number, a_decision(game, seat, rng))
    assert outcome.move_number == game.move_number + 1


def test_a_match_row_read_earlier_still_gets_the_game_stored_now(live):
    match, _, decide = live
    rng = random.Random(8)
    for _ in range(3):
        game = match_game(Match.objects.get(pk=match.pk))
        decide(game.pending.seats[0], game.move_number, a_decision(game, game.pending.seats[0], rng))
    old_row = Match.objects.get(pk=match.pk)
    game = match_game(old_row)  # cached at this move now
    decide(game.pending.seats[0], game.move_number, a_decision(game, game.pending.seats[0], rng))
    now = match_game(old_row)  # the old row's move number names the cached game before the decision
    assert now.move_number == game.move_number + 1
    assert same_game(now, _rebuild(Match.objects.get(pk=match.pk))[0])
    assert old_row.move_number == game.move_number  # the caller's object is left as it was
