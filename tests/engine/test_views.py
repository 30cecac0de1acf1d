"""Seat views: a seat sees its own hand and vault, every showroom, the Thief and the cards played, never another
seat's hand or vault while the game runs; everything once it is over."""

from __future__ import annotations

import re

import pytest

from engine import Game, Ruleset, SeatView, card_str
from engine.diamonds.bots import play_game

from .support import ALL_RULESETS, bots_for, game_after_pass, play

CARD = re.compile(r"^[DHSC]([1-9]|1[0-5])$")


def cards_in(data, found: set[str] | None = None) -> set[str]:
    """Every card string anywhere in a JSON-like structure."""
    found = set() if found is None else found
    if isinstance(data, dict):
        for v in data.values():
            cards_in(v, found)
    elif isinstance(data, (list, tuple)):
        for v in data:
            cards_in(v, found)
    elif isinstance(data, str) and CARD.match(data):
        found.add(data)
    return found


def keys_in(data, found: set[str] | None = None) -> set[str]:
    found = set() if found is None else found
    if isinstance(data, dict):
        found.update(data)
        for v in data.values():
            keys_in(v, found)
    elif isinstance(data, (list, tuple)):
        for v in data:
            keys_in(v, found)
    return found


def check_view(game: Game, seat: int) -> None:
    view = SeatView(game, seat).to_dict()
    own = {card_str(c) for c in game.hands[seat]}
    # earlier rounds: only the cards played in them (all public), nothing of their hands or passes
    for r in view["rounds"][-2:-1]:
        assert cards_in(r) == {p["card"] for t in r["tricks"] for p in t["plays"]}
    now = dict(view, rounds=view["rounds"][-1:])
    played = {p["card"] for r in now["rounds"] for t in r["tricks"] for p in t["plays"]}
    passed = set(view["passed"] or [])
    received = set(view["received"] or [])
    assert set(view["hand"]) == own
    assert passed == {card_str(c) for c in (game.passed_by(seat) or [])}
    # what the seat may know this round: its hand, what it passed and received, and every card played
    leaked = cards_in(now) - own - played - passed - received
    assert not leaked, f"seat {seat} sees {sorted(leaked)}"
    others = {card_str(c) for s in range(game.n) if s != seat for c in game.hands[s]}
    # of the cards now in other hands, only those this seat passed itself may appear
    assert cards_in(now) & others <= passed
    team = game.team_of(seat)
    assert view["vault"] == game.vault[team]
    assert view["showrooms"] == game.showroom
    assert view["thief"] == game.thief
    assert view["supply"] == game.supply
    assert view["hand_sizes"] == [len(h) for h in game.hands]
    if not game.over:
        keys = keys_in(now)
        assert not keys & {"vaults", "result", "dealt_hands", "hands", "passes", "score"}
        assert {k for k in keys if "vault" in k.lower()} == {"vault"}, "only the seat's own vault"
        assert "vault" not in keys_in(now["rounds"])


@pytest.mark.parametrize("name", sorted(ALL_RULESETS))
def test_views_never_show_another_seats_hand_or_vault_while_the_game_runs(name):
    ruleset = ALL_RULESETS[name]
    for g in range(2):
        game = Game(ruleset, f"view-{name}-{g}")
        bots = bots_for(ruleset.players, f"{name}-{g}")
        steps = 0
        while game.pending is not None:
            if steps % 5 == 0 or game.pending.kind != "play":
                for seat in range(game.n):
                    check_view(game, seat)
            for seat in game.pending.seats:
                game.apply(seat, bots[seat].decide(SeatView(game, seat)))
            steps += 1


def test_view_of_the_passing_phase():
    game = Game(Ruleset(4), "passing", first_dealer=0)
    game.choose_pass_count(0, 2)
    given = game.hands[1][:2]
    game.pass_cards(1, given)
    view = SeatView(game, 1).to_dict()
    assert view["passed"] == [card_str(c) for c in given]
    assert view["received"] is None, "nothing is received before every seat has passed"
    assert SeatView(game, 2).to_dict()["passed"] is None, "seat 2 does not see seat 1's choice"
    assert SeatView(game, 2).to_dict()["pending"] == {"kind": "pass_cards", "seats": [0, 2, 3], "count": 2}
    for seat in (0, 2, 3):
        game.pass_cards(seat, game.hands[seat][:2])
    assert SeatView(game, 2).to_dict()["received"] == [card_str(c) for c in given]
    for seat in range(4):
        check_view(game, seat)


def test_view_shows_the_decision_owed_and_the_current_trick():
    game = game_after_pass(
        Ruleset(4, hand_size=3, rounds=1),
        [["C1", "H5", "S7"], ["C2", "H9", "D1"], ["C3", "S2", "D15"], ["C4", "H3", "H12"]],
        first_dealer=3,
    )
    play(game, "H5")
    view = SeatView(game, 1)
    assert view.my_turn and not SeatView(game, 2).my_turn
    assert view.to_dict()["legal"] == ["H9"]
    assert SeatView(game, 2).to_dict()["legal"] == []
    assert view.current_trick == [(0, game.rounds[0].tricks[0].plays[0].card)]
    assert view.led_suit == 1  # hearts
    assert view.to_dict()["rounds"][0]["tricks"][0]["plays"] == [{"seat": 0, "card": "H5"}]


@pytest.mark.parametrize("name", ["2p", "3p-thief", "4p-partners", "6p-partners", "5p-perfect"])
def test_after_the_game_the_view_includes_the_result_and_the_vaults(name):
    ruleset = ALL_RULESETS[name]
    game = Game(ruleset, f"end-{name}")
    play_game(game, bots_for(ruleset.players, name))
    for seat in range(ruleset.players):
        view = SeatView(game, seat).to_dict()
        assert view["over"] is True
        assert view["result"] == game.result._asdict()
        assert view["vaults"] == game.vault == game.result.vault
        assert view["pending"] is None and view["legal"] == [] and not view["my_turn"]


def test_a_view_of_no_seat_is_refused():
    game = Game(Ruleset(3), "x")
    with pytest.raises(ValueError):
        SeatView(game, 3)
    with pytest.raises(ValueError):
        SeatView(game, -1)
