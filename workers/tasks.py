"""Celery tasks. Each one only calls league services and selectors.

Queues: `play` for bot play, `bookkeeping` for standings, ratings and sweeping (routes in config/settings.py).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.db import transaction

from league.selectors import stalled_bot_match_ids
from league.selectors.live import overdue_match_ids, stalled_live_match_ids
from league.services import play_bot_match
from league.services.decisions import advance_match as advance_live_match
from league.services.decisions import play_overdue
from league.services.ladders import ladder_tick as seat_ladders
from league.services.tournaments import catch_up_finished_matches, on_match_finished

from . import app


@app.task(name="workers.tasks.run_match", acks_late=True, reject_on_worker_lost=True)
def run_match(match_id: int) -> dict:
    """Play a match whose seats are all bots to its end, one stored trick at a time.

    Safe to deliver twice or again after a killed worker: league.services.play_bot_match holds the match's claim,
    resumes from the stored tricks and seeds every bot decision from the match state.
    """
    hostname = run_match.request.hostname or "eager"
    outcome = play_bot_match(match_id=match_id, worker=f"{hostname}:{os.getpid()}")
    if outcome.status == "not_all_bots":
        # A table with people or external bots (a tournament's, say): its engine bots play up to the first
        # decision someone else owes, and the rest follows decision by decision (league.services.decisions).
        return advance_match(match_id)
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


@app.task(name="workers.tasks.catch_up_finished_matches")
def catch_up_finished_matches_task() -> int:
    """Beat task: ratings and round closing for ended matches whose follow-up in run_match was lost."""
    return catch_up_finished_matches()


@app.task(name="workers.tasks.requeue_stalled_matches")
def requeue_stalled_matches() -> list[int]:
    """Give bot matches whose play stopped moving (their worker died and the task was lost) to a worker again.
    A match still being played is harmless to send: its claim turns the second run away."""
    ids = stalled_bot_match_ids(idle_seconds=settings.DIAMONDS_STALLED_AFTER_SECONDS)
    for match_id in ids:
        run_match.delay(match_id)
    return ids


@app.task(name="workers.tasks.advance_match", acks_late=True, reject_on_worker_lost=True)
def advance_match(match_id: int) -> dict:
    """Play a live match's engine bot seats until a person or an external bot is to decide (all-bot matches are
    played to the end). Safe to deliver twice: each step locks the match row and plays only what is pending."""
    outcome = advance_live_match(match_id=match_id)
    if outcome.status in ("finished", "already_finished", "failed") or outcome.status.startswith("not_in_play"):
        on_match_finished(match_id=match_id)  # does nothing twice, and nothing for a match still in play
    return {"match_id": outcome.match_id, "status": outcome.status, "decisions": outcome.decisions,
            "move_number": outcome.move_number, "error": outcome.error}


def enqueue_advance(match_id: int) -> None:
    """Send `advance_match` once the current transaction commits, so the worker sees the decision just stored."""
    transaction.on_commit(lambda: advance_match.delay(match_id))


@app.task(name="workers.tasks.enforce_turn_deadlines")
def enforce_turn_deadlines() -> list[int]:
    """Beat task: let the fallback bot make every overdue decision, and give live matches whose engine bots stopped
    (a lost advance_match) to a worker again."""
    played = []
    for match_id in overdue_match_ids():
        # play_overdue also plays the engine bots after the late seat, up to the next person's decision.
        outcome = play_overdue(match_id=match_id)
        if outcome.decisions:
            played.append(match_id)
        if outcome.status == "finished":
            on_match_finished(match_id=match_id)
    for match_id in stalled_live_match_ids(idle_seconds=settings.DIAMONDS_STALLED_AFTER_SECONDS):
        advance_match.delay(match_id)
    return played
