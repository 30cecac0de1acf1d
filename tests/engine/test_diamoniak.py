"""Diamoniak (OTHER-GAMES.md K-...): every rule id with exact set-ups, refusals that change nothing, property
tests over many random games, records that replay, and the heuristic bot against random.

Exact set-ups fix the first cards of the draw pile (`deck_top`) and the first player; the rest of the pile
keeps the seed's order and is never reached unless a test says so.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.common.records import ReplayError
from engine.diamoniak import (
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
from engine.diamoniak.rules import CARD_COUNT, kind_of
from engine.errors import InvalidRuleset
from engine.games import by_format, game_type

from . import games_support as shared
from .games_support import THOROUGH, do, random_games_settings

DRAW, STOP, PASS, FAIRY = Decision("draw"), Decision("stop"), Decision("pass"), Decision("fairy")
MANY_GAMES = 2500 if THOROUGH else 80



def new(top: list[str], players: int = 2, first: int = 0, seed: str = "k", **rules) -> Game:
    return Game(Ruleset(players, **rules), seed, first_player=first, deck_top=top)


def _name(card: int) -> str:
    return card_name(card)


def snapshot(game: Game) -> str:
    """Everything about a game: record, every view, every pile in order, the flow state."""
    return json.dumps({
        "record": to_record(game), "views": [SeatView(game, s).to_dict() for s in range(game.n)],
        "draw": game.draw_pile, "discard": game.discard_pile, "castle": game.castle, "side": game.side,
        "colour": game.colour, "seat": game.seat, "turn": game.turn, "phase": game.phase,
        "due": game.witch_due, "move": game.move_number, "pending": repr(game.pending),
    }, sort_keys=True)


def state(game: Game) -> tuple:
    """The whole mutable state, cheaper than `snapshot` (events and choices only grow, so their lengths do)."""
    return (list(game.draw_pile), list(game.discard_pile), [list(c) for c in game.castle],
            [list(c) for c in game.side], list(game.colour), game.seat, game.turn, game.phase, game.witch_due,
            game.witch_taken, game.draws, game.reshuffles, game.move_number, len(game.events), len(game.choices),
            game.result)


refused = shared.refusal_checker(snapshot)


# ---- K-SETUP-1 ------------------------------------------------------------------------------------------

def test_K_SETUP_1_fifty_five_cards_shuffled_into_the_draw_pile():
    game = Game(Ruleset(3), "setup")
    kinds = Counter(kind_of(c) for c in game.draw_pile)
    assert sorted(game.draw_pile) == list(range(CARD_COUNT)) == list(range(55))
    assert kinds == {"castle": 24, "diamond": 20, "witch": 8, "fairy": 3}
    assert Counter(_name(c).split("-")[0] for c in game.draw_pile if kind_of(c) == "castle") == {
        "red": 6, "blue": 6, "green": 6, "yellow": 6}
    assert game.discard_pile == [] and game.castle == [[], [], []] and game.side == [[], [], []]
    assert game.draw_pile != sorted(game.draw_pile)
    assert Game(Ruleset(3), "setup").draw_pile == game.draw_pile  # seeded
    assert Game(Ruleset(3), "setup-2").draw_pile != game.draw_pile


@pytest.mark.parametrize("players", [0, 1, 5, 6, "3"])
def test_K_SETUP_1_two_to_four_players(players):
    with pytest.raises(InvalidRuleset, match="K-SETUP-1"):
        Ruleset(players)


def test_K_SETUP_1_decision_the_first_player_is_drawn_from_the_seed():
    firsts = [Game(Ruleset(4), f"first-{i}").first_player for i in range(60)]
    assert set(firsts) == {0, 1, 2, 3}
    assert firsts == [Game(Ruleset(4), f"first-{i}").first_player for i in range(60)]
    game = Game(Ruleset(4), "first-7")
    assert game.pending.kind == "turn" and game.pending.seats == (game.first_player,)


# ---- K-TURN-1 -------------------------------------------------------------------------------------------

def test_K_TURN_1_draw_at_least_once_then_draw_again_or_stop():
    game = new(["diamond-1", "diamond-2", "blue-1"])
    assert game.legal(0) == [DRAW] and game.legal(1) == []
    refused(game, "K-TURN-1", 0, STOP)
    do(game, DRAW)
    assert game.pending.kind == "draw_more" and game.legal(0) == [DRAW, STOP]
    do(game, DRAW, STOP)
    assert game.pending.kind == "turn" and game.pending.seats == (1,)  # the turn passes clockwise
    assert game.turn == 1
    assert [e["event"] for e in game.events] == ["draw", "draw", "stop"]


def test_K_TURN_1_refuses_the_wrong_seat_and_unknown_kinds():
    game = new(["diamond-1"])
    refused(game, "K-TURN-1", 1, DRAW)
    refused(game, "K-TURN-1", 0, Decision("shout"))
    refused(game, "K-TURN-1", 0, "draw")
    refused(game, "K-WITCH-1", 0, Decision.discard(parse_card("diamond-1")))
    refused(game, "K-WITCH-1", 0, FAIRY)


def test_K_TURN_1_a_witch_ends_the_turn():
    game = new(["witch-1", "diamond-1"], players=3, first=2)
    do(game, DRAW)
    assert game.pending.seats == (0,) and game.pending.kind == "turn"
    assert game.discard_pile == [parse_card("witch-1")]


# ---- K-CASTLE-1 -----------------------------------------------------------------------------------------

def test_K_CASTLE_1_the_first_castle_card_gives_the_colour():
    game = new(["green-3", "green-5", "red-1", "red-2"])
    do(game, DRAW)
    assert game.colour[0] == 2 and game.castle[0] == [parse_card("green-3")]
    assert game.events[0] == {"turn": 0, "seat": 0, "event": "colour", "colour": "green"}
    do(game, DRAW, DRAW)  # own colour to the castle, another colour to the side pile
    assert game.castle[0] == [parse_card("green-3"), parse_card("green-5")]
    assert game.side[0] == [parse_card("red-1")]
    do(game, STOP, DRAW)  # seat 1 draws red-2: red is free, so red is seat 1's
    assert game.colour[1] == 0 and game.castle[1] == [parse_card("red-2")]


def test_K_CASTLE_1_a_colour_another_player_builds_goes_to_the_side_pile():
    game = new(["blue-1", "blue-2", "yellow-4"])
    do(game, DRAW, STOP, DRAW)
    assert game.colour == [1, None] and game.side[1] == [parse_card("blue-2")] and game.castle[1] == []
    do(game, DRAW)
    assert game.colour == [1, 3] and game.castle[1] == [parse_card("yellow-4")]


def test_K_CASTLE_1_decision_a_colour_stays_even_when_its_castle_is_emptied():
    game = new(["red-1", "witch-1", "blue-1", "red-2"])
    do(game, DRAW, DRAW)  # the witch takes the only card: red-1
    assert game.castle[0] == [] and game.colour[0] == 0
    do(game, DRAW, STOP)  # seat 1: blue
    do(game, DRAW)  # seat 0: red-2 still builds red
    assert game.castle[0] == [parse_card("red-2")]


# ---- K-KEEP-1 -------------------------------------------------------------------------------------------

def test_K_CASTLE_1_decision_off_colour_castle_cards_leave_only_by_a_sale_or_a_witch():
    """K-CASTLE-1 (Decision): "il pourra s'en débarrasser" is a sale (K-BUY-1) or a witch (K-WITCH-1): there is
    no discard action, so no turn offers one and one asked for is refused, changing nothing."""
    game = buying_table()  # seat 1 holds red-2 and green-1 on its side; seat 0 builds red
    do(game, Decision.buy(1, parse_card("red-2")))  # red-2 leaves seat 1's side pile by a sale
    assert game.seat == 1 and game.side[1][0] == parse_card("green-1")
    assert {d.kind for d in game.legal(1)} == {"draw"}
    refused(game, "K-CASTLE-1", 1, Decision.discard(parse_card("green-1")))
    refused(game, "K-WITCH-1", 1, Decision.discard(parse_card("blue-1")))  # its castle: only a witch takes it


def test_K_KEEP_1_diamonds_and_fairies_go_to_the_side_pile():
    game = new(["diamond-4", "fairy-2", "diamond-9"])
    do(game, DRAW, DRAW, DRAW)
    assert game.side[0] == [parse_card(n) for n in ("diamond-4", "fairy-2", "diamond-9")]
    assert game.castle[0] == [] and game.colour[0] is None
    assert [e["to"] for e in game.events] == ["side"] * 3


# ---- K-WITCH-1 ------------------------------------------------------------------------------------------

def test_K_WITCH_1_the_player_chooses_three_cards_from_side_pile_or_castle():
    game = new(["red-1", "red-2", "diamond-1", "blue-1", "diamond-2", "witch-3"])
    do(game, *[DRAW] * 6)
    assert game.pending.kind == "witch" and game.pending.count == 3
    held = [parse_card(n) for n in ("red-1", "red-2", "diamond-1", "blue-1", "diamond-2")]
    assert game.legal(0) == [Decision.discard(c) for c in sorted(held)]
    refused(game, "K-WITCH-1", 0, DRAW)
    refused(game, "K-WITCH-1", 0, STOP)
    refused(game, "K-WITCH-1", 0, FAIRY)
    refused(game, "K-WITCH-1", 0, Decision.discard(parse_card("green-1")))
    refused(game, "K-WITCH-1", 0, Decision.discard(float(parse_card("red-1"))))
    refused(game, "K-WITCH-1", 1, Decision.discard(parse_card("red-1")))
    do(game, Decision.discard(parse_card("red-2")), Decision.discard(parse_card("blue-1")))
    assert game.pending.count == 1
    do(game, Decision.discard(parse_card("diamond-2")))
    assert game.castle[0] == [parse_card("red-1")] and game.side[0] == [parse_card("diamond-1")]
    assert game.discard_pile == [parse_card(n) for n in ("witch-3", "red-2", "blue-1", "diamond-2")]
    assert game.pending.seats == (1,)


@pytest.mark.parametrize("held", [[], ["diamond-1"], ["diamond-1", "red-1"], ["diamond-1", "red-1", "blue-1"]])
def test_K_WITCH_1_with_three_cards_or_fewer_and_no_fairy_all_go_without_a_choice(held):
    game = new([*held, "witch-1"])
    do(game, *[DRAW] * (len(held) + 1))
    assert game.castle[0] == [] and game.side[0] == []
    assert sorted(game.discard_pile) == sorted(parse_card(n) for n in [*held, "witch-1"])
    assert game.pending.seats == (1,) and game.move_number == len(held) + 1


def test_K_WITCH_1_a_fairy_may_counter_the_witch():
    game = new(["fairy-1", "diamond-1", "diamond-2", "red-1", "witch-2"])
    do(game, *[DRAW] * 5)
    assert game.legal(0)[0] == FAIRY
    do(game, FAIRY)
    assert game.discard_pile == [parse_card("witch-2"), parse_card("fairy-1")]
    assert game.side[0] == [parse_card("diamond-1"), parse_card("diamond-2")]
    assert game.castle[0] == [parse_card("red-1")]
    assert game.pending.seats == (1,)


def test_K_WITCH_1_the_fairy_is_a_choice_even_with_few_cards_and_may_itself_be_discarded():
    game = new(["fairy-1", "witch-2"])
    do(game, DRAW, DRAW)
    assert game.pending.kind == "witch" and game.pending.count == 1
    assert game.legal(0) == [FAIRY, Decision.discard(parse_card("fairy-1"))]
    do(game, Decision.discard(parse_card("fairy-1")))
    assert game.side[0] == [] and game.pending.seats == (1,)


def test_K_WITCH_1_no_fairy_once_discarding_has_begun():
    game = new(["fairy-1", "diamond-1", "diamond-2", "diamond-3", "witch-2"])
    do(game, *[DRAW] * 5, Decision.discard(parse_card("diamond-1")))
    assert FAIRY not in game.legal(0)
    refused(game, "K-WITCH-1", 0, FAIRY)


# ---- K-BUY-1 --------------------------------------------------------------------------------------------

def buying_table(**rules) -> Game:
    """Seat 0 builds red with three diamonds; seat 1 builds blue and holds red-2 and green-1 on its side."""
    game = new(["red-1", "diamond-1", "diamond-2", "diamond-3", "blue-1", "red-2", "green-1"], **rules)
    do(game, DRAW, DRAW, DRAW, DRAW, STOP, DRAW, DRAW, DRAW, STOP)
    assert game.colour == [0, 1] and game.seat == 0
    return game


PAID = [parse_card(f"diamond-{i}") for i in (1, 2, 3)]


def test_K_BUY_1_three_diamonds_to_the_seller_buy_a_castle_card_of_the_own_colour():
    """K-BUY-1 (corrected): the three diamond cards go to the seller's side pile, not to the discard pile."""
    game = buying_table()
    assert game.ruleset.buy_pays == "seller"  # every new game plays the corrected rule
    buy = Decision.buy(1, parse_card("red-2"))
    assert game.legal(0) == [DRAW, buy]
    do(game, buy)
    assert game.castle[0] == [parse_card("red-1"), parse_card("red-2")]
    assert game.side[0] == [] and game.discard_pile == []
    assert game.side[1] == [parse_card("green-1"), *PAID]
    assert game.diamonds(1) == PAID  # the seller gains the diamonds: they count in the K-WIN-1 tie-break
    assert game.pending.seats == (1,)  # one purchase, and it ends the turn
    assert game.events[-1] == {"turn": 2, "seat": 0, "event": "buy", "seller": 1, "card": "red-2",
                               "paid": ["diamond-1", "diamond-2", "diamond-3"], "paid_to": "seller"}
    assert sorted(game.where()) == list(range(CARD_COUNT))


