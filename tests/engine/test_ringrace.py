"""The ring-card diamond race (OTHER-GAMES.md G-...): every rule id with exact set-ups, refusals that change
nothing, property tests over many random games, records that replay, and the heuristic bot against random.

Exact set-ups fix the 16 fixed positions (here 0-15, so 16-41 are loose) and the first cards of the deck
(`deck_top`); the rest of the deck keeps the seed's order.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import InvalidRuleset
from engine.games import by_format, game_type
from engine.ringrace import (
    Decision,
    Game,
    Ruleset,
    SeatView,
    card_name,
    make_bot,
    parse_card,
    play_game,
    replay,
    to_record,
)
from engine.ringrace.game import final_result
from engine.ringrace.rules import CARD_COUNT, POSITIONS, RING_CARDS, is_ring, value_of

from . import games_support as shared
from .games_support import THOROUGH, do, random_games_settings

FIXED = list(range(16))
T = Decision.try_position
S = Decision.steal
RINGS_26 = [f"ring-{v}-{k}" for v in (1000, 2000, 3000) for k in range(1, 8)] + [
    f"ring-4000-{k}" for k in range(1, 6)]
MANY_GAMES = 2500 if THOROUGH else 150



def new(top: list[str], players: int = 2, first: int = 0, seed: str = "g", fixed=FIXED, **rules) -> Game:
    return Game(Ruleset(players, **rules), seed, first_player=first, deck_top=top, fixed=fixed)


def snapshot(game: Game) -> str:
    return json.dumps({
        "record": to_record(game), "views": [SeatView(game, s).to_dict() for s in range(game.n)],
        "deck": game.deck, "aside": game.aside, "rings": game.rings,
        "set": [sorted(x) for x in game.set_rings], "board": game.on_board, "revealed": sorted(game.revealed),
        "seat": game.seat, "turn": game.turn, "card": game.card, "phase": game.phase, "move": game.move_number,
    }, sort_keys=True)


def state(game: Game) -> tuple:
    """The whole mutable state, cheaper than `snapshot` (events and choices only grow, so their lengths do)."""
    return (list(game.deck), list(game.aside), [list(r) for r in game.rings], [sorted(x) for x in game.set_rings],
            list(game.on_board), sorted(game.revealed), game.loose_left, game.seat, game.turn, game.card,
            game.phase, game.move_number, len(game.events), len(game.choices), game.result)


refused = shared.refusal_checker(snapshot)


def rings_of(game: Game, seat: int) -> list[tuple[str, bool]]:
    return [(card_name(c), c in game.set_rings[seat]) for c in game.rings[seat]]


# ---- G-SETUP-1 ------------------------------------------------------------------------------------------

def test_G_SETUP_1_a_secret_seeded_board_of_16_fixed_and_26_loose():
    game = Game(Ruleset(4), "board")
    assert len(game.fixed) == 16 and game.fixed <= set(range(42)) and POSITIONS == 42
    assert game.on_board == [True] * 42 and game.loose_left == 26
    assert Game(Ruleset(4), "board").fixed == game.fixed
    assert Game(Ruleset(4), "board-2").fixed != game.fixed
    assert SeatView(game, 0).board == ["unknown"] * 42


def test_G_SETUP_1_decision_42_ring_cards_of_1000_to_6000_and_7_steal_cards():
    game = Game(Ruleset(3), "deck")
    everything = sorted(game.where())
    assert everything == list(range(CARD_COUNT)) and CARD_COUNT == 49
    values = Counter(value_of(c) for c in range(CARD_COUNT) if is_ring(c))
    assert values == {v: 7 for v in (1000, 2000, 3000, 4000, 5000, 6000)} and RING_CARDS == 42
    assert sum(not is_ring(c) for c in range(CARD_COUNT)) == 7
    assert Game(Ruleset(3), "deck").deck == game.deck and Game(Ruleset(3), "deck-2").deck != game.deck


@pytest.mark.parametrize("players", [0, 1, 7, "2"])
def test_G_SETUP_1_decision_two_to_six_players(players):
    with pytest.raises(InvalidRuleset, match="G-SETUP-1"):
        Ruleset(players)


def test_G_SETUP_1_given_boards_must_fix_sixteen_positions():
    with pytest.raises(ValueError, match="G-SETUP-1"):
        new([], fixed=list(range(15)))
    with pytest.raises(ValueError, match="G-SETUP-1"):
        new([], fixed=list(range(30, 46)))


def test_G_SETUP_1_decision_the_seed_draws_the_first_player_and_play_passes_to_the_next_seat():
    """G-SETUP-1 (Decision): the rulebook's "most feverish" player is drawn from the seed; then seat + 1."""
    firsts = [Game(Ruleset(5), f"feverish-{i}").first_player for i in range(80)]
    assert set(firsts) == {0, 1, 2, 3, 4}
    assert firsts == [Game(Ruleset(5), f"feverish-{i}").first_player for i in range(80)]
    game = Game(Ruleset(5), "feverish-3", fixed=FIXED, deck_top=["ring-1000-1", "ring-1000-2"])
    first = game.first_player
    assert game.pending.seats == (first,) and game.first_player == game.drawn_first_player
    do(game, T(20))  # a loose diamond: the turn passes
    assert game.pending.seats == ((first + 1) % 5,)


