"""Illegal decisions are refused with the rule they break, and change nothing (RULES.md, "What the engine must
guarantee"): wrong turn, a card not in hand, not following suit, a pass count outside 1-3, the wrong number of
passed cards, naming yourself, your partner or an empty showroom as a clubs target, acting after the game."""

from __future__ import annotations

import random

import pytest

from engine import Decision, Game, IllegalDecision, Ruleset, SeatView, parse_card, parse_cards
from engine.diamonds.bots import play_game
from engine.diamonds.cards import deck

from .support import ALL_RULESETS, bots_for, game_after_pass, play, rule_ids, snapshot

FOUR = [
    ["C1", "H5", "S7"],
    ["C2", "H9", "D1"],
    ["C3", "S2", "D15"],
    ["C4", "H3", "H12"],
]


def refused(game: Game, rule: str, attempt) -> IllegalDecision:
    """`attempt()` raises IllegalDecision for `rule` and leaves every observable part of `game` as it was."""
    before = snapshot(game)
    move = game.move_number
    with pytest.raises(IllegalDecision) as e:
        attempt()
    assert e.value.rule == rule, str(e.value)
    assert rule in str(e.value)
    assert game.move_number == move
    assert snapshot(game) == before
    return e.value


def four() -> Game:
    return game_after_pass(Ruleset(4, hand_size=3, rounds=1), FOUR, first_dealer=3)


def test_R_PASS_1_only_the_dealer_chooses_the_pass_count():
    game = Game(Ruleset(4), "x", first_dealer=2)
    refused(game, "R-PASS-1", lambda: game.choose_pass_count(0, 2))
    refused(game, "R-PASS-1", lambda: game.apply(3, Decision.pass_count(1)))


@pytest.mark.parametrize("count", [0, 4, -1, 10, True, "2", 2.5, None])
def test_R_PASS_1_pass_count_outside_one_to_three(count):
    game = Game(Ruleset(4), "x", first_dealer=2)
    refused(game, "R-PASS-1", lambda: game.choose_pass_count(2, count))


def test_R_PASS_1_pass_count_only_when_it_is_pending():
    game = Game(Ruleset(4), "x", first_dealer=2)
    game.choose_pass_count(2, 1)
    refused(game, "R-PASS-2", lambda: game.choose_pass_count(2, 2))
    game = four()
    refused(game, "R-LEAD-1", lambda: game.choose_pass_count(3, 1))


@pytest.mark.parametrize("wrong", [0, 1, 3, 4])
def test_R_PASS_2_wrong_number_of_passed_cards(wrong):
    game = Game(Ruleset(5), "x", first_dealer=0)
    game.choose_pass_count(0, 2)
    refused(game, "R-PASS-2", lambda: game.pass_cards(1, game.hands[1][:wrong]))


def test_R_PASS_2_passing_a_card_not_in_hand_or_twice_or_out_of_phase():
    game = Game(Ruleset(4), "x", first_dealer=0)
    refused(game, "R-PASS-1", lambda: game.pass_cards(1, game.hands[1][:2]))  # the count is not chosen yet
    game.choose_pass_count(0, 2)
    other = game.hands[2][0]
    refused(game, "R-PASS-2", lambda: game.pass_cards(1, [game.hands[1][0], other]))
    refused(game, "R-PASS-2", lambda: game.pass_cards(1, [game.hands[1][0]] * 2))
    refused(game, "R-PASS-2", lambda: game.pass_cards(7, game.hands[1][:2]))
    refused(game, "R-PASS-2", lambda: game.play(1, game.hands[1][0]))  # playing before the passes are done
    game.pass_cards(1, game.hands[1][:2])
    refused(game, "R-PASS-2", lambda: game.pass_cards(1, game.hands[1][:2]))  # twice


def test_R_LEAD_1_wrong_turn_on_the_first_lead():
    game = four()
    assert game.to_play == 0
    for seat in (1, 2, 3):
        refused(game, "R-LEAD-1", lambda seat=seat: game.play(seat, game.hands[seat][0]))


