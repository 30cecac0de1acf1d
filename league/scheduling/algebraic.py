"""Exact constructions for the few fields where a repeat-free schedule is known and greedy search can miss it.

- q**d units at tables of q (q = 2, 3, 4, 5; d >= 2): the parallel classes of the affine space AG(d, q) over
  GF(q), one round per direction, (q**d - 1) / (q - 1) rounds in which every pair meets exactly once overall,
  the most such a field allows (d = 2 is the affine plane: 16 in fours for 5 rounds, 25 in fives for 6; d = 3
  gives 27 in threes for 13 rounds, KTS(27), and 64 in fours for 21).
- an even number of units at tables of 2: the circle method gives n-1 rounds in which every pair meets once.
- 2**d units at tables of 4 (d = 4, 5, 6): cosets of disjoint planes of GF(2)**d, so 32 in fours get 9
  repeat-free rounds (the most this method can give; see `binary_plane_rounds`).
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
        seen: set[int] = set()
        tables = []
        for x in range(n):
            if x not in seen:
                table = [x, x ^ a, x ^ b, x ^ a ^ b]
                seen.update(table)
                tables.append(table)
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