# ---- G-TURN-1 -------------------------------------------------------------------------------------------

def test_G_TURN_1_the_player_draws_the_top_card_and_shows_it():
    game = new(["ring-2000-1", "ring-5000-3"], players=3, first=1)
    assert game.pending.kind == "try" and game.pending.seats == (1,)
    assert game.events == [{"turn": 0, "seat": 1, "event": "draw", "card": "ring-2000-1"}]
    assert all(SeatView(game, s).to_dict()["card"] == "ring-2000-1" for s in range(3))
    assert len(game.deck) == 48 and game.rings[1] == [parse_card("ring-2000-1")]
    refused(game, "G-TURN-1", 0, T(20))
    refused(game, "G-TURN-1", 2, T(20))
    refused(game, "G-TURN-1", 1, "try 20")
    do(game, T(20))
    assert game.events[-1] == {"turn": 1, "seat": 2, "event": "draw", "card": "ring-5000-3"}


# ---- G-RING-1 -------------------------------------------------------------------------------------------

def test_G_RING_1_a_loose_diamond_is_set_on_the_ring_and_the_turn_passes_left():
    game = new(["ring-3000-1", "ring-1000-1"], players=3, first=2)
    do(game, T(30))
    assert rings_of(game, 2) == [("ring-3000-1", True)]
    assert game.on_board[30] is False and game.loose_left == 25
    assert game.pending.seats == (0,)
    assert game.events[1] == {"turn": 0, "seat": 2, "event": "try", "position": 30, "outcome": "loose",
                              "ring": "ring-3000-1"}
    assert SeatView(game, 1).board[30] == "empty"
    refused(game, "G-RING-1", 0, T(30))  # nothing to take there any more


def test_G_RING_1_a_fixed_diamond_stays_the_ring_stays_empty_and_everyone_sees_it():
    game = new(["ring-6000-1", "ring-1000-1", "ring-5000-1", "ring-2000-1"])
    do(game, T(4))
    assert rings_of(game, 0) == [("ring-6000-1", False)] and game.on_board[4]
    assert all(SeatView(game, s).board[4] == "fixed" for s in range(2))
    assert all(SeatView(game, s).board[5] == "unknown" for s in range(2))
    assert T(4) in game.legal(1)  # it still holds a diamond: a wasted try, but a try
    do(game, T(4), T(17))
    # never later on an earlier empty ring: the 6000 ring stays empty, the new 5000 ring takes the diamond
    assert rings_of(game, 0) == [("ring-6000-1", False), ("ring-5000-1", True)]


@pytest.mark.parametrize("decision", [T(-1), T(42), T("3"), T(True), S(1, 1000), Decision("draw")])
def test_G_RING_1_refuses_what_is_not_a_try_of_a_position_holding_a_diamond(decision):
    game = new(["ring-3000-1"])
    refused(game, "G-RING-1", 0, decision)


# ---- G-STEAL-1 ------------------------------------------------------------------------------------------

