"""Celery tasks. Each one only calls league services and selectors.

Queues: `play` for bot play, `bookkeeping` for standings, ratings and sweeping (routes in config/settings.py).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.db import transaction

from league.selectors import stalled_bot_match_ids
from league.services import play_bot_match
from league.services.ladders import ladder_tick as seat_ladders
from league.services.tournaments import on_match_finished

from . import app


@app.task(name="workers.tasks.run_match", acks_late=True, reject_on_worker_lost=True)
def run_match(match_id: int) -> dict:
    """Play a match whose seats are all bots to its end, one stored trick at a time.

    Safe to deliver twice or again after a killed worker: league.services.play_bot_match holds the match's claim,
    resumes from the stored tricks and seeds every bot decision from the match state.
    """
    hostname = run_match.request.hostname or "eager"
    outcome = play_bot_match(match_id=match_id, worker=f"{hostname}:{os.getpid()}")
    if outcome.status in ("finished", "already_finished", "failed"):
        # Ratings and the tournament round the match may close. Also on a repeated delivery: the previous run may
        # have died between finishing the match and this call, and on_match_finished does nothing twice.
        on_match_finished(match_id=match_id)
    return outcome.as_dict()


def enqueue_match(match_id: int) -> None:
    """Send `run_match` once the current transaction commits, so the worker finds the match's rows."""
    transaction.on_commit(lambda: run_match.delay(match_id))


@app.task(name="workers.tasks.ladder_tick")
def ladder_tick() -> dict[str, int]:
    """Beat task: seat tables of similar rating on every active ladder and send their matches to the workers."""
    return seat_ladders()


@app.task(name="workers.tasks.requeue_stalled_matches")
def requeue_stalled_matches() -> list[int]:
    """Give bot matches whose play stopped moving (their worker died and the task was lost) to a worker again.
    A match still being played is harmless to send: its claim turns the second run away."""
    ids = stalled_bot_match_ids(idle_seconds=settings.DIAMONDS_STALLED_AFTER_SECONDS)
    for match_id in ids:
        run_match.delay(match_id)
    return ids