def test_K_BUY_1_before_the_correction_the_payment_went_to_the_discard_pile():
    """K-BUY-1 as the spec had it before its correction (`buy_pays="discard"`), kept for stored games."""
    game = buying_table(buy_pays="discard")
    do(game, Decision.buy(1, parse_card("red-2")))
    assert game.side[1] == [parse_card("green-1")] and game.side[0] == []
    assert game.discard_pile == PAID
    assert game.events[-1]["paid_to"] == "discard"
    assert sorted(game.where()) == list(range(CARD_COUNT))


def test_K_BUY_1_a_sold_card_pays_the_seller_who_may_buy_with_it():
    """K-BUY-1: diamonds received for a sale are the seller's like any others: three of them buy a card back."""
    game = new(["red-1", "diamond-1", "diamond-2", "diamond-3", "blue-2", "blue-1", "red-2", "green-1"])
    do(game, DRAW, DRAW, DRAW, DRAW, DRAW, STOP, DRAW, DRAW, DRAW, STOP)
    assert game.colour == [0, 1] and game.side[0] == [*PAID, parse_card("blue-2")]
    assert game.buy_options(1) == []  # seat 1 has no diamonds yet
    do(game, Decision.buy(1, parse_card("red-2")))
    assert game.diamonds(1) == PAID
    back = Decision.buy(0, parse_card("blue-2"))
    assert back in game.legal(1)
    do(game, back)
    assert game.diamonds(0) == PAID and game.diamonds(1) == [] and game.discard_pile == []
    assert game.castle == [[parse_card("red-1"), parse_card("red-2")], [parse_card("blue-1"), parse_card("blue-2")]]


