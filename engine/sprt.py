"""The sequential probability ratio test (SPRT) that decides "is the candidate bot stronger than the baseline?".

How chess engine testing does it (fishtest, OpenBench) and how we carry it to a multi-player card game:

- Games come in **pairs of duplicate deals** (engine.comparison): the same deal, the same seat and the same field
  (every other decision maker seeded alike), once with the candidate and once with the baseline. Each pair gives
  one outcome in [0, 1]: the candidate's **duplicate score** against the baseline, w = (1 + s_c - s_b) / 2, where
  s is the tested seat's placement score in its game (the share of the other competitors it finished ahead of,
  ties counting half). w = 1: the candidate beat everyone the baseline lost to and more; w = 0.5: no difference.
  For two-player chess pairs this is exactly fishtest's pentanomial score (0, 1/4, 1/2, 3/4, 1); with c
  competitors at the table w takes the 4(c - 1) + 1 values k / (4(c - 1)).
- Hypotheses are in **Elo-like** units on that score, as fishtest's "logistic Elo": H0: the expected duplicate
  score is L(elo0), H1: it is L(elo1), with L(e) = 1 / (1 + 10^(-e/400)). (`from_difference` takes them as a
  mean placement-score difference instead: d = 2w - 1.)
- The log-likelihood ratio is the **generalised SPRT on the multinomial** of outcomes (Michel Van den Bergh's
  construction that fishtest uses): the distribution of outcomes is estimated as observed, then, under each
  hypothesis, replaced by the closest distribution (maximum likelihood) whose mean is that hypothesis's score;
  LLR = N * sum_i p_i log(p1_i / p0_i). No model of draws or of the outcome's shape is assumed, which is what a
  card game with four players needs. Cells never seen count as 1/1000 of an observation, as fishtest does, so
  the MLE exists from the first pair.
- Wald's bounds: accept H0 when LLR <= log(beta / (1 - alpha)), H1 when LLR >= log((1 - beta) / alpha).

Tested against published fishtest/fastchess figures (trinomial and pentanomial, tests/engine/test_sprt.py) and by
simulation (an equal candidate accepts H1 at about alpha; a clearly stronger one accepts H1 fast).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

# fishtest's regularisation: a cell nobody has seen yet counts as this many observations.
UNSEEN = 1e-3
Z95 = 1.959963984540054


def expected_score(elo: float) -> float:
    """Logistic Elo -> expected score."""
    odds: float = 10.0 ** (-elo / 400.0)  # float ** float is typed as Any (a negative base would give a complex)
    return 1.0 / (1.0 + odds)


def elo_of(score: float) -> float:
    """Expected score -> logistic Elo (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: never "-0.0"


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper): accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _closest_with_mean(values: Sequence[float], probs: Sequence[float], mean: float) -> list[float]:
    """The distribution on `values` closest (maximum likelihood) to `probs` with the given mean:
    q_i = p_i / (1 + lam (a_i - mean)), lam solving sum_i p_i (a_i - mean) / (1 + lam (a_i - mean)) = 0.
    The left side falls as lam rises, between the poles where some denominator reaches 0, so bisection finds it."""
    low_value, high_value = min(values), max(values)
    if not low_value < mean < high_value:
        raise ValueError(f"the mean {mean} must lie strictly between the outcomes {low_value} and {high_value}")
    shifts = [a - mean for a in values]
    lo = -1.0 / (high_value - mean)
    hi = 1.0 / (mean - low_value)

    def slope(lam: float) -> tuple[float, float]:
        """The equation's left side and its derivative (always negative: the side falls as lam rises)."""
        value = derivative = 0.0
        for p, x in zip(probs, shifts):
            d = 1.0 + lam * x
            value += p * x / d
            derivative -= p * x * x / (d * d)
        return value, derivative

    # Newton's method from 0, kept inside a bracket that shrinks with every step (bisection when Newton would leave
    # it): a few steps usually, never more than the bisection's 200.
    a, b = lo + (hi - lo) * 1e-12, hi - (hi - lo) * 1e-12
    lam = 0.0
    for _ in range(200):
        value, derivative = slope(lam)
        if value > 0.0:
            a = lam
        else:
            b = lam
        if abs(value) < 1e-15:
            break
        step = lam - value / derivative
        lam = step if a < step < b else (a + b) / 2.0
        if b - a < 1e-15:
            break
    q = [p / (1.0 + lam * x) for p, x in zip(probs, shifts)]
    total = sum(q)
    return [x / total for x in q]


def llr(values: Sequence[float], counts: Sequence[float], score0: float, score1: float) -> float:
    """The generalised log-likelihood ratio of H1 (mean score1) against H0 (mean score0) for outcomes `values`
    seen `counts` times (cells with no observation count as UNSEEN)."""
    if len(values) != len(counts) or len(values) < 2:
        raise ValueError("give at least two outcome values and one count per value")
    regular = [max(float(c), UNSEEN) for c in counts]
    n = sum(regular)
    probs = [c / n for c in regular]
    q0 = _closest_with_mean(values, probs, score0)
    q1 = _closest_with_mean(values, probs, score1)
    return n * sum(p * math.log(b / a) for p, a, b in zip(probs, q0, q1))


