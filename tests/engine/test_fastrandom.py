"""engine.fastrandom draws exactly what the standard library draws, on whichever path runs (issue 30).

The pure-Python path runs fastrandom.py, the compiled build fastrandom.pyx (its own Mersenne Twister code and
seeding, SHA-512 included): either must give `random.Random`'s numbers for every seed and every draw, or deals,
boards, bots and stored games would change. tests/engine/test_compiled.py checks that both paths draw alike; this
checks them against the standard library itself.
"""

from __future__ import annotations

import random

import pytest

from engine import _loader, fastrandom
from engine.decision_random import DecisionRandom
from engine.fastrandom import (
    below,
    new_random,
    random_float,
    reset_random,
    sample,
    seeded_below,
    seeded_sample,
    seeded_shuffle,
    shuffle,
)

SEEDS = [
    "", "a", "bench/4/17", "\u00e9t\u00e9/3", "\U0001f48e", "x" * 111, "x" * 112, "x" * 113, "x" * 119, "x" * 127,
    "x" * 128, "x" * 129, "x" * 191, "x" * 192, "x" * 193, "y" * 500,
    0, 1, 7, -7, 2**31, 2**32 - 1, 2**32, 2**62, 2**63 - 1, -(2**63), 2**64 - 1, 2**64, -(2**70), 2**200,
    b"bytes", bytearray(b"bytearray"), 2.5,
]


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_a_seeded_generator_is_the_standard_librarys(seed):
    fast, slow = new_random(seed), random.Random(seed)
    assert type(fast) is random.Random
    assert fast.getstate() == slow.getstate()
    for n in (1, 2, 3, 5, 7, 10, 16, 60, 200, 1000, 2**20, 2**31, 2**32 - 1, 2**32, 2**40):
        assert [below(fast, n) for _ in range(30)] == [slow.randrange(n) for _ in range(30)], n
    assert [random_float(fast) for _ in range(10)] == [slow.random() for _ in range(10)]
    for _ in range(1300):  # twice past a generation of the Twister's 624 words
        assert below(fast, 6) == slow.randrange(6)
    assert fast.getstate() == slow.getstate()


@pytest.mark.parametrize("seed", SEEDS[:20], ids=repr)
def test_shuffles_and_samples_are_the_standard_librarys(seed):
    fast, slow = new_random(seed), random.Random(seed)
    for length in (0, 1, 2, 10, 40, 61, 200):
        xs, ys = list(range(length)), list(range(length))
        shuffle(fast, xs)
        slow.shuffle(ys)
        assert xs == ys
    for n, k in ((1, 1), (3, 2), (10, 0), (10, 3), (13, 5), (21, 4), (21, 5), (22, 3), (16, 6), (60, 9)):
        population = list(range(100, 100 + n))
        assert sample(fast, population, k) == slow.sample(population, k)
    assert fast.getstate() == slow.getstate()


@pytest.mark.parametrize("seed", SEEDS, ids=repr)
def test_draws_from_a_generator_used_once_are_the_standard_librarys(seed):
    for n in (1, 4, 6, 49, 2**33):
        assert seeded_below(seed, n) == random.Random(seed).randrange(n)
    for length in (0, 1, 42, 49, 60):
        xs, ys = list(range(length)), list(range(length))
        seeded_shuffle(seed, xs)
        random.Random(seed).shuffle(ys)
        assert xs == ys
    for population, k in ((range(42), 16), (range(10), 10), (list("abcdefg"), 3), (tuple(range(90)), 20),
                          (range(300), 40), (range(5), 0)):
        assert seeded_sample(seed, population, k) == random.Random(seed).sample(population, k)


def test_a_generator_reset_to_anothers_state_draws_what_it_would():
    source = new_random("source")
    source.gauss(0, 1)  # a pending second normal variate is part of the state too
    for _ in range(700):
        below(source, 1000)
    rng = new_random(0)
    reset_random(rng, source)
    assert rng.getstate() == source.getstate()
    assert [below(rng, 97) for _ in range(50)] == [below(source, 97) for _ in range(50)]
    assert rng.gauss(0, 1) == source.gauss(0, 1)


def test_a_subclass_draws_through_its_own_methods():
    # The league's generator draws its seed's bits first: `below` and `sample` must ask it, not read a Twister.
    seed = "ab" * 32
    fast, slow = DecisionRandom(seed), DecisionRandom(seed)
    assert [below(fast, n) for n in (3, 10, 100, 1000) * 10] == [slow.randrange(n) for n in (3, 10, 100, 1000) * 10]
    xs, ys = list(range(20)), list(range(20))
    shuffle(fast, xs)
    slow.shuffle(ys)
    assert xs == ys
    assert sample(fast, list(range(10)), 3) == slow.sample(list(range(10)), 3)
    assert random_float(fast) == slow.random()


def test_the_compiled_build_draws_in_c():
    if not _loader.compiled_modules() or "engine.fastrandom" not in _loader.compiled_modules():
        pytest.skip("the engine runs as pure Python here")
    assert fastrandom.drawn_in_c  # the import-time check found the C draws and seeding the standard library's
