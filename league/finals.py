"""The final stage of a tournament: pure functions over plain values, no models or database (only Django's gettext for
the messages); league.services.finals seats it, the ranking selector ranks it.

After the qualifying rounds the best `final_size` competitors by the standings go on to the final. It has one or more
*stages*: stage 1 seats the finalists at tables of the tournament's size (or one smaller, as any round:
league.scheduling.table_sizes, never with a bye), the best `advance` of each table go on to the next stage, and the
last stage is one table, which decides the winner. Like Tabbycat's breaks and Challonge's brackets, the field is
seeded by rank:

- Cut: the qualifying standings in order; competitors sharing a place after every tie-break of the standings are
  put in an order drawn from the tournament's seed (so a tie for the last final place is a fair draw, and the same
  tournament draws the same way). Dropped competitors (and, with check-in, absent ones) are passed over.
- Seating (`seat_by_rank`): finalists are dealt to the tables in snake order (1, 2, ..., t, t, ..., 2, 1, 1, 2...), so
  every table gets a fair share of the strongest; at each table they sit in rank order: the best-ranked in the first
  seat, which deals first.
- Ranking (`final_decides_ranking`): the last stage's table decides places 1..n by its placement (the game's, R-WIN-1
  for Diamonds: score, then vault); those out at an earlier stage follow, later stages first, by their place at their
  table and then their qualifying rank; everyone else keeps their qualifying order after them. Competitors the final
  table leaves tied share the place.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.utils.translation import gettext as _

from .scheduling import TableShape, table_sizes

Competitor = Hashable
# The functions keep their callers' competitor type: the league's finals seat players by id.
C = TypeVar("C", bound=Hashable)


def stage_tables(field: int, table_size: int, *, min_players: int, max_players: int) -> list[int]:
    """The table sizes seating `field` finalists in one stage (tables of `table_size` or one smaller, largest
    first); ValueError when they cannot all be seated without a bye."""
    if field < min_players:
        raise ValueError(_("a final table needs at least %(min)d players, not %(n)d")
                         % {"min": min_players, "n": field})
    shape = TableShape.for_table_size(table_size, max_players=max_players)
    sizes, byes = table_sizes(field, shape)
    if byes or any(s < min_players for s in sizes):
        raise ValueError(_("%(n)d finalists cannot be seated at tables of %(size)d without a bye")
                         % {"n": field, "size": table_size})
    return sizes


def plan_stages(final_size: int, stages: int, advance: int, table_size: int, *, min_players: int,
                max_players: int) -> list[list[int]]:
    """The table sizes of every stage of a final of `final_size` with `stages` stages where the best `advance` of
    each table go on; the last stage is exactly one table. ValueError naming what does not work."""
    if stages < 1:
        raise ValueError(_("a final has at least one stage"))
    field, plan = final_size, []
    for stage in range(1, stages + 1):
        sizes = stage_tables(field, table_size, min_players=min_players, max_players=max_players)
        plan.append(sizes)
        if stage == stages:
            if len(sizes) != 1:
                raise ValueError(_("the last stage of the final is one table: %(n)d finalists need %(tables)d "
                                   "tables (make the final smaller or add a stage)")
                                 % {"n": field, "tables": len(sizes)})
            break
        if len(sizes) == 1:
            raise ValueError(_("stage %(stage)d of the final is already one table: no further stage is needed")
                             % {"stage": stage})
        if not 1 <= advance < min(sizes):
            raise ValueError(_("from tables of %(small)d to %(large)d, 1 to %(most)d go on, not %(advance)r")
                             % {"small": min(sizes), "large": max(sizes), "most": min(sizes) - 1,
                                "advance": advance})
        field = advance * len(sizes)
    return plan


def cut_order(standings: Sequence[tuple[C, int]], seed: object) -> list[C]:
    """The competitors of (competitor, rank) standings, best first, those sharing a rank in an order drawn from
    `seed` (see the module docstring)."""
    rng = random.Random(f"{seed}/final-cut")
    draw = {c: rng.random() for c, _ in sorted(standings, key=lambda s: repr(s[0]))}
    return [c for c, _ in sorted(standings, key=lambda s: (s[1], draw[s[0]]))]


def seat_by_rank(ranked: Sequence[C], sizes: Sequence[int]) -> list[list[C]]:
    """The tables of one stage: `ranked` (best first, exactly sum(sizes) of them) dealt in snake order; at each
    table in rank order."""
    if len(ranked) != sum(sizes):
        raise ValueError(f"{len(ranked)} finalists for {sum(sizes)} seats")  # a caller's bug, not a user's
    tables: list[list[C]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    i = 0
    while i < len(ranked):
        for t in order:
            if i < len(ranked) and len(tables[t]) < sizes[t]:
                tables[t].append(ranked[i])
                i += 1
        order.reverse()
    return tables


@dataclass(frozen=True)
class StageTable(Generic[C]):
    """One finished table of a stage: each competitor's place at it (1 best; tied ones share)."""

    stage: int
    places: dict[C, int]


@dataclass(frozen=True)
class Ranked:
    rank: int
    competitor: Competitor
    shared: bool
    stage: int  # the last final stage played (0: not in the final)
    stage_place: int | None  # the place at that stage's table


def advancing(table: StageTable[C], advance: int, qualifying: Sequence[C]) -> list[C]:
    """The best `advance` of a finished table: by place, a tie across the cut broken by qualifying rank."""
    position = {c: i for i, c in enumerate(qualifying)}
    return sorted(table.places, key=lambda c: (table.places[c], position.get(c, len(position))))[:advance]


def final_decides_ranking(qualifying: Sequence[C], tables: Sequence[StageTable[C]]) -> list[Ranked]:
    """The final ranking when the final decides places 1..n: see the module docstring. `qualifying` is the cut
    order of the whole field (best first), `tables` the final's finished tables."""
    position = {c: i for i, c in enumerate(qualifying)}
    last_stage: dict[C, tuple[int, int]] = {}
    for t in sorted(tables, key=lambda t: t.stage):
        for c, place in t.places.items():
            last_stage[c] = (t.stage, place)
    # Later stages first, then the place there, then qualifying rank; the rest by qualifying rank.
    def key(c):
        stage, place = last_stage.get(c, (0, 0))
        return (-stage, place, position.get(c, len(position)))
    order = sorted({*qualifying, *last_stage}, key=key)
    top = max((s for s, _ in last_stage.values()), default=0)
    # Those the last stage played leaves on the same place share it (the first of them gives the rank).
    level: Counter[tuple[int, int | None]] = Counter(
        last_stage[c] for c in order if c in last_stage and last_stage[c][0] == top)
    first: dict[tuple[int, int | None], int] = {}
    out: list[Ranked] = []
    for i, c in enumerate(order):
        stage, stage_place = last_stage.get(c, (0, None))
        shared = top > 0 and stage == top and level[(stage, stage_place)] > 1
        rank = first.setdefault((stage, stage_place), i + 1) if shared else i + 1
        out.append(Ranked(rank, c, shared, stage, stage_place))
    return out
