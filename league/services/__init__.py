"""Writes: every change to the league's tables goes through a function here (keyword-only arguments)."""

from .advancing import advance_tournament, start_round, start_tournament
from .ladders import create_ladder, join_ladder, ladder_tick, leave_ladder, seat_ladder_tables
from .match_finished import on_match_finished
from .matches import create_bot_player, create_club, create_match, create_person_player
from .play import PlayOutcome, apply_decision, play_bot_match
from .ratings import apply_match_ratings
from .registration import register_player, register_players, register_team, withdraw_player
from .rounds import seat_round
from .tournament_setup import create_tournament

__all__ = [
    "PlayOutcome", "advance_tournament", "apply_decision", "apply_match_ratings", "create_bot_player", "create_club",
    "create_ladder", "create_match", "create_person_player", "create_tournament", "join_ladder", "ladder_tick",
    "leave_ladder", "on_match_finished", "play_bot_match", "register_player", "register_players", "register_team",
    "seat_ladder_tables", "seat_round", "start_round", "start_tournament", "withdraw_player",
]
