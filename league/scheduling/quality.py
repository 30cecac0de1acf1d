"""How good a schedule is: repeat meetings, seat-position balance, left-neighbour repeats and byes.

Meetings are counted between units (players, or teams at partnership tables). Seat figures are per player:
a player's *seat spread* is the most minus the fewest times they took one seat index, over the seat indexes
of the largest table they sat at (at tables of 4 for 8 rounds, perfect balance is 2 of each: spread 0).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from itertools import combinations

from .model import Schedule


@dataclass(frozen=True)
class Quality:
    units: int
    rounds: int
    tables: int
    table_sizes: dict[int, int]  # players at a table -> tables of that size, over all rounds
    byes: int  # byes given, over all rounds
    max_byes: int  # most byes one unit got
    pairs_met: int  # distinct pairs that sat together at least once
    max_meetings: int  # most times any pair sat together
    repeated_pairs: int  # pairs that sat together more than once
    meeting_bound: int  # no schedule of these tables can do better than this for max_meetings
    max_seat_spread: int  # worst player: most minus fewest times at one seat index
    mean_seat_spread: float
    max_left_repeats: int  # most times one player sat directly left of the same player

    def as_rows(self) -> list[tuple[str, str]]:
        """(figure, value) pairs in a stable order, for printing."""
        rows = []
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, dict):
                value = ", ".join(f"{k}: {v}" for k, v in sorted(value.items())) or "-"
            elif isinstance(value, float):
                value = f"{value:.2f}"
            rows.append((f.name.replace("_", " "), str(value)))
        return rows


def measure(schedule: Schedule) -> Quality:
    """The quality figures of a schedule's rounds."""
    pair_count: Counter = Counter()
    opponents: Counter = Counter()  # unit -> meetings in total (with repeats)
    seat_counts: dict[object, Counter] = {}
    largest: dict[object, int] = {}
    left_count: Counter = Counter()
    byes: Counter = Counter()
    sizes: Counter = Counter()
    n_tables = 0
    for rnd in schedule.rounds:
        for u in rnd.byes:
            byes[u] += 1
        for table in rnd.tables:
            n_tables += 1
            sizes[table.size] += 1
            for a, b in combinations(table.units, 2):
                pair_count[frozenset((a, b))] += 1
            for u in table.units:
                opponents[u] += len(table.units) - 1
            n = table.size
            for s, p in enumerate(table.seats):
                seat_counts.setdefault(p, Counter())[s] += 1
                largest[p] = max(largest.get(p, 0), n)
                if n > 2:  # at a table of two each player is left of the other every time
                    left_count[(p, table.seats[(s + 1) % n])] += 1
    n_units = len(schedule.units)
    bound = 0
    if n_units > 1 and opponents:
        bound = max(-(-m // (n_units - 1)) for m in opponents.values())
    spreads = [
        max(counts[s] for s in range(largest[p])) - min(counts[s] for s in range(largest[p]))
        for p, counts in seat_counts.items()
    ]
    return Quality(
        units=n_units,
        rounds=len(schedule.rounds),
        tables=n_tables,
        table_sizes=dict(sizes),
        byes=sum(byes.values()),
        max_byes=max(byes.values(), default=0),
        pairs_met=len(pair_count),
        max_meetings=max(pair_count.values(), default=0),
        repeated_pairs=sum(1 for c in pair_count.values() if c > 1),
        meeting_bound=bound,
        max_seat_spread=max(spreads, default=0),
        mean_seat_spread=sum(spreads) / len(spreads) if spreads else 0.0,
        max_left_repeats=max(left_count.values(), default=0),
    )
