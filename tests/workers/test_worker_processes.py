"""With real `celery -A workers worker` processes on PostgreSQL and Redis: a match survives a SIGKILLed worker
and is finished exactly once, and two workers given the same match never both play it."""

from __future__ import annotations

import os
import signal

import pytest
from celery.result import AsyncResult

from league.models import Match, MatchStatus, Player
from league.selectors import match_record
from league.services import create_bot_player, create_match
from workers.tasks import run_match, run_matches

from ..league.matches_support import reference_record, stored_tricks
from .conftest import wait_for

pytestmark = [pytest.mark.workers, pytest.mark.django_db(transaction=True)]

# Long enough that a worker is still playing it when the test acts: the longest game a ruleset allows (6 players, 20
# rounds, R-ROUNDS-1's bound: 200 tricks), played by the greedy bot, which thinks over every card (a few seconds).
LONG = {"players": 6, "rounds": 20}
TRICKS = 20 * 10


def long_match(seed: str) -> Match:
    players = [Player.objects.filter(name=f"slow-{i}").first() or create_bot_player(name=f"slow-{i}", kind="greedy")
               for i in range(6)]
    return create_match(players=players, ruleset=LONG, seed=seed)


# Workers here checkpoint after every trick (a long match of slow bots checkpoints every couple of seconds), so
# the tests can act at a known point of stored play.
EVERY_TRICK = {"DIAMONDS_BOT_CHECKPOINT_SECONDS": "0"}


def _tricks(match: Match) -> int:
    return stored_tricks(match.pk)


def test_a_match_whose_worker_is_killed_is_finished_once_by_another(worker_pool):
    match = long_match(seed="killed-worker")
    expected = TRICKS
    # A short visibility timeout, so the surviving worker takes over the killed one's task quickly.
    first = worker_pool.start("doomed", CELERY_VISIBILITY_TIMEOUT="2", **EVERY_TRICK)
    task = run_match.apply_async((match.pk,), queue=worker_pool.queue)
    wait_for(lambda: _tricks(match) >= 40, timeout=60, what="the first worker to store 40 tricks")
    worker_pool.kill(first)
    stored = _tricks(match)
    assert stored < expected
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING

    worker_pool.start("successor", CELERY_VISIBILITY_TIMEOUT="2", **EVERY_TRICK)
    outcome = AsyncResult(task.id).get(timeout=120)
    assert outcome["status"] == "finished"
    assert outcome["worker"].startswith("successor@")
    assert outcome["tricks_written"] == expected - stored
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert _tricks(match) == expected
    assert match_record(match) == reference_record(match)


def test_two_workers_given_the_same_match_do_not_both_play_it(worker_pool):
    match = long_match(seed="two-workers")
    worker_pool.start("one", **EVERY_TRICK)
    worker_pool.start("two", **EVERY_TRICK)
    first = run_match.apply_async((match.pk,), queue=worker_pool.queue)
    wait_for(lambda: _tricks(match) > 0, timeout=60, what="a worker to start the match")
    second = run_match.apply_async((match.pk,), queue=worker_pool.queue)
    outcomes = [first.get(timeout=120), second.get(timeout=120)]
    played = [o for o in outcomes if o["tricks_written"]]
    assert len(played) == 1 and played[0]["status"] == "finished"
    other = next(o for o in outcomes if o is not played[0])
    assert other["status"] in ("busy", "already_finished")
    assert other["worker"] != played[0]["worker"]
    assert played[0]["tricks_written"] == _tricks(match) == TRICKS
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)


def test_a_killed_pool_process_gives_its_match_back_to_the_worker(worker_pool):
    # Prefork: the worker's child process plays; killing it makes the worker reject the task back to the queue
    # (task_reject_on_worker_lost) and a fresh child resumes the match from its stored tricks.
    match = long_match(seed="killed-child")
    worker = worker_pool.start("parent", pool="prefork", **EVERY_TRICK)
    run_match.apply_async((match.pk,), queue=worker_pool.queue)
    wait_for(lambda: _tricks(match) >= 40, timeout=60, what="the pool process to store 40 tricks")
    children = worker_pool.children(worker)
    assert children, "the prefork worker has no pool process"
    for pid in children:
        os.kill(pid, signal.SIGKILL)
    stored = _tricks(match)
    assert stored < TRICKS

    def finished():
        match.refresh_from_db()
        return match.status == MatchStatus.FINISHED

    wait_for(finished, timeout=120, what="the match to be finished after its pool process was killed")
    assert _tricks(match) == TRICKS
    assert match_record(match) == reference_record(match)


def test_a_batch_whose_worker_is_killed_mid_way_is_finished_by_another_each_match_once(worker_pool):
    # The outbox relay sends bot matches due together as one run_matches task (workers.outbox.batches): killed in
    # its second match, the whole task goes to another worker, which finds the first match finished, resumes the
    # second from its stored tricks and plays the third.
    quick_players = [create_bot_player(name=f"quick-{i}", kind="random") for i in range(4)]
    quick = [create_match(players=quick_players, ruleset={"players": 4}, seed=f"batch-quick-{i}") for i in range(2)]
    long = long_match(seed="batch-killed")
    first = worker_pool.start("doomed", CELERY_VISIBILITY_TIMEOUT="2", **EVERY_TRICK)
    task = run_matches.apply_async(([[quick[0].pk, None], [long.pk, None], [quick[1].pk, None]],),
                                   queue=worker_pool.queue)
    wait_for(lambda: _tricks(long) >= 40, timeout=60, what="the batch's worker to store 40 tricks of its second match")
    worker_pool.kill(first)
    stored = _tricks(long)
    statuses = {m.pk: m.status for m in Match.objects.filter(pk__in=[quick[0].pk, long.pk, quick[1].pk])}
    assert statuses == {quick[0].pk: MatchStatus.FINISHED, long.pk: MatchStatus.RUNNING,
                        quick[1].pk: MatchStatus.PENDING}

    worker_pool.start("successor", CELERY_VISIBILITY_TIMEOUT="2", **EVERY_TRICK)
    outcomes = AsyncResult(task.id).get(timeout=120)
    assert [o["status"] for o in outcomes] == ["already_finished", "finished", "finished"]
    assert all(o["worker"].startswith("successor@") for o in outcomes)
    assert outcomes[1]["tricks_written"] == TRICKS - stored
    for match in [*quick, long]:
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED and match_record(match) == reference_record(match)
