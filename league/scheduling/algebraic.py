"""Exact constructions for the few fields where a repeat-free schedule is known and greedy search can miss it.

- q**d units at tables of q (q = 2, 3, 4, 5; d >= 2): the parallel classes of the affine space AG(d, q) over
  GF(q), one round per direction, (q**d - 1) / (q - 1) rounds in which every pair meets exactly once overall,
  the most such a field allows (d = 2 is the affine plane: 16 in fours for 5 rounds, 25 in fives for 6; d = 3
  gives 27 in threes for 13 rounds, KTS(27), and 64 in fours for 21).
- an even number of units at tables of 2: the circle method gives n-1 rounds in which every pair meets once.
- 2**d units at tables of 4 (d = 4, 5, 6): cosets of disjoint planes of GF(2)**d, so 32 in fours get 9
  repeat-free rounds (the most this method can give; see `binary_plane_rounds`).
- 32 units at tables of 4 for 10 rounds (`binary_rgdd_rounds`): 5 rounds of plane cosets and 5 rounds each made
  of a few base tables and their translates, a resolvable 4-GDD of type 2^16 (the social golfer instance 8-4-10).
- developed designs (`designs`): Kirkman triple systems KTS(15), KTS(21) and RBIBD(28, 4, 1).

Each returns rounds as lists of tables of unit indexes (0..n-1); the caller relabels them at random.
"""

from __future__ import annotations

import functools
import itertools

# GF(4) = {0, 1, a, a+1} written 0..3: addition is XOR, multiplication by this table (a*a = a+1).
_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)
AFFINE_ORDERS = (2, 3, 4, 5)
BINARY_PLANES_MAX_DIMENSION = 6  # 64 units; the spread search is instant up to there


def _field(q: int):
    if q == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])
    return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)


def affine_plane_rounds(q: int) -> list[list[list[int]]]:
    """q+1 rounds of q tables of q for q*q units; point (x, y) is unit x*q + y."""
    if q not in AFFINE_ORDERS:
        raise ValueError(f"no affine plane construction for order {q}")
    add, mul = _field(q)
    rounds = []
    for m in range(q):  # lines y = m*x + b, one round per slope m
        tables = [[x * q + add(mul(m, x), b) for x in range(q)] for b in range(q)]
        rounds.append(tables)
    rounds.append([[c * q + y for y in range(q)] for c in range(q)])  # the vertical lines x = c
    return rounds


def affine_dimension(n_units: int, q: int) -> int | None:
    """d >= 2 with q**d == n_units, if there is one and GF(q) is available."""
    if q not in AFFINE_ORDERS:
        return None
    d, size = 1, q
    while size < n_units:
        size *= q
        d += 1
    return d if size == n_units and d >= 2 else None


def affine_space_rounds(q: int, d: int) -> list[list[list[int]]]:
    """(q**d - 1)/(q - 1) rounds of q**(d-1) tables of q for q**d units: the lines of AG(d, q), one round per
    direction (a nonzero vector whose first nonzero coordinate is 1). Vector (x_1..x_d) is unit sum x_i q**(d-i)."""
    if q not in AFFINE_ORDERS or d < 2:
        raise ValueError(f"no affine space construction for order {q}, dimension {d}")
    if d == 2:
        return affine_plane_rounds(q)
    add, mul = _field(q)
    points = list(itertools.product(range(q), repeat=d))

    def index(p: tuple[int, ...]) -> int:
        out = 0
        for x in p:
            out = out * q + x
        return out

    rounds = []
    for direction in points:
        nonzero = [x for x in direction if x]
        if not nonzero or nonzero[0] != 1:
            continue
        seated: set[int] = set()
        tables = []
        for p in points:
            if index(p) in seated:
                continue
            line = [index(tuple(add(x, mul(t, v)) for x, v in zip(p, direction))) for t in range(q)]
            seated.update(line)
            tables.append(line)
        rounds.append(tables)
    return rounds


