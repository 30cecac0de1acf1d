"""Decisions as JSON (what bots and the API send): every legal decision survives the round trip, malformed ones
are refused with a readable ValueError before they reach the game."""

from __future__ import annotations

import json

import pytest

from engine import Decision, Game, Ruleset, SeatView
from engine.diamonds.game import CLUBS_TARGET, PASS_CARDS, PASS_COUNT, PLAY

from .support import ALL_RULESETS, bots_for


@pytest.mark.parametrize("name", ["2p", "3p-choose", "4p-partners", "6p-thief"])
def test_every_decision_of_a_game_survives_json(name):
    ruleset = ALL_RULESETS[name]
    game = Game(ruleset, f"json-{name}")
    bots = bots_for(ruleset.players, name)
    kinds = set()
    while game.pending is not None:
        seat = game.pending.seats[0]
        decision = bots[seat].decide(SeatView(game, seat))
        again = Decision.from_json(json.loads(json.dumps(decision.to_json())))
        assert again == decision
        kinds.add(decision.kind)
        game.apply(seat, again)
    assert {PASS_COUNT, PASS_CARDS, PLAY} <= kinds
    if ruleset.clubs == "choose" and ruleset.players > 2:
        assert CLUBS_TARGET in kinds


@pytest.mark.parametrize("data", [
    None, [], {}, {"kind": "bid"},
    {"kind": "pass_count"}, {"kind": "pass_count", "count": "2"}, {"kind": "pass_count", "count": True},
    {"kind": "pass_cards", "cards": "D1"}, {"kind": "pass_cards", "cards": ["D16"]},
    {"kind": "play"}, {"kind": "play", "card": "X3"}, {"kind": "play", "card": "D0"}, {"kind": "play", "card": 17},
    {"kind": "clubs_target"}, {"kind": "clubs_target", "target": "1"}, {"kind": "clubs_target", "target": False},
])
def test_malformed_decisions_are_refused(data):
    with pytest.raises(ValueError):
        Decision.from_json(data)


def test_decision_json_shapes():
    assert Decision.pass_count(2).to_json() == {"kind": "pass_count", "count": 2}
    assert Decision.pass_cards([1, 18]).to_json() == {"kind": "pass_cards", "cards": ["D1", "H2"]}
    assert Decision.play(35).to_json() == {"kind": "play", "card": "S3"}
    assert Decision.clubs_target(4).to_json() == {"kind": "clubs_target", "target": 4}
    assert Ruleset(4).to_dict() == {"players": 4, "partnerships": False, "perfect": False, "clubs": "thief",
                                    "rounds": 4, "hand_size": 10, "deck_ranks": 15}
