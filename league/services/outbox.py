"""Record work that must follow a change, in the change's own transaction (the transactional outbox).

League never talks to the broker (arrows point down: workers -> league). A service that makes work necessary
(a round starts, a decision leaves engine bots to play) calls `record` inside its transaction; the row commits or
rolls back with the change. Once it commits, `work_recorded` tells whoever relays (workers.outbox, connected in
workers.apps) to send it now; whatever could not be sent then, and whatever was sent but has not taken effect, is
sent again by the relay's sweep (workers.relay). A worker that has carried a message out calls `carry_out`.

Exactly one effect comes from the tasks, not from the sending: a message may be delivered more than once (a resend
after a lost message, the broker's own redelivery), and each task does nothing twice (league.services.play).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.dispatch import Signal
from django.utils import timezone

from ..models import Match, MatchStatus, OutboxKind, OutboxMessage, RoundStatus

# Sent (with no arguments) after a transaction that recorded work commits.
work_recorded = Signal()

# A failed send is tried again after 1, 2, 4 s ... at most this long: a broker outage of seconds costs seconds.
MAX_SEND_BACKOFF_SECONDS = 5


def record(*, kind: str, match_id: int) -> None:
    """Record, in the caller's transaction, that a worker must do `kind` to the match.

    An open row of the same kind not sent yet stands for this one too: the worker reads the match's stored state
    when it runs, so it does everything the later change calls for (live play's advance also waits for the match's
    row lock, which the caller holds until it commits)."""
    if kind not in OutboxKind.values:
        raise ValueError(f"unknown outbox kind {kind!r}")
    waiting = OutboxMessage.objects.filter(kind=kind, match_id=match_id, done_at__isnull=True, sent_at__isnull=True)
    if not waiting.exists():
        OutboxMessage.objects.create(kind=kind, match_id=match_id)
    transaction.on_commit(_announce)


def _announce() -> None:
    work_recorded.send(sender=OutboxMessage)


def due_messages(*, limit: int = 200, now=None) -> list[OutboxMessage]:
    """Open rows the relay should send now: never sent (or their send failed), or sent but not carried out by
    their time to be sent again, unless a live worker holds the match's lease (it is being played: sending it
    again would only be turned away)."""
    now = now or timezone.now()
    return list(
        OutboxMessage.objects.filter(done_at__isnull=True, send_after__lte=now)
        .exclude(Q(sent_at__isnull=False) & Q(match__lease_expires_at__gt=now))
        .order_by("send_after", "pk")[:limit]
    )


def claim_for_sending(*, message_id: int, now=None) -> bool:
    """Take a due row for this sender: its next send moves to DIAMONDS_OUTBOX_RESEND_SECONDS from now, so another
    relay does not send it at the same moment, and if this sender dies before sending, it is sent again then.
    False if another sender took it first or it is done."""
    return bool(claim_many_for_sending(message_ids=[message_id], now=now))


def claim_many_for_sending(*, message_ids: list[int], now=None) -> list[int]:
    """`claim_for_sending` for a page of rows at once: the ids this sender took (rows another sender holds, or took
    first, or that are done are left out). On PostgreSQL rows locked by another sender are skipped, not waited for."""
    now = now or timezone.now()
    due = OutboxMessage.objects.filter(done_at__isnull=True, send_after__lte=now)
    claim = {"send_after": now + timedelta(seconds=settings.DIAMONDS_OUTBOX_RESEND_SECONDS), "sends": F("sends") + 1}
    if len(message_ids) == 1:  # what a commit sends most often (a decision's advance): one conditional UPDATE
        return list(message_ids) if due.filter(pk=message_ids[0]).update(**claim) else []
    with transaction.atomic():
        taken = list(due.select_for_update(skip_locked=True).filter(pk__in=message_ids)
                     .order_by("pk").values_list("pk", flat=True))
        OutboxMessage.objects.filter(pk__in=taken).update(**claim)
    return taken


def mark_many_sent(*, message_ids: list[int]) -> None:
    OutboxMessage.objects.filter(pk__in=message_ids).update(sent_at=timezone.now(), last_error="")


def mark_send_failed(*, message_id: int, error: str) -> None:
    """The broker refused the row (or could not be reached): try again soon, backing off up to a few seconds."""
    row = OutboxMessage.objects.filter(pk=message_id).values("sends").first()
    if row is None:
        return
    delay = min(2 ** max(row["sends"] - 1, 0), MAX_SEND_BACKOFF_SECONDS)
    OutboxMessage.objects.filter(pk=message_id, done_at__isnull=True).update(
        send_after=timezone.now() + timedelta(seconds=delay), last_error=error[:300])


def carry_out(*, message_id: int | None) -> None:
    """A worker did what the row asked for: it is never sent again. Harmless twice, or for a row gone since."""
    if message_id is not None:
        OutboxMessage.objects.filter(pk=message_id, done_at__isnull=True).update(done_at=timezone.now())


def purge_carried_out(*, older_than_seconds: int = 86400) -> int:
    """Delete rows carried out long ago (they are kept a while to look into what happened)."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    return OutboxMessage.objects.filter(done_at__lt=cutoff).delete()[0]


def adopt_orphaned_matches(*, idle_seconds: int) -> list[int]:
    """Bot matches still to play that no open row stands for and no live lease holds, idle for `idle_seconds`: give
    each a row. Only matches stored before the outbox (or rows deleted by hand) can be in this state."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=idle_seconds)
    open_row = OutboxMessage.objects.filter(match_id=OuterRef("pk"), done_at__isnull=True)
    to_play = Q(status=MatchStatus.RUNNING) | Q(status=MatchStatus.PENDING, ladder__isnull=False) | Q(
        status=MatchStatus.PENDING, tournament_round__status=RoundStatus.RUNNING)
    ids = list(
        Match.objects.filter(to_play, updated_at__lt=cutoff, offline=False)  # real cards: nothing to play here
        .exclude(lease_expires_at__gt=now)
        .exclude(match_seats__player__user__isnull=False)  # people and external bots play through the API
        .exclude(Exists(open_row))
        .order_by("pk").values_list("pk", flat=True).distinct()[:500]
    )
    with transaction.atomic():
        for match_id in ids:
            record(kind=OutboxKind.PLAY_MATCH, match_id=match_id)
    return ids


@transaction.atomic
def record_many(*, kind: str, match_ids) -> None:
    for match_id in match_ids:
        record(kind=kind, match_id=match_id)
