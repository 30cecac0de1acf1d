"""engine.decision_random.DecisionRandom: the generator the league seeds before every bot decision
(league.services.play.seeded_for). Seeded from a 256-bit number, it draws that number's bits first, then a Mersenne
Twister seeded from it; every draw of random.Random works on it, deterministically and uniformly."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from engine.decision_random import DecisionRandom
from engine.diamonds.bots import RandomBot
from engine.diamonds.game import Game
from engine.diamonds.ruleset import Ruleset
from engine.diamonds.view import SeatView
from engine.fastrandom import below, sample, shuffle


def _seed(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_first_bits_are_the_seeds_low_bits_first_then_a_twister_seeded_from_it():
    number = int(_seed("bits"), 16)
    rng = DecisionRandom(_seed("bits"))
    assert [rng.getrandbits(8) for _ in range(32)] == [(number >> (8 * i)) & 0xFF for i in range(32)]
    twister = random.Random(number)
    assert [rng.getrandbits(32) for _ in range(10)] == [twister.getrandbits(32) for _ in range(10)]
    assert rng.random() == twister.random()


def test_the_same_seed_draws_the_same_and_another_seed_otherwise():
    def draws(seed: str) -> list:
        rng = DecisionRandom(seed)
        xs = list(range(20))
        shuffle(rng, xs)
        return [rng.randrange(7), below(rng, 13), rng.random(), sample(rng, list(range(10)), 3), rng.choice("abc"),
                xs, [rng.getrandbits(64) for _ in range(8)]]

    assert draws(_seed("a")) == draws(_seed("a"))
    assert draws(_seed("a")) != draws(_seed("b"))
    rng = DecisionRandom()
    rng.seed(_seed("a"))
    first = [rng.randrange(1000) for _ in range(60)]
    rng.seed(_seed("a"))  # seeding again starts over, whatever was drawn, Twister included
    assert [rng.randrange(1000) for _ in range(60)] == first


def test_draws_are_uniform():
    # randrange(5) from 4,000 seeds' first draws: rejection sampling, not a modulo, so no value is favoured.
    counts = Counter(DecisionRandom(_seed(f"u{i}")).randrange(5) for i in range(4000))
    chi2 = sum((c - 800) ** 2 / 800 for c in counts.values())
    assert len(counts) == 5 and chi2 < 18.5  # the 0.1% point of chi-square with 4 degrees of freedom
    floats = [DecisionRandom(_seed(f"f{i}")).random() for i in range(2000)]
    assert all(0.0 <= x < 1.0 for x in floats) and 0.45 < sum(floats) / len(floats) < 0.55


@pytest.mark.parametrize("seed", [-1, 1 << 256, "f" * 65])
def test_a_seed_of_more_than_256_bits_is_refused(seed):
    with pytest.raises(ValueError):
        DecisionRandom(seed)


def test_a_bot_seeded_so_decides_the_same_way_every_time():
    game = Game(Ruleset.from_dict({"players": 4}), "decision-random", ["a", "b", "c", "d"])
    seat = game.pending.seats[0]

    def decide() -> object:
        bot = RandomBot()
        bot.rng = DecisionRandom(_seed(f"seat-{seat}/move-{game.move_number}"))
        return bot.decide(SeatView(game, seat))

    assert len({repr(decide()) for _ in range(5)}) == 1


def test_a_draw_method_taken_before_the_seed_bits_ran_out_goes_on_with_the_same_twister():
    # Hot loops take `rng.getrandbits` once and call it in a rejection loop (engine.fastrandom's inlined draws): past
    # the seed's 256 bits such a method must go on with the Twister, not start one afresh (which would give the same
    # number for ever).
    rng = DecisionRandom(_seed("taken"))
    getrandbits, uniform = rng.getrandbits, rng.random
    taken = [getrandbits(7) for _ in range(80)]  # 560 bits: 36 of the seed's draws, then the Twister
    assert len(set(taken[40:])) > 20
    fresh = DecisionRandom(_seed("taken"))
    assert [fresh.getrandbits(7) for _ in range(80)] == taken  # as the instance's own methods draw
    assert uniform() == fresh.random()