def three_seat_theft() -> Game:
    """Seats 0 and 2 have set 3000 rings; seat 1 an empty 3000 ring, and it draws a steal card."""
    top = ["ring-3000-1", "ring-3000-2", "ring-3000-3", "ring-2000-1", "steal-1", "ring-4000-1"]
    game = new(top, players=3)
    do(game, T(20), T(0), T(21), T(1))
    assert game.pending.kind == "steal" and game.pending.seats == (1,)
    return game


def test_G_STEAL_1_a_possible_steal_must_be_made_and_the_player_chooses_which():
    game = three_seat_theft()
    assert game.legal(1) == [S(0, 3000), S(2, 3000)]
    assert SeatView(game, 0).to_dict()["card"] == "steal-1"
    refused(game, "G-STEAL-1", 1, T(22))
    refused(game, "G-STEAL-1", 1, S(0, 2000))  # seat 1 has no empty 2000 ring
    refused(game, "G-STEAL-1", 1, S(1, 3000))  # not from oneself
    refused(game, "G-STEAL-1", 1, S(0, 4000))
    refused(game, "G-STEAL-1", 1, Decision("steal", 0))
    refused(game, "G-STEAL-1", 1, S(False, 3000))
    refused(game, "G-STEAL-1", 1, S(0, 3000.0))
    refused(game, "G-TURN-1", 0, S(2, 3000))
    do(game, S(2, 3000))
    assert rings_of(game, 1) == [("ring-3000-2", True)]
    assert rings_of(game, 2) == [("ring-3000-3", False), ("ring-4000-1", False)]  # and it has drawn its next ring
    assert game.aside == [parse_card("steal-1")]
    assert game.pending.seats == (2,)  # the robbed player takes the next turn
    assert game.card == parse_card("ring-4000-1")


def test_G_STEAL_1_the_robbed_player_plays_next_even_out_of_order():
    game = three_seat_theft()
    do(game, S(0, 3000))
    assert game.pending.seats == (0,) and game.turn == 5


def test_G_STEAL_1_without_a_possible_steal_the_card_is_set_aside_and_the_player_draws_again():
    game = new(["steal-3", "steal-4", "ring-1000-1"], players=3, first=1)
    assert game.pending == game.pending.__class__("try", (1,))
    assert [e["event"] for e in game.events] == ["draw", "set_aside", "draw", "set_aside", "draw"]
    assert game.aside == [parse_card("steal-3"), parse_card("steal-4")] and game.card == parse_card("ring-1000-1")


# ---- G-END-1 --------------------------------------------------------------------------------------------

def test_G_END_1_the_game_ends_when_no_loose_diamond_is_left():
    game = new(RINGS_26)
    for i in range(26):
        assert not game.over
        do(game, T(16 + i))
    assert game.over and game.pending is None and game.result.reason == "board"
    assert len(game.deck) == 49 - 26 and game.diamonds_on_board() == 16
    refused(game, "G-END-1", game.seat, T(0))
    assert SeatView(game, 0).board == ["fixed"] * 16 + ["empty"] * 26


def test_G_END_1_the_game_ends_when_the_deck_is_used_up():
    game = new([], seed="end-deck")
    while game.pending is not None:
        do(game, T(0))  # always the fixed position: nothing is ever set, so no steal is ever possible
    assert game.result.reason == "deck" and game.deck == [] and game.loose_left == 26
    assert len(game.aside) == 7 and sum(map(len, game.rings)) == 42 and game.move_number == 42
    board = SeatView(game, 1).board  # revealed at the end
    assert board == ["fixed"] * 16 + ["loose"] * 26


# ---- G-SCORE-1 ------------------------------------------------------------------------------------------

def ring(name: str) -> int:
    return parse_card(name)


def test_G_SCORE_1_set_rings_score_their_value_empty_ones_nothing():
    rings = [[ring("ring-3000-1"), ring("ring-5000-1")], [ring("ring-1000-1"), ring("ring-6000-1")]]
    result = final_result(rings, [{ring("ring-3000-1"), ring("ring-5000-1")}, {ring("ring-1000-1")}])
    assert result.totals == [8000, 1000] and result.winners == [0] and result.places == [1, 2]