@pytest.mark.parametrize("buy_pays", ["seller", "discard", "bank", "", None, 1])
def test_K_BUY_1_the_ruleset_names_where_the_payment_goes(buy_pays):
    if buy_pays in ("seller", "discard"):
        assert Ruleset(2, buy_pays=buy_pays).to_dict() == {"players": 2, "max_turns": 200, "buy_pays": buy_pays}
        return
    with pytest.raises(InvalidRuleset, match="K-BUY-1"):
        Ruleset(2, buy_pays=buy_pays)


def test_K_BUY_1_a_stored_ruleset_without_the_field_reads_as_before_the_correction():
    """K-BUY-1: games stored before the correction have no `buy_pays`; they were played paying the discard pile."""
    assert Ruleset.from_dict({"players": 3}).buy_pays == "discard"
    assert Ruleset.from_dict({"players": 3, "buy_pays": "seller"}).buy_pays == "seller"
    assert Ruleset.from_dict({"players": 3}, new=True).buy_pays == "seller"  # a game about to be made
    assert Ruleset(3).buy_pays == "seller" and Ruleset(3).to_dict()["buy_pays"] == "seller"
    kind = game_type("diamoniak")
    assert kind.make_ruleset({"players": 3}).buy_pays == "seller"
    assert kind.stored_ruleset({"players": 3}).buy_pays == "discard"
    with pytest.raises(InvalidRuleset):
        Ruleset.from_dict({"players": 3, "buy_pays": "bank"})


