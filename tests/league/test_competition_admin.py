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


def test_the_admin_refuses_a_tournament_or_ladder_ruleset_out_of_bounds(admin_client):
    """The admin's forms meet the engine's bounds (R-ROUNDS-1 at most 20 rounds here): an error on the page, nothing
    saved, instead of a ruleset that fails later at seating."""
    t = create_tournament(name="bounded cup", rounds=1, table_size=4, seed="b")
    url = reverse("admin:league_tournament_change", args=[t.pk])
    form = {"name": t.name, "game": "diamonds", "ruleset": '{"rounds": 1000000}', "format": "fixed", "rounds": 1,
            "table_size": 4, "match_points": "{}", "tiebreaks": "[]", "deadline_action": "fallback",
            "deadline_fallback": "random", "status": "registering", "seed": "b", "auto_advance": "on",
            "late_entry_points": "zero", "final_size": 0, "final_stages": 1, "final_advance": 1,
            "final_ranking": "final_decides", "clock_increment_seconds": 0,
            "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0,
            "tournament_rounds-TOTAL_FORMS": 0, "tournament_rounds-INITIAL_FORMS": 0}
    page = admin_client.post(url, form)
    assert page.status_code == 200 and "from 1 to 20" in page.content.decode()
    t.refresh_from_db()
    assert t.ruleset == {}
    form["ruleset"] = '{"rounds": 2}'
    assert admin_client.post(url, form).status_code == 302
    t.refresh_from_db()
    assert t.ruleset == {"rounds": 2}


def test_the_admin_cancels_the_selected_tournaments_and_matches(admin_client):
    from league.models import Match, MatchStatus, Tournament, TournamentStatus

    t = create_tournament(name="admin cancel cup", rounds=2, table_size=4, seed="c")
    register_players(tournament=t, players=bot_field(4))
    rnd = seat_round(tournament=t)
    admin_client.post(reverse("admin:league_tournament_changelist"),
                      {"action": "cancel", "_selected_action": [t.pk]})
    assert Tournament.objects.get(pk=t.pk).status == TournamentStatus.CANCELLED
    assert set(rnd.matches.values_list("status", flat=True)) == {MatchStatus.CANCELLED}
    from .matches_support import bot_match

    match = bot_match({"players": 4}, seed="admin-cancel-match")
    admin_client.post(reverse("admin:league_match_changelist"), {"action": "cancel", "_selected_action": [match.pk]})
    assert Match.objects.get(pk=match.pk).status == MatchStatus.CANCELLED


def test_the_admin_refuses_a_final_its_tables_cannot_seat(admin_client):
    t = create_tournament(name="final cup", rounds=1, table_size=4, seed="f")
    url = reverse("admin:league_tournament_change", args=[t.pk])
    form = {"name": t.name, "game": "diamonds", "ruleset": "{}", "format": "fixed", "rounds": 1,
            "table_size": 4, "match_points": "{}", "tiebreaks": "[]", "deadline_action": "fallback",
            "deadline_fallback": "random", "status": "registering", "seed": "f", "late_entry_points": "zero",
            "final_size": 9, "final_stages": 1, "final_advance": 1, "final_ranking": "final_decides",
            "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0,
            "tournament_rounds-TOTAL_FORMS": 0, "tournament_rounds-INITIAL_FORMS": 0}
    page = admin_client.post(url, form)
    assert page.status_code == 200 and "one table" in page.content.decode()
    t.refresh_from_db()
    assert t.final_size == 0
