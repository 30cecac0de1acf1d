"""Set-up, dealing, passing, rounds and dealers: R-SETUP-*, R-DEAL-1, R-PASS-*, R-LEAD-1, R-PERFECT-1,
R-ROUNDS-1, R-DEALER-1."""

from __future__ import annotations

import pytest

from engine import Game, IllegalDecision, InvalidRuleset, Ruleset, parse_cards, to_record
from engine.diamonds.bots import play_game
from engine.diamonds.cards import card_str, rank_of

from .support import ALL_RULESETS, TOTAL_CRYSTALS, bots_for, game_after_pass


@pytest.mark.parametrize("name", sorted(ALL_RULESETS))
def test_R_SETUP_1_three_points_each_in_the_showroom_and_empty_vaults(name):
    """R-SETUP-1: 3 points per player in the showroom (6 in a team's), vaults empty."""
    ruleset = ALL_RULESETS[name]
    game = Game(ruleset, "setup")
    n = ruleset.players
    if ruleset.partnerships:
        assert game.showroom == [6] * (n // 2)  # both partners put their 3 in the team's showroom
        assert game.vault == [0] * (n // 2)
    else:
        assert game.showroom == [3] * n
        assert game.vault == [0] * n
    assert game.supply == TOTAL_CRYSTALS - 3 * n
    assert game.supply + sum(game.showroom) == 235


def test_R_SETUP_2_first_dealer_is_drawn_from_the_seed_deterministically():
    dealers = {}
    for i in range(60):
        seed = f"table-{i}"
        a = Game(Ruleset(4), seed)
        b = Game(Ruleset(4), seed)
        assert a.first_dealer == b.first_dealer
        assert a.dealer == a.first_dealer == to_record(a)["first_dealer"]
        assert a.rounds[0].dealer == a.first_dealer
        dealers[seed] = a.first_dealer
    # drawn at random: over 60 seeds every seat deals first at least once
    assert set(dealers.values()) == {0, 1, 2, 3}
    # an explicit first dealer is honoured
    assert Game(Ruleset(4), "table-0", first_dealer=3).first_dealer == 3
    with pytest.raises(ValueError):
        Game(Ruleset(4), "x", first_dealer=4)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_R_SETUP_3_thief_starts_left_of_the_first_dealer(players):
    """R-SETUP-3: the Thief starts in front of the player left of the first dealer."""
    for dealer in range(players):
        game = Game(Ruleset(players), "thief", first_dealer=dealer)
        assert game.thief == (dealer + 1) % players
    for i in range(20):
        game = Game(Ruleset(players), f"drawn-{i}")
        assert game.thief == (game.first_dealer + 1) % players


@pytest.mark.parametrize("name", ["2p", "3p-choose", "4p-partners", "6p-partners"])
def test_R_SETUP_3_no_thief_in_choose_mode(name):
    """R-SETUP-3 is for thief mode only."""
    assert Game(ALL_RULESETS[name], "no-thief").thief is None


@pytest.mark.parametrize("name", sorted(ALL_RULESETS))
def test_R_DEAL_1_hand_size_cards_each_from_the_whole_deck_reshuffled_every_round(name):
    ruleset = ALL_RULESETS[name]
    game = Game(ruleset, f"deal-{name}")
    play_game(game, bots_for(ruleset.players, name))
    deck = {card_str(c) for c in range(64) if 1 <= rank_of(c) <= ruleset.deck_ranks}
    record = to_record(game)
    deals = []
    for r in record["rounds"]:
        hands = r["hands"]
        assert len(hands) == ruleset.players
        assert all(len(h) == ruleset.hand_size for h in hands)
        dealt = [c for h in hands for c in h]
        assert len(set(dealt)) == len(dealt), "a card was dealt twice"
        assert set(dealt) <= deck
        deals.append(tuple(tuple(h) for h in hands))
    assert len(set(deals)) == len(deals), "every round is a fresh shuffle"
    if ruleset.players * ruleset.hand_size < len(deck):
        # the cards set aside in one round come back: over the game, more than one round's worth is dealt
        seen = {c for r in record["rounds"] for h in r["hands"] for c in h}
        assert len(seen) > ruleset.players * ruleset.hand_size
    # the same seed deals the same cards
    again = Game(ruleset, f"deal-{name}")
    assert to_record(again)["rounds"][0]["hands"] == record["rounds"][0]["hands"]


def test_R_DEAL_1_given_deals_are_checked():
    ruleset = Ruleset(4)
    good = [[f"{s}{r}" for r in range(1, 11)] for s in "DHSC"]
    Game(ruleset, "x", deals=[good], first_dealer=0)
    short = [good[0][:9], *good[1:]]
    with pytest.raises(IllegalDecision) as e:
        Game(ruleset, "x", deals=[short], first_dealer=0)
    assert e.value.rule == "R-DEAL-1"
    twice = [good[0], [good[0][0], *good[1][1:]], *good[2:]]
    with pytest.raises(IllegalDecision) as e:
        Game(ruleset, "x", deals=[twice], first_dealer=0)
    assert e.value.rule == "R-DEAL-1"
    with pytest.raises(IllegalDecision) as e:
        Game(ruleset, "x", deals=[good[:3]], first_dealer=0)
    assert e.value.rule == "R-DEAL-1"


@pytest.mark.parametrize(
    "players, deck_ranks, hand_size, tricks",
    [(5, 15, 12, 12), (4, 13, 13, 13), (3, 9, 12, 12), (2, 8, 16, 8)],
)
def test_R_PERFECT_1_deck_and_hand_size(players, deck_ranks, hand_size, tricks):
    ruleset = Ruleset(players, perfect=True)
    assert (ruleset.deck_ranks, ruleset.hand_size, ruleset.tricks_per_round) == (deck_ranks, hand_size, tricks)
    assert ruleset.rounds == {2: 4, 3: 6, 4: 4, 5: 5}[players]  # all other rules stay
    game = Game(ruleset, f"perfect-{players}")
    play_game(game, bots_for(players, "perfect"))
    record = to_record(game)
    for r in record["rounds"]:
        dealt = [c for h in r["hands"] for c in h]
        assert all(len(h) == hand_size for h in r["hands"])
        assert max(int(c[1:]) for c in dealt) <= deck_ranks
        if players < 5:
            # the removed cards never appear; every other card is dealt (perfect knowledge)
            assert len(set(dealt)) == 4 * deck_ranks
        else:
            assert len(set(dealt)) == 60
        assert len(r["tricks"]) == tricks
        assert all(len(t["plays"]) == (4 if players == 2 else players) for t in r["tricks"])


def test_R_PERFECT_1_removed_cards_cannot_be_dealt_and_six_players_cannot_play_it():
    ruleset = Ruleset(4, perfect=True)
    hands = [[f"{s}{r}" for r in range(1, 14)] for s in "DHSC"]
    Game(ruleset, "x", deals=[hands], first_dealer=0)
    with pytest.raises(IllegalDecision) as e:
        Game(ruleset, "x", deals=[[["D14", *hands[0][1:12], "D1"], *hands[1:]]], first_dealer=0)
    assert e.value.rule == "R-PERFECT-1"
    with pytest.raises(InvalidRuleset, match="R-PERFECT-1"):
        Ruleset(6, perfect=True)


@pytest.mark.parametrize("players, rounds", [(2, 4), (3, 6), (4, 4), (5, 5), (6, 6)])
def test_R_ROUNDS_1_rounds_per_player_count(players, rounds):
    ruleset = Ruleset(players)
    assert ruleset.rounds == rounds
    game = Game(ruleset, f"rounds-{players}")
    play_game(game, bots_for(players, "rounds"))
    assert game.over and game.result is not None
    assert len(to_record(game)["rounds"]) == rounds
    if players in (4, 6):
        assert Ruleset(players, partnerships=True).rounds == rounds


def test_R_ROUNDS_1_a_ruleset_may_override_the_number_of_rounds():
    game = Game(Ruleset(4, rounds=1), "short")
    play_game(game, bots_for(4, "short"))
    assert game.over
    assert len(to_record(game)["rounds"]) == 1
    with pytest.raises(InvalidRuleset):
        Ruleset(4, rounds=0)


@pytest.mark.parametrize("name", ["2p", "3p-thief", "5p-choose", "6p-partners", "4p-perfect"])
def test_R_DEALER_1_dealer_rotates_left_every_round(name):
    ruleset = ALL_RULESETS[name]
    n = ruleset.players
    for first in range(n):
        game = Game(ruleset, f"dealer-{name}", first_dealer=first)
        play_game(game, bots_for(n, first))
        dealers = [r["dealer"] for r in to_record(game)["rounds"]]
        assert dealers == [(first + i) % n for i in range(ruleset.rounds)]


def test_R_PASS_1_the_dealer_chooses_one_two_or_three_after_looking():
    for count in (1, 2, 3):
        game = Game(Ruleset(4), "pass", first_dealer=2)
        pending = game.pending
        assert (pending.kind, pending.seats) == ("pass_count", (2,))
        assert game.legal(2) == [1, 2, 3]
        assert game.legal(0) == []
        game.choose_pass_count(2, count)
        assert game.pass_count == count
        assert game.pending.kind == "pass_cards" and game.pending.count == count
        assert game.pending.seats == (0, 1, 2, 3)
        for seat in range(4):
            game.pass_cards(seat, game.hands[seat][:count])
        assert all(len(h) == 10 for h in game.hands)
        assert to_record(game)["rounds"][0]["pass_count"] == count


def test_R_PASS_2_passes_are_simultaneous_and_go_left():
    ruleset = Ruleset(4)
    game = Game(ruleset, "pass-left", first_dealer=1)
    dealt = [list(h) for h in game.hands]
    game.choose_pass_count(1, 3)
    chosen = [dealt[s][-3:] for s in range(4)]
    # passes in any order; nothing is received until everyone has chosen
    for seat in (2, 0, 3):
        game.pass_cards(seat, chosen[seat])
        assert game.hands == dealt, "no card moves before every seat has chosen"
        assert game.pending.kind == "pass_cards"
    assert game.pending.seats == (1,)
    game.pass_cards(1, chosen[1])
    for seat in range(4):
        giver = (seat - 1) % 4
        expected = [c for c in dealt[seat] if c not in chosen[seat]] + chosen[giver]
        assert sorted(game.hands[seat]) == sorted(expected)
    assert to_record(game)["rounds"][0]["passes"] == [[card_str(c) for c in p] for p in chosen]
    assert game.pending.kind == "play"


def test_R_PASS_2_a_seat_passes_only_once_and_only_its_own_cards():
    game = Game(Ruleset(3), "pass-once", first_dealer=0)
    game.choose_pass_count(0, 2)
    game.pass_cards(1, game.hands[1][:2])
    with pytest.raises(IllegalDecision) as e:
        game.pass_cards(1, game.hands[1][2:4])
    assert e.value.rule == "R-PASS-2"
    with pytest.raises(IllegalDecision) as e:
        game.pass_cards(0, [game.hands[0][0], game.hands[0][0]])
    assert e.value.rule == "R-PASS-2"


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_R_LEAD_1_player_left_of_the_dealer_leads_the_first_trick(players):
    for dealer in range(players):
        game = Game(Ruleset(players), "lead", first_dealer=dealer)
        game.choose_pass_count(dealer, 1)
        for seat in range(players):
            game.pass_cards(seat, game.hands[seat][:1])
        assert game.pending.kind == "play"
        assert game.to_play == (dealer + 1) % players
        assert game.current_trick.leader == (dealer + 1) % players


def test_R_LEAD_1_after_an_exact_deal():
    ruleset = Ruleset(3, hand_size=2, rounds=1)
    game = game_after_pass(ruleset, [["D1", "H1"], ["D2", "H2"], ["D3", "H3"]], first_dealer=2)
    assert game.to_play == 0
    assert sorted(game.hands[0]) == parse_cards(["D1", "H1"])
    with pytest.raises(IllegalDecision) as e:
        game.play(1, parse_cards(["D2"])[0])
    assert e.value.rule == "R-LEAD-1"


@pytest.mark.parametrize("hand_size", [1, 2])
def test_R_PASS_1_no_pass_count_larger_than_the_hand(hand_size):
    """With an overridden hand size below 3, a count of 3 would leave no legal pass (the game would be stuck):
    the engine offers and accepts only counts a hand can pass."""
    ruleset = Ruleset(4, hand_size=hand_size, rounds=2)
    game = Game(ruleset, "small-hands", first_dealer=0)
    assert game.legal(0) == list(range(1, hand_size + 1))
    before = to_record(game)
    with pytest.raises(IllegalDecision) as e:
        game.choose_pass_count(0, 3)
    assert e.value.rule == "R-PASS-1"
    assert to_record(game) == before and game.move_number == 0
    for seed in range(20):
        game = Game(ruleset, f"small-{seed}")
        play_game(game, bots_for(4, seed))
        assert game.over
