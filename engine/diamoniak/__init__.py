"""Diamoniak (seed 004, OTHER-GAMES.md K-...): build a castle of your colour from a shared draw pile.

    from engine.diamoniak import Game, Ruleset, SeatView, Decision, to_record, from_record
    game = Game(Ruleset(players=3), seed="club-night/1")
    game.pending              # Pending(kind='turn', seats=(1,), count=None)
    game.legal(1)             # [Decision(kind='draw', value=None)]
    game.apply(1, Decision("draw"))
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
