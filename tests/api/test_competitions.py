"""Leagues, seasons with standings, ladders and withdrawals over the API, per role."""

from __future__ import annotations

import pytest

from league.models import LadderEntry, TournamentEntry
from league.services import create_bot_player
from league.services.tournaments import create_tournament, register_players, start_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_leagues_and_seasons_are_organised_and_the_season_is_ranked(accounts):
    c, club = accounts["clients"], accounts["club"].pk
    assert c["outsider"].post("/api/v1/leagues/", {"club": club, "name": "Thursday"}, format="json").status_code == 403
    r = c["organiser"].post("/api/v1/leagues/", {"club": club, "name": "Thursday"}, format="json")
    assert r.status_code == 201
    league = r.json()["id"]
    assert c["organiser"].post("/api/v1/leagues/", {"club": club, "name": "Thursday"},
                               format="json").status_code == 400
    body = {"league": league, "name": "2026", "starts_on": "2026-01-01", "ends_on": "2026-12-31"}
    assert c["outsider"].post("/api/v1/seasons/", body, format="json").status_code == 403
    r = c["organiser"].post("/api/v1/seasons/", body, format="json")
    assert r.status_code == 201
    season = r.json()["id"]
    assert c["organiser"].post("/api/v1/seasons/", {**body, "name": "bad", "ends_on": "2025-01-01"},
                               format="json").status_code == 400
    from league.models import Season

    bots = [create_bot_player(name=f"s-{i}", kind="random") for i in range(4)]
    t = create_tournament(name="s-cup", rounds=1, table_size=4, seed="s", season=Season.objects.get(pk=season))
    register_players(tournament=t, players=bots)
    start_tournament(tournament=t)
    standings = c["anon"].get(f"/api/v1/seasons/{season}/standings/").json()
    assert len(standings) == 4 and standings[0]["games"] == 1
    csv = c["anon"].get(f"/api/v1/seasons/{season}/standings/?format=csv")
    assert csv["Content-Type"].startswith("text/csv") and csv.content.decode().count("\n") == 5
    assert c["anon"].get(f"/api/v1/leagues/?club={club}").json()["count"] == 1
    assert c["anon"].get(f"/api/v1/seasons/?league={league}").json()["count"] == 1


def test_ladders_take_players_from_organisers_and_from_their_owners(accounts):
    c, p, club = accounts["clients"], accounts["players"], accounts["club"].pk
    assert c["outsider"].post("/api/v1/ladders/", {"name": "bots", "club": club}, format="json").status_code == 403
    r = c["organiser"].post("/api/v1/ladders/", {"name": "bots", "club": club, "table_size": 3}, format="json")
    assert r.status_code == 201, r.content
    ladder = r.json()["id"]
    assert c["organiser"].post("/api/v1/ladders/", {"name": "bad", "club": club, "rating_model": "Elo"},
                               format="json").status_code == 400
    assert c["ann"].post(f"/api/v1/ladders/{ladder}/join/", {"players": [p["bob"].pk]},
                         format="json").status_code == 403  # not her player
    assert c["ext-1"].post(f"/api/v1/ladders/{ladder}/join/", {"players": [p["ext-1"].pk]},
                           format="json").status_code == 201  # an external bot enters itself
    r = c["organiser"].post(f"/api/v1/ladders/{ladder}/join/", {"players": [p["greedy-1"].pk, p["random-1"].pk]},
                            format="json")
    assert r.status_code == 201 and len(r.json()["entries"]) == 3
    assert c["ext-1"].post(f"/api/v1/ladders/{ladder}/leave/", {"player": p["ext-1"].pk},
                           format="json").status_code == 200
    assert not LadderEntry.objects.get(ladder_id=ladder, player=p["ext-1"]).active
    assert c["anon"].get(f"/api/v1/ladders/{ladder}/").json()["entries"] == sorted(
        [p["greedy-1"].pk, p["random-1"].pk])


def test_players_withdraw_from_tournaments(accounts):
    c, p = accounts["clients"], accounts["players"]
    t = create_tournament(name="w-cup", rounds=2, table_size=2, seed="w", club=accounts["club"])
    register_players(tournament=t, players=[p["ann"], p["bob"], p["greedy-1"], p["random-1"]])
    url = f"/api/v1/tournaments/{t.pk}/withdraw/"
    assert c["bob"].post(url, {"player": p["ann"].pk}, format="json").status_code == 403
    assert c["ann"].post(url, {"player": p["ann"].pk}, format="json").status_code == 200
    assert c["organiser"].post(url, {"player": p["greedy-1"].pk}, format="json").status_code == 200
    assert c["organiser"].post(url, {"player": p["ext-1"].pk}, format="json").status_code == 400  # not entered
    assert list(TournamentEntry.objects.filter(tournament=t, active=True).values_list("player__name", flat=True)
                .order_by("player__name")) == ["bob", "random-1"]