def test_K_BUY_1_refusals():
    game = buying_table()
    refused(game, "K-BUY-1", 0, Decision.buy(1, parse_card("green-1")))  # not the own colour
    refused(game, "K-BUY-1", 0, Decision.buy(1, parse_card("red-3")))  # not in the seller's side pile
    refused(game, "K-BUY-1", 0, Decision.buy(0, parse_card("red-1")))  # not from oneself
    refused(game, "K-BUY-1", 0, Decision.buy(5, parse_card("red-2")))
    refused(game, "K-BUY-1", 0, Decision("buy", "red-2"))
    refused(game, "K-BUY-1", 0, Decision.buy(1, float(parse_card("red-2"))))
    refused(game, "K-TURN-1", 1, Decision.buy(0, parse_card("red-2")))
    do(game, DRAW)
    refused(game, "K-BUY-1", 0, Decision.buy(1, parse_card("red-2")))  # instead of drawing, not after


def test_K_BUY_1_needs_three_diamonds_and_a_colour():
    game2 = new(["red-1", "diamond-1", "diamond-2", "blue-1", "red-2"])
    do(game2, DRAW, DRAW, DRAW, STOP, DRAW, DRAW, STOP)
    refused(game2, "K-BUY-1", 0, Decision.buy(1, parse_card("red-2")))  # two diamonds only
    game3 = new(["diamond-1", "diamond-2", "diamond-3", "red-1", "blue-1"])
    do(game3, DRAW, DRAW, DRAW, STOP, DRAW, DRAW, STOP)
    refused(game3, "K-BUY-1", 0, Decision.buy(1, parse_card("blue-1")))  # no colour yet


