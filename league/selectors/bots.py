"""Reads for bot authors and bot pages: an author's bots, where a bot may be entered, its matches (live first) and
its missed deadlines (MatchSeat.timeouts, MatchSeat.forfeited)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, IntegerField, Prefetch, Q, Sum, Value, When
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ..models import (
    Club,
    Ladder,
    LadderEntry,
    MatchSeat,
    MembershipRequest,
    Player,
    RequestStatus,
    Tournament,
    TournamentEntry,
    TournamentStatus,
)
from ..models.match import IN_PLAY
from ..models.player import EXTERNAL_BOT
from .accounts import open_for_self_entry_q


def bots_of(user):
    """The external bots `user` created, with their clubs, pending requests to join clubs, active ladder entries and
    tournament entries."""
    return (Player.objects.filter(owner=user, bot_kind=EXTERNAL_BOT).order_by("name").prefetch_related(
        "clubs",
        Prefetch("ladder_entries", queryset=LadderEntry.objects.filter(active=True).select_related("ladder"),
                 to_attr="active_ladder_entries"),
        Prefetch("membership_requests", queryset=MembershipRequest.objects.filter(status=RequestStatus.PENDING)
                 .select_related("club").order_by("club__name"), to_attr="pending_requests"),
        Prefetch("tournament_entries", queryset=TournamentEntry.objects.filter(active=True)
                 .exclude(tournament__status__in=[TournamentStatus.FINISHED, TournamentStatus.CANCELLED])
                 .select_related("tournament"), to_attr="current_tournament_entries"),
    ))


def token_holders(players) -> set[int]:
    """The ids of the players among `players` whose account has an API token now."""
    users = {p.user_id: p.pk for p in players if p.user_id}
    return {users[u] for u in Token.objects.filter(user_id__in=list(users)).values_list("user_id", flat=True)}


def _clubs_of(player: Player) -> list[int]:
    return [c.pk for c in player.clubs.all()]


def ladders_open_to(player: Player):
    """Active ladders the player is not in that its owner may enter it in (league.permissions.refusal_to_enter: a
    ladder of a club is for its members)."""
    entered = LadderEntry.objects.filter(player=player, active=True).values("ladder_id")
    return (Ladder.objects.filter(Q(club__isnull=True) | Q(club__in=_clubs_of(player)), active=True)
            .exclude(pk__in=entered).order_by("name"))


def tournaments_open_to(player: Player):
    """Tournaments without partnerships (a team is two partners entered together) it is not in, that its owner may
    enter it in now, as a person may enter themselves: within the self-entry window (open_for_self_entry), and of
    its clubs where only members may enter (league.permissions.refusal_to_enter)."""
    entered = TournamentEntry.objects.filter(player=player).values("tournament_id")
    return (Tournament.objects.filter(Q(club__isnull=True) | Q(members_only=False) | Q(club__in=_clubs_of(player)))
            .filter(open_for_self_entry_q(timezone.now()))
            .exclude(pk__in=entered)
            # a missing key is NULL: exclude() alone would drop every tournament without the key
            .exclude(Q(ruleset__has_key="partnerships") & Q(ruleset__partnerships=True)).order_by("name"))


def clubs_to_join(player: Player):
    """Clubs the player is not a member of and has no pending request to join: where its owner may ask."""
    pending = MembershipRequest.objects.filter(player=player, status=RequestStatus.PENDING).values("club_id")
    return Club.objects.exclude(pk__in=_clubs_of(player)).exclude(pk__in=pending).order_by("name")


def player_seats(player: Player):
    """The player's seats, matches in play first, then the newest."""
    live = Case(When(match__status__in=IN_PLAY, then=Value(0)), default=Value(1), output_field=IntegerField())
    return (MatchSeat.objects.filter(player=player)
            .select_related("match__ladder", "match__tournament_round__tournament")
            .annotate(live=live).order_by("live", "-match__created_at", "-match_id"))


@dataclass(frozen=True)
class Conduct:
    """A player's missed turn deadlines over its finished and live matches."""

    timeouts: int  # deadlines missed, all matches together
    matches_with_timeouts: int
    forfeits: int
    last: list  # the latest seats with a miss, newest first (MatchSeat, with .match)


def conduct_of(player: Player, *, last: int = 10) -> Conduct:
    missed = MatchSeat.objects.filter(player=player).filter(Q(timeouts__gt=0) | Q(forfeited=True))
    totals = MatchSeat.objects.filter(player=player).aggregate(timeouts=Sum("timeouts"))
    return Conduct(
        timeouts=totals["timeouts"] or 0,
        matches_with_timeouts=MatchSeat.objects.filter(player=player, timeouts__gt=0).count(),
        forfeits=MatchSeat.objects.filter(player=player, forfeited=True).count(),
        last=list(missed.select_related("match").order_by("-match__created_at", "-match_id")[:last]),
    )

