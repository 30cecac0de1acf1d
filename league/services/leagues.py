"""Create a club's leagues and their seasons (a season's tournaments link to it; league.selectors.standings ranks
the season). A league's division settings are what its new seasons start with; a season's divisions are
league.services.divisions'."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Club, League, Season
from .divisions import Placing, check_division_settings, set_up_divisions


@transaction.atomic
def create_league(*, club: Club, name: str, division_count: int = 1, promoted: int = 2,
                  relegated: int = 2) -> League:
    """A league; its seasons start with `division_count` divisions and `promoted` and `relegated` between two
    (DivisionError, a ValueError, for numbers out of bounds)."""
    check_division_settings(division_count, promoted, relegated)
    return League.objects.create(club=club, name=name, division_count=division_count, promoted=promoted,
                                 relegated=relegated)


@transaction.atomic
def create_season(
    *, league: League, name: str, starts_on: datetime.date | None = None, ends_on: datetime.date | None = None,
    division_count: int | None = None, promoted: int | None = None, relegated: int | None = None,
    placing: str = Placing.HAND, from_season: Season | None = None,
) -> Season:
    """A season of the league, split into `division_count` divisions (by default the league's settings, as
    `promoted` and `relegated`), its players placed as `placing` says (league.services.divisions.first_divisions).
    ValueError (DivisionError for the divisions) if refused: nothing is created."""
    if starts_on and ends_on and ends_on < starts_on:
        raise ValueError(_("a season cannot end before it starts"))
    count = league.division_count if division_count is None else division_count
    up = league.promoted if promoted is None else promoted
    down = league.relegated if relegated is None else relegated
    check_division_settings(count, up, down)
    season = Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)
    return set_up_divisions(season=season, count=count, promoted=up, relegated=down, placing=placing,
                            from_season=from_season)


@transaction.atomic
def rename_league(*, league: League, name: str) -> League:
    league.name = name
    league.save(update_fields=["name"])
    return league


@transaction.atomic
def update_league(*, league: League, **changes) -> League:
    """Rename a league or change what its new seasons start with (division_count, promoted, relegated); seasons
    made already keep their own. ValueError if refused."""
    unknown = set(changes) - {"name", "division_count", "promoted", "relegated"}
    if unknown:
        raise ValueError(f"no such league setting: {', '.join(sorted(unknown))}")
    check_division_settings(changes.get("division_count", league.division_count),
                            changes.get("promoted", league.promoted), changes.get("relegated", league.relegated))
    for name, value in changes.items():
        setattr(league, name, value)
    if changes:
        league.save(update_fields=list(changes))
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
