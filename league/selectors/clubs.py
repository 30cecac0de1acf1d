"""Reads about clubs: the clubs, a club's players and its leagues (with their seasons), a player's clubs; for its
organisers, its members with since when, its organisers and the invitations to organise it still open."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils import timezone

from ..models import Club, ClubAdmin, ClubMember, InvitationStatus, League, OrganiserInvitation, Player
from ..models.organiser_invitation import token_digest


def clubs() -> QuerySet[Club]:
    return Club.objects.all()


def club(club_id: int) -> Club | None:
    return Club.objects.filter(pk=club_id).first()


def club_named(name: str) -> Club | None:
    return Club.objects.filter(name=name).first()


def club_players(club: Club) -> QuerySet[Player]:
    """The club's members, by name."""
    return club.players.order_by("name")


def leagues_of(club: Club) -> QuerySet[League]:
    return League.objects.filter(club=club).prefetch_related("seasons")


def clubs_of(player: Player) -> QuerySet[Club]:
    return player.clubs.all()


def members_of(club: Club) -> QuerySet[ClubMember]:
    """The club's memberships, by the member's name: `.player` and `.joined_at` (None for the oldest members)."""
    return ClubMember.objects.filter(club=club).select_related("player").order_by("player__name")


def organisers_of(club: Club) -> QuerySet[ClubAdmin]:
    """Who organises the club (site staff aside, who organise every club), the longest-standing first."""
    return ClubAdmin.objects.filter(club=club).select_related("user").order_by("created_at", "pk")


def open_invitations(club: Club, *, now=None) -> QuerySet[OrganiserInvitation]:
    """The invitations to organise the club that can still be accepted, the newest first."""
    return (OrganiserInvitation.objects.filter(club=club, status=InvitationStatus.PENDING,
                                               expires_at__gt=now or timezone.now())
            .select_related("invited_by").order_by("-created_at", "-pk"))


def invitation_for_token(token: str) -> OrganiserInvitation | None:
    """The invitation a link's token opens, whatever its state (the caller says why it cannot be used)."""
    if not token or len(token) > 200:
        return None
    return OrganiserInvitation.objects.select_related("club").filter(token_digest=token_digest(token)).first()
