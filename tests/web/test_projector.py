"""The projector page (issue 28): the latest round's tables with their state, everyone by name, then the standings,
refreshing itself; public like the tournament page, and showing nothing it does not."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league.models import ClubAdmin, Match, MatchSeat
from league.services import create_club, create_person_player, register_players, start_tournament
from league.services.tournament_setup import create_tournament

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def evening(django_capture_on_commit_callbacks):
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    names = ["Zoé", "émile", "Bea", "adam", "Yann", "Carl", "Dora", "Ed", "Fay"]
    players = [create_person_player(user=User.objects.create_user(f"p{i}"), name=n, clubs=[club])
               for i, n in enumerate(names)]
    tournament = create_tournament(name="Thursday", rounds=3, club=club, offline_tables=True, format="swiss")
    register_players(tournament=tournament, players=players)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = start_tournament(tournament=tournament)
    return {"tournament": tournament, "round": rnd, "organiser": organiser,
            "tables": list(Match.objects.filter(tournament_round=rnd).order_by("table_number"))}


def test_the_projector_shows_tables_names_in_order_and_standings(evening):
    tournament = evening["tournament"]
    response = Client().get(f"/tournaments/{tournament.pk}/projector/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Round 1 of 3" in html and 'data-refresh-seconds="15"' in html and "projector.js" in html
    assert html.count('class="projector-table state-playing"') == len(evening["tables"])
    # Everyone by name, accents and case aside: adam, Bea, Carl, Dora, Ed, émile, Fay, Yann, Zoé.
    listed = re.findall(r'<span class="who">([^<]+)</span>', html)
    assert listed == ["adam", "Bea", "Carl", "Dora", "Ed", "émile", "Fay", "Yann", "Zoé"]
    seated = {ms.player.name: (ms.match.table_number, ms.seat + 1)
              for ms in MatchSeat.objects.filter(match__in=evening["tables"]).select_related("player", "match")}
    for name, (table, seat) in seated.items():
        assert re.search(rf'<span class="who">{name}</span> table {table}, seat {seat}</li>', html), name
    byes = set(listed) - set(seated)
    for name in byes:
        assert f'<span class="who">{name}</span> bye</li>' in html
    assert "Standings" in html
    # No hand, seed or deal: a table with real cards has none, and the page shows no more than the tournament page.
    assert tournament.seed not in html


def test_a_table_state_follows_its_result(evening, django_capture_on_commit_callbacks):
    tournament, table = evening["tournament"], evening["tables"][0]
    players = {ms.seat: ms.player.user for ms in MatchSeat.objects.filter(match=table).select_related("player__user")}
    first, second = Client(), Client()
    first.force_login(players[0])
    second.force_login(players[1])
    seats = len(players)
    figures = {f"vault_{i}": str(5 + i) for i in range(seats)} | {f"showroom_{i}": "2" for i in range(seats)}
    first.post(f"/matches/{table.pk}/result/", figures)
    html = Client().get(f"/tournaments/{tournament.pk}/projector/").content.decode()
    assert "projector-table state-entered" in html and "result entered" in html
    second.post(f"/matches/{table.pk}/result/", figures | {"vault_0": "9"})
    html = Client().get(f"/tournaments/{tournament.pk}/projector/").content.decode()
    assert "projector-table state-disputed" in html


def test_the_projector_in_french_and_before_any_round(evening):
    tournament = create_tournament(name="Later", rounds=2, club=evening["tournament"].club)
    html = Client(HTTP_ACCEPT_LANGUAGE="fr").get(f"/tournaments/{tournament.pk}/projector/").content.decode()
    assert 'lang="fr"' in html and "Aucune ronde" in html
    assert Client().get("/tournaments/999999/projector/").status_code == 404
