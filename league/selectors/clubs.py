"""Reads about clubs: the clubs, a club's players and its leagues (with their seasons), a player's clubs."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import Club, League, Player


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
