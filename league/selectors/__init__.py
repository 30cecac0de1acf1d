"""Reads: what the league shows and exports. Nothing here writes."""

from .games import ChoiceMarks, StoredPlayError, load_match_game
from .matches import get_match, match_seats, stalled_bot_match_ids
from .records import match_record
from .standings import StandingRow, season_standings, tournament_standings

__all__ = [
    "ChoiceMarks", "StandingRow", "StoredPlayError", "get_match", "load_match_game", "match_record", "match_seats",
    "season_standings", "stalled_bot_match_ids", "tournament_standings",
]
