"""Suit Actions: R-ACT-D, R-ACT-H, R-ACT-S, R-ACT-C (thief and choose) and R-ACT-EMPTY."""

from __future__ import annotations

import pytest

from engine import Game, IllegalDecision, Ruleset, to_record
from engine.diamonds.bots import play_game

from .support import actions, bots_for, crystals, game_after_pass, play, snapshot

# Four players, three cards each; seat 3 deals, so seat 0 leads and (thief mode) holds the Thief.
FOUR = [
    ["C1", "H5", "S7"],
    ["C2", "H9", "D1"],
    ["C3", "S2", "D15"],
    ["C4", "H3", "H12"],
]
# Seat 0 leads hearts; seats 1, 2 and 3 hold no hearts and play clubs.
THIEVES = [
    ["D1", "H5", "S7"],
    ["D2", "C5", "S8"],
    ["D3", "C6", "S9"],
    ["D4", "C7", "S10"],
]


def test_R_ACT_D_diamonds_supply_to_own_vault():
    game = game_after_pass(Ruleset(4, hand_size=3, rounds=1), FOUR, first_dealer=3)
    supply = game.supply
    play(game, "H5", "H9", "D15")
    assert game.vault == [0, 0, 1, 0]
    assert game.showroom == [3, 3, 3, 3]
    assert game.supply == supply - 1
    assert actions(game)[-1]["suit"] == "D" and actions(game)[-1]["moved"] == 1


def test_R_ACT_H_hearts_supply_to_own_showroom():
    game = game_after_pass(Ruleset(4, hand_size=3, rounds=1), FOUR, first_dealer=3)
    supply = game.supply
    play(game, "H5", "H9", "S2", "H3")  # seat 1 wins a hearts trick
    assert game.showroom == [3, 4, 2, 3]
    assert game.vault == [0, 0, 1, 0]
    assert game.supply == supply - 1  # the spades action took nothing from the supply


def test_R_ACT_S_spades_own_showroom_to_own_vault():
    game = game_after_pass(Ruleset(4, hand_size=3, rounds=1), FOUR, first_dealer=3)
    supply = game.supply
    play(game, "H5", "H9", "S2")
    assert (game.showroom[2], game.vault[2], game.supply) == (2, 1, supply)


def test_R_ACT_C_thief_mode_robs_the_thief_holder_and_the_thief_moves_left():
    game = game_after_pass(Ruleset(4, hand_size=3, rounds=1), THIEVES, first_dealer=3)
    assert game.thief == 0
    play(game, "H5", "C5")
    assert game.showroom == [2, 4, 3, 3] and game.thief == 1
    play(game, "C6")
    assert game.showroom == [2, 3, 4, 3] and game.thief == 2
    play(game, "C7")  # the last card: seat 3 robs seat 2, then seat 0 wins the hearts trick (+1 showroom)
    assert game.showroom == [3, 3, 3, 4] and game.thief == 3
    clubs = [a for a in actions(game) if a["suit"] == "C"]
    assert [(a["seat"], a["target"], a["moved"]) for a in clubs] == [(1, 0, 1), (2, 1, 1), (3, 2, 1)]
    assert to_record(game)["rounds"][0]["clubs_targets"] == []  # no choices in thief mode


def test_R_ACT_C_thief_holder_taking_clubs_moves_nothing_but_the_thief_still_moves():
    hands = [["C9", "D1", "S1"], ["C1", "D2", "S2"], ["C2", "D3", "S3"], ["C3", "D4", "S4"]]
    game = game_after_pass(Ruleset(4, hand_size=3, rounds=1), hands, first_dealer=3)
    assert game.thief == 0
    play(game, "C9", "C1", "C2", "C3")  # seat 0 holds the Thief and wins a clubs trick
    assert game.showroom == [3, 3, 3, 3]
    assert game.thief == 1
    assert actions(game) == [{"seat": 0, "suit": "C", "cause": "trick", "trick": 0, "target": 0, "moved": 0}]


def test_R_ACT_C_thief_mode_empty_showroom_robbed_moves_nothing_and_the_thief_still_moves():
    game = game_after_pass(Ruleset(4, hand_size=3, rounds=1), THIEVES, first_dealer=3)
    # set-up: seat 0 has put all three showroom points in its vault (as three spades actions would)
    game.showroom[0], game.vault[0] = 0, 3
    total = crystals(game)
    play(game, "H5", "C5")
    assert game.showroom == [0, 3, 3, 3] and game.thief == 1
    assert actions(game)[-1] == {"seat": 1, "suit": "C", "cause": "offsuit", "trick": 0, "target": 0, "moved": 0}
    play(game, "C6")  # the Thief moved on: seat 1 is robbed now
    assert game.showroom == [0, 2, 4, 3] and game.thief == 2
    assert crystals(game) == total


