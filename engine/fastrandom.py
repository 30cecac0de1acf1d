"""The standard library's random draws the engine makes, in faster spellings that draw exactly the same numbers.

Deals, boards, first players and random bots are fixed by their seeds, so a faster draw must give the very same
numbers:

- `new_random(seed)` is `random.Random(seed)`, and `reset_random(rng, source)` is `rng.setstate(source.getstate())`;
- `below(rng, n)` is `rng.randrange(n)`, `random_float(rng)` is `rng.random()`, `shuffle(rng, x)` is
  `rng.shuffle(x)`, `sample(rng, population, k)` is `rng.sample(population, k)`;
- `seeded_below(seed, n)`, `seeded_shuffle(seed, x)` and `seeded_sample(seed, population, k)` are the same draws
  from a `random.Random(seed)` used once.

This file is the reference, and what the pure-Python path runs: the standard library's rejection sampling
(`getrandbits` of the bit length, retried while too large) written out, saving two Python calls per draw. At
import it is checked against the standard library of the running Python; if that draws differently (another
version), the standard methods are used instead.

The compiled build (setup.py) compiles `fastrandom.pyx` in its place: the same functions drawing from the
generator's own Mersenne Twister state in C, and seeding it in C exactly as `random.Random.seed` does
(SHA-512 of a string seed included), with no Python call in between. tests/engine/test_fastrandom.py checks
both against the standard library.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

BITS = _BITS = tuple(n.bit_length() for n in range(128))  # bit lengths, for callers that inline `below`


def _below(rng: random.Random, n: int) -> int:
    """Like `rng.randrange(n)` for n >= 1."""
    getrandbits = rng.getrandbits
    k = _BITS[n] if n < 128 else n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _shuffle_plan(length: int) -> tuple[tuple[int, int, int], ...]:
    """(i, i + 1, bit length of i + 1) for each swap of a shuffle of `length` items, in the order drawn."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


_PLANS = {length: _shuffle_plan(length) for length in range(129)}


def _shuffle(rng: random.Random, x: list[Any]) -> None:
    """Like `rng.shuffle(x)`."""
    getrandbits = rng.getrandbits
    plan = _PLANS.get(len(x)) or _shuffle_plan(len(x))
    for i, n, k in plan:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _sample(rng: random.Random, population: Sequence[Any], k: int) -> list[Any]:
    """Like `rng.sample(population, k)`: for the small draws of a card game (a population of at most 21, at
    most 5 chosen) the standard library's pool method inlined; anything else goes to the standard library."""
    n = len(population)
    if n > 21 or not 0 <= k <= 5 or k > n:
        return rng.sample(population, k)
    getrandbits = rng.getrandbits
    pool = list(population)
    result = [None] * k
    for i in range(k):
        m = n - i
        bits = _BITS[m]
        j = getrandbits(bits)
        while j >= m:
            j = getrandbits(bits)
        result[i] = pool[j]
        pool[j] = pool[m - 1]  # the standard library moves the last unchosen item into the gap
    return result


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
        for n, k in ((1, 1), (3, 2), (10, 1), (10, 3), (13, 5), (21, 4), (22, 3), (10, 0)):
            population = list(range(100, 100 + n))
            if [_sample(fast, population, k) for _ in range(5)] != [slow.sample(population, k) for _ in range(5)]:
                return False
    return True


below: Callable[[random.Random, int], int]
shuffle: Callable[[random.Random, list[Any]], None]
sample: Callable[[random.Random, Sequence[Any], int], list[Any]]
# True when `below` is the inlined rejection sampling above (which a hot loop may inline again with BITS).
draws_like_stdlib = _agrees()
if draws_like_stdlib:
    below, shuffle, sample = _below, _shuffle, _sample
else:  # pragma: no cover - another Python's random draws differently: stay with the standard library
    below, shuffle, sample = random.Random.randrange, random.Random.shuffle, random.Random.sample


def new_random(seed: Any) -> random.Random:
    """`random.Random(seed)`."""
    return random.Random(seed)


def reset_random(rng: random.Random, source: random.Random) -> None:
    """`rng.setstate(source.getstate())`: `rng` draws what `source` would draw from now on."""
    rng.setstate(source.getstate())


def random_float(rng: random.Random) -> float:
    """`rng.random()`."""
    return rng.random()


def seeded_below(seed: Any, n: int) -> int:
    """`random.Random(seed).randrange(n)`, for n >= 1: one draw from a generator used once."""
    return below(random.Random(seed), n)


def seeded_shuffle(seed: Any, x: list[Any]) -> None:
    """`random.Random(seed).shuffle(x)`: a shuffle from a generator used once."""
    shuffle(random.Random(seed), x)


def seeded_sample(seed: Any, population: Sequence[Any], k: int) -> list[Any]:
    """`random.Random(seed).sample(population, k)`: a sample from a generator used once."""
    return random.Random(seed).sample(population, k)
