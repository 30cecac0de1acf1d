"""engine.sprt: the sequential test against published figures and by simulation; engine.comparison's pairs."""

from __future__ import annotations

import math
import random

import pytest

from engine.comparison import Contestant, PairSpec, play_game_of_pair, play_pair, seats_under_test
from engine.games import game_type
from engine.sprt import (
    Hypotheses,
    Sprt,
    duplicate_score,
    elo_of,
    expected_score,
    llr,
    outcome_grid,
    placement_score,
    wald_bounds,
)

TRINOMIAL = [0.0, 0.5, 1.0]
PENTANOMIAL = [0.0, 0.25, 0.5, 0.75, 1.0]


def pentanomial(ll, ld, wl, dd, wd, ww):
    """fastchess's six pair counts (a win-loss and two draws both score 1 of 2) as the five outcome cells."""
    return [ll, ld, wl + dd, wd, ww]


@pytest.mark.parametrize("values, counts, elo0, elo1, published", [
    # fastchess's tests of its logistic SPRT, which follows fishtest: (losses, draws, wins) and pentanomial pairs.
    (TRINOMIAL, [21184, 40708, 21404], 0.5, 2.5, -1.57),
    (TRINOMIAL, [57030, 106593, 57433], 0.0, 2.0, -2.59),
    (PENTANOMIAL, pentanomial(223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, -3.07),
    (PENTANOMIAL, pentanomial(871, 26175, 55003, 980, 26678, 821), 0.0, 2.0, -4.98),
])
def test_llr_matches_published_fishtest_figures(values, counts, elo0, elo1, published):
    assert llr(values, counts, expected_score(elo0), expected_score(elo1)) == pytest.approx(published, abs=0.006)


def test_wald_bounds_and_elo_conversions():
    lower, upper = wald_bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)
    assert wald_bounds(0.05, 0.1)[0] == pytest.approx(math.log(0.1 / 0.95))
    assert expected_score(0) == 0.5 and elo_of(0.5) == 0.0
    assert elo_of(expected_score(37.5)) == pytest.approx(37.5)
    assert elo_of(1.0) == math.inf and elo_of(0.0) == -math.inf


def test_hypotheses_refuse_nonsense():
    for bad in [dict(elo0=5, elo1=0), dict(alpha=0), dict(beta=0.7), dict(elo0=-5000)]:
        with pytest.raises(ValueError):
            Hypotheses(**bad)
    h = Hypotheses.from_difference(0.0, 0.1)
    assert h.elo0 == pytest.approx(0.0, abs=1e-9) and expected_score(h.elo1) == pytest.approx(0.55)


def test_placement_and_duplicate_scores():
    assert placement_score([1, 2, 3, 4], 0) == 1.0
    assert placement_score([1, 2, 3, 4], 3) == 0.0
    assert placement_score([2, 1, 2, 4], 0) == pytest.approx((0 + 0.5 + 1) / 3)
    assert duplicate_score(1.0, 0.0) == 1.0 and duplicate_score(0.5, 0.5) == 0.5
    assert outcome_grid(2) == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert len(outcome_grid(4)) == 13
    # Every pair outcome of a 4-competitor table lies on its grid, ties included.
    grid = set(outcome_grid(4))
    scores = {placement_score(p, 0) for p in ([1, 2, 3, 4], [2, 1, 3, 4], [1, 1, 3, 4], [2, 2, 2, 1], [3, 1, 1, 1])}
    assert all(round(duplicate_score(a, b) * 12) / 12 in grid for a in scores for b in scores)
    with pytest.raises(ValueError):
        Sprt(Hypotheses(), competitors=4).add(0.3)  # not a duplicate score of a table of 4


def _tilted(base: list[float], mean: float) -> list[float]:
    """`base` on the pentanomial outcomes, exponentially tilted until its mean is `mean`."""
    def tilt(t: float) -> list[float]:
        weights = [p * math.exp(t * a) for p, a in zip(base, PENTANOMIAL)]
        return [w / sum(weights) for w in weights]

    low, high = -50.0, 50.0
    for _ in range(100):
        middle = (low + high) / 2
        if sum(p * a for p, a in zip(tilt(middle), PENTANOMIAL)) < mean:
            low = middle
        else:
            high = middle
    return tilt(low)


def _simulate(true_elo: float, hypotheses: Hypotheses, rng: random.Random, max_pairs: int = 3000) -> tuple[str, int]:
    """One test on simulated pairs of a 2-competitor table: outcomes on the pentanomial grid with the given
    expected score and a realistic spread (half of the pairs even, the rest spread out)."""
    test = Sprt(hypotheses, competitors=2, max_pairs=max_pairs)
    probs = _tilted([0.05, 0.2, 0.5, 0.2, 0.05], expected_score(true_elo))
    while test.decision is None:
        test.add(rng.choices(PENTANOMIAL, probs)[0])
    return test.decision, test.pairs


