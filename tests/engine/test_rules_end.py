"""The end of a round and of the game: R-END-1, R-END-2, R-END-3, R-END-4, R-SCORE-1, R-WIN-1."""

from __future__ import annotations

import pytest

from engine import Game, Ruleset, to_record
from engine.diamonds.bots import play_game

from .support import ALL_RULESETS, actions, bots_for, game_after_pass, play

# Three players, four tricks: seat 0 takes all the diamonds and hearts, seat 1 the spades, seat 2 the clubs.
SPREAD = [
    ["D9", "H9", "S1", "C1"],
    ["D1", "H1", "S9", "C2"],
    ["D2", "H2", "S2", "C9"],
]


def end_actions(game: Game, round_index: int = 0) -> list[tuple]:
    return [(a["seat"], a["suit"], a["cause"], a["target"], a["moved"])
            for a in to_record(game)["rounds"][round_index]["actions"] if a["trick"] is None]


def test_R_END_1_each_player_counts_per_suit_the_cards_in_the_tricks_they_won():
    game = game_after_pass(Ruleset(3, hand_size=4, rounds=2), SPREAD, first_dealer=2)
    play(game, "D9", "D1", "D2", "H9", "H1", "H2", "S1", "S9", "S2")
    assert [game.won_cards(s) for s in range(3)] == [[3, 3, 0, 0], [0, 0, 3, 0], [0, 0, 0, 0]]
    assert [game.tricks_won(s) for s in range(3)] == [2, 1, 0]


def test_R_END_2_most_cards_of_each_suit_take_its_action_in_order_D_H_S_C():
    game = game_after_pass(Ruleset(3, hand_size=4, rounds=2), SPREAD, first_dealer=2)
    assert game.thief == 0
    play(game, "D9", "D1", "D2", "H9", "H1", "H2", "S1", "S9", "S2", "C2", "C9", "C1")
    # the clubs trick: seat 2 robbed the Thief holder (seat 0), the Thief moved to seat 1
    assert end_actions(game) == [
        (0, "D", "majority", None, 1),
        (0, "H", "majority", None, 1),
        (1, "S", "majority", None, 1),
        (2, "C", "majority", 1, 1),  # the majority clubs action robs the Thief holder (seat 1)
    ]
    assert game.thief == 2
    # seat 0: trick D + trick H + majority D + majority H
    assert (game.vault[0], game.showroom[0]) == (2, 3 + 1 + 1 - 1)


def test_R_END_2_a_tie_for_most_means_no_one_acts_and_the_thief_does_not_move():
    """Seats 0 and 1 take two clubs and one heart each: no majority in clubs or hearts (R-END-2), the Thief stays
    where the trick actions left it, and it starts the next round there (R-END-4)."""
    game = game_after_pass(
        Ruleset(3, hand_size=2, rounds=2), [["C9", "C1"], ["C8", "C10"], ["H1", "H2"]], first_dealer=2
    )
    assert game.thief == 0
    play(game, "C9", "C8", "H1")  # seat 0 holds the Thief and wins clubs: nothing taken, the Thief moves on
    assert game.thief == 1
    play(game, "C1", "C10", "H2")  # seat 1 now holds it and wins clubs: the same
    assert game.thief == 2
    assert game.round == 1, "the round is over"
    assert [t["winner"] for t in to_record(game)["rounds"][0]["tricks"]] == [0, 1]
    # no majority action at all; only seat 2's two no-trick diamonds
    assert end_actions(game) == [(2, "D", "no_trick", None, 1), (2, "D", "no_trick", None, 1)]
    assert game.thief == 2, "R-END-4: the Thief stays where it is for the next round"
    assert game.showroom == [3, 3, 5]


def test_R_END_2_no_one_takes_a_suit_no_one_won():
    game = game_after_pass(Ruleset(3, hand_size=1, rounds=1), [["D1"], ["D2"], ["D3"]], first_dealer=2)
    play(game, "D1", "D2", "D3")
    assert [a[1] for a in end_actions(game) if a[2] == "majority"] == ["D"]


