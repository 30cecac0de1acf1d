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

from django.conf import settings
from django.db import Error as DatabaseError
from kombu.exceptions import KombuError, OperationalError
from redis.exceptions import RedisError

from league.models import OutboxKind
from league.selectors.comparisons import is_comparison_match
from league.services import outbox

log = logging.getLogger(__name__)

# What a failed send raises: kombu's errors, Redis's own and the sockets' (a connection refused or reset).
SEND_ERRORS = (OperationalError, KombuError, RedisError, OSError)
BROKER_PAUSE_SECONDS = 5.0

_local = threading.local()
_broker_down_until = 0.0


@dataclass
class RelayReport:
    sent: int = 0
    failed: int = 0


def _task_of(kind: str):
    from . import tasks

    return {OutboxKind.PLAY_MATCH: tasks.run_match, OutboxKind.ADVANCE_MATCH: tasks.advance_match}[kind]


def queue_of(match_id: int) -> str:
    """A comparison's matches go to their own queue, so a long comparison never starves tournaments and ladders
    (the default worker consumes it too, at lower concurrency: deploy/Procfile); every other match to the play
    queue."""
    if is_comparison_match(match_id):
        return settings.DIAMONDS_COMPARISON_QUEUE
    return settings.DIAMONDS_PLAY_QUEUE


def send(message) -> None:
    """Hand one row to the broker (in eager mode: run its task here). Both kinds go to the play queue (or the
    comparisons queue), named when sending (not only in the routes fixed at start-up) so that a test run can have
    its workers' queue to itself. No result is stored: nobody waits for a relayed task, whose effect is in the
    database (its outbox row carried out), and storing one would cost the worker a Redis write per match."""
    _task_of(message.kind).apply_async((message.match_id,), {"message_id": message.pk},
                                       queue=queue_of(message.match_id), retry=True,
                                       retry_policy=settings.DIAMONDS_SEND_RETRY_POLICY, ignore_result=True)


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
            batch = outbox.due_messages(limit=limit)
            if not batch:
                break
            for message in batch:
                if not outbox.claim_for_sending(message_id=message.pk):
                    continue  # another relay has it
                try:
                    send(message)
                except SEND_ERRORS as e:
                    outbox.mark_send_failed(message_id=message.pk, error=f"{type(e).__name__}: {e}")
                    report.failed += 1
                    _broker_down_until = time.monotonic() + BROKER_PAUSE_SECONDS
                    log.warning("outbox row %s (%s of match %s) not sent, kept for the relay: %s", message.pk,
                                message.kind, message.match_id, e)
                    return report  # the broker is down: the rest would fail the same way
                else:
                    outbox.mark_sent(message_id=message.pk)
                    report.sent += 1
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
