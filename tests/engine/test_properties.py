"""Property tests over many random games of every variant (random bots, seeds drawn by hypothesis).

The default profile plays well over a thousand games; HYPOTHESIS_PROFILE=thorough plays tens of thousands.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, SeatView, from_record, replay, to_record
from engine.diamonds.bots import play_game

from .support import ALL_RULESETS, TOTAL_CRYSTALS, bots_for, crystals, receiver, snapshot

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "engine-default")
games = settings(settings.get_profile(PROFILE))  # see conftest.py
seeds = st.integers(min_value=0, max_value=2**40)
variants = st.sampled_from(sorted(ALL_RULESETS))


def drive(game: Game, bots, stop: int | None = None, check=None) -> int:
    """Let the bots decide until the game is over (or `stop` decisions were made); returns decisions made."""
    made = 0
    while game.pending is not None and (stop is None or made < stop):
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(SeatView(game, seat)))
        made += 1
        if check is not None:
            check(game)
    return made


def conserved(game: Game) -> None:
    assert crystals(game) == TOTAL_CRYSTALS
    assert game.supply >= 0 and min(game.vault) >= 0 and min(game.showroom) >= 0


@pytest.mark.parametrize("name", sorted(ALL_RULESETS))
@games
@given(seed=seeds)
def test_crystals_are_conserved_and_every_card_is_played_once(name, seed):
    """R-ACT-D/H/S/C, R-ACT-EMPTY: 235 points are always somewhere. R-PASS-2, R-ROUND-1: every card in a hand
    after passing is played exactly once, by that seat, that round."""
    ruleset = ALL_RULESETS[name]
    game = Game(ruleset, f"prop-{seed}")
    conserved(game)
    drive(game, bots_for(ruleset.players, seed), check=conserved)
    assert game.over
    record = to_record(game)
    assert len(record["rounds"]) == ruleset.rounds
    n = ruleset.players
    for r in record["rounds"]:
        after_pass = [Counter(h) for h in r["hands"]]
        for giver, given_cards in enumerate(r["passes"]):
            assert len(given_cards) == r["pass_count"]
            after_pass[giver].subtract(given_cards)
            after_pass[receiver(ruleset, giver)].update(given_cards)
        played = [Counter() for _ in range(n)]
        for t in r["tricks"]:
            for p in t["plays"]:
                played[p["seat"]][p["card"]] += 1
        for seat in range(n):
            assert +after_pass[seat] == played[seat], f"seat {seat}"
            assert all(v == 1 for v in played[seat].values())


@games
@given(name=variants, seed=seeds, where=st.floats(min_value=0, max_value=1.1))
def test_export_then_import_gives_the_same_record_and_state(name, seed, where):
    ruleset = ALL_RULESETS[name]
    n = ruleset.players
    estimate = ruleset.rounds * (n * ruleset.hand_size + n + 3)
    game = Game(ruleset, f"export-{seed}")
    drive(game, bots_for(n, seed), stop=int(where * estimate))
    record = to_record(game)
    text = json.dumps(record, sort_keys=True)
    copy = from_record(json.loads(text))
    assert json.dumps(to_record(copy), sort_keys=True) == text
    if game.phase == "pass_cards" and any(game.pending_passes):
        # passes already chosen are secret until everyone has chosen: a record cannot hold them
        assert not any(copy.pending_passes)
        for seat in range(n):
            if game.passed_by(seat) is not None:
                copy.pass_cards(seat, game.passed_by(seat))
    assert snapshot(copy) == snapshot(game)
    # both games go on identically
    drive(game, bots_for(n, f"{seed}/after"))
    drive(copy, bots_for(n, f"{seed}/after"))
    assert snapshot(copy) == snapshot(game)


@games
@given(name=variants, seed=seeds)
def test_replaying_a_record_reproduces_it(name, seed):
    ruleset = ALL_RULESETS[name]
    game = Game(ruleset, f"replay-{seed}", seats=[f"p{s}" for s in range(ruleset.players)])
    play_game(game, bots_for(ruleset.players, seed))
    record = json.loads(json.dumps(to_record(game)))
    replayed, derived, disagreements = replay(record)
    assert disagreements == []
    assert derived == record
    assert snapshot(replayed) == snapshot(game)
    # the choices alone are enough
    choices = {k: record[k] for k in ("format", "ruleset", "seed", "seats", "teams", "first_dealer")}
    choices["rounds"] = [{k: r[k] for k in ("hands", "pass_count", "passes", "clubs_targets")} |
                         {"tricks": [{"plays": [{"card": p["card"]} for p in t["plays"]]} for t in r["tricks"]]}
                         for r in record["rounds"]]
    _, derived, disagreements = replay(choices)
    assert derived == record
    assert disagreements == []


@games
@given(name=variants, seed=seeds)
def test_same_seed_same_choices_same_game(name, seed):
    """A game is fully determined by its ruleset, seed and choices (RULES.md, "What the engine must guarantee")."""
    ruleset = ALL_RULESETS[name]
    a, b = Game(ruleset, f"same-{seed}"), Game(ruleset, f"same-{seed}")
    play_game(a, bots_for(ruleset.players, seed))
    play_game(b, bots_for(ruleset.players, seed))
    assert json.dumps(to_record(a)) == json.dumps(to_record(b))
    assert a.first_dealer == b.first_dealer  # R-SETUP-2


@games
@given(name=variants, seed=seeds, where=st.floats(min_value=0, max_value=1))
def test_a_clone_plays_on_exactly_like_the_game(name, seed, where):
    """`Game.clone` (used by search bots) is independent of the original and, fed the same decisions, reaches
    the same state; a clone without logging reaches the same crystals and result."""
    ruleset = ALL_RULESETS[name]
    n = ruleset.players
    estimate = ruleset.rounds * (n * ruleset.hand_size + n + 3)
    game = Game(ruleset, f"clone-{seed}")
    drive(game, bots_for(n, seed), stop=int(where * estimate))
    before = snapshot(game)
    copy, quiet = game.clone(), game.clone(logging=False)
    drive(copy, bots_for(n, f"{seed}/after"))
    assert snapshot(game) == before, "playing the clone changed the original"
    drive(game, bots_for(n, f"{seed}/after"))
    drive(quiet, bots_for(n, f"{seed}/after"))
    assert snapshot(copy) == snapshot(game)
    assert (quiet.result, quiet.supply, quiet.vault, quiet.showroom, quiet.thief, quiet.move_number) == (
        game.result, game.supply, game.vault, game.showroom, game.thief, game.move_number)