def test_R_END_3_players_who_won_no_trick_take_two_diamonds_actions_in_seat_order_from_left_of_dealer():
    game = game_after_pass(Ruleset(4, hand_size=1, rounds=1), [["D2"], ["D3"], ["D5"], ["D1"]], first_dealer=1)
    supply = game.supply
    assert game.to_play == 2
    play(game, "D5", "D1", "D2", "D3")
    assert end_actions(game) == [
        (2, "D", "majority", None, 1),
        (3, "D", "no_trick", None, 1), (3, "D", "no_trick", None, 1),
        (0, "D", "no_trick", None, 1), (0, "D", "no_trick", None, 1),
        (1, "D", "no_trick", None, 1), (1, "D", "no_trick", None, 1),
    ]
    assert game.vault == [2, 2, 2, 2]  # seat 2: the trick's action + the majority
    assert game.supply == supply - 8
    assert game.over


def test_R_END_3_no_trick_diamonds_from_an_empty_supply_move_nothing():
    game = game_after_pass(Ruleset(4, hand_size=1, rounds=1), [["D2"], ["D3"], ["D5"], ["D1"]], first_dealer=1)
    game.supply = 3  # set-up: three points left; the trick's diamonds action takes the first
    play(game, "D5", "D1", "D2", "D3")
    assert [a[4] for a in end_actions(game)] == [1, 1, 0, 0, 0, 0, 0]
    assert game.vault == [0, 0, 2, 1]  # seat 3 comes first after the trick winner's majority


def test_R_END_4_the_thief_stays_where_it_is_for_the_next_round():
    for seed in range(30):
        game = Game(Ruleset(5), f"thief-{seed}")
        play_game(game, bots_for(5, seed))
        record = to_record(game)
        # follow the Thief through the recorded clubs actions: each moves it one seat left of its target
        thief = (game.first_dealer + 1) % 5
        for r in record["rounds"]:
            for a in r["actions"]:
                if a["suit"] == "C":
                    assert a["target"] == thief
                    thief = (thief + 1) % 5
        assert thief == game.thief


def two_player_finish(vault: list[int], showroom: list[int]) -> Game:
    """A one-round, one-trick game of two players; seat 0 wins every spade, seat 1 wins no trick.
    Seat 0 ends with vault + 2, showroom - 2; seat 1 with vault + 2."""
    game = game_after_pass(Ruleset(2, hand_size=2, rounds=1), [["S2", "S4"], ["S1", "S3"]], first_dealer=0)
    # set-up: the crystals each seat holds before the last trick (the supply keeps the total at 235)
    game.vault, game.showroom = list(vault), list(showroom)
    game.supply = 235 - sum(vault) - sum(showroom)
    play(game, "S1", "S2", "S3", "S4")
    assert game.over
    return game


def test_R_SCORE_1_rulebook_example_21_vault_and_5_showroom_score_47():
    game = two_player_finish([19, 0], [7, 3])
    assert game.result.vault == [21, 2]
    assert game.result.showroom == [5, 3]
    assert game.result.score == [47, 7]
    assert game.result.winners == [0]
    assert to_record(game)["result"] == {"score": [47, 7], "vault": [21, 2], "showroom": [5, 3], "winners": [0]}


@pytest.mark.parametrize("name", sorted(ALL_RULESETS))
def test_R_SCORE_1_score_is_two_per_vault_point_plus_one_per_showroom_point(name):
    ruleset = ALL_RULESETS[name]
    for seed in range(3):
        game = Game(ruleset, f"score-{name}-{seed}")
        play_game(game, bots_for(ruleset.players, seed))
        result = game.result
        assert result.score == [2 * v + s for v, s in zip(game.vault, game.showroom)]
        assert (result.vault, result.showroom) == (game.vault, game.showroom)
        assert len(result.score) == ruleset.team_count


def test_R_WIN_1_a_tie_on_score_goes_to_the_bigger_vault():
    game = two_player_finish([8, 7], [11, 11])
    assert game.result.score == [29, 29]
    assert game.result.vault == [10, 9]
    assert game.result.winners == [0]


def test_R_WIN_1_still_tied_all_share_the_win():
    game = two_player_finish([8, 8], [11, 9])
    assert game.result.score == [29, 29]
    assert game.result.vault == [10, 10]
    assert game.result.winners == [0, 1]


def test_R_WIN_1_the_highest_score_wins_in_random_games():
    for seed in range(40):
        game = Game(Ruleset(3), f"win-{seed}")
        play_game(game, bots_for(3, seed))
        score, vault = game.result.score, game.result.vault
        best = max(score)
        top = [s for s in range(3) if score[s] == best]
        top_vault = max(vault[s] for s in top)
        assert game.result.winners == [s for s in top if vault[s] == top_vault]
        assert actions(game, -1) is not None
