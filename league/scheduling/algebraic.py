"""Exact constructions for the few fields where a repeat-free schedule is known and greedy search can miss it.

- q*q units at tables of q (q = 2, 3, 4, 5): the q+1 parallel classes of the affine plane over GF(q) seat
  everyone q+1 times with every pair meeting exactly once overall, the most a field of q*q allows.
- an even number of units at tables of 2: the circle method gives n-1 rounds in which every pair meets once.

Each returns rounds as lists of tables of unit indexes (0..n-1); the caller relabels them at random.
"""

from __future__ import annotations

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
