"""Exact constructions for the few fields where a repeat-free schedule is known and greedy search can miss it.

- q**d units at tables of q (q = 2, 3, 4, 5; d >= 2): the parallel classes of the affine space AG(d, q) over
  GF(q), one round per direction, (q**d - 1) / (q - 1) rounds in which every pair meets exactly once overall,
  the most such a field allows (d = 2 is the affine plane: 16 in fours for 5 rounds, 25 in fives for 6; d = 3
  gives 27 in threes for 13 rounds, KTS(27), and 64 in fours for 21).
- an even number of units at tables of 2: the circle method gives n-1 rounds in which every pair meets once.
- developed designs (`designs`): Kirkman triple systems KTS(15), KTS(21), RBIBD(28, 4, 1), 32 in fours.

Each returns rounds as lists of tables of unit indexes (0..n-1); the caller relabels them at random.
"""

from __future__ import annotations

import itertools

# GF(4) = {0, 1, a, a+1} written 0..3: addition is XOR, multiplication by this table (a*a = a+1).
_GF4_MUL = (
    (0, 0, 0, 0),
    (0, 1, 2, 3),
    (0, 2, 3, 1),
    (0, 3, 1, 2),
)
AFFINE_ORDERS = (2, 3, 4, 5)


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
