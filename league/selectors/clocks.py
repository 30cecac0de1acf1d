"""Chess clocks as they stand now, computed from what is stored (league.services.clocks writes them).

A clocked seat stores its bank (`MatchSeat.clock_ms`) as it stood when its running turn began (`clock_started_at`;
None while it is not to decide). What it has left at any moment is that bank less the time since, never below
nothing: every process computes the same figure from the same two columns and a clock, so a restart, another worker
or another web process reads exactly what the one that stored it would have. A clock runs only while the match is in
play: a cancelled, failed or finished match shows each seat's time as its last step left it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from ..models import Match, MatchSeat
from ..models.match import IN_PLAY

MILLISECOND = timedelta(milliseconds=1)


def elapsed_ms(started: datetime, now: datetime) -> int:
    """Whole milliseconds from `started` to `now` (none if `now` is earlier: a clock never runs backwards)."""
    return max(0, (now - started) // MILLISECOND)


def remaining_ms(clock_ms: int, started: datetime | None, now: datetime) -> int:
    """What a seat whose bank was `clock_ms` when its turn began at `started` has left at `now` (0 at the least)."""
    if started is None:
        return clock_ms
    return max(0, clock_ms - elapsed_ms(started, now))


def runs_out_at(clock_ms: int, started: datetime) -> datetime:
    """When a running clock reaches nothing: the seat's decision deadline."""
    return started + timedelta(milliseconds=clock_ms)


@dataclass(frozen=True)
class SeatClock:
    seat: int
    remaining_ms: int
    running: bool  # the seat is to decide and its time is going
    out_of_time: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "remaining_ms": self.remaining_ms, "running": self.running,
                "out_of_time": self.out_of_time}


def seat_clocks(match: Match, rows: list[MatchSeat], now: datetime) -> list[SeatClock]:
    """The clocked seats' clocks at `now`, in seat order (a seat without a clock, an engine bot's, is left out)."""
    in_play = match.status in IN_PLAY
    out = []
    for ms in sorted(rows, key=lambda r: r.seat):
        if ms.clock_ms is None:
            continue
        running = in_play and ms.clock_started_at is not None and not ms.out_of_time
        left = remaining_ms(ms.clock_ms, ms.clock_started_at if running else None, now)
        out.append(SeatClock(ms.seat, left, running, ms.out_of_time))
    return out


def clock_json(match: Match, rows: list[MatchSeat], now: datetime | None = None) -> dict[str, Any] | None:
    """The match's clocks as the API and the pages send them, or None for a match without a clock: the clock's
    settings, the server's time the figures were taken at, and each clocked seat's time left (its own and everyone
    else's: a table's clocks are public, as at a chess board)."""
    if match.clock_bank_seconds is None:
        return None
    now = now or timezone.now()
    return {"bank_seconds": match.clock_bank_seconds, "increment_seconds": match.clock_increment_seconds,
            "server_time": now.isoformat().replace("+00:00", "Z"),
            "seats": [c.to_json() for c in seat_clocks(match, rows, now)]}


_CLOCK_FIELDS = ("seat", "clock_ms", "clock_started_at", "out_of_time")


def match_clocks(match: Match, now: datetime | None = None) -> dict[str, Any] | None:
    """clock_json read from the match's seats now (one small query; none for a match without a clock)."""
    if match.clock_bank_seconds is None:
        return None
    rows = list(MatchSeat.objects.filter(match_id=match.pk).only(*_CLOCK_FIELDS).order_by("seat"))
    return clock_json(match, rows, now)


def seat_remaining_ms(match: Match, ms: MatchSeat, now: datetime | None = None) -> int | None:
    """What one seat (read with its match) has left now; None if it has no clock."""
    if ms.clock_ms is None or match.clock_bank_seconds is None:
        return None
    running = match.status in IN_PLAY and not ms.out_of_time
    return remaining_ms(ms.clock_ms, ms.clock_started_at if running else None, now or timezone.now())
