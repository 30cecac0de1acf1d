"""Playing tricks: R-FOLLOW-1, R-OFFSUIT-1, R-TRICK-1, R-TRICK-2, R-ROUND-1, R-TWO-1, and the rulebook's own
two-player example (seed 003, "Chad and Mike")."""

from __future__ import annotations

import pytest

from engine import Game, IllegalDecision, Ruleset, parse_card, parse_cards, to_record
from engine.diamonds.bots import play_game

from .support import ALL_RULESETS, actions, bots_for, game_after_pass, play, snapshot

# Four players, three cards each; seat 3 deals so seat 0 leads. Seat 2 holds no hearts.
FOUR = [
    ["C1", "H5", "S7"],
    ["C2", "H9", "D1"],
    ["C3", "S2", "D15"],
    ["C4", "H3", "H12"],
]


def four(**kw) -> Game:
    return game_after_pass(Ruleset(4, hand_size=3, rounds=1), FOUR, first_dealer=3, **kw)


def test_rulebook_two_player_example_chad_and_mike():
    """Seed 003: Mike deals, Chad leads D4, Mike D3; Chad, out of diamonds, plays a heart and takes the hearts
    action; Mike plays D8, wins, takes the diamonds action and leads the next trick (R-TWO-1, R-OFFSUIT-1,
    R-TRICK-1, R-TRICK-2)."""
    mike, chad = 0, 1
    game = game_after_pass(
        Ruleset(2),
        [
            ["C9", "D3", "D8", "S10", "S11", "C10", "C11", "H10", "H11", "S12"],  # Mike
            ["H9", "D4", "H2", "S1", "S2", "S3", "C1", "C2", "C3", "H5"],  # Chad: D4 is his only diamond
        ],
        first_dealer=mike,
        seats=["Mike", "Chad"],
    )
    assert game.to_play == chad
    play(game, "D4")
    assert game.to_play == mike
    assert game.legal(mike) == parse_cards(["D3", "D8"])  # Mike follows suit
    play(game, "D3")
    assert game.to_play == chad  # A, B, A: Chad plays his second card into the same trick
    assert game.showroom == [3, 3]
    play(game, "H2")
    assert game.showroom == [3, 4], "Chad takes the hearts action at once"
    assert game.to_play == mike
    play(game, "D8")
    assert game.vault == [1, 0], "Mike wins the trick and takes the diamonds action"
    trick = to_record(game)["rounds"][0]["tricks"][0]
    assert trick["plays"] == [
        {"seat": chad, "card": "D4"}, {"seat": mike, "card": "D3"},
        {"seat": chad, "card": "H2"}, {"seat": mike, "card": "D8"},
    ]
    assert trick["winner"] == mike
    assert actions(game) == [
        {"seat": chad, "suit": "H", "cause": "offsuit", "trick": 0, "target": None, "moved": 1},
        {"seat": mike, "suit": "D", "cause": "trick", "trick": 0, "target": None, "moved": 1},
    ]
    assert game.to_play == mike and game.current_trick.leader == mike, "Mike begins the next trick"
    assert game.supply == 235 - 6 - 2


def test_R_FOLLOW_1_must_follow_led_suit():
    game = four()
    play(game, "H5")
    assert game.legal(1) == [parse_card("H9")]
    before = snapshot(game)
    with pytest.raises(IllegalDecision) as e:
        game.play(1, parse_card("D1"))
    assert e.value.rule == "R-FOLLOW-1"
    assert snapshot(game) == before
    play(game, "H9")
    # seat 3 holds two hearts: either may be played, nothing else
    play(game, "D15")
    assert sorted(game.legal(3)) == parse_cards(["H3", "H12"])
    with pytest.raises(IllegalDecision) as e:
        game.play(3, parse_card("C4"))
    assert e.value.rule == "R-FOLLOW-1"


def test_R_OFFSUIT_1_a_void_player_plays_any_card_and_takes_that_suits_action_at_once():
    game = four()
    play(game, "H5", "H9")
    assert sorted(game.legal(2)) == sorted(game.hands[2]), "seat 2 has no hearts: any card"
    play(game, "S2")
    # spades: own showroom -> own vault, taken before the next card is played
    assert game.showroom[2] == 2 and game.vault[2] == 1
    assert game.to_play == 3
    assert actions(game) == [{"seat": 2, "suit": "S", "cause": "offsuit", "trick": 0, "target": None, "moved": 1}]


def test_R_OFFSUIT_1_the_lead_never_earns_an_action():
    game = four()
    supply = game.supply
    play(game, "H5")
    assert actions(game) == []
    assert game.supply == supply and game.showroom == [3, 3, 3, 3]
    # and in a random game no offsuit action is ever credited to a trick's leader for the lead itself
    for seed in range(20):
        g = Game(Ruleset(5), f"lead-{seed}")
        play_game(g, bots_for(5, seed))
        for r in to_record(g)["rounds"]:
            for i, t in enumerate(r["tricks"]):
                led = t["plays"][0]["card"][0]
                off = [a for a in r["actions"] if a["cause"] == "offsuit" and a["trick"] == i]
                offsuit_plays = [p for p in t["plays"][1:] if p["card"][0] != led]
                assert [(a["seat"], a["suit"]) for a in off] == [(p["seat"], p["card"][0]) for p in offsuit_plays]


