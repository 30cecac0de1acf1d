"""Diamonds, the trick-taking game by Mike Fitzgerald: rules, per-seat views, records, replay and bots.

Pure Python, no Django. The public interface:

    from engine import Game, Ruleset, SeatView, Decision, IllegalDecision, to_record, from_record
    game = Game(Ruleset(players=4), seed="club-night/1", seats=["ann", "bob", "cy", "di"])
    game.pending            # Pending(kind='pass_count', seats=(2,), count=None)
    game.legal(2)           # [1, 2, 3]
    game.apply(2, Decision.pass_count(2))
    SeatView(game, 0).to_dict()   # what seat 0 may see
    to_record(game)         # diamonds-record/1

The engine also holds two more games of the same shape, `engine.diamoniak` and `engine.ringrace`; the
registry `engine.games` finds any of the three by name ("diamonds", "diamoniak", "ringrace") or record format.

The hot modules may run compiled (setup.py's optional Cython build of the same source); `DIAMONDS_PURE_PYTHON=1`
runs them all as Python, and `engine._loader.describe()` says which path is running.
"""

# First, before any other engine module is imported: it decides compiled or .py (see engine/_loader.py).
from . import _loader  # noqa: F401
from .cards import SUITS, Card, card_str, parse_card, parse_cards
from .errors import IllegalDecision, InvalidRuleset
from .game import (
    CLUBS_TARGET,
    DECISION_KINDS,
    OVER,
    PASS_CARDS,
    PASS_COUNT,
    PLAY,
    Action,
    Decision,
    Game,
    Pending,
    Play,
    Result,
)
from .record import FORMAT, ReplayError, differences, from_record, replay, to_record
from .ruleset import Ruleset
from .view import SeatView

__all__ = [
    "Action", "CLUBS_TARGET", "Card", "DECISION_KINDS", "Decision", "FORMAT", "Game", "IllegalDecision",
    "InvalidRuleset", "OVER", "PASS_CARDS", "PASS_COUNT", "PLAY", "Pending", "Play", "ReplayError", "Result",
    "Ruleset", "SUITS", "SeatView", "card_str", "differences", "from_record", "parse_card", "parse_cards",
    "replay", "to_record",
]
