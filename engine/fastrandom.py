"""Faster spellings of `random.Random.shuffle` and `randrange(n)` that draw exactly the same numbers.

Deals and random bots are fixed by their seeds, so a faster shuffle must give the very same order. These
functions inline the standard library's rejection sampling (`getrandbits` of the bit length, retried while
too large), saving two Python calls per draw. At import they are checked against the standard library of
the running Python; if it draws differently (another version), the standard methods are used instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable

_BITS = tuple(n.bit_length() for n in range(128))


def _below(rng: random.Random, n: int) -> int:
    """Like `rng.randrange(n)` for n >= 1."""
    getrandbits = rng.getrandbits
    k = _BITS[n] if n < 128 else n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _shuffle(rng: random.Random, x: list) -> None:
    """Like `rng.shuffle(x)`."""
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bits[n] if n < 128 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _agrees() -> bool:
    for seed in ("a", "b/round-0", 7):
        fast, slow = random.Random(seed), random.Random(seed)
        xs, ys = list(range(61)), list(range(61))
        _shuffle(fast, xs)
        slow.shuffle(ys)
        if xs != ys:
            return False
        for n in (1, 2, 3, 5, 10, 16, 60, 200):
            if [_below(fast, n) for _ in range(20)] != [slow.randrange(n) for _ in range(20)]:
                return False
    return True


below: Callable[[random.Random, int], int]
shuffle: Callable[[random.Random, list], None]
if _agrees():
    below, shuffle = _below, _shuffle
else:  # pragma: no cover - another Python's random draws differently: stay with the standard library
    below, shuffle = random.Random.randrange, random.Random.shuffle
