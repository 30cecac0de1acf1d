"""Plain objects the seating algorithms read and produce: tables, rounds, schedules and the history of meetings.

No Django here: the league services turn stored rounds into these objects (`History.from_rounds`) and store
what the algorithms return. A *unit* is what the scheduler seats: a player, or a fixed team of partners at
partnership tables (R-TEAM-1), where a team of k units at a table occupies seats j and j + k.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

Unit = Hashable

FORMATS = ("fixed", "swiss", "duplicate")


@dataclass(frozen=True)
class Table:
    """One table of one round.

    `units` are the competitors in unit order (players, or teams at partnership tables); `seats` are the
    players in seat order, so `seats[0]` sits at seat 0 and seat `s + 1` is left of seat `s`. Every table
    gets its own engine `seed` except in duplicate play, where the tables of a `group` share `deal_id` and
    `seed` and differ by `rotation` (see `league.scheduling.duplicate`).
    """

    number: int
    units: tuple[Unit, ...]
    seats: tuple[Hashable, ...]
    deal_id: str = ""  # defaults only for rebuilding a `History` from stored tables
    seed: str = ""
    group: int | None = None
    rotation: int = 0

    @property
    def size(self) -> int:
        """Players at the table (the engine's `Ruleset.players`)."""
        return len(self.seats)


@dataclass(frozen=True)
class Round:
    """Round `number` (1-based): its tables and the units that sit out with a bye."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[Unit, ...] = ()

    def units(self) -> list[Unit]:
        return [u for t in self.tables for u in t.units]


@dataclass
class Schedule:
    """The rounds seated so far, with what they were built from."""

    format: str
    table_size: int
    partnership: bool
    units: tuple[Unit, ...]
    rounds: list[Round] = field(default_factory=list)
    seed: str = "0"


@dataclass
class History:
    """What earlier rounds did, as the next round's seating needs it.

    `meetings[a][b]`: rounds in which a and b sat at the same table; `positions[a][j]`: times a took unit
    position j (the seat, or the team's pair of seats j and j + k); `seats[p][s]`: times player p sat at
    seat s; `left[a][b]`: times b sat directly left of a; `byes[a]`: byes given to a; `played[a]`: tables a
    sat at.
    """

    meetings: dict[Unit, dict[Unit, int]] = field(default_factory=dict)
    positions: dict[Unit, list[int]] = field(default_factory=dict)
    seats: dict[Hashable, list[int]] = field(default_factory=dict)
    left: dict[Unit, dict[Unit, int]] = field(default_factory=dict)
    byes: Counter = field(default_factory=Counter)
    played: Counter = field(default_factory=Counter)

    @classmethod
    def from_rounds(cls, rounds: Iterable[Round]) -> History:
        history = cls()
        for r in rounds:
            history.record(r)
        return history

    def met(self, a: Unit, b: Unit) -> int:
        return self.meetings.get(a, {}).get(b, 0)

    def record(self, rnd: Round) -> None:
        for table in rnd.tables:
            self.record_table(table.units, table.seats)
        for u in rnd.byes:
            self.byes[u] += 1

    def record_table(self, units: Sequence[Unit], seats: Sequence[Hashable] = ()) -> None:
        """Record one table: its units in unit order and, if known, its players in seat order."""
        for s, p in enumerate(seats):
            self.seats.setdefault(p, [0] * 6)[s] += 1
        k = len(units)
        for j, a in enumerate(units):
            mine = self.meetings.setdefault(a, {})
            for b in units:
                if b != a:
                    mine[b] = mine.get(b, 0) + 1
            pos = self.positions.setdefault(a, [0] * 6)
            pos[j] += 1
            if k > 2:  # at two units each is left of the other every time: nothing to balance
                nxt = units[(j + 1) % k]
                lm = self.left.setdefault(a, {})
                lm[nxt] = lm.get(nxt, 0) + 1
            self.played[a] += 1
