"""Create a club's leagues and their seasons (a season's tournaments link to it; league.selectors.standings ranks
the season)."""

from __future__ import annotations

import datetime

from django.db import transaction

from ..models import Club, League, Season


@transaction.atomic
def create_league(*, club: Club, name: str) -> League:
    return League.objects.create(club=club, name=name)


@transaction.atomic
def create_season(
    *, league: League, name: str, starts_on: datetime.date | None = None, ends_on: datetime.date | None = None
) -> Season:
    if starts_on and ends_on and ends_on < starts_on:
        raise ValueError("a season cannot end before it starts")
    return Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)