# ---- K-DECK-1 -------------------------------------------------------------------------------------------

def test_K_DECK_1_an_empty_draw_pile_is_refilled_from_the_shuffled_discard_pile():
    game = new(["diamond-1"], seed="deck")
    game.side[1].extend(game.draw_pile[:-3])  # everything but three cards is in seat 1's side pile
    rest = game.draw_pile[-3:]
    game.draw_pile = []
    game.discard_pile = rest
    do(game, DRAW)
    assert game.events[0] == {"turn": 0, "seat": 0, "event": "reshuffle", "cards": 3}
    assert game.discard_pile == [] or game.discard_pile[0] in rest
    assert len(game.draw_pile) + len(game.side[0]) + len(game.discard_pile) == 3
    assert sorted(game.where()) == list(range(CARD_COUNT))


def test_K_DECK_1_decision_with_both_piles_empty_a_player_buys_or_passes():
    game = buying_table()
    game.side[1].extend(game.draw_pile)
    game.draw_pile = []
    buy = Decision.buy(1, parse_card("red-2"))
    legal = game.legal(0)
    assert legal[0] == PASS and buy in legal and DRAW not in legal
    refused(game, "K-DECK-1", 0, DRAW)
    do(game, PASS)
    assert game.legal(1) == [PASS]
    refused(game, "K-TURN-1", 1, STOP)  # a pass, not a stop: nothing was drawn
    do(game, PASS)
    do(game, buy)
    assert game.discard_pile == []  # K-BUY-1: the payment went to the seller, so there is still nothing to draw
    assert game.legal(1) == [PASS]
    old = buying_table(buy_pays="discard")
    old.side[1].extend(old.draw_pile)
    old.draw_pile = []
    do(old, buy)
    assert old.discard_pile  # before the correction the paid diamonds could be drawn again
    assert old.legal(1) == [DRAW]
    refused(old, "K-DECK-1", 1, PASS)


def test_K_DECK_1_a_drawing_player_whose_piles_run_out_must_stop():
    game = new(["diamond-1", "diamond-2"])
    do(game, DRAW)
    game.side[1].extend(game.draw_pile)
    game.draw_pile = []
    assert game.legal(0) == [STOP]
    refused(game, "K-DECK-1", 0, DRAW)


# ---- K-WIN-1 --------------------------------------------------------------------------------------------

def test_K_WIN_1_six_castle_cards_win_at_once():
    game = new(["yellow-2", "diamond-1", "yellow-1", "yellow-3", "yellow-4", "yellow-6", "yellow-5"], players=3)
    do(game, *[DRAW] * 7)
    assert game.over and game.pending is None and game.legal(0) == []
    r = game.result
    assert r.winners == [0] and r.reason == "castle" and r.castle == [6, 0, 0] and r.places[0] == 1
    refused(game, "K-WIN-1", 0, DRAW)
    assert game.events[-1]["event"] == "end"


def test_K_WIN_1_a_bought_sixth_card_wins_at_once():
    top = ["red-1", "red-2", "red-3", "red-4", "red-5", "diamond-1", "diamond-2", "diamond-3", "blue-1", "red-6"]
    game = new(top)
    do(game, *[DRAW] * 8, STOP, DRAW, DRAW, STOP)
    do(game, Decision.buy(1, parse_card("red-6")))
    assert game.over and game.result.winners == [0] and game.result.reason == "castle"


