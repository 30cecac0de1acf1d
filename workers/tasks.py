"""Celery tasks. Each one only calls league services and selectors.

Queues: `play` for bot play, `bookkeeping` for standings, ratings and sweeping (routes in config/settings.py).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.db import transaction

from league.selectors import stalled_bot_match_ids
from league.services import play_bot_match

from . import app


@app.task(name="workers.tasks.run_match", acks_late=True, reject_on_worker_lost=True)
def run_match(match_id: int) -> dict:
    """Play a match whose seats are all bots to its end, one stored trick at a time.

    Safe to deliver twice or again after a killed worker: league.services.play_bot_match holds the match's claim,
    resumes from the stored tricks and seeds every bot decision from the match state.
    """
    hostname = run_match.request.hostname or "eager"
    return play_bot_match(match_id=match_id, worker=f"{hostname}:{os.getpid()}").as_dict()


def enqueue_match(match_id: int) -> None:
    """Send `run_match` once the current transaction commits, so the worker finds the match's rows."""
    transaction.on_commit(lambda: run_match.delay(match_id))


@app.task(name="workers.tasks.requeue_stalled_matches")
def requeue_stalled_matches() -> list[int]:
    """Give bot matches whose play stopped moving (their worker died and the task was lost) to a worker again.
    A match still being played is harmless to send: its claim turns the second run away."""
    ids = stalled_bot_match_ids(idle_seconds=settings.DIAMONDS_STALLED_AFTER_SECONDS)
    for match_id in ids:
        run_match.delay(match_id)
    return ids
