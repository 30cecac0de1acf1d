"""The league's tables, one model per module."""

from .check_in import CheckIn
from .claim_code import ClaimCode
from .club import Club, Membership
from .club_admin import ClubAdmin
from .club_member import ClubMember
from .comparison import Comparison, ComparisonDecision, ComparisonPair, ComparisonStatus, PairStatus
from .division import Division
from .division_member import DivisionMember, Movement
from .ladder import Ladder, RatingModel
from .ladder_entry import LadderEntry
from .league import League
from .lobby_seat import LobbySeat
from .lobby_table import LobbyStatus, LobbyTable
from .match import DeadlineAction, Match, MatchStatus
from .match_seat import MatchSeat
from .match_step import MatchStep
from .membership_request import MembershipRequest, RequestStatus
from .notification import Notification, NotificationKind
from .organiser_invitation import InvitationStatus, OrganiserInvitation
from .outbox import OutboxKind, OutboxMessage
from .player import Player
from .private_link import PrivateLink
from .profile import Language, Profile
from .rating import Rating
from .rating_history import RatingHistory
from .result_correction import ResultCorrection
from .result_entry import EntryStatus, ResultEntry
from .season import Season
from .tournament import FinalRanking, LateEntryPoints, Tournament, TournamentFormat, TournamentStatus
from .tournament_entry import TournamentEntry
from .tournament_round import RoundStatus, TournamentRound
from .webhook import DeliveryStatus, WebhookDelivery, WebhookEndpoint

__all__ = [
    "LobbySeat", "LobbyStatus", "LobbyTable",
    "Club", "ClubAdmin", "ClubMember", "InvitationStatus", "OrganiserInvitation",
    "DeadlineAction", "Ladder", "LadderEntry", "League", "Match",
    "MatchSeat", "MatchStep", "MatchStatus", "OutboxKind", "OutboxMessage", "Player", "Rating", "RatingHistory",
    "RatingModel",
    "ResultCorrection", "RoundStatus",
    "EntryStatus", "ResultEntry", "Season", "Tournament", "TournamentEntry", "TournamentFormat",
    "TournamentRound", "TournamentStatus",
    "CheckIn", "FinalRanking", "LateEntryPoints", "ClaimCode", "PrivateLink",
    "DeliveryStatus", "Notification", "NotificationKind", "WebhookDelivery", "WebhookEndpoint",
    "Language", "Membership", "MembershipRequest", "Profile", "RequestStatus",
    "Division", "DivisionMember", "Movement",
    "Comparison", "ComparisonDecision", "ComparisonPair", "ComparisonStatus", "PairStatus",
]
