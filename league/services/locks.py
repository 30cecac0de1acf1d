"""The claim a process holds on a match while it plays it, so that one match is never played twice at once.

Two things, which PostgreSQL keeps apart:
- who may play (mutual exclusion). On PostgreSQL, a session-level advisory lock (`pg_try_advisory_lock`) held by
  the playing process's database connection: if the process is killed or its connection cut, PostgreSQL releases
  it at once, so a second delivery can take the match over without waiting for anything to time out. Elsewhere
  (SQLite, the embedded default) there are no advisory locks, and the lease below is the claim (taken with a
  conditional UPDATE).
- whether anyone is playing (liveness): the lease on the match row (`claimed_by`, `lease_expires_at`), renewed with
  every stored step (`Claim.renewal`, written in the step's own statement). A lease that lapses
  (DIAMONDS_LEASE_SECONDS without a stored step) tells the outbox relay that the match's worker is gone, and the
  relay sends the match to another worker (league.services.outbox.due_messages).
The unique constraints on trick and Suit Action rows stay as the last line of defence.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from ..models import Match
from ..selectors.prepared import prepared_cursor

# First key of the two-key advisory lock: "DiM", so our locks do not collide with other users of the database.
LOCK_SPACE = 0x44694D


@dataclass(frozen=True)
class Claim:
    match_id: int
    owner: str
    leased: bool  # True when the lease is the claim itself (no advisory locks)

    def renewal(self) -> dict:
        """Fields to write on the match row with each stored step: the lease, renewed."""
        return {"lease_expires_at": lease_until()}


def lease_until():
    return timezone.now() + timedelta(seconds=settings.DIAMONDS_LEASE_SECONDS)


def _lock_key(match_id: int) -> list[int]:
    return [LOCK_SPACE, match_id & 0x7FFFFFFF]


# Giving the claim back on PostgreSQL, in one statement: the lease cleared, then the lock let go.
# A match that ended has no lease left to clear (league.services.progress clears it as it finishes): its row is not
# written again.
_GIVE_BACK = (f"WITH cleared AS (UPDATE {Match._meta.db_table} SET lease_expires_at = NULL "
              "WHERE id = %s AND claimed_by = %s AND lease_expires_at IS NOT NULL RETURNING id) "
              "SELECT pg_advisory_unlock(%s, %s) FROM (SELECT count(*) FROM cleared) AS done")


@contextmanager
def match_claim(*, match_id: int, owner: str) -> Iterator[Claim | None]:
    """Hold the claim on the match for the body of the `with`, or yield None when someone else holds it.

    On PostgreSQL the lease is not written as the claim is taken: the holder writes it (`Claim.renewal`, with
    `claimed_by`) with its first write, marking the match running (league.services.play), and a holder that finds
    nothing to play has nothing to hold. Taking and giving back then cost a statement each."""
    if connection.vendor == "postgresql":
        with prepared_cursor(connection) as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", _lock_key(match_id))
            acquired = cursor.fetchone()[0]
        if not acquired:
            yield None
            return
        try:
            yield Claim(match_id, owner, leased=False)
        finally:
            try:
                with prepared_cursor(connection) as cursor:
                    cursor.execute(_GIVE_BACK, [match_id, owner, *_lock_key(match_id)])
            except DatabaseError:
                pass  # the connection is gone, and the session's lock went with it; the lease lapses by itself
        return
    now = timezone.now()
    taken = (
        Match.objects.filter(pk=match_id)
        .filter(Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now) | Q(claimed_by=owner))
        .update(claimed_by=owner, lease_expires_at=lease_until())
    )
    if not taken:
        # No row was updated: someone holds the lease, or there is no such match (which nobody can hold).
        yield None if Match.objects.filter(pk=match_id).exists() else Claim(match_id, owner, leased=True)
        return
    try:
        yield Claim(match_id, owner, leased=True)
    finally:
        Match.objects.filter(pk=match_id, claimed_by=owner,
                             lease_expires_at__isnull=False).update(lease_expires_at=None)