def test_K_WIN_1_decision_after_the_turn_limit_castle_size_then_diamonds():
    game = new(["red-1", "blue-1", "blue-2", "diamond-1", "diamond-2"], max_turns=4)
    do(game, DRAW, STOP, DRAW, DRAW, STOP, DRAW, STOP)
    assert not game.over
    do(game, DRAW, STOP)
    r = game.result
    assert game.over and r.reason == "turns" and r.castle == [1, 2] and r.winners == [1] and r.places == [2, 1]
    game = new(["red-1", "blue-1", "diamond-1", "diamond-2", "diamond-3"], max_turns=2)
    do(game, DRAW, STOP, DRAW, DRAW, DRAW, STOP)
    assert game.result.castle == [1, 1] and game.result.diamonds == [0, 2] and game.result.winners == [1]


def test_K_WIN_1_decision_a_tie_on_castle_and_diamonds_is_shared():
    game = new(["red-1", "blue-1"], max_turns=2)
    do(game, DRAW, STOP, DRAW, STOP)
    assert game.result.winners == [0, 1] and game.result.places == [1, 1]
    assert Ruleset(2).max_turns == 200


def test_K_WIN_1_K_BUY_1_the_diamonds_a_sale_earns_count_in_the_tie_break():
    """K-WIN-1 (Decision), K-BUY-1: after the turn limit places go by castle size, then diamond cards; the
    seller's diamonds from a sale count, so the league's tie-break (standing's `tiebreak`) follows the correction."""
    top = ["red-1", "diamond-1", "diamond-2", "diamond-3", "blue-1", "red-2", "blue-2"]
    for buy_pays, diamonds, winners in (("seller", [0, 3], [1]), ("discard", [0, 0], [0, 1])):
        game = new(top, max_turns=3, buy_pays=buy_pays)
        do(game, DRAW, DRAW, DRAW, DRAW, STOP, DRAW, DRAW, DRAW, STOP, Decision.buy(1, parse_card("red-2")))
        r = game.result
        assert game.over and r.reason == "turns" and r.castle == [2, 2]
        assert r.diamonds == diamonds and r.winners == winners, buy_pays
        assert game_type("diamoniak").standing(game)["tiebreak"] == diamonds


# ---- records, views, registry ---------------------------------------------------------------------------

def random_game(seed: int, players: int = 3, kinds=("random",)) -> Game:
    game = Game(Ruleset(players), f"prop-{seed}")
    bots = [make_bot(kinds[s % len(kinds)], seed=f"{seed}/{s}") for s in range(players)]
    return play_game(game, bots)


def test_record_replays_and_reports_disagreements():
    game = random_game(3)
    record = json.loads(json.dumps(to_record(game)))
    assert record["format"] == "diamoniak-record/1"
    assert set(record) == {"format", "ruleset", "seed", "seats", "first_player", "choices", "events", "result"}
    again, derived, diffs = replay(record)
    assert diffs == [] and derived == record and again.result == game.result
    record["result"]["winners"] = [9]
    assert replay(record)[2] == ["/result/winners/0: record says 9, the rules give " f"{game.result.winners[0]}"]


RECORD_BEFORE_CORRECTION = Path(__file__).parent / "records" / "diamoniak-before-K-BUY-1-correction.json"


def test_K_BUY_1_a_record_from_before_the_correction_replays_under_its_rule(capsys):
    """K-BUY-1: a record exported before the correction (made by main's engine, three heuristic bots: its ruleset
    has no `buy_pays`, its three purchases paid the discard pile) replays with no disagreement under the rule it
    was played by, on the command line too; read as the corrected rule it would not replay."""
    from engine.cli import main

    record = json.loads(RECORD_BEFORE_CORRECTION.read_text(encoding="utf-8"))
    assert "buy_pays" not in record["ruleset"] and sum(e["event"] == "buy" for e in record["events"]) == 3
    game, derived, diffs = replay(record)
    assert diffs == [] and game.ruleset.buy_pays == "discard" and derived["result"] == record["result"]
    assert [e["paid_to"] for e in derived["events"] if e["event"] == "buy"] == ["discard"] * 3
    assert main(["replay", str(RECORD_BEFORE_CORRECTION)]) == 0
    assert json.loads(capsys.readouterr().out)["ruleset"]["buy_pays"] == "discard"
    for bogus in ("bank", None, ["seller"]):
        with pytest.raises(ReplayError, match="K-BUY-1: buy_pays"):
            replay({**record, "ruleset": {**record["ruleset"], "buy_pays": bogus}})
    corrected = {**record, "ruleset": {**record["ruleset"], "buy_pays": "seller"}}
    try:
        diffs = replay(corrected)[2]
    except ReplayError as e:  # a choice the corrected rule refuses
        diffs = [str(e)]
    assert diffs


