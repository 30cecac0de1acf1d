"""Create a club's leagues and their seasons (a season's tournaments link to it; league.selectors.standings ranks
the season)."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Club, League, Season


@transaction.atomic
def create_league(*, club: Club, name: str) -> League:
    return League.objects.create(club=club, name=name)


@transaction.atomic
def create_season(
    *, league: League, name: str, starts_on: datetime.date | None = None, ends_on: datetime.date | None = None
) -> Season:
    if starts_on and ends_on and ends_on < starts_on:
        raise ValueError(_("a season cannot end before it starts"))
    return Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)


@transaction.atomic
def rename_league(*, league: League, name: str) -> League:
    league.name = name
    league.save(update_fields=["name"])
    return league


@transaction.atomic
def update_season(*, season: Season, **changes) -> Season:
    """Rename a season or move its dates (its tournaments stay): ValueError if it would end before it starts."""
    unknown = set(changes) - {"name", "starts_on", "ends_on"}
    if unknown:
        raise ValueError(f"no such season setting: {', '.join(sorted(unknown))}")
    starts_on, ends_on = changes.get("starts_on", season.starts_on), changes.get("ends_on", season.ends_on)
    if starts_on and ends_on and ends_on < starts_on:
        raise ValueError(_("a season cannot end before it starts"))
    for name, value in changes.items():
        setattr(season, name, value)
    season.save(update_fields=list(changes))
    return season


class NotEmpty(ValueError):
    """A league or season that still holds what it organised: deleting it would lose their grouping."""


@transaction.atomic
def delete_season(*, season: Season) -> None:
    """Delete a season that has no tournaments (NotEmpty otherwise: its tournaments' standings are the season's)."""
    if season.tournaments.exists():
        raise NotEmpty(f"season {season} has tournaments; delete or move them first")
    season.delete()


@transaction.atomic
def delete_league(*, league: League) -> None:
    """Delete a league that has no seasons (NotEmpty otherwise)."""
    if league.seasons.exists():
        raise NotEmpty(f"league {league} has seasons; delete them first")
    league.delete()