def outcome_grid(competitors: int) -> list[float]:
    """Every duplicate score a pair can have with `competitors` at the table (teams with partnerships):
    multiples of 1 / (4 (competitors - 1))."""
    if competitors < 2:
        raise ValueError("a comparison needs at least two competitors at the table")
    steps = 4 * (competitors - 1)
    return [k / steps for k in range(steps + 1)]


def placement_score(places: Sequence[int], hero: int) -> float:
    """The share of the other competitors `places[hero]` finished ahead of (1 = best place; a tie counts half).
    `places` has one entry per competitor."""
    others = [p for c, p in enumerate(places) if c != hero]
    if not others:
        raise ValueError("a placement score needs other competitors")
    mine = places[hero]
    return sum(1.0 if mine < p else 0.5 if mine == p else 0.0 for p in others) / len(others)


def duplicate_score(candidate: float, baseline: float) -> float:
    """One pair's outcome from the tested seat's placement scores in the candidate's and the baseline's game."""
    return 0.5 + (candidate - baseline) / 2.0  # exactly 0.5 when they placed alike


@dataclass(frozen=True)
class Hypotheses:
    """H0 and H1 as logistic Elo on the duplicate score, with the test's error rates."""

    elo0: float = 0.0
    elo1: float = 20.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0.0 < self.alpha < 0.5 and 0.0 < self.beta < 0.5):
            raise ValueError("alpha and beta must lie between 0 and 0.5")
        if not self.elo0 < self.elo1:
            raise ValueError("elo0 must be below elo1")
        if not (-1000.0 <= self.elo0 and self.elo1 <= 1000.0):
            raise ValueError("elo0 and elo1 must lie within -1000 .. 1000")

    @classmethod
    def from_difference(cls, diff0: float, diff1: float, alpha: float = 0.05, beta: float = 0.05) -> Hypotheses:
        """H0/H1 given as the candidate's mean placement-score advantage over the baseline (-1 .. 1)."""
        if not -1.0 < diff0 < diff1 < 1.0:
            raise ValueError("the differences must satisfy -1 < diff0 < diff1 < 1")
        return cls(elo_of((1 + diff0) / 2), elo_of((1 + diff1) / 2), alpha, beta)

    @property
    def bounds(self) -> tuple[float, float]:
        return wald_bounds(self.alpha, self.beta)


@dataclass
class Sprt:
    """A running test: add each pair's outcome, read the state after every pair."""

    hypotheses: Hypotheses
    competitors: int
    max_pairs: int = 2000
    outcomes: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.grid = outcome_grid(self.competitors)
        self.counts = [0] * len(self.grid)
        for w in list(self.outcomes):
            self._count(w)

    def _count(self, w: float) -> None:
        steps = len(self.grid) - 1
        k = round(w * steps)
        if not 0 <= k <= steps or abs(k - w * steps) > 1e-6:
            raise ValueError(f"{w} is not a duplicate score of a table of {self.competitors}")
        self.counts[k] += 1

    def add(self, w: float) -> None:
        self._count(w)
        self.outcomes.append(w)

    def extend(self, ws: Iterable[float]) -> None:
        for w in ws:
            self.add(w)

    @property
    def pairs(self) -> int:
        return len(self.outcomes)

    @property
    def llr(self) -> float:
        if not self.outcomes:
            return 0.0
        h = self.hypotheses
        return llr(self.grid, self.counts, expected_score(h.elo0), expected_score(h.elo1))

    @property
    def decision(self) -> str | None:
        """"H1" (the candidate is stronger by elo1), "H0" (not by more than elo0), "max" (no decision within
        max_pairs) or None (play on)."""
        lower, upper = self.hypotheses.bounds
        value = self.llr
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        if self.pairs >= self.max_pairs:
            return "max"
        return None

    def estimate(self) -> dict[str, float]:
        """The mean duplicate score and placement-score difference with 95% intervals, and the Elo they mean."""
        n = self.pairs
        if n == 0:
            return {"mean_score": 0.5, "mean_difference": 0.0, "difference_low": -1.0, "difference_high": 1.0,
                    "elo": 0.0, "elo_low": -math.inf, "elo_high": math.inf}
        mean = sum(self.outcomes) / n
        var = sum((w - mean) ** 2 for w in self.outcomes) / (n - 1) if n > 1 else 0.25
        half = Z95 * math.sqrt(var / n)
        low, high = max(0.0, mean - half), min(1.0, mean + half)
        return {"mean_score": mean, "mean_difference": 2 * mean - 1, "difference_low": 2 * low - 1,
                "difference_high": 2 * high - 1, "elo": elo_of(mean), "elo_low": elo_of(low), "elo_high": elo_of(high)}

    def state(self) -> dict[str, object]:
        """Everything a page or a log line shows after a pair."""
        lower, upper = self.hypotheses.bounds
        return {"pairs": self.pairs, "llr": self.llr, "lower": lower, "upper": upper, "decision": self.decision,
                **self.estimate()}
