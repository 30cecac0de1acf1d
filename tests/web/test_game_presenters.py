"""Each game's presentation (web.games) on engine games directly, no database: every game of the engine has one, the
buttons are exactly the seat's legal decisions in the game's words, and a replay's steps are what the engine derives
from the record."""

from __future__ import annotations

import json

import pytest

from engine.games import GAMES, game_type
from web.games import PRESENTERS, presenter_for
from web.games.choices import public_view

NAMES = ["ann", "bob", "cy", "di"]


def played(game_name: str, seed: str, *, players: int = 4, until=lambda game: False):
    """A game of heuristic bots, stopped as soon as `until(game)` holds (or at its end)."""
    kind = game_type(game_name)
    game = kind.new_game({"players": players}, seed=seed, seats=NAMES[:players])
    bots = [kind.make_bot("heuristic", seed=f"{seed}/{s}") for s in range(players)]
    while not game.over and not until(game):
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(kind.view(game, seat)))
    return kind, game


def first_seed(game_name: str, until) -> tuple:
    for i in range(200):
        kind, game = played(game_name, f"presenter-{i}", until=until)
        if not game.over:
            return kind, game
    raise AssertionError(f"no seed in 200 reaches the state wanted in {game_name}")


def test_every_game_of_the_engine_has_a_presentation():
    assert set(PRESENTERS) == set(GAMES)
    for name, presenter in PRESENTERS.items():
        assert presenter.title == GAMES[name].title and presenter.default_bot in GAMES[name].bots
    with pytest.raises(ValueError, match="cannot show"):
        presenter_for("chess")


def button_json(table) -> list[dict]:
    """Every decision the table offers (on the board's cards, piles and places, or as a button of its own)."""
    return sorted((json.loads(b.value) for b in table.buttons), key=json.dumps)


def alike(decision: dict) -> str:
    """A Diamoniak decision up to the cards no rule tells apart: any diamond card, any fairy card."""
    card = decision.get("card", "")
    return json.dumps({**decision, "card": card.split("-")[0]} if card.startswith(("diamond-", "fairy-")) else decision,
                      sort_keys=True)


def test_a_diamoniak_witch_offers_the_fairy_and_each_discard():
    kind, game = first_seed("diamoniak", lambda g: g.phase == "witch" and g.fairies(g.seat) and not g.witch_taken
                            and g.diamonds(g.seat) and g.castle[g.seat])
    state = kind.view(game, game.seat).to_dict()
    table = presenter_for("diamoniak").build_table(state, NAMES)
    offered = button_json(table)
    # Every button is a legal decision, each once, and every legal decision is offered (one diamond card stands for
    # them all: they are alike, as the fairies are).
    assert all(d in state["legal"] for d in offered) and len({json.dumps(d) for d in offered}) == len(offered)
    assert {alike(d) for d in offered} == {alike(d) for d in state["legal"]}
    labels = {json.dumps(json.loads(b.value), sort_keys=True): b.label for b in table.buttons}
    me = table.me
    assert me.fairy_button.label.startswith("Use a fairy")
    assert "A witch!" in table.prompt and "K-WITCH-1" in table.prompt
    assert me.diamond_button.label == f"Give a diamond card to the witch (you have {me.diamonds})"
    for card in me.castle:  # each castle card is the button that gives it to the witch, named in words
        assert card.button.label == f"Give the {card.words} from your castle to the witch"
        assert labels[json.dumps({"kind": "discard", "card": card.name}, sort_keys=True)] == card.button.label
    assert table.draw_button is None and table.decision == "witch"


def test_a_ring_race_steal_names_the_victim_and_the_value():
    kind, game = first_seed("ringrace", lambda g: g.phase == "steal")
    state = kind.view(game, game.seat).to_dict()
    table = presenter_for("ringrace").build_table(state, NAMES)
    assert button_json(table) == sorted(state["legal"], key=json.dumps)
    labels = [b.label for b in table.groups[0].buttons]
    for d in state["legal"]:
        assert f"Steal the ${d['value']:,} diamond from {NAMES[d['victim']]}" in labels
        # the button is the victim's set ring of that value (the engine takes the first one)
        ring = next(r for r in table.seats[d["victim"]].rings if r.set and r.value == d["value"])
        assert json.loads(ring.button.value) == d
    assert all(c.button is None for c in table.board)  # a steal is not a try: the board takes no click
    assert all(r.button is None for r in table.seats[game.seat].rings)  # nobody robs themselves
    # Someone else's turn: the same table with no buttons at all, and words saying whom it waits for.
    other = next(s for s in range(4) if s != game.seat)
    table = presenter_for("ringrace").build_table(kind.view(game, other).to_dict(), NAMES)
    assert button_json(table) == [] and NAMES[game.seat] in table.prompt


