"""Chess clocks: a time bank per seat plus an increment per decision, kept exact in the database.

A match with a clock (`Match.clock_bank_seconds`) gives every seat a person or an external bot holds the bank
(`MatchSeat.clock_ms`) when it is created; engine bots' seats have none (the workers play them at once). Live play
(league.services.decisions) calls `step` with every stored step, in the step's transaction:
- a seat that becomes awaited starts its turn: `clock_started_at` is set to the step's time;
- a seat whose turn ends has the time since taken off its bank (never below nothing); if it made the decision
  itself it earns the increment;
- a seat still awaited (the others' cards passed while it chooses its own) keeps running.
Its decision's deadline is its turn's start plus what was left (`deadline`); the match's `deadline_at` is the
earliest of its awaited seats', so the beat task that plays overdue decisions (workers.tasks.enforce_turn_deadlines)
finds a clock that ran out as it finds a missed turn deadline, and the match's `deadline_action` applies. A decision
that arrives after its seat's time ran out is refused and the same follows at once.

Nothing about a clock lives in a process's memory: the stored bank and turn start give the time left to anyone who
reads them (league.selectors.clocks), so a restart of any process loses nothing and nobody gains time by it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..limits import MAX_CLOCK_MS
from ..models import Match, MatchSeat
from ..selectors.clocks import elapsed_ms, remaining_ms, runs_out_at


def initial_clock_ms(match: Match, player) -> int | None:
    """A seat's bank at the start: the match's, for a person or an external bot; none for an engine bot."""
    if match.clock_bank_seconds is None or player.is_engine_bot or match.offline:
        return None
    return match.clock_bank_seconds * 1000


@dataclass
class ClockChange:
    row: MatchSeat
    clock_ms: int
    clock_started_at: datetime | None


def plan(match: Match, rows: list[MatchSeat], awaited: set[int], decided: int | None,
         now: datetime) -> list[ClockChange]:
    """The clocks after a step at `now` that leaves `awaited` to decide, `decided` (if any) being the seat whose own
    decision it was; nothing is written (`write` does, once the step is stored). Seats without a clock, and those
    whose time ran out, are left alone."""
    if match.clock_bank_seconds is None:
        return []
    increment = match.clock_increment_seconds * 1000
    changes = []
    for ms in rows:
        if ms.clock_ms is None or ms.out_of_time:
            continue
        left, started = ms.clock_ms, ms.clock_started_at
        if started is not None and (ms.seat == decided or ms.seat not in awaited):
            left = max(0, left - elapsed_ms(started, now))
            if ms.seat == decided:
                left = min(MAX_CLOCK_MS, left + increment)
            started = None
        if started is None and ms.seat in awaited:
            started = now
        if (left, started) != (ms.clock_ms, ms.clock_started_at):
            changes.append(ClockChange(ms, left, started))
    return changes


def deadline(changes: list[ClockChange], rows: list[MatchSeat], awaited: set[int]) -> datetime | None:
    """The earliest moment one of the `awaited` seats' clocks runs out, with `changes` applied (None if none runs)."""
    changed = {c.row.seat: c for c in changes}
    ends = []
    for ms in rows:
        if ms.seat not in awaited or ms.clock_ms is None or ms.out_of_time:
            continue
        change = changed.get(ms.seat)
        left, started = (change.clock_ms, change.clock_started_at) if change else (ms.clock_ms, ms.clock_started_at)
        if started is not None:
            ends.append(runs_out_at(left, started))
    return min(ends) if ends else None


def write(changes: list[ClockChange]) -> None:
    """Store `changes` in the caller's transaction (one statement), and on the rows in hand."""
    if not changes:
        return
    for c in changes:
        c.row.clock_ms, c.row.clock_started_at = c.clock_ms, c.clock_started_at
    MatchSeat.objects.bulk_update([c.row for c in changes], ["clock_ms", "clock_started_at"])


def ran_out(rows: list[MatchSeat], seats, now: datetime) -> set[int]:
    """Those of `seats` whose running clock has nothing left at `now`."""
    return {ms.seat for ms in rows
            if ms.seat in seats and ms.clock_ms is not None and not ms.out_of_time
            and ms.clock_started_at is not None and remaining_ms(ms.clock_ms, ms.clock_started_at, now) <= 0}


def mark_out_of_time(rows: list[MatchSeat], seats: set[int]) -> None:
    """Record, in the caller's transaction, that `seats`' clocks ran out (their banks at nothing, stopped)."""
    if not seats:
        return
    MatchSeat.objects.filter(pk__in=[ms.pk for ms in rows if ms.seat in seats]).update(
        clock_ms=0, clock_started_at=None, out_of_time=True)
    for ms in rows:
        if ms.seat in seats:
            ms.clock_ms, ms.clock_started_at, ms.out_of_time = 0, None, True
