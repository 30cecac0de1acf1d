"""The admin lists, filters and searches the competition tables and shows a tournament with its entries and rounds."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import League, Season
from league.services import create_club, create_ladder, create_tournament, join_ladder, register_players, seat_round

from .tournament_support import bot_field

pytestmark = pytest.mark.django_db


def test_competition_tables_are_listed_and_a_tournament_shown(admin_client):
    club = create_club(name="admin club")
    season = Season.objects.create(league=League.objects.create(club=club, name="admin league"), name="s")
    players = bot_field(4)
    t = create_tournament(name="admin cup", rounds=1, table_size=4, club=club, season=season, seed="a")
    register_players(tournament=t, players=players)
    seat_round(tournament=t)
    join_ladder(ladder=create_ladder(name="admin ladder"), players=players)
    for model in ("league", "season", "tournament", "tournamententry", "tournamentround", "ladder", "ladderentry",
                  "rating", "ratinghistory"):
        url = reverse(f"admin:league_{model}_changelist")
        assert admin_client.get(url).status_code == 200, model
        assert admin_client.get(url, {"q": "admin"}).status_code == 200, model
    page = admin_client.get(reverse("admin:league_tournament_change", args=[t.pk]))
    assert page.status_code == 200 and 'id="tournament_rounds-' in page.content.decode()
