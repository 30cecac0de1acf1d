"""Celery tasks. Each one only calls league services and selectors.

Queues: `play` for bot play, `bookkeeping` for standings, ratings and sweeping (routes in config/settings.py).
The play tasks are sent by the outbox relay (workers.outbox) with the outbox row they carry out (`message_id`); a
task marks its row carried out only once its work is done, follow-ups included, so a task that dies half-way is
sent again (see workers/README.md).
"""

from __future__ import annotations

import logging
import os

from django.conf import settings
from django.db import InterfaceError, OperationalError, close_old_connections, connection

from league.selectors.live import overdue_match_ids, stalled_live_match_ids
from league.services import outbox, play_bot_match, webhooks
from league.services.comparisons import catch_up_comparisons
from league.services.decisions import advance_match as advance_live_match
from league.services.decisions import give_deadlines, play_overdue
from league.services.ladders import ladder_tick as seat_ladders
from league.services.lobby import expire_open_tables
from league.services.match_finished import catch_up_finished_matches, on_match_finished
from league.services.notification_emails import send_due_emails
from league.services.notifications import prune as prune_old_notifications
from league.services.play import relaxed_commits

from . import app

log = logging.getLogger(__name__)

# A database connection cut under a task (a restart, pg_terminate_backend): the task is tried again at once on a
# fresh connection, and resumes from the stored state.
LOST_DATABASE = (OperationalError, InterfaceError)


def _retry_on_a_fresh_connection(task, error: Exception):
    log.warning("%s lost its database connection (%s); trying again", task.name, error)
    try:
        connection.close()
    except Exception:  # noqa: BLE001 - the connection is broken already; closing it is only tidying up
        pass
    close_old_connections()
    return task.retry(countdown=1, max_retries=30, exc=error)


@app.task(name="workers.tasks.run_match", bind=True, acks_late=True, reject_on_worker_lost=True)
def run_match(self, match_id: int, message_id: int | None = None) -> dict:
    """Play a match whose seats are all bots to its end.

    Safe to deliver twice or again after a killed worker: league.services.play_bot_match holds the match's claim,
    resumes from the stored play and seeds every bot decision from the match state.
    """
    try:
        return _run_one(match_id, message_id, f"{self.request.hostname or 'eager'}:{os.getpid()}")
    except LOST_DATABASE as e:
        raise _retry_on_a_fresh_connection(self, e) from e


@app.task(name="workers.tasks.run_matches", bind=True, acks_late=True, reject_on_worker_lost=True)
def run_matches(self, items: list) -> list[dict]:
    """Play several bot matches, one after the other, as run_match plays each: the outbox relay sends the matches
    due together (a ladder's tick, a round) as a few such tasks (workers.outbox.batches), so that what a task costs
    the broker and the worker is paid once for several matches. `items` are [match_id, outbox row id] pairs.

    Safe to deliver again, as a whole: a match it finished before is only carried out again (already_finished).
    A lost database connection retries the whole batch the same way.
    """
    worker = f"{self.request.hostname or 'eager'}:{os.getpid()}"
    outcomes = []
    try:
        for match_id, message_id in items:
            try:
                outcomes.append(_run_one(match_id, message_id, worker))
            except LOST_DATABASE:
                raise
            except Exception as e:  # noqa: BLE001 - one match's fault must not stop the others of its batch
                # Its row is not carried out, so the relay sends it again at its resend time (as a run_match that
                # failed would be); the rest of the batch is played meanwhile instead of failing with it each time.
                log.exception("match %s of a batch failed; its outbox row %s stays open", match_id, message_id)
                outcomes.append({"match_id": match_id, "status": "error", "error": f"{type(e).__name__}: {e}"})
    except LOST_DATABASE as e:
        raise _retry_on_a_fresh_connection(self, e) from e
    return outcomes


def _run_one(match_id: int, message_id: int | None, worker: str) -> dict:
    # Relaxed commits for all of it, the follow-up and the carrying out too: each is redone if a database crash loses
    # it, the carrying out last (league.services.play.relaxed_commits says why that is safe). Not for a table with
    # people: the branch below.
    with relaxed_commits():
        outcome = play_bot_match(match_id=match_id, worker=worker)
        if outcome.status in ("finished", "already_finished", "failed"):
            # Ratings and the tournament round the match may close. Also on a repeated delivery: the previous run may
            # have died between finishing the match and this call, and on_match_finished does nothing twice.
            on_match_finished(match_id=match_id)
        # busy: another worker plays it, and its own row is carried out by it
        if outcome.status not in ("busy", "not_all_bots"):
            outbox.carry_out(message_id=message_id)
    if outcome.status == "not_all_bots":
        # A table with people or external bots (a tournament's, say): its engine bots play up to the first decision
        # someone else owes, and the rest follows decision by decision (league.services.decisions).
        result = _advance(match_id)
        outbox.carry_out(message_id=message_id)
        return result
    return outcome.as_dict()


