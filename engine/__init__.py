"""Diamonds, the trick-taking game by Mike Fitzgerald: rules, per-seat views, records, replay and bots.

Pure Python, no Django. The public interface:

    from engine import Game, Ruleset, SeatView, Decision, IllegalDecision, to_record, from_record
    game = Game(Ruleset(players=4), seed="club-night/1", seats=["ann", "bob", "cy", "di"])
    game.pending            # Pending(kind='pass_count', seats=(2,), count=None)
    game.legal(2)           # [1, 2, 3]
    game.apply(2, Decision.pass_count(2))
    SeatView(game, 0).to_dict()   # what seat 0 may see
    to_record(game)         # diamonds-record/1

Diamonds lives in `engine.diamonds`, beside two more games of the same shape, `engine.diamoniak` and
`engine.ringrace`; these names are Diamonds'. The registry `engine.games` finds any of the three by name
("diamonds", "diamoniak", "ringrace") or record format (engine/README.md: the layout, how to add a game).

The hot modules may run compiled (setup.py's optional Cython build of the same source); `DIAMONDS_PURE_PYTHON=1`
runs them all as Python, and `engine._loader.describe()` says which path is running.
"""

# First, before any other engine module is imported: it decides compiled or .py (see engine/_loader.py).
from . import _loader  # noqa: F401
from .common.pending import Pending
from .common.records import ReplayError, differences
from .diamonds import (
    CLUBS_TARGET,
    DECISION_KINDS,
    FORMAT,
    OVER,
    PASS_CARDS,
    PASS_COUNT,
    PLAY,
    SUITS,
    Action,
    Card,
    Decision,
    Game,
    Play,
    Result,
    Ruleset,
    SeatView,
    card_str,
    from_record,
    parse_card,
    parse_cards,
    replay,
    to_record,
)
from .errors import IllegalDecision, InvalidRuleset

__all__ = [
    "Action", "CLUBS_TARGET", "Card", "DECISION_KINDS", "Decision", "FORMAT", "Game", "IllegalDecision",
    "InvalidRuleset", "OVER", "PASS_CARDS", "PASS_COUNT", "PLAY", "Pending", "Play", "ReplayError", "Result",
    "Ruleset", "SUITS", "SeatView", "card_str", "differences", "from_record", "parse_card", "parse_cards",
    "replay", "to_record",
]
