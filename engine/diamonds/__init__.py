"""Diamonds, the trick-taking game by Mike Fitzgerald (RULES.md R-...): rules, per-seat views, records, replay
and bots.

    from engine.diamonds import Game, Ruleset, SeatView, Decision, to_record, from_record
    game = Game(Ruleset(players=4), seed="club-night/1", seats=["ann", "bob", "cy", "di"])
    game.pending            # Pending(kind='pass_count', seats=(2,), count=None)
    game.legal(2)           # [1, 2, 3]
    game.apply(2, Decision.pass_count(2))
"""

from .bots import BOTS, GreedyBot, RandomBot, SearchBot, make_bot, play_game
from .cards import SUITS, Card, card_str, parse_card, parse_cards
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
    Play,
    Result,
)
from .game_type import GAME_TYPE
from .record import FORMAT, from_record, replay, to_record
from .ruleset import Ruleset
from .view import SeatView

__all__ = [
    "Action", "BOTS", "CLUBS_TARGET", "Card", "DECISION_KINDS", "Decision", "FORMAT", "GAME_TYPE", "Game",
    "GreedyBot", "OVER", "PASS_CARDS", "PASS_COUNT", "PLAY", "Play", "RandomBot", "Result", "Ruleset", "SUITS",
    "SearchBot", "SeatView", "card_str", "from_record", "make_bot", "parse_card", "parse_cards", "play_game",
    "replay", "to_record",
]