@pytest.mark.parametrize("game_name", ["diamoniak", "ringrace"])
def test_the_replay_steps_are_the_engines(game_name):
    kind, game = played(game_name, "presenter-replay")
    assert game.over
    record = kind.to_record(game)
    frames = presenter_for(game_name).replay_frames(record)
    assert frames[-1].table.state == public_view(kind.view(game, 0).to_dict())
    assert frames[-1].table.result and frames[0].title == "The start"
    described = sum(len(f.lines) for f in frames)
    assert 0 < described <= len(record["events"])  # every event said once at most, in its step


def test_a_ring_race_replay_says_what_untried_positions_turned_out_to_be():
    kind, game = played("ringrace", "presenter-underneath")
    frames = presenter_for("ringrace").replay_frames(kind.to_record(game))
    start = frames[0].table.board
    assert {c.state for c in start} == {"untried"}  # nobody has tried anything yet
    assert [c.position for c in start if c.underneath == "fixed"] == sorted(game.fixed)
    assert all(c.underneath == "" for c in frames[-1].table.board)  # the end shows the board itself


def test_K_BUY_1_the_diamoniak_table_says_who_a_purchase_pays():
    """K-BUY-1: a new game's table and log say the diamonds go to the seller; the replay of a record made before
    the correction (no `buy_pays`, no `paid_to`) says they went to the discard pile, as they did."""
    from pathlib import Path

    from web.games.diamoniak import describe

    presenter = presenter_for("diamoniak")
    kind, game = first_seed("diamoniak", lambda g: any(e["event"] == "buy" for e in g.events))
    bought = next(e for e in game.events if e["event"] == "buy")
    table = presenter.build_table(public_view(kind.view(game, 0).to_dict()), NAMES)
    assert table.pays_seller and describe(bought, NAMES).endswith(f"to {NAMES[bought['seller']]} (K-BUY-1).")
    old = json.loads((Path(__file__).parents[1] / "engine" / "records"
                      / "diamoniak-before-K-BUY-1-correction.json").read_text(encoding="utf-8"))
    frames = [step() for step in presenter.replay_steps(old)]
    lines = [line for f in frames for line in f.lines if " buys " in line]
    assert len(lines) == 3 and all(line.endswith("to the discard pile (K-BUY-1).") for line in lines)
    assert not frames[-1].table.pays_seller


@pytest.mark.parametrize("players, left, top, right", [(2, [], [1], []), (3, [], [1, 2], []), (4, [1], [2], [3]),
                                                       (5, [1], [2, 3], [4]), (6, [1, 2], [3], [4, 5])])
def test_the_seats_sit_around_the_board_clockwise_from_the_readers_left(players, left, top, right):
    from web.games.choices import seats_around

    for viewer in range(players):
        around = seats_around(list(range(players)), viewer)
        turned = [[(viewer + s) % players for s in side] for side in (left, top, right)]
        assert around.bottom == [viewer] and [around.left, around.top, around.right] == turned
    assert seats_around(list(range(players)), None).bottom == [0]  # a spectator sees the first seat at the bottom


@pytest.mark.parametrize("game_name", ["diamoniak", "ringrace"])
def test_a_table_carries_its_latest_events_for_the_board_to_show(game_name):
    """The live table's moves are the game's latest events in words, each at its index in the game's events with
    what moved where (the board's script animates those past what its page showed), and the table counts them."""
    kind, game = played(game_name, "presenter-moves", until=lambda g: len(g.events) > 30)
    table = presenter_for(game_name).build_table(kind.view(game, 0).to_dict(), NAMES)
    assert table.events == len(game.events) and 0 < len(table.moves) <= 12
    indices = [m.index for m in table.moves]
    assert indices == sorted(indices) and indices[0] >= len(game.events) - 12
    assert [m.text for m in table.log] == [m.text for m in table.moves][::-1]  # the log: newest first
    for move in table.moves:
        event = game.events[move.index]
        assert move.attrs["kind"] == event["event"] and move.attrs.get("seat") == str(event["seat"])
        if "card" in event:
            assert move.attrs["card"] == event["card"]
        if event["event"] == "try":  # positions are counted from 1 in words, from 0 in the data (and the JSON)
            assert move.attrs["position"] == str(event["position"])
            assert f"tries position {event['position'] + 1}:" in move.text
