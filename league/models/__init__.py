"""The league's tables, one model per module."""

from .club import Club
from .club_admin import ClubAdmin
from .comparison import Comparison, ComparisonDecision, ComparisonPair, ComparisonStatus, PairStatus
from .ladder import Ladder, RatingModel
from .ladder_entry import LadderEntry
from .league import League
from .match import DeadlineAction, Match, MatchStatus
from .match_choice import MatchChoice
from .match_round import MatchRound
from .match_seat import MatchSeat
from .outbox import OutboxKind, OutboxMessage
from .player import Player
from .rating import Rating
from .rating_history import RatingHistory
from .result_correction import ResultCorrection
from .season import Season
from .suit_action import SuitAction
from .tournament import Tournament, TournamentFormat, TournamentStatus
from .tournament_entry import TournamentEntry
from .tournament_round import RoundStatus, TournamentRound
from .trick import Trick

__all__ = [
    "Club", "ClubAdmin", "DeadlineAction", "Ladder", "LadderEntry", "League", "Match", "MatchChoice", "MatchRound",
    "MatchSeat", "MatchStatus", "OutboxKind", "OutboxMessage", "Player", "Rating", "RatingHistory", "RatingModel",
    "ResultCorrection", "RoundStatus", "Season", "SuitAction", "Tournament", "TournamentEntry", "TournamentFormat",
    "TournamentRound", "TournamentStatus", "Trick",
    "Comparison", "ComparisonDecision", "ComparisonPair", "ComparisonStatus", "PairStatus",
]
