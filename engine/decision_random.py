"""A generator for one bot decision, seeded at the cost of a hash instead of a Mersenne Twister's.

The league seeds a bot afresh before every decision it makes in a stored match (league.services.play), from the
match seed, the seat and the move number, so that a match resumed after a crash plays on exactly as it would have.
Seeding a `random.Random` fills its 624-word state twice over, about 7 microseconds: for a quick bot, more than its
decision and the game's move together (a 4-player Diamonds match of random bots is 135 seedings, a Diamoniak match
over 200). A decision of such a bot draws a few dozen bits.

`DecisionRandom` is a `random.Random` whose seed is a 256-bit number (a SHA-256 digest, which the league computes
anyway). Its first 256 bits are that number's, low bits first; a bot that wants more (the search bot's playouts)
gets a Mersenne Twister seeded from the same number once its bits run out, and everything after comes from the
Twister. Every draw of `random.Random` (randrange, choice, shuffle, sample, random) works, built on `getrandbits`
and `random` as the standard library builds them; the draws are uniform as the digest's bits are.

Deterministic: the same seed gives the same draws in every process and on every platform.
"""

from __future__ import annotations

import random
from typing import NoReturn

_SEED_BITS = 256
_RANDOM_SCALE = 1.0 / (1 << 53)


class DecisionRandom(random.Random):
    """A `random.Random` seeded with an int of at most 256 bits (or a 64-digit hex string): see the module
    docstring."""

    def __init__(self, seed: int | str = 0):
        self._number = 0
        self._bits = 0
        self._bits_left = 0
        self._twister: random.Random | None = None
        super().__init__(seed)

    # random.Random's signature, narrowed to the seeds this generator takes (random.Random's own stub departs from
    # _random.Random's the same way, and ignores the same check).
    def seed(self, a: int | str | None = 0, version: int = 2) -> None:  # type: ignore[override]  # noqa: ARG002
        number = int(a, 16) if isinstance(a, str) else int(a or 0)
        if not 0 <= number < 1 << _SEED_BITS:
            raise ValueError("a DecisionRandom seed is a number of at most 256 bits")
        if self._twister is not None:  # back to drawing the seed's bits
            del self.getrandbits, self.random
            self._twister = None
        self._number = self._bits = number
        self._bits_left = _SEED_BITS
        self.gauss_next = None

    def getrandbits(self, k: int) -> int:
        if k <= self._bits_left:
            self._bits_left -= k
            bits = self._bits
            self._bits = bits >> k
            return bits & ((1 << k) - 1)
        twister = self._twister
        if twister is None:
            # The seed's bits are spent: a Twister for the rest of this decision. Its own methods are set on the
            # instance, so the search bot's thousands of draws call its C code with no Python method between (a
            # caller that took this method before still reaches the same Twister, here).
            twister = self._twister = random.Random(self._number)
            # mypy forbids assigning to a method; shadowing them on the instance is the point here.
            self.getrandbits, self.random = twister.getrandbits, twister.random  # type: ignore[method-assign,assignment]
        return twister.getrandbits(k)

    def random(self) -> float:
        if self._twister is not None:  # a caller that took this method before the Twister came
            return self._twister.random()
        return self.getrandbits(53) * _RANDOM_SCALE

    def getstate(self) -> NoReturn:  # pragma: no cover - nothing pickles a decision's generator
        raise NotImplementedError("a DecisionRandom lives for one decision")

    def setstate(self, state: object) -> NoReturn:  # pragma: no cover
        raise NotImplementedError("a DecisionRandom lives for one decision")
