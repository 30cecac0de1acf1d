"""How a play loop learns that its match was stopped under it (cancelled by an organiser, or failed), and stops.

Two guards, so a stopped match is never written to again and its loop does not play on:
- every stored step is conditional: the store (league.services.progress) writes a step only while
  the match is pending or running, in the same statement or transaction as the step, and raise PlayStopped
  otherwise, having written nothing. So nothing is stored after a cancel commits, and a cancelled match never turns
  "finished" because its last trick was in flight;
- between decisions the loop asks `StopWatch.check()`, which reads the match's status from the database when the
  last look is older than CHECK_EVERY_SECONDS. A step stored (a trick, a turn) counts as a look, so fast bots pay
  nothing; a slow one (the search bot thinks for a while per card) is checked before each of its decisions, so it
  stops within one decision of the cancel. Checking before every decision regardless would double the cost of
  fast bot play (a query per card against a few microseconds of thinking).

A loop that holds the match's row lock (league.services.decisions' locked step) needs neither: a cancel waits for
the lock, and the next step finds the match stopped.
"""

from __future__ import annotations

import time

from ..models import Match
from ..models.match import IN_PLAY

# Decision: a fifth of a second. A loop of fast bots stops at its next stored step, a slow bot before its next
# decision; an organiser who pressed "cancel" sees play stop well within a second either way.
CHECK_EVERY_SECONDS = 0.2


class PlayStopped(Exception):
    """The match is no longer in play (cancelled, failed or finished by someone else): nothing was written."""

    def __init__(self, match_id: int, status: str | None):
        super().__init__(f"match {match_id} is {status or 'gone'}")
        self.match_id = match_id
        self.status = status


def status_of(match_id: int) -> str | None:
    return Match.objects.filter(pk=match_id).values_list("status", flat=True).first()


class StopWatch:
    """Raises PlayStopped from `check()` once the match has left play (see the module docstring for when it looks)."""

    def __init__(self, match_id: int, every: float | None = None):
        self.match_id = match_id
        self.every = CHECK_EVERY_SECONDS if every is None else every
        self._looked = time.monotonic()

    def check(self) -> None:
        now = time.monotonic()
        if now - self._looked < self.every:
            return
        status = status_of(self.match_id)
        self._looked = time.monotonic()
        if status not in IN_PLAY:
            raise PlayStopped(self.match_id, status)

    def stored(self) -> None:
        """A step was just stored: its conditional write found the match in play, which is as good as a look."""
        self._looked = time.monotonic()