@functools.cache
def binary_plane_rounds(d: int) -> list[list[list[int]]]:
    """Rounds of tables of 4 for 2**d units (d >= 4), each the cosets of one 2-dimensional subspace of GF(2)**d.

    Units a and b meet in the round of subspace U exactly when a XOR b is in U, so subspaces sharing no nonzero
    vector (a partial spread of lines of PG(d-1, 2)) give repeat-free rounds. A backtracking search over the
    subspaces, in a fixed order, finds the largest set the spread bound allows (for d = 5, 32 units: 9 rounds;
    no set of 10 exists, 2**d - 1 = 31 nonzero vectors in threes, and the known maximum is 9).
    """
    if not 4 <= d <= BINARY_PLANES_MAX_DIMENSION:
        raise ValueError(f"binary planes are built for dimensions 4 to {BINARY_PLANES_MAX_DIMENSION}")
    n = 1 << d
    planes = []
    for a in range(1, n):
        for b in range(a + 1, n):
            c = a ^ b
            if c > b:
                planes.append((1 << a) | (1 << b) | (1 << c))
    target = (n - 1) // 3 if d % 2 == 0 else (n - 1) // 3 - 1  # a spread when d is even; one short when odd
    chosen: list[int] = []

    def extend(start: int, used: int) -> bool:
        if len(chosen) == target:
            return True
        for i in range(start, len(planes)):
            if planes[i] & used == 0:
                chosen.append(planes[i])
                if extend(i + 1, used | planes[i]):
                    return True
                chosen.pop()
        return False

    extend(0, 0)
    rounds = []
    for mask in chosen:
        a, b = [x for x in range(n) if mask >> x & 1][:2]
        rounds.append(_plane_cosets(a, b, n))
    return rounds


def _plane_cosets(a: int, b: int, n: int) -> list[list[int]]:
    """The n // 4 cosets of the plane {0, a, b, a ^ b} of GF(2)**d (n = 2**d units), as tables."""
    seen: set[int] = set()
    tables = []
    for x in range(n):
        if x not in seen:
            table = [x, x ^ a, x ^ b, x ^ a ^ b]
            seen.update(table)
            tables.append(table)
    return tables


# 32 in fours for 10 rounds, the social golfer instance 8-4-10 (Aguado gave the first such schedule in 2004;
# this one was found for this project). No partial spread of GF(2)^5 has 10 planes, so only 5 rounds here are
# plane cosets; each of the 5 others is a few base tables and their translates by a subgroup of GF(2)^5 (given by
# generators) that maps the round onto itself. Every table of those rounds has its 6 differences among the 16
# nonzero vectors outside the 5 planes, and together they use each pair {x, x ^ w} once except w = 6: unit x
# never meets unit x ^ 6 (the 16 groups of a resolvable 4-GDD of type 2^16) and meets every other unit exactly
# once. Found offline by a SAT search over the tables of the Cayley graph of those 16 differences (see
# league/scheduling/README.md); the tests check every pair.
RGDD_2_16_PLANES = ((4, 11), (13, 17), (5, 9), (2, 29), (3, 25))
RGDD_2_16_ROUNDS: tuple[tuple[tuple[int, ...], tuple[tuple[int, int, int, int], ...]], ...] = (
    ((1, 2, 4, 16), ((0, 1, 22, 23), (8, 15, 24, 31))),
    ((1, 6, 18), ((0, 7, 18, 21), (2, 5, 17, 22), (8, 9, 28, 29), (10, 11, 24, 25))),
    ((6, 19), ((0, 8, 19, 27), (1, 15, 17, 25), (3, 13, 22, 24))),
    ((1, 6, 10, 18), ((0, 10, 20, 30), (2, 8, 16, 26))),
    ((6, 19), ((0, 14, 16, 24), (1, 9, 18, 26), (2, 12, 23, 25))),
)
RGDD_2_16_UNMET = 6  # x and x ^ 6 never share a table


def _span(generators: tuple[int, ...]) -> list[int]:
    """The subgroup of GF(2)**d (vectors as ints, addition XOR) spanned by the generators."""
    group = [0]
    for g in generators:
        if g not in group:
            group += [x ^ g for x in group]
    return group


@functools.cache
def binary_rgdd_rounds() -> list[list[list[int]]]:
    """10 rounds of 8 tables of 4 for 32 units (GF(2)**5) in which no pair meets twice: the 5 planes' cosets,
    then each translate-built round (its base tables moved by every vector of its subgroup, each table once)."""
    rounds = [_plane_cosets(a, b, 32) for a, b in RGDD_2_16_PLANES]
    for generators, base in RGDD_2_16_ROUNDS:
        tables: dict[frozenset[int], list[int]] = {}
        for t in _span(generators):
            for block in base:
                table = sorted(x ^ t for x in block)
                tables.setdefault(frozenset(table), table)
        rounds.append(sorted(tables.values()))
    return rounds


def round_robin_pairs(n: int) -> list[list[list[int]]]:
    """n-1 rounds of n/2 tables of 2 (n even): unit n-1 stays put while the others turn round it."""
    if n % 2 or n < 2:
        raise ValueError("the circle method needs an even number of units")
    rounds = []
    ring = list(range(n - 1))
    for r in range(n - 1):
        order = ring[r:] + ring[:r]
        tables = [[n - 1, order[0]]] + [[order[i], order[n - 1 - i]] for i in range(1, n // 2)]
        rounds.append(tables)
    return rounds
