"""Writes: every change to the league's tables goes through a function here (keyword-only arguments)."""

from .matches import create_bot_player, create_club, create_match, create_person_player
from .play import PlayOutcome, apply_decision, play_bot_match

__all__ = [
    "PlayOutcome", "apply_decision", "create_bot_player", "create_club", "create_match", "create_person_player",
    "play_bot_match",
]
