"""Decisions racing each other on PostgreSQL: the match row lock lets exactly one of two identical decisions through
(the other is stale), and passes made at the same moment (with a worker advancing the match) are all stored."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from league.models import Match
from league.services.decisions import DecisionRefused, StaleMove, advance_match, submit_decision
from tests.races import race, skip_unless_postgres

from .conftest import live_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    skip_unless_postgres()


def test_two_identical_decisions_at_once_store_one(accounts):
    match = live_match(accounts, ["ann", "bob"], {"players": 2})
    dealer = match.match_seats.get(awaiting=True).player
    decide = lambda: submit_decision(match=match, player=dealer, move_number=0,  # noqa: E731
                                     decision_json={"kind": "pass_count", "count": 2})
    results = race(decide, decide, decide)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, StaleMove) for r in results if isinstance(r, Exception))
    assert Match.objects.get(pk=match.pk).move_number == 1


def test_two_people_pass_at_the_same_moment_as_a_worker_advances(accounts):
    match = live_match(accounts, ["ann", "greedy-1", "bob", "random-1"], seed="race")
    from league.selectors.live import legal_decisions, match_game

    game = match_game(match)
    if game.pending.kind == "pass_count":  # a person deals: choose, and race the passes that follow
        seat = game.pending.seats[0]
        submit_decision(match=match, player=match.match_seats.get(seat=seat).player, move_number=game.move_number,
                        decision_json={"kind": "pass_count", "count": 2})
        game = match_game(match)

    def pass_for(name):
        ms = match.match_seats.get(player=accounts["players"][name])
        legal = legal_decisions(game, ms.seat)
        cards = legal["pass_cards"]["from"][: legal["pass_cards"]["count"]]
        return lambda: submit_decision(match=match, player=ms.player, move_number=legal["move_number"],
                                       decision_json={"kind": "pass_cards", "cards": cards})

    results = race(pass_for("ann"), pass_for("bob"), lambda: advance_match(match_id=match.pk))
    assert not any(isinstance(r, DecisionRefused | Exception) for r in results), results
    advance_match(match_id=match.pk)
    rnd = match_game(Match.objects.get(pk=match.pk)).rounds[0]
    assert rnd.passes is not None and all(p is not None for p in rnd.passes)  # the exchange happened
    assert match_game(Match.objects.get(pk=match.pk)).pending.kind in ("play", "clubs_target")


def test_a_waiting_long_poll_is_woken_through_redis(accounts, settings, monkeypatch):
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL not set: the long-poll re-reads the database instead (tests/api/test_play.py)")
    from league import turn_signals

    from ..workers.conftest import wait_for

    # Re-reading the database would come only after the wait is over: a turn found in time came through Redis.
    settings.DIAMONDS_TURNS_POLL_SECONDS = settings.DIAMONDS_TURNS_RECHECK_SECONDS = 120
    # As if the decision came from another process: announced on Redis only, not to this process's waiters.
    monkeypatch.setattr(turn_signals, "_announce", turn_signals._publish)
    match = live_match(accounts, ["ann", "bob"], {"players": 2})
    dealer = match.match_seats.get(awaiting=True)
    other = match.match_seats.exclude(pk=dealer.pk).get()
    client = accounts["clients"][other.player.name]
    answer = {}

    def wait():
        try:
            answer.update(client.get("/api/v1/me/turns/?wait=60").json())
        finally:
            connections.close_all()  # the thread's own connection: the test database must be free to drop

    waiter = threading.Thread(target=wait)
    waiter.start()
    wait_for(lambda: turn_signals.listener_ready() and turn_signals.waiting_here(other.player.user_id) > 0,
             timeout=30, what="the long-poll to listen")
    submit_decision(match=match, player=dealer.player, move_number=0, decision_json={"kind": "pass_count", "count": 1})
    waiter.join(timeout=90)
    assert [t["match"] for t in answer["turns"]] == [match.pk] and answer["waited"] < 60
