"""The ring-card diamond race (seed 002, OTHER-GAMES.md G-...): draw ring cards, pull loose diamonds off a
board that hides which of them are fixed, steal diamonds of the same value.

    from engine.ringrace import Game, Ruleset, SeatView, Decision, to_record, from_record
    game = Game(Ruleset(players=4), seed="club-night/1")
    game.pending              # Pending(kind='try', seats=(2,), count=None)
    game.apply(2, Decision.try_position(17))
"""

from .bots import BOTS, HeuristicBot, RandomBot, make_bot, play_game
from .game import DECISION_KINDS, Decision, Game, Result
from .record import FORMAT, from_record, replay, to_record
from .rules import Ruleset, card_name, parse_card
from .view import SeatView

__all__ = [
    "BOTS", "DECISION_KINDS", "Decision", "FORMAT", "Game", "HeuristicBot", "RandomBot", "Result", "Ruleset",
    "SeatView", "card_name", "from_record", "make_bot", "parse_card", "play_game", "replay", "to_record",
]
