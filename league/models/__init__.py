"""The league's tables, one model per module."""

from .club import Club
from .match import Match, MatchStatus
from .match_round import MatchRound
from .match_seat import MatchSeat
from .player import Player
from .suit_action import SuitAction
from .trick import Trick

__all__ = ["Club", "Match", "MatchRound", "MatchSeat", "MatchStatus", "Player", "SuitAction", "Trick"]