def test_simulated_equal_candidate_accepts_h1_at_about_alpha_and_a_strong_one_fast():
    rng = random.Random(20)
    hypotheses = Hypotheses(elo0=0, elo1=60, alpha=0.05, beta=0.05)
    runs = 300
    equal = [_simulate(0, hypotheses, rng) for _ in range(runs)]
    false_positives = sum(1 for decision, _ in equal if decision == "H1") / runs
    assert false_positives <= 0.09  # alpha 0.05; 300 runs leave a standard error of about 0.013
    assert sum(1 for decision, _ in equal if decision == "H0") / runs >= 0.9
    at_h1 = [_simulate(60, hypotheses, rng) for _ in range(150)]
    assert sum(1 for decision, _ in at_h1 if decision == "H1") / len(at_h1) >= 0.88  # power 1 - beta = 0.95
    strong = [_simulate(150, hypotheses, rng) for _ in range(100)]
    assert sum(1 for decision, _ in strong if decision == "H1") >= 97
    mean_pairs_strong = sum(n for _, n in strong) / len(strong)
    mean_pairs_equal = sum(n for _, n in equal) / len(equal)
    assert mean_pairs_strong < mean_pairs_equal  # a clearly stronger bot is told apart faster


def test_state_after_every_pair_carries_llr_bounds_and_interval():
    test = Sprt(Hypotheses(0, 20), competitors=4, max_pairs=3)
    assert test.state()["pairs"] == 0 and test.decision is None
    for w in (0.75, 0.5, 0.5833333333333334):
        test.add(w)
    state = test.state()
    assert state["pairs"] == 3 and state["decision"] in ("max", "H0", "H1")
    assert state["difference_low"] <= state["mean_difference"] <= state["difference_high"]
    assert state["lower"] < 0 < state["upper"]


def _spec(game: str, players: int, candidate: str, baseline: str, field: str) -> PairSpec:
    kind = game_type(game)
    return PairSpec(game, kind.make_ruleset(players), Contestant(candidate), Contestant(baseline), Contestant(field),
                    seed="test-pairs")


@pytest.mark.parametrize("game, players, candidate, baseline, field", [
    ("diamonds", 4, "greedy", "random", "greedy"),
    ("diamoniak", 3, "heuristic", "random", "random"),
    ("ringrace", 4, "heuristic", "random", "random"),
])
def test_both_games_of_a_pair_share_the_deal_and_the_field_decisions_up_to_the_tested_seat(
        game, players, candidate, baseline, field):
    spec = _spec(game, players, candidate, baseline, field)
    kind = game_type(game)
    for index in range(3):
        competitor, seats = seats_under_test(spec, index)
        assert competitor == index % spec.competitors()
        logs: tuple[list, list] = ([], [])
        games = [play_game_of_pair(spec, index, who, observe=lambda seat, d, log=log: log.append((seat, repr(d))))
                 for who, log in zip((spec.candidate, spec.baseline), logs)]
        a, b = (kind.to_record(g) for g in games)
        assert a["seed"] == b["seed"] and a["ruleset"] == b["ruleset"]
        if game == "diamonds":
            # Each round is dealt from the seed whatever was played before: every round's hands are the same.
            rounds = min(len(a["rounds"]), len(b["rounds"]))
            assert [r["hands"] for r in a["rounds"][:rounds]] == [r["hands"] for r in b["rounds"][:rounds]]
        # The games' decisions agree up to the tested seat's first different one: the field decided alike.
        diverged = next(((x, y) for x, y in zip(*logs) if x != y), None)
        if diverged is not None:
            assert diverged[0][0] in seats and diverged[1][0] in seats, (index, diverged)
        assert len(logs[0]) > 10


def test_the_same_bot_on_both_sides_plays_identical_games_and_accepts_h0():
    spec = _spec("diamonds", 4, "greedy", "greedy", "random")
    test = Sprt(Hypotheses(0, 20), competitors=spec.competitors())
    while test.decision is None:
        pair = play_pair(spec, test.pairs)
        assert pair.candidate_places == pair.baseline_places and pair.outcome == 0.5
        test.add(pair.outcome)
    assert test.decision == "H0"


def test_arena_sprt_decides_and_prints_the_verdict_and_estimate(capsys):
    from engine import arena

    assert arena.main(["--sprt", "--seat", "greedy", "--baseline", "random", "--field", "random",
                       "--elo0", "0", "--elo1", "50", "--seed", "cli"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("H1 accepted: the candidate is stronger after ")
    assert "mean placement-score difference +" in out and "unpaired" not in err
    assert err.count("pair ") >= 2 and "LLR" in err


@pytest.mark.parametrize("argv, complaint", [
    (["--sprt", "--seat", "greedy", "--field", "random"], "--sprt needs --baseline"),
    (["--sprt", "--seat", "greedy", "--baseline", "nobody"], "--sprt needs --baseline"),
    (["--sprt", "--seat", "greedy", "--baseline", "random", "--elo0", "10", "--elo1", "0"], "elo0 must be below"),
    (["--sprt", "--seat", "greedy", "--baseline", "random", "--alpha", "0.9"], "alpha and beta"),
    (["--sprt", "--seat", "greedy", "--baseline", "random", "--max-pairs", "0"], "--max-pairs"),
])
def test_arena_sprt_refuses_what_it_cannot_test(argv, complaint, capsys):
    from engine import arena

    with pytest.raises(SystemExit) as stop:
        arena.main(argv)
    assert stop.value.code == 2 and complaint in capsys.readouterr().err