def test_R_TRICK_2_wrong_turn_later_in_the_round():
    game = four()
    play(game, "H5", "H9", "D15", "H3")
    assert game.to_play == 1
    refused(game, "R-TRICK-2", lambda: game.play(0, parse_card("C1")))
    play(game, "D1")
    refused(game, "R-TRICK-2", lambda: game.play(3, parse_card("C4")))  # seat 2 is next, not seat 3


def test_R_TWO_1_wrong_turn_with_two_players():
    game = game_after_pass(Ruleset(2, hand_size=4, rounds=1),
                           [["C1", "D9", "H2", "H3"], ["S1", "D4", "D6", "H5"]], first_dealer=0)
    refused(game, "R-TWO-1", lambda: game.play(0, parse_card("D9")))
    play(game, "D4")
    refused(game, "R-TWO-1", lambda: game.play(1, parse_card("D6")))


def test_R_DEAL_1_playing_a_card_not_in_hand():
    game = four()
    refused(game, "R-DEAL-1", lambda: game.play(0, parse_card("C2")))  # seat 1's card
    refused(game, "R-DEAL-1", lambda: game.play(0, parse_card("D8")))  # set aside this round
    refused(game, "R-DEAL-1", lambda: game.play(0, 999))  # not a card at all
    play(game, "H5")
    refused(game, "R-DEAL-1", lambda: game.play(1, parse_card("H5")))  # already played


def test_R_FOLLOW_1_not_following_suit_is_refused():
    game = four()
    play(game, "H5")
    refused(game, "R-FOLLOW-1", lambda: game.play(1, parse_card("C2")))
    refused(game, "R-FOLLOW-1", lambda: game.apply(1, Decision.play(parse_card("D1"))))


def test_R_TWO_1_the_leaders_second_card_not_following_is_refused():
    game = game_after_pass(Ruleset(2, hand_size=4, rounds=1),
                           [["C1", "D9", "H2", "H3"], ["S1", "D4", "D6", "H5"]], first_dealer=0)
    play(game, "D4", "D9")
    refused(game, "R-TWO-1", lambda: game.play(1, parse_card("S1")))
    play(game, "D6")
    # seat 0 has no diamonds left: any card is legal for it now
    assert sorted(game.legal(0)) == sorted(parse_cards(["C1", "H2", "H3"]))


def clubs_pending_three() -> Game:
    game = game_after_pass(Ruleset(3, clubs="choose", hand_size=2, rounds=1),
                           [["H1", "H2"], ["C5", "D1"], ["H9", "S1"]], first_dealer=2)
    play(game, "H1", "C5")
    assert game.pending.kind == "clubs_target" and game.pending.seats == (1,)
    return game


def test_R_ACT_C_naming_yourself_is_refused():
    game = clubs_pending_three()
    refused(game, "R-ACT-C", lambda: game.choose_clubs_target(1, 1))


def test_R_ACT_C_naming_an_empty_showroom_or_no_seat_is_refused():
    game = game_after_pass(Ruleset(3, clubs="choose", hand_size=2, rounds=1),
                           [["H1", "H2"], ["C5", "D1"], ["H9", "S1"]], first_dealer=2, auto_clubs=False)
    game.showroom[2], game.vault[2] = 0, 3  # set-up: seat 2 has banked its showroom
    play(game, "H1", "C5")
    refused(game, "R-ACT-C", lambda: game.choose_clubs_target(1, 2))
    for target in (3, -1, None, "0", True):
        refused(game, "R-ACT-C", lambda target=target: game.choose_clubs_target(1, target))


def test_R_ACT_C_only_the_actor_names_the_target_and_only_when_asked():
    game = clubs_pending_three()
    refused(game, "R-ACT-C", lambda: game.choose_clubs_target(0, 2))
    refused(game, "R-ACT-C", lambda: game.play(2, parse_card("H9")))  # the game waits for the target
    game.choose_clubs_target(1, 0)
    refused(game, "R-TRICK-2", lambda: game.choose_clubs_target(1, 0))


