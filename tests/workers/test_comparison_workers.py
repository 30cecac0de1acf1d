"""A comparison played to its decision by real `celery -A workers worker` processes on PostgreSQL and Redis: the
outbox sends its matches to the comparisons queue, the worker that ends a pair's second game records the pair and
sends the next one. The embedded equivalent is tests/league/test_comparisons.py; the routing is checked here in
both modes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import ComparisonStatus, Match, MatchStatus, PairStatus, Rating
from league.services.comparisons import create_comparison
from league.services.matches import create_bot_player, create_match
from workers.outbox import queue_of

from .conftest import wait_for


@pytest.mark.django_db
def test_comparison_matches_go_to_the_comparisons_queue_and_others_to_play(settings):
    settings.DIAMONDS_COMPARISON_QUEUE, settings.DIAMONDS_PLAY_QUEUE = "cmp-q", "play-q"
    user = get_user_model().objects.create_user("alice")
    greedy = create_bot_player(name="g", kind="greedy")
    rnd = create_bot_player(name="r", kind="random")
    comparison = create_comparison(user=user, candidate=greedy, baseline=rnd, ruleset={"players": 4, "rounds": 1})
    pair = comparison.pair_set.get()
    assert queue_of(pair.candidate_match_id) == queue_of(pair.baseline_match_id) == "cmp-q"
    others = [create_bot_player(name=f"o{i}", kind="random") for i in range(2)]
    assert queue_of(create_match(players=[greedy, rnd, *others], ruleset=4).pk) == "play-q"


@pytest.mark.workers
@pytest.mark.django_db(transaction=True)
def test_workers_play_a_comparison_to_its_decision(worker_pool, settings, monkeypatch):
    queue = worker_pool.queue
    # This run's own queue for both kinds of match, so that other runs sharing Redis never take our games.
    settings.DIAMONDS_PLAY_QUEUE = settings.DIAMONDS_COMPARISON_QUEUE = queue
    worker_pool.start("cmp1", DIAMONDS_PLAY_QUEUE=queue, DIAMONDS_COMPARISON_QUEUE=queue)
    worker_pool.start("cmp2", DIAMONDS_PLAY_QUEUE=queue, DIAMONDS_COMPARISON_QUEUE=queue)
    # A fixed salt (stored on the comparison, so the workers deal from it too): the same course on every run.
    monkeypatch.setattr("league.services.comparisons.new_seed", lambda: "0123456789abcdef0123456789abcdef")
    user = get_user_model().objects.create_user("alice")
    greedy = create_bot_player(name="greedy-w", kind="greedy")
    rnd = create_bot_player(name="random-w", kind="random")
    # Whole games: in one round greedy hardly beats random (the deal's luck dominates); over a game it does.
    comparison = create_comparison(user=user, candidate=greedy, baseline=rnd, ruleset={"players": 4},
                                   elo0=0, elo1=100, max_pairs=60)

    def decided():
        comparison.refresh_from_db()
        return comparison.status != ComparisonStatus.RUNNING

    wait_for(decided, timeout=180, what="the comparison to be decided", interval=0.2)
    assert comparison.status == ComparisonStatus.DECIDED and comparison.decision == "H1"
    pairs = list(comparison.pair_set.order_by("index"))
    assert [p.index for p in pairs] == list(range(len(pairs))) and comparison.pairs == len(pairs)
    assert all(p.status == PairStatus.DONE for p in pairs)  # each recorded exactly once, none left behind
    assert not Match.objects.exclude(status=MatchStatus.FINISHED).exists()
    assert not Rating.objects.exists()