def test_G_SCORE_1_variant_debts_an_empty_ring_scores_minus_its_value():
    rings = [[ring("ring-3000-1"), ring("ring-5000-1")], [ring("ring-1000-1")]]
    result = final_result(rings, [{ring("ring-3000-1")}, set()], debts=True)
    assert result.totals == [-2000, -1000] and result.winners == [1]


def test_G_SCORE_1_decision_ties_by_set_rings_then_shared():
    rings = [[ring("ring-3000-1"), ring("ring-5000-1")], [ring("ring-1000-1"), ring("ring-2000-1")],
             [ring("ring-3000-2")]]
    result = final_result(rings, [{ring("ring-3000-1")}, set(rings[1]), {ring("ring-3000-2")}])
    assert result.totals == [3000, 3000, 3000] and result.set_rings == [1, 2, 1]
    assert result.winners == [1] and result.places == [2, 1, 2]
    shared = final_result(rings[::2], [{ring("ring-3000-1")}, {ring("ring-3000-2")}])
    assert shared.winners == [0, 1] and shared.places == [1, 1]


def test_G_SCORE_1_decision_the_most_dollars_win_even_against_more_set_rings():
    """G-SCORE-1 (Decision): the rulebook's goal says most set rings, its "Qui gagne ?" most dollars; dollars
    decide, set rings only break a tie."""
    rings = [[ring("ring-6000-1")], [ring("ring-1000-1"), ring("ring-2000-1"), ring("ring-1000-2")]]
    result = final_result(rings, [set(rings[0]), set(rings[1])])
    assert result.totals == [6000, 4000] and result.set_rings == [1, 3]
    assert result.winners == [0] and result.places == [1, 2]


def test_G_SCORE_1_a_finished_game_scores_its_rings():
    game = new(RINGS_26, players=3, debts=True)
    for i in range(26):
        do(game, T(16 + i))
    expected = [sum(value_of(c) for c in game.rings[s]) for s in range(3)]
    assert game.result.totals == expected and game.result.set_rings == [9, 9, 8]
    assert game.result == final_result(game.rings, game.set_rings, debts=True, reason="board")


# ---- records, views, registry ---------------------------------------------------------------------------

def test_record_replays_and_names_an_illegal_choice():
    from engine.common.records import ReplayError

    game = play_game(Game(Ruleset(4), "rec"), [make_bot("random", seed=s) for s in range(4)])
    record = json.loads(json.dumps(to_record(game)))
    assert record["format"] == "ringrace-record/1"
    again, derived, diffs = replay(record)
    assert diffs == [] and derived == record and again.result == game.result
    taken = next(i for i, c in enumerate(record["choices"]) if c["kind"] == "try")
    record["choices"].insert(taken + 1, dict(record["choices"][taken]))
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert e.value.rule in ("G-TURN-1", "G-RING-1", "G-STEAL-1")


def test_record_keeps_a_given_set_up():
    game = new(["ring-3000-1", "steal-1"])
    do(game, T(22))
    record = to_record(game)
    assert record["fixed"] == FIXED and record["deck_top"] == ["ring-3000-1", "steal-1"]
    assert replay(record)[2] == []


def test_G_SETUP_1_replay_refuses_a_first_player_the_seed_never_drew(tmp_path, capsys):
    """G-SETUP-1 (Decision): the seed draws the first player, so `diamonds replay` refuses a record whose first
    player its seed never drew; a record of a game given its first player (the league may seat one) says so."""
    shared.check_the_first_player_drawn_from_the_seed("ringrace", "G-SETUP-1", tmp_path, capsys)


def test_view_hides_loose_from_fixed_and_the_deck_order():
    game = Game(Ruleset(3), "hidden")
    shared.advance("ringrace", game, shared.random_bots("ringrace", 3), 15)
    assert not game.over
    views = [SeatView(game, s).to_dict() for s in range(3)]
    other = copy.deepcopy(game)
    unknown = [p for p in range(42) if game.on_board[p] and p not in game.revealed]
    hidden_fixed = len(game.fixed - game.revealed)
    other.fixed = frozenset(game.revealed | set(random.Random(2).sample(unknown, hidden_fixed)))
    random.Random(3).shuffle(other.deck)
    assert other.fixed != game.fixed and other.deck != game.deck
    assert [SeatView(other, s).to_dict() for s in range(3)] == views
    assert "fixed" not in views[0] and "deck" not in views[0]


