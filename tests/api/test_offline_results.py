"""The API of tables played with real cards: enter, confirm, settle, switch; the Error shape and who may do it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import ClubAdmin, Match, MatchSeat, MatchStatus, ResultEntry
from league.services import create_club, create_match, create_person_player

from .conftest import client_for

pytestmark = pytest.mark.django_db
User = get_user_model()

FIGURES = {"vault": [10, 4, 0, 7], "showroom": [3, 8, 12, 2]}


@pytest.fixture
def table():
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    users = [User.objects.create_user(f"p{i}") for i in range(4)]
    players = [create_person_player(user=u, clubs=[club]) for u in users]
    match = create_match(players=players, ruleset=4, club=club)
    Match.objects.filter(pk=match.pk).update(offline=True)
    by_seat = {ms.seat: ms.player.user for ms in MatchSeat.objects.filter(match=match).select_related("player")}
    return {"match": match, "organiser": organiser, "seat": by_seat, "url": f"/api/v1/matches/{match.pk}/results/"}


def test_a_player_enters_another_confirms_and_the_match_is_finished(table, django_capture_on_commit_callbacks):
    seat, url = table["seat"], table["url"]
    response = client_for(seat[0]).post(url, FIGURES, format="json")
    assert response.status_code == 201, response.content
    entry = response.json()
    assert entry["status"] == "entered" and entry["entered_by"] == seat[0].username and entry["entered_at_seat"] == 0
    own = client_for(seat[0]).post(f"{url}{entry['id']}/confirm/")
    assert own.status_code == 409 and own.json()["code"] == "conflict"
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(seat[1]).post(f"{url}{entry['id']}/confirm/")
    assert response.status_code == 200 and response.json()["status"] == "confirmed"
    match = client_for(seat[2]).get(f"/api/v1/matches/{table['match'].pk}/").json()
    assert match["status"] == "finished" and match["offline"] is True and match["result"]["winners"] == [0]
    trail = client_for(seat[3]).get(url).json()
    assert [e["status"] for e in trail] == ["confirmed"] and trail[0]["decided_by"] == seat[1].username


def test_a_dispute_is_settled_by_the_organiser(table, django_capture_on_commit_callbacks):
    seat, url = table["seat"], table["url"]
    a = client_for(seat[0]).post(url, FIGURES, format="json").json()
    b = client_for(seat[1]).post(url, {"vault": [10, 4, 1, 7], "showroom": [3, 8, 12, 2]}, format="json").json()
    assert b["status"] == "disputed"
    assert client_for(seat[2]).post(f"{url}{a['id']}/confirm/").status_code == 409
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(table["organiser"]).post(f"{url}{a['id']}/confirm/")
    assert response.status_code == 200 and response.json()["status"] == "resolved"
    assert [e["status"] for e in client_for(table["organiser"]).get(url).json()] == ["resolved", "superseded"]


def test_refusals_have_the_error_shape_and_change_nothing(table):
    seat, url = table["seat"], table["url"]
    stranger = User.objects.create_user("stranger")
    # Not at the table: 403 for reading and writing, nothing leaks.
    client_for(seat[0]).post(url, FIGURES, format="json")
    for response in (client_for(stranger).get(url), client_for(stranger).post(url, FIGURES, format="json")):
        assert response.status_code == 403 and response.json()["code"] == "permission_denied"
        assert "vault" not in response.content.decode()
    assert client_for().get(url).status_code in (401, 403)
    # Figures the rules refuse: 400 naming each field and the rule.
    response = client_for(seat[1]).post(url, {"vault": [10, -4, 0, 7], "showroom": [3, 8, 12, 2],
                                              "castle": [1, 1, 1, 1]}, format="json")
    body = response.json()
    assert response.status_code == 400 and body["code"] == "invalid"
    assert set(body["errors"]) == {"vault.1", "castle"}
    response = client_for(seat[1]).post(url, {"vault": [200, 0, 0, 0], "showroom": [30, 3, 3, 3]}, format="json")
    assert response.status_code == 400 and response.json()["rule"] == "R-ACT-D"
    response = client_for(seat[1]).post(url, ["not", "an", "object"], format="json")
    assert response.status_code == 400
    # Another match's version, and no such match.
    assert client_for(seat[1]).post(f"{url}999999/confirm/").status_code == 404
    assert client_for(seat[1]).get("/api/v1/matches/999999/results/").status_code == 404
    assert ResultEntry.objects.count() == 1
    assert Match.objects.get(pk=table["match"].pk).status == MatchStatus.PENDING


def test_an_online_match_and_the_switch(table):
    match, organiser, seat = table["match"], table["organiser"], table["seat"]
    switch = f"/api/v1/matches/{match.pk}/offline/"
    assert client_for(seat[0]).post(switch, {"offline": False}, format="json").status_code == 403
    assert client_for(organiser).post(switch, {"offline": "perhaps"}, format="json").status_code == 400
    response = client_for(organiser).post(switch, {"offline": False}, format="json")
    assert response.status_code == 200 and response.json()["offline"] is False
    response = client_for(seat[0]).post(table["url"], FIGURES, format="json")
    assert response.status_code == 409 and "online" in response.json()["detail"]


def test_a_tournament_is_created_with_offline_tables():
    club = create_club(name="Club")
    organiser = User.objects.create_user("org")
    ClubAdmin.objects.create(club=club, user=organiser)
    response = client_for(organiser).post("/api/v1/tournaments/", {"name": "Club evening", "rounds": 3,
                                                                   "club": club.pk, "offline_tables": True},
                                          format="json")
    assert response.status_code == 201 and response.json()["offline_tables"] is True


def test_a_finished_offline_tables_pages_answer_without_a_record_of_play(table, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        client_for(table["organiser"]).post(table["url"], FIGURES, format="json")
    match_id = table["match"].pk
    record = client_for().get(f"/api/v1/matches/{match_id}/record/")
    assert record.status_code == 404 and record.json()["code"] == "offline"
    assert client_for().get(f"/api/v1/matches/{match_id}/tricks/").status_code == 200
    assert client_for().get(f"/matches/{match_id}/").status_code == 200