def test_R_TRICK_1_highest_card_of_the_led_suit_wins():
    game = four()
    play(game, "H5", "H9", "D15", "H3")  # D15 is higher but not of the led suit
    assert to_record(game)["rounds"][0]["tricks"][0]["winner"] == 1


def test_R_TRICK_2_winner_takes_the_cards_takes_the_led_suit_action_then_leads():
    game = four()
    play(game, "H5", "H9", "D15", "H3")
    assert game.won_cards(1) == [1, 3, 0, 0]  # one diamond, three hearts
    assert game.tricks_won(1) == 1
    assert actions(game)[-1] == {"seat": 1, "suit": "H", "cause": "trick", "trick": 0, "target": None, "moved": 1}
    assert game.showroom[1] == 4
    # the diamonds offsuit action came first, in play order
    assert [a["cause"] for a in actions(game)] == ["offsuit", "trick"]
    assert game.to_play == 1 and game.current_trick.leader == 1 and game.trick_index == 1


@pytest.mark.parametrize("name", ["3p-thief", "4p-partners", "5p-perfect", "6p-thief"])
def test_R_ROUND_1_round_ends_when_the_hands_are_empty(name):
    ruleset = ALL_RULESETS[name]
    game = Game(ruleset, f"round-{name}")
    play_game(game, bots_for(ruleset.players, name))
    for r in to_record(game)["rounds"]:
        assert len(r["tricks"]) == ruleset.hand_size
        assert all(len(t["plays"]) == ruleset.players for t in r["tricks"])
        assert sum(len(t["plays"]) for t in r["tricks"]) == ruleset.hand_size * ruleset.players


def test_R_ROUND_1_next_round_starts_after_the_last_trick():
    ruleset = Ruleset(3, hand_size=1, rounds=2)
    game = game_after_pass(ruleset, [["D1"], ["D2"], ["D3"]], first_dealer=0)
    play(game, "D2", "D3")
    assert game.round == 0 and game.pending.kind == "play"
    play(game, "D1")
    assert all(h for h in game.hands), "round 2 was dealt"
    assert game.round == 1
    assert game.pending.kind == "pass_count" and game.pending.seats == (1,)


def test_R_TWO_1_plays_go_A_B_A_B_and_the_leaders_second_card_must_follow():
    leader, other = 1, 0
    game = game_after_pass(
        Ruleset(2, hand_size=4, rounds=1),
        [["C1", "D9", "H2", "H3"], ["S1", "D4", "D6", "H5"]],
        first_dealer=0,
    )
    assert game.to_play == leader
    play(game, "D4")
    assert game.to_play == other
    with pytest.raises(IllegalDecision) as e:
        game.play(leader, parse_card("D6"))
    assert e.value.rule == "R-TWO-1"
    play(game, "D9")
    assert game.to_play == leader
    assert game.legal(leader) == [parse_card("D6")], "the leader's second card follows the led suit too"
    before = snapshot(game)
    with pytest.raises(IllegalDecision) as e:
        game.play(leader, parse_card("H5"))
    assert e.value.rule == "R-TWO-1"
    assert snapshot(game) == before
    play(game, "D6")
    assert game.to_play == other
    play(game, "C1")  # out of diamonds: clubs action (choose mode, the only other player is robbed)
    assert game.showroom == [4, 2]
    trick = to_record(game)["rounds"][0]["tricks"][0]
    assert [p["seat"] for p in trick["plays"]] == [leader, other, leader, other]
    assert trick["winner"] == other  # D9 is the highest diamond of the four
    assert game.to_play == other


def test_R_TWO_1_the_leaders_own_second_card_can_win_and_earns_offsuit():
    game = game_after_pass(
        Ruleset(2, hand_size=4, rounds=1),
        [["S9", "D3", "H7", "H8"], ["S1", "D4", "D8", "H1"]],
        first_dealer=0,
    )
    play(game, "D4", "D3", "D8", "H7")
    trick = to_record(game)["rounds"][0]["tricks"][0]
    assert trick["winner"] == 1
    play(game, "S1", "S9")
    assert game.to_play == 1
    play(game, "H1")  # leader has no spades left: the leader's second card earns R-OFFSUIT-1
    assert actions(game)[-1] == {"seat": 1, "suit": "H", "cause": "offsuit", "trick": 1, "target": None, "moved": 1}


@pytest.mark.parametrize("name", ["2p", "2p-perfect"])
def test_R_TWO_1_tricks_of_four_plays_and_clubs_choose(name):
    ruleset = ALL_RULESETS[name]
    assert ruleset.clubs == "choose"
    game = Game(ruleset, f"two-{name}")
    play_game(game, bots_for(2, name))
    for r in to_record(game)["rounds"]:
        assert len(r["tricks"]) == ruleset.hand_size // 2
        for t in r["tricks"]:
            a, b = t["leader"], 1 - t["leader"]
            assert [p["seat"] for p in t["plays"]] == [a, b, a, b]
        clubs = [x for x in r["actions"] if x["suit"] == "C"]
        assert all(x["target"] in (None, 1 - x["seat"]) for x in clubs)
    with pytest.raises(ValueError, match="R-ACT-C"):
        Ruleset(2, clubs="thief")