@app.task(name="workers.tasks.ladder_tick")
def ladder_tick() -> dict[str, int]:
    """Beat task: seat tables of similar rating on every active ladder and send their matches to the workers."""
    return seat_ladders()


@app.task(name="workers.tasks.catch_up_finished_matches")
def catch_up_finished_matches_task() -> int:
    """Beat task: ratings, round closing and comparison pairs for ended matches whose follow-up in run_match was
    lost."""
    return catch_up_finished_matches() + catch_up_comparisons()


@app.task(name="workers.tasks.requeue_stalled_matches")
def requeue_stalled_matches() -> list[int]:
    """Beat task: give bot matches that no outbox row stands for (stored before the outbox, or a row deleted by
    hand) and whose play stopped moving a row, so the relay sends them to a worker."""
    return outbox.adopt_orphaned_matches(idle_seconds=settings.DIAMONDS_STALLED_AFTER_SECONDS)


def _advance(match_id: int) -> dict:
    outcome = advance_live_match(match_id=match_id)
    if outcome.status in ("finished", "already_finished", "failed") or outcome.status.startswith("not_in_play"):
        on_match_finished(match_id=match_id)  # does nothing twice, and nothing for a match still in play
    return {"match_id": outcome.match_id, "status": outcome.status, "decisions": outcome.decisions,
            "move_number": outcome.move_number, "error": outcome.error}


@app.task(name="workers.tasks.advance_match", bind=True, acks_late=True, reject_on_worker_lost=True)
def advance_match(self, match_id: int, message_id: int | None = None) -> dict:
    """Play a live match's engine bot seats until a person or an external bot is to decide (all-bot matches are
    played to the end). Safe to deliver twice: each step locks the match row and plays only what is pending."""
    try:
        result = _advance(match_id)
        if result["status"] != "busy":
            outbox.carry_out(message_id=message_id)
    except LOST_DATABASE as e:
        raise _retry_on_a_fresh_connection(self, e) from e
    return result


@app.task(name="workers.tasks.enforce_turn_deadlines")
def enforce_turn_deadlines() -> list[int]:
    """Beat task: let the fallback bot make every overdue decision, give live matches whose engine bots stopped
    (an advance lost before the outbox existed) a row again, and a deadline to any live table without one (rows
    stored before every table had one, or edited by hand: no match waits for ever)."""
    give_deadlines()
    played = []
    for match_id in overdue_match_ids():
        # play_overdue also plays the engine bots after the late seat, up to the next person's decision.
        outcome = play_overdue(match_id=match_id)
        if outcome.decisions:
            played.append(match_id)
        if outcome.status == "finished":
            on_match_finished(match_id=match_id)
    stalled = stalled_live_match_ids(idle_seconds=settings.DIAMONDS_STALLED_AFTER_SECONDS)
    if stalled:
        outbox.record_many(kind="advance_match", match_ids=stalled)
    return played


# ---- being told: webhooks and email (league.services.webhooks, league.services.notification_emails) -------------

@app.task(name="workers.tasks.deliver_webhooks")
def deliver_webhooks(endpoint_ids: list[int] | None = None) -> int:
    """Send the due webhook deliveries of these endpoints (after the commit that wrote them), or of every endpoint
    (beat's sweep: retries, and whatever a lost message left). Each endpoint has one sender at a time, in order."""
    if endpoint_ids is None:
        return webhooks.deliver_due()
    return sum(webhooks.deliver_endpoint(endpoint_id=pk) for pk in endpoint_ids)


@app.task(name="workers.tasks.send_notification_emails")
def send_notification_emails() -> int:
    """Email the notifications that are due (beat's sweep, and after notifications that want email are stored)."""
    return send_due_emails()


@app.task(name="workers.tasks.prune_notifications")
def prune_notifications() -> int:
    """Beat task: delete old notifications and old finished webhook deliveries."""
    return prune_old_notifications() + webhooks.prune_deliveries()
@app.task(name="workers.tasks.expire_lobby_tables")
def expire_lobby_tables() -> int:
    """Beat task: close the lobby's open tables nobody filled in time (DIAMONDS_LOBBY_OPEN_MINUTES)."""
    return expire_open_tables()