def test_record_of_an_illegal_choice_names_the_rule():
    game = new(["diamond-1", "diamond-2"])
    do(game, DRAW, STOP)
    record = to_record(game)
    assert record["deck_top"] == ["diamond-1", "diamond-2"]
    assert replay(record)[2] == []
    record["choices"][1] = {"seat": 0, "kind": "stop"}
    record["choices"].insert(0, {"seat": 0, "kind": "stop"})
    with pytest.raises(ReplayError) as e:
        replay(record)
    assert e.value.rule == "K-TURN-1" and "choice 0" in str(e.value)


def test_K_SETUP_1_replay_refuses_a_first_player_the_seed_never_drew(tmp_path, capsys):
    """K-SETUP-1 (Decision): the seed draws the first player, so `diamonds replay` refuses a record whose first
    player its seed never drew; a record of a game given its first player (the league may seat one) says so."""
    shared.check_the_first_player_drawn_from_the_seed("diamoniak", "K-SETUP-1", tmp_path, capsys)


def test_view_hides_the_draw_pile_order_only():
    game = Game(Ruleset(3), "view")
    shared.advance("diamoniak", game, shared.random_bots("diamoniak", 3), 25)
    views = [SeatView(game, s).to_dict() for s in range(3)]
    other = copy.deepcopy(game)
    random.Random(1).shuffle(other.draw_pile)
    assert other.draw_pile != game.draw_pile
    assert [SeatView(other, s).to_dict() for s in range(3)] == views
    assert views[0]["draw_size"] == len(game.draw_pile)
    assert "draw_pile" not in views[0]


def test_registry_finds_diamoniak_by_name_and_format():
    kind = game_type("diamoniak")
    assert by_format("diamoniak-record/1") is kind and set(kind.bots) == {"random", "heuristic"}
    game = kind.new_game({"players": 2}, "reg")
    kind.play_game(game, [kind.make_bot("heuristic", seed=s) for s in range(2)])
    assert kind.standing(game)["winners"] == game.result.winners


def test_cli_plays_and_replays_diamoniak(tmp_path, capsys):
    record = shared.cli_play_then_replay(tmp_path, capsys, ["--game", "diamoniak", "--players", "3", "--seed", "S",
                                                     "--bots", "random,heuristic,random"])
    assert record["format"] == "diamoniak-record/1" and "result" in record


# ---- properties over random games -----------------------------------------------------------------------

@random_games_settings(MANY_GAMES)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4),
       kinds=st.lists(st.sampled_from(["random", "heuristic"]), min_size=1, max_size=4),
       buy_pays=st.sampled_from(["seller", "discard"]))