def test_R_ACT_C_choose_mode_the_actor_names_another_player():
    game = game_after_pass(
        Ruleset(3, clubs="choose", hand_size=2, rounds=1), [["H1", "H2"], ["C5", "D1"], ["H9", "S1"]], first_dealer=2
    )
    assert game.thief is None
    play(game, "H1", "C5")
    pending = game.pending
    assert (pending.kind, pending.seats) == ("clubs_target", (1,))
    assert game.legal(1) == [0, 2]
    assert game.legal(0) == [] and game.legal(2) == []
    game.choose_clubs_target(1, 2)
    assert game.showroom == [3, 4, 2]
    assert actions(game)[-1] == {"seat": 1, "suit": "C", "cause": "offsuit", "trick": 0, "target": 2, "moved": 1}
    assert game.to_play == 2
    play(game, "H9")
    assert to_record(game)["rounds"][0]["clubs_targets"] == [2]


def test_R_ACT_C_choose_mode_only_non_empty_showrooms_can_be_named():
    game = game_after_pass(
        Ruleset(3, clubs="choose", hand_size=2, rounds=1), [["H1", "H2"], ["C5", "D1"], ["H9", "S1"]],
        first_dealer=2, auto_clubs=False,
    )
    game.showroom[0], game.vault[0] = 0, 3  # set-up: seat 0's showroom is empty
    play(game, "H1", "C5")
    assert game.legal(1) == [2]
    before = snapshot(game)
    with pytest.raises(IllegalDecision) as e:
        game.choose_clubs_target(1, 0)
    assert e.value.rule == "R-ACT-C"
    assert snapshot(game) == before
    game.choose_clubs_target(1, 2)
    assert game.showroom == [0, 4, 2]


def test_R_ACT_C_choose_mode_a_single_option_is_taken_automatically():
    game = game_after_pass(
        Ruleset(3, clubs="choose", hand_size=2, rounds=1), [["H1", "H2"], ["C5", "D1"], ["H9", "S1"]], first_dealer=2
    )
    game.showroom[0], game.vault[0] = 0, 3
    play(game, "H1", "C5")
    assert game.pending.kind == "play" and game.to_play == 2
    assert game.showroom == [0, 4, 2]
    assert to_record(game)["rounds"][0]["clubs_targets"] == [2]


def test_R_ACT_C_choose_mode_every_other_showroom_empty_names_no_one():
    game = game_after_pass(
        Ruleset(3, clubs="choose", hand_size=2, rounds=1), [["H1", "H2"], ["C5", "D1"], ["H9", "S1"]], first_dealer=2
    )
    game.showroom[0], game.vault[0] = 0, 3
    game.showroom[2], game.vault[2] = 0, 3
    play(game, "H1", "C5")
    assert game.pending.kind == "play"
    assert game.showroom == [0, 3, 0]
    assert actions(game)[-1] == {"seat": 1, "suit": "C", "cause": "offsuit", "trick": 0, "target": None, "moved": 0}
    assert to_record(game)["rounds"][0]["clubs_targets"] == [None]


def test_R_ACT_EMPTY_supply_runs_dry_for_diamonds_and_hearts():
    game = game_after_pass(Ruleset(4, hand_size=3, rounds=1), FOUR, first_dealer=3)
    game.supply = 1  # set-up: the supply is almost empty (crystals are not conserved from here on)
    play(game, "H5", "H9", "D15")
    assert game.supply == 0 and game.vault[2] == 1
    play(game, "H3")  # seat 1 wins hearts: nothing left to take
    assert game.supply == 0
    assert game.showroom[1] == 3
    assert actions(game)[-1] == {"seat": 1, "suit": "H", "cause": "trick", "trick": 0, "target": None, "moved": 0}
    play(game, "D1")  # seat 1 leads diamonds; seat 2 follows with nothing left in the supply
    assert game.vault == [0, 0, 1, 0]


def test_R_ACT_EMPTY_spades_with_an_empty_showroom_moves_nothing():
    game = game_after_pass(Ruleset(4, hand_size=3, rounds=1), FOUR, first_dealer=3)
    game.showroom[2], game.vault[2] = 0, 3  # set-up: seat 2 has already banked its showroom
    play(game, "H5", "H9", "S2")
    assert (game.showroom[2], game.vault[2]) == (0, 3)
    assert actions(game)[-1] == {"seat": 2, "suit": "S", "cause": "offsuit", "trick": 0, "target": None, "moved": 0}


def test_R_ACT_EMPTY_a_game_with_a_dry_supply_still_finishes_and_conserves():
    """Random games where the supply starts at 1 point: no action ever takes what is not there."""
    for seed in range(10):
        game = Game(Ruleset(4), f"dry-{seed}")
        game.supply = 1  # set-up: 234 points are out of the game; the rest must be conserved
        start = crystals(game)
        play_game(game, bots_for(4, seed))
        assert game.over
        assert game.supply == 0
        assert crystals(game) == start
        moved = [a for r in to_record(game)["rounds"] for a in r["actions"] if a["suit"] in "DH" and a["moved"]]
        assert len(moved) == 1
        assert min(game.showroom) >= 0 and min(game.vault) >= 0
