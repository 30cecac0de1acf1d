"""Divisions of a season, promotion and relegation: pure functions, no Django (league.services.divisions stores what
they decide, league.selectors.divisions shows it).

Divisions are numbered from the top: index 0 here is Division 1. Between two adjacent divisions the top `promoted`
of the lower one go up and the bottom `relegated` of the upper one go down, so Division 1 has no promotion zone and
the last division no relegation zone. A division's order is its standings' order, which already holds every
tie-break; players still tied on all of them are in the standings' own stable order, and that order settles a tie
across a zone's edge.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

UP, DOWN, STAYS = "up", "down", "stays"

P = TypeVar("P", bound=Hashable)  # a player, as the caller names them (the league: player ids)


def zone_sizes(index: int, count: int, promoted: int, relegated: int) -> tuple[int, int]:
    """How many places at the top of division `index` (of `count`) go up, and how many at the bottom go down."""
    return (promoted if index > 0 else 0), (relegated if index < count - 1 else 0)


@dataclass(frozen=True)
class ZoneProblem:
    """A division too small for its zones: `up` + `down` places would be more than its `size` players."""

    index: int
    size: int
    up: int
    down: int


def zone_problems(sizes: Sequence[int], promoted: int, relegated: int, *,
                  skip_empty: bool = False) -> list[ZoneProblem]:
    """The divisions (by their sizes, top first) whose promotion and relegation zones would overlap: a player cannot
    go both up and down. With `skip_empty` a division without players yet is not counted (one being filled)."""
    if promoted < 0 or relegated < 0:
        raise ValueError("promotions and relegations are counted from 0")
    problems = []
    for index, size in enumerate(sizes):
        up, down = zone_sizes(index, len(sizes), promoted, relegated)
        if skip_empty and size == 0:
            continue
        if up + down > size:
            problems.append(ZoneProblem(index, size, up, down))
    return problems


def movements(order: Sequence[P], index: int, count: int, promoted: int,
              relegated: int) -> dict[P, str]:
    """Where each player of division `index` goes, its players in standings order (best first): UP, DOWN or STAYS.
    ValueError when the zones overlap (zone_problems)."""
    up, down = zone_sizes(index, count, promoted, relegated)
    if up + down > len(order):
        raise ValueError(f"division {index + 1} has {len(order)} players: {up} up and {down} down do not fit")
    out = {}
    for place, player in enumerate(order):
        out[player] = UP if place < up else DOWN if place >= len(order) - down else STAYS
    return out


def live_zones(order: Sequence[P], index: int, count: int, promoted: int,
               relegated: int) -> dict[P, str]:
    """The zones as the standings stand (UP or DOWN; the others are absent), shown while the season runs. Unlike
    `movements` this never refuses: where zones overlap, the promotion zone is shown first."""
    up, down = zone_sizes(index, count, promoted, relegated)
    out = {}
    for place, player in enumerate(order):
        if place < up:
            out[player] = UP
        elif place >= max(up, len(order) - down):
            out[player] = DOWN
    return out


def reshuffled(divisions: Sequence[Sequence[tuple[P, str]]]) -> list[list[P]]:
    """The next season's divisions from a closed season's: each division's (player, movement) in final order, top
    division first. Who went up joins the division above (at its bottom, in their order), who went down the one
    below (at its top); the rest stay in their order."""
    count = len(divisions)
    out: list[list[P]] = [[] for _ in range(count)]
    for index, members in enumerate(divisions):
        for player, move in members:
            if move == UP and index > 0:
                continue
            if move == DOWN and index < count - 1:
                continue
            out[index].append(player)
    for index, members in enumerate(divisions):
        if index < count - 1:
            out[index + 1][:0] = [p for p, move in members if move == DOWN]
        if index > 0:
            out[index - 1].extend(p for p, move in members if move == UP)
    return out


def split(order: Sequence[P], count: int) -> list[list[P]]:
    """`order` (best first) cut into `count` divisions as even as can be, the higher divisions taking the extra
    players: 10 into 3 is 4, 3, 3."""
    if count < 1:
        raise ValueError("a season has at least one division")
    size, extra = divmod(len(order), count)
    out, start = [], 0
    for index in range(count):
        end = start + size + (1 if index < extra else 0)
        out.append(list(order[start:end]))
        start = end
    return out


def regrouped(divisions: Sequence[Sequence[P]], count: int) -> list[list[P]]:
    """Divisions carried into a season of `count` divisions: the same when the count is the same, else everyone top
    to bottom in their order, split again (`split`)."""
    if len(divisions) == count:
        return [list(d) for d in divisions]
    return split([p for d in divisions for p in d], count)