def test_random_games_conserve_cards_terminate_and_replay(seed, players, kinds, buy_pays):
    """K-SETUP-1: every card is in exactly one place; K-BUY-1 (both versions): a purchase moves four cards and
    makes or loses none, and the diamonds go where the ruleset says; K-CASTLE-1: a castle holds only its owner's
    colour and no colour has two owners; K-WIN-1: the game ends; the record replays to the same game."""
    game = Game(Ruleset(players, buy_pays=buy_pays), f"prop-{seed}")
    bots = [make_bot(kinds[s % len(kinds)], seed=f"{seed}/{s}") for s in range(players)]

    def check(game: Game) -> None:
        assert game.move_number < 20_000
        assert sorted(game.where()) == list(range(CARD_COUNT))
        owned = [c for c in game.colour if c is not None]
        assert len(owned) == len(set(owned))
        for s in range(players):
            assert all(c // 6 == game.colour[s] for c in game.castle[s])
            assert len(game.castle[s]) <= 6
        last = game.events[-1] if game.events else {}
        if last.get("event") == "end" and len(game.events) > 1:
            last = game.events[-2]
        if last.get("event") == "buy" and game.choices[-1][1].kind == "buy":  # the purchase just made
            paid = [parse_card(c) for c in last["paid"]]
            to = game.side[last["seller"]] if buy_pays == "seller" else game.discard_pile
            assert to[-3:] == paid and last["paid_to"] == buy_pays

    shared.play_checking_every_move("diamoniak", game, bots, check)
    assert game.over and game.turn <= 200
    shared.assert_replays_to_the_same_game("diamoniak", game, snapshot)


HEURISTIC_SHARE = {2: 0.8, 3: 0.8, 4: 0.7}  # fair shares: 1/2, 1/3, 1/4


@pytest.mark.parametrize("players", sorted(HEURISTIC_SHARE))
def test_heuristic_beats_random(players):
    """The heuristic bot in one seat (rotating) against random bots wins far more than its fair share."""
    shared.assert_heuristic_beats_random("diamoniak", players, HEURISTIC_SHARE[players])


UNIVERSE = [DRAW, STOP, PASS, FAIRY, Decision("shout"), *(Decision.discard(c) for c in range(CARD_COUNT)),
            *(Decision.buy(s, c) for s in range(-1, 5) for c in range(24))]


@random_games_settings(15)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_whatever_legal_leaves_out_is_refused_with_a_K_rule_and_changes_nothing(seed, players):
    """K-TURN-1, K-WITCH-1, K-BUY-1, K-DECK-1, K-WIN-1: `legal` is exact; anything else is refused unchanged."""
    shared.check_what_legal_leaves_out_is_refused("diamoniak", seed, players, UNIVERSE, state, rule_prefix="K-",
                                           probe_share=0.1)


# ---- the heuristic bot and K-BUY-1 ------------------------------------------------------------------------

def seated(buy_pays: str, *, colours: list[int | None], castles: list[list[str]], sides: list[list[str]],
           first: int = 0) -> Game:
    """A 3-player table laid out by hand (cards taken from the draw pile), at the start of `first`'s turn."""
    game = Game(Ruleset(3, buy_pays=buy_pays), "laid-out", first_player=first)
    for s in range(3):
        for pile, names in ((game.castle[s], castles[s]), (game.side[s], sides[s])):
            for name in names:
                game.draw_pile.remove(parse_card(name))
                pile.append(parse_card(name))
    game.colour = list(colours)
    assert sorted(game.where()) == list(range(CARD_COUNT))
    return game


def test_K_BUY_1_the_heuristic_keeps_a_card_it_can_sell_before_fodder_when_a_witch_takes():
    """K-BUY-1, K-WITCH-1: where a purchase pays the seller, a castle card of a colour another player builds is
    worth keeping (three diamonds if they buy it); where it paid the discard pile it was fodder like any other."""
    bot = make_bot("heuristic", seed=0)
    for buy_pays, first_to_go in (("seller", "green-1"), ("discard", "blue-2")):
        game = seated(buy_pays, colours=[0, 1, None], castles=[["red-1"], ["blue-1"], []],
                      sides=[["blue-2", "green-1", "diamond-1", "diamond-2"], [], []])
        game.draw_pile.remove(parse_card("witch-1"))
        game.draw_pile.append(parse_card("witch-1"))
        do(game, DRAW)
        assert game.pending.kind == "witch" and FAIRY not in game.legal(0)
        assert bot.decide(SeatView(game, 0)) == Decision.discard(parse_card(first_to_go)), buy_pays


def test_K_BUY_1_the_heuristic_pays_no_seller_who_could_then_buy_their_last_card():
    """K-BUY-1, K-WIN-1: the payment arms the seller; one with five castle cards and a card of their colour
    on offer would buy it and win, so the heuristic buys elsewhere, or draws; unless its own purchase wins."""
    bot = make_bot("heuristic", seed=0)
    five_blue = ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5"]
    diamonds = ["diamond-1", "diamond-2", "diamond-3"]
    game = seated("seller", colours=[0, 1, 2], castles=[["red-1"], five_blue, ["green-1"]],
                  sides=[["blue-6", *diamonds], ["red-2"], ["red-3"]])
    assert bot.decide(SeatView(game, 0)) == Decision.buy(2, parse_card("red-3"))
    game.side[2].remove(parse_card("red-3"))
    game.draw_pile.append(parse_card("red-3"))
    assert game.legal(0) == [DRAW, Decision.buy(1, parse_card("red-2"))]
    assert bot.decide(SeatView(game, 0)) == DRAW
    old = seated("discard", colours=[0, 1, 2], castles=[["red-1"], five_blue, ["green-1"]],
                 sides=[["blue-6", *diamonds], ["red-2"], []])
    assert bot.decide(SeatView(old, 0)) == Decision.buy(1, parse_card("red-2"))  # the payment was discarded
    winning = seated("seller", colours=[0, 1, 2], castles=[["red-1", "red-3", "red-4", "red-5", "red-6"],
                                                           five_blue, ["green-1"]],
                     sides=[["blue-6", *diamonds], ["red-2"], []])
    assert bot.decide(SeatView(winning, 0)) == Decision.buy(1, parse_card("red-2"))
    do(winning, Decision.buy(1, parse_card("red-2")))
    assert winning.over and winning.result.winners == [0]
