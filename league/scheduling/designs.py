"""Resolvable designs made by developing one base parallel class: Kirkman triple systems and their kin.

A field of v = n + f players is taken as the integers mod n (the *finite* points 0..n-1) plus f fixed points
("infinities", n..n+f-1). A *base class* is one round: a partition of all v points into tables. Round i
(i = 0..rounds-1) is the base class with every finite point x moved to (x + i*step) mod n; the infinities stay
put, so each round is again a partition of the field. If no pair of points is covered twice over all the
developed rounds, the schedule is repeat-free. This is the classical "1-rotational" / cyclic development of
design theory (a base class whose differences are all distinct, in the language of difference families):

- KTS(15):  Z_14 + 1 infinity, step 2, 7 rounds of five triples (Kirkman's schoolgirls)
- KTS(21):  Z_21, step 3, 7 developed rounds of seven triples, and 3 rounds each the orbit of one triple
  meeting the three residues mod 3 (a class the development maps to itself)
- RBIBD(28, 4, 1): Z_27 + 1 infinity, step 3, 9 rounds of seven tables of 4

KTS(15) and RBIBD(28, 4, 1) were found with `search_base_class` below (a randomised backtracking search over
partitions, pruning any table whose developed pairs collide, with restarts; seconds). KTS(21) came from the same
idea narrowed by hand: writing point 3j + r as (j, level r) with j in Z_7, each level holds one triple {c, c+1,
c+3} (a (7,3,1) difference set: all its differences once) and the other triples take one point per level; their
level-to-level differences a, b, a+b must run through all of Z_7 (an orthomorphism of Z_7), 4 of them in the base
class and 3 as the fixed rounds, found by a short exhaustive search. The tests develop every design here and
check each pair meets exactly once, so the data cannot silently be wrong. To find another:

    python -m league.scheduling.find_design --finite 14 --infinities 1 --table-size 3 --step 2 --rounds 7
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class DevelopedDesign:
    """A base class and how to develop it; `players` = finite + infinities."""

    name: str
    finite: int
    infinities: int
    step: int
    rounds: int
    base: tuple[tuple[int, ...], ...]
    # Rounds the development leaves fixed, after the developed ones: each is the orbit of one block (the block
    # moved by 0, step, 2*step, ... until it returns), which must itself be a partition of the field.
    extra: tuple[tuple[int, ...], ...] = ()

    @property
    def players(self) -> int:
        return self.finite + self.infinities

    @property
    def total_rounds(self) -> int:
        return self.rounds + len(self.extra)

    @property
    def table_size(self) -> int:
        return len(self.base[0])

    def develop(self, rounds: int | None = None) -> list[list[list[int]]]:
        """The first `rounds` rounds (all by default) as lists of tables of point indexes."""
        count = self.total_rounds if rounds is None else min(rounds, self.total_rounds)
        developed = [[[_shift(x, i * self.step, self.finite) for x in block] for block in self.base]
                     for i in range(self.rounds)]
        orbit_length = self.finite // self.step
        fixed = [[[_shift(x, i * self.step, self.finite) for x in block] for i in range(orbit_length)]
                 for block in self.extra]
        return (developed + fixed)[:count]


def _shift(x: int, by: int, n: int) -> int:
    return (x + by) % n if x < n else x


# (players, table size) -> the design; see the module docstring for where these come from.
BASE_CLASSES: dict[tuple[int, int], DevelopedDesign] = {}


def _register(design: DevelopedDesign) -> None:
    BASE_CLASSES[(design.players, design.table_size)] = design


_register(DevelopedDesign("KTS(15)", finite=14, infinities=1, step=2, rounds=7,
                          base=((1, 9, 10), (2, 3, 5), (0, 7, 11), (6, 8, 12), (4, 13, 14))))
_register(DevelopedDesign("KTS(21)", finite=21, infinities=0, step=3, rounds=7,
                          base=((9, 15, 18), (10, 16, 19), (5, 8, 14), (0, 1, 2), (3, 7, 11), (6, 13, 20),
                                (4, 12, 17)),
                          extra=((0, 10, 20), (0, 11, 16), (0, 17, 19))))
_register(DevelopedDesign("RBIBD(28,4,1)", finite=27, infinities=1, step=3, rounds=9,
                          base=((6, 13, 21, 23), (0, 1, 26, 27), (5, 9, 12, 18), (4, 15, 20, 25), (10, 19, 22, 24),
                                (2, 8, 16, 17), (3, 7, 11, 14))))


def search_base_class(
    finite: int, infinities: int, table_size: int, step: int, rounds: int, *, seed: int = 0,
    node_limit: int = 200_000, restarts: int = 1000, fixed: Sequence[Sequence[Sequence[int]]] = (),
) -> tuple[tuple[int, ...], ...] | None:
    """A base class whose development covers no pair twice, or None if the restarts run out.

    Backtracking: the lowest point not yet seated opens a table, which is filled with points whose developed
    pairs with the table so far are all new. Candidates are tried in a random order, and a try that exceeds
    `node_limit` nodes is abandoned for a fresh order (heavy-tailed search times make restarts pay). Pairs met
    in the `fixed` rounds count as covered already.
    """
    v = finite + infinities
    if v % table_size:
        raise ValueError("the field must fill its tables")

    def orbit(a: int, b: int) -> frozenset[int] | None:
        """The pair ids covered by developing {a, b} over every round; None if the pair meets itself twice."""
        seen = set()
        for i in range(rounds):
            x, y = _shift(a, i * step, finite), _shift(b, i * step, finite)
            pid = min(x, y) * v + max(x, y)
            if pid in seen:
                return None
            seen.add(pid)
        return frozenset(seen)

    orbits: dict[tuple[int, int], int | None] = {}
    for a in range(v):
        for b in range(a + 1, v):
            o = orbit(a, b)
            orbits[(a, b)] = None if o is None else sum(1 << p for p in o)
    precovered = 0
    for rnd in fixed:
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    precovered |= 1 << (min(a, b) * v + max(a, b))
    rng = random.Random(seed)
    for _ in range(restarts):
        nodes = 0
        order = list(range(v))
        rng.shuffle(order)
        rank = {p: i for i, p in enumerate(order)}

        def fill(free: list[int], covered: int, blocks: list[list[int]],
                 rank: dict[int, int] = rank) -> list[list[int]] | None:
            nonlocal nodes
            nodes += 1
            if nodes > node_limit:
                return None
            if not free:
                return blocks
            block = blocks[-1] if blocks and len(blocks[-1]) < table_size else None
            if block is None:
                first = free[0]
                return fill(free[1:], covered, [*blocks, [first]])
            for p in free:
                if rank[p] < rank[block[-1]]:
                    continue  # members after the opener in rank order only, so each table is tried once
                mask = 0
                ok = True
                for q in block:
                    o = orbits[(min(p, q), max(p, q))]
                    if o is None or o & covered or o & mask:
                        ok = False
                        break
                    mask |= o
                if not ok:
                    continue
                rest = [x for x in free if x != p]
                found = fill(rest, covered | mask, [*blocks[:-1], [*block, p]])
                if found is not None:
                    return found
                if nodes > node_limit:
                    return None
            return None

        found = fill(order, precovered, [])
        if found is not None:
            return tuple(tuple(sorted(b)) for b in found)
    return None


def covered_twice(rounds: Sequence[Sequence[Sequence[int]]]) -> int:
    """Pairs that sit together in more than one table (0 for a repeat-free schedule)."""
    seen: set[tuple[int, int]] = set()
    twice = 0
    for rnd in rounds:
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    key = (min(a, b), max(a, b))
                    if key in seen:
                        twice += 1
                    seen.add(key)
    return twice
