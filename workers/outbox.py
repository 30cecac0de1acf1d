"""The outbox relay: send the rows league recorded (league.services.outbox) to the broker, as Celery tasks.

It runs in two places:
- right after a transaction that recorded work commits, in the same process (`relay_after_commit`): the fast path.
  In the embedded mode (no broker, eager tasks) this is where the work is done, here, in one flat loop, however many
  rounds one match's end sets off;
- in the relay process's sweep (workers.relay): everything the fast path could not send (the broker was down, the
  process died between its commit and the send) and everything sent that has not taken effect when it should have
  (a lost message, a dead worker whose lease lapsed).

A send that fails leaves the row to be tried again (with a short backoff). While sends fail, the fast path of
that process stands aside for a few seconds (`BROKER_PAUSE_SECONDS`), so web requests do not each wait for a
broker that is down; the relay process keeps trying.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from celery import Task
from django.conf import settings
from django.db import Error as DatabaseError
from kombu.exceptions import KombuError, OperationalError
from redis.exceptions import RedisError

from league.models import OutboxKind
from league.selectors.comparisons import comparison_match_ids, is_comparison_match
from league.services import outbox
from league.services.outbox import purge_carried_out

from . import tasks

log = logging.getLogger(__name__)

# What a failed send raises: kombu's errors, Redis's own and the sockets' (a connection refused or reset).
SEND_ERRORS = (OperationalError, KombuError, RedisError, OSError)
BROKER_PAUSE_SECONDS = 5.0

_local = threading.local()
_broker_down_until = 0.0


PURGE_EVERY_SECONDS = 600


@dataclass
class RelayReport:
    sent: int = 0
    failed: int = 0


def _task_of(kind: str) -> Task:
    by_kind: dict[str, Task] = {OutboxKind.PLAY_MATCH: tasks.run_match, OutboxKind.ADVANCE_MATCH: tasks.advance_match}
    return by_kind[kind]


def queue_of(match_id: int) -> str:
    """A comparison's matches go to their own queue, so a long comparison never starves tournaments and ladders
    (the default worker consumes it too, at lower concurrency: deploy/Procfile); every other match to the play
    queue."""
    return _queue(is_comparison_match(match_id))


def _queue(of_a_comparison: bool) -> str:
    return settings.DIAMONDS_COMPARISON_QUEUE if of_a_comparison else settings.DIAMONDS_PLAY_QUEUE


def _options(queue: str) -> dict:
    """How every task is sent. To a queue named when sending (not only in the routes fixed at start-up), so that a
    test run can have its workers' queue to itself. No result is stored: nobody waits for a relayed task, whose
    effect is in the database (its outbox row carried out), and storing one would cost the worker a Redis write
    per match."""
    return {"queue": queue, "retry": True, "retry_policy": settings.DIAMONDS_SEND_RETRY_POLICY, "ignore_result": True}


def send(message) -> None:
    """Hand one row to the broker (in eager mode: run its task here). Both kinds go to the play queue (or the
    comparisons queue)."""
    _task_of(message.kind).apply_async((message.match_id,), {"message_id": message.pk},
                                       **_options(queue_of(message.match_id)))


def send_batch(messages: list, queue: str) -> None:
    """Hand several rows of bot matches to the broker as one task (workers.tasks.run_matches), which plays them one
    after the other: what a task costs the broker and the worker is then paid once for them all."""
    tasks.run_matches.apply_async(([[m.match_id, m.pk] for m in messages],), **_options(queue))


def batches(match_ids: list[int], *, most: int | None = None, spread: int | None = None) -> list[list[int]]:
    """How a page of bot matches due at once is cut into tasks, in order: at most `most` matches a task
    (DIAMONDS_PLAY_BATCH), and never fewer than `spread` tasks (DIAMONDS_PLAY_SPREAD) while there are matches
    for them, so that a few matches due together (a small round) still go to as many workers as can take them.
    The benchmark (tools/bench/workers.py) cuts its matches the same way."""
    most = settings.DIAMONDS_PLAY_BATCH if most is None else most
    spread = settings.DIAMONDS_PLAY_SPREAD if spread is None else spread
    if not match_ids:
        return []
    tasks = min(len(match_ids), max(-(-len(match_ids) // max(most, 1)), spread))
    size, extra = divmod(len(match_ids), tasks)  # the first `extra` tasks take one more
    out, at = [], 0
    for t in range(tasks):
        n = size + (t < extra)
        out.append(match_ids[at:at + n])
        at += n
    return out


def _groups(messages: list) -> list[tuple[str, list]]:
    """The claimed rows as sends: each live-play row alone (a person waits on it), the bot matches cut into batches
    per queue (`batches`); a batch of one is sent as its own row."""
    play = [m for m in messages if m.kind == OutboxKind.PLAY_MATCH]
    compared = comparison_match_ids([m.match_id for m in play]) if play else set()
    by_queue: dict[str, list] = {}
    for m in play:
        by_queue.setdefault(_queue(m.match_id in compared), []).append(m)
    groups = [("", [m]) for m in messages if m.kind != OutboxKind.PLAY_MATCH]
    for queue, rows in by_queue.items():
        by_id = {m.pk: m for m in rows}
        groups += [(queue, [by_id[pk] for pk in ids]) for ids in batches([m.pk for m in rows])]
    return groups


def relay(*, limit: int = 200) -> RelayReport:
    """Send every due row, until none is due. Re-entrant calls (an eager task that records more work while this
    loop runs it) return at once: the outer loop sends what they recorded, so the stack stays flat."""
    global _broker_down_until
    report = RelayReport()
    if getattr(_local, "relaying", False):
        return report
    _local.relaying = True
    try:
        while True:
            page = outbox.due_messages(limit=limit)
            if not page:
                break
            for queue, group in _groups(page):
                # Claimed a send at a time, so that a broker found down leaves the rest of the page due as it was.
                taken = set(outbox.claim_many_for_sending(message_ids=[m.pk for m in group]))
                rows = [m for m in group if m.pk in taken]  # the others: another relay's, or done meanwhile
                if not rows:
                    continue
                try:
                    if len(rows) == 1:
                        send(rows[0])
                    else:
                        send_batch(rows, queue)
                except SEND_ERRORS as e:
                    for m in rows:
                        outbox.mark_send_failed(message_id=m.pk, error=f"{type(e).__name__}: {e}")
                    report.failed += len(rows)
                    _broker_down_until = time.monotonic() + BROKER_PAUSE_SECONDS
                    log.warning("outbox rows %s (%s of match %s%s) not sent, kept for the relay: %s",
                                ", ".join(str(m.pk) for m in rows), rows[0].kind, rows[0].match_id,
                                " and more" if len(rows) > 1 else "", e)
                    return report  # the broker is down: the rest would fail the same way
                outbox.mark_many_sent(message_ids=[m.pk for m in rows])
                report.sent += len(rows)
        return report
    finally:
        _local.relaying = False


def relay_after_commit(**_) -> None:
    """Receiver of league's `work_recorded`: send what the committed transaction recorded. Never raises a broker
    error into the caller (a web request answers as usual; its rows wait for the relay process)."""
    if time.monotonic() < _broker_down_until:
        return
    try:
        relay()
    except (*SEND_ERRORS, DatabaseError) as e:  # the database may be what failed: the relay's sweep tries again
        log.warning("outbox relay after commit failed: %s", e)


def sweep(*, purged_at: float) -> tuple[RelayReport, float]:
    """One sweep of the relay: send what is due, and purge old rows every PURGE_EVERY_SECONDS (`purged_at` is when
    it last did, by time.monotonic()). Returns the report and the new `purged_at`. The relay process loops on it
    (workers.relay); without a broker the web process's embedded beat calls it (workers/embedded_beat.py)."""
    report = relay()
    if time.monotonic() - purged_at > PURGE_EVERY_SECONDS:
        purge_carried_out()  # rows carried out more than a day ago
        purged_at = time.monotonic()
    return report, purged_at