def test_R_TEAM_5_naming_your_partner_is_refused():
    game = game_after_pass(
        Ruleset(4, partnerships=True, hand_size=3, rounds=1),
        [["S9", "C1", "D2"], ["S1", "C9", "D1"], ["S2", "C2", "D9"], ["H1", "H2", "H3"]], first_dealer=3,
    )
    play(game, "S9", "S1", "S2", "H1", "C1", "C9", "C2", "H2")
    refused(game, "R-TEAM-5", lambda: game.choose_clubs_target(1, 3))
    refused(game, "R-ACT-C", lambda: game.choose_clubs_target(1, 1))


@pytest.mark.parametrize("name", ["2p", "4p-thief", "6p-partners"])
def test_R_ROUNDS_1_acting_after_the_game_is_over(name):
    ruleset = ALL_RULESETS[name]
    game = Game(ruleset, f"over-{name}")
    play_game(game, bots_for(ruleset.players, name))
    assert game.over and game.pending is None
    any_card = deck()[0]
    for seat in range(ruleset.players):
        assert game.legal(seat) == []
        refused(game, "R-ROUNDS-1", lambda seat=seat: game.play(seat, any_card))
        refused(game, "R-ROUNDS-1", lambda seat=seat: game.choose_pass_count(seat, 1))
        refused(game, "R-ROUNDS-1", lambda seat=seat: game.pass_cards(seat, [any_card]))
        refused(game, "R-ROUNDS-1", lambda seat=seat: game.choose_clubs_target(seat, (seat + 1) % ruleset.players))


def test_unknown_decision_kind_is_refused_and_changes_nothing():
    game = Game(Ruleset(4), "x")
    before = snapshot(game)
    with pytest.raises(IllegalDecision):
        game.apply(game.dealer, Decision("bid", 3))
    assert snapshot(game) == before


@pytest.mark.parametrize("name", sorted(ALL_RULESETS))
def test_every_refusal_in_random_games_names_a_rule_and_changes_nothing(name):
    """At random points of random games, try decisions that are not legal; each is refused with a rule id
    of RULES.md and leaves the game exactly as it was."""
    known_rules = rule_ids()
    ruleset = ALL_RULESETS[name]
    rng = random.Random(name)
    game = Game(ruleset, f"sweep-{name}")
    bots = bots_for(ruleset.players, name)
    full = deck(15)
    checked = 0
    while game.pending is not None:
        pending = game.pending
        if rng.random() < 0.06:
            seat = pending.seats[0]
            legal = game.legal(seat)
            others = [s for s in range(game.n) if s not in pending.seats]
            attempts = []
            if pending.kind == "play":
                attempts += rng.sample([(seat, Decision.play(c)) for c in full if c not in legal], 4)
                attempts += [(s, Decision.play(game.hands[s][0])) for s in others[:2] if game.hands[s]]
            elif pending.kind == "pass_cards":
                attempts.append((seat, Decision.pass_cards(game.hands[seat][: pending.count + 1])))
                attempts.append((seat, Decision.pass_cards([c for c in full if c not in game.hands[seat]][:1])))
            elif pending.kind == "pass_count":
                attempts += [(seat, Decision.pass_count(c)) for c in (0, 4)]
                attempts += [(s, Decision.pass_count(2)) for s in others[:2]]
            else:
                attempts += [(seat, Decision.clubs_target(t)) for t in range(game.n) if t not in legal]
                attempts += [(s, Decision.clubs_target(seat)) for s in others[:2]]
            before = snapshot(game)
            for who, decision in attempts:
                quick = (game.move_number, game.pending, [list(h) for h in game.hands], game.showroom, game.vault)
                with pytest.raises(IllegalDecision) as e:
                    game.apply(who, decision)
                assert e.value.rule in known_rules, str(e.value)
                assert (game.move_number, game.pending, game.hands, game.showroom, game.vault) == quick
                checked += 1
            assert snapshot(game) == before
        for seat in pending.seats:
            game.apply(seat, bots[seat].decide(SeatView(game, seat)))
    assert checked > 5