def test_registry_finds_the_ring_race_by_name_and_format():
    kind = game_type("ringrace")
    assert by_format("ringrace-record/1") is kind and set(kind.bots) == {"random", "heuristic"}
    game = kind.new_game({"players": 5, "debts": True}, "reg")
    kind.play_game(game, [kind.make_bot("heuristic", seed=s) for s in range(5)])
    assert kind.standing(game) == {"places": game.result.places, "winners": game.result.winners,
                                   "score": game.result.totals, "tiebreak": game.result.set_rings}


def test_cli_plays_and_replays_the_ring_race(tmp_path, capsys):
    record = shared.cli_play_then_replay(tmp_path, capsys, ["--game", "ringrace", "--players", "4", "--seed", "S",
                                                     "--bots", "heuristic"])
    assert record["format"] == "ringrace-record/1"


# ---- properties over random games -----------------------------------------------------------------------

@random_games_settings(MANY_GAMES)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), debts=st.booleans(),
       kinds=st.lists(st.sampled_from(["random", "heuristic"]), min_size=1, max_size=6))
def test_random_games_conserve_cards_and_diamonds_terminate_and_replay(seed, players, debts, kinds):
    """G-SETUP-1: every card is in one place, 42 diamonds are on the board or on rings, fixed diamonds never
    leave; G-RING-1 / G-STEAL-1: only drawn rings hold diamonds; G-END-1: the game ends within the deck."""
    game = Game(Ruleset(players, debts=debts), f"prop-{seed}")
    bots = [make_bot(kinds[s % len(kinds)], seed=f"{seed}/{s}") for s in range(players)]

    def check(game: Game) -> None:
        assert game.move_number <= 49
        assert sorted(game.where()) == list(range(CARD_COUNT))
        assert game.diamonds_on_board() + sum(map(len, game.set_rings)) == 42
        assert all(game.on_board[p] for p in game.fixed) and game.revealed <= game.fixed
        assert all(game.set_rings[s] <= set(game.rings[s]) for s in range(players))
        assert game.loose_left == 26 - sum(not x for x in game.on_board)

    shared.play_checking_every_move("ringrace", game, bots, check)
    assert game.over and (game.deck == [] or game.loose_left == 0)
    shared.assert_replays_to_the_same_game("ringrace", game, snapshot)


HEURISTIC_SHARE = {2: 0.7, 3: 0.5, 4: 0.38}  # fair shares: 1/2, 1/3, 1/4


@pytest.mark.parametrize("players", sorted(HEURISTIC_SHARE))
def test_heuristic_beats_random(players):
    """The heuristic bot in one seat (rotating) against random bots wins far more than its fair share."""
    shared.assert_heuristic_beats_random("ringrace", players, HEURISTIC_SHARE[players])


UNIVERSE = [*(T(p) for p in range(-1, 43)), *(S(v, x) for v in range(-1, 7) for x in (0, 1000, 3000, 6000, 7000)),
            Decision("draw")]


@random_games_settings(25)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6))
def test_whatever_legal_leaves_out_is_refused_with_a_G_rule_and_changes_nothing(seed, players):
    """G-TURN-1, G-RING-1, G-STEAL-1, G-END-1: `legal` is exact; anything else is refused and changes nothing."""
    shared.check_what_legal_leaves_out_is_refused("ringrace", seed, players, UNIVERSE, state, rule_prefix="G-",
                                           probe_share=0.3)


def test_cli_refuses_flags_of_another_game_and_unknown_formats(tmp_path, capsys):
    from engine.cli import main

    assert main(["play", "--game", "ringrace", "--partnerships"]) == 2
    assert main(["play", "--game", "diamoniak", "--debts"]) == 2
    assert main(["play", "--game", "ringrace", "--players", "7"]) == 2
    assert main(["play", "--game", "ringrace", "--bots", "greedy"]) == 2
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "chess-record/1"}), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "--partnerships" in err and "G-SETUP-1" in err and "unknown ringrace bot" in err and "chess" in err
