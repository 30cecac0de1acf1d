"""Leagues, seasons with standings, ladders and withdrawals over the API, per role."""

from __future__ import annotations

import pytest

from league.models import LadderEntry, TournamentEntry
from league.services import create_bot_player
from league.services.advancing import start_tournament
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_leagues_and_seasons_are_organised_and_the_season_is_ranked(accounts):
    c, club = accounts["clients"], accounts["club"].pk
    assert c["outsider"].post("/api/v1/leagues/", {"club": club, "name": "Thursday"}, format="json").status_code == 403
    r = c["organiser"].post("/api/v1/leagues/", {"club": club, "name": "Thursday"}, format="json")
    assert r.status_code == 201
    league = r.json()["id"]
    assert c["organiser"].post("/api/v1/leagues/", {"club": club, "name": "Thursday"},
                               format="json").status_code == 409  # a duplicate
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


def test_a_season_mixing_games_is_ranked_one_game_at_a_time_and_ratings_are_per_game(accounts):
    """A season with a Diamonds and a ring-race tournament lists both games; `?game=` picks whose standings; a
    player's global ratings (and their histories) are one per game."""
    from league.models import League, Rating, Season

    c = accounts["clients"]
    league = League.objects.create(club=accounts["club"], name="mixed")
    season = Season.objects.create(league=league, name="2026", starts_on="2026-01-01", ends_on="2026-12-31")
    both = [create_bot_player(name=f"m-{i}", kind="random") for i in range(4)]
    racers = [create_bot_player(name=f"r-{i}", kind="random") for i in range(2)]
    for game, players in (("diamonds", both), ("ringrace", both[:2] + racers)):
        t = create_tournament(name=f"{game}-cup", rounds=1, table_size=4, seed=game, season=season, game=game)
        register_players(tournament=t, players=players)
        start_tournament(tournament=t)

    assert c["anon"].get(f"/api/v1/seasons/{season.pk}/").json()["games"] == ["diamonds", "ringrace"]
    default = c["anon"].get(f"/api/v1/seasons/{season.pk}/standings/").json()
    race = c["anon"].get(f"/api/v1/seasons/{season.pk}/standings/?game=ringrace").json()
    assert {r["name"] for r in default} == {p.name for p in both}
    assert {r["name"] for r in race} == {p.name for p in both[:2] + racers}
    r = c["anon"].get(f"/api/v1/seasons/{season.pk}/standings/?game=chess")
    assert r.status_code == 400 and "unknown game" in r.json()["errors"]["game"][0]

    player = both[0]
    ratings = c["anon"].get(f"/api/v1/ratings/?player={player.pk}&scope=global").json()["results"]
    assert sorted(r["game"] for r in ratings) == ["diamonds", "ringrace"]
    race_rating = Rating.objects.get(player=player, ladder=None, game="ringrace")
    assert c["anon"].get(f"/api/v1/ratings/?player={player.pk}&game=ringrace").json()["count"] == 1
    history = c["anon"].get(f"/api/v1/ratings/{race_rating.pk}/history/").json()["results"]
    assert len(history) == 1
    assert c["anon"].get(f"/api/v1/matches/{history[0]['match']}/").json()["game"] == "ringrace"


def test_organisers_change_and_delete_a_tournament_before_it_starts_and_only_some_settings_after(accounts):
    from league.models import Tournament

    c, club = accounts["clients"], accounts["club"].pk
    r = c["organiser"].post("/api/v1/tournaments/", {"name": "kids", "club": club, "rounds": 2, "table_size": 3,
                                                     "game": "diamoniak"}, format="json")
    assert r.status_code == 201 and r.json()["game"] == "diamoniak"
    tournament_id = r.json()["id"]
    url = f"/api/v1/tournaments/{tournament_id}/"
    assert c["outsider"].patch(url, {"name": "mine"}, format="json").status_code == 403
    assert c["anon"].delete(url).status_code in (401, 403)
    assert c["organiser"].put(url, {"name": "x"}, format="json").status_code == 405
    # Checked as on creation: Diamoniak seats at most 4; nothing changes on a refusal.
    r = c["organiser"].patch(url, {"table_size": 5}, format="json")
    assert r.status_code == 400 and "4" in r.json()["detail"]
    r = c["organiser"].patch(url, {"game": "ringrace", "table_size": 5, "rounds": 3}, format="json")
    assert r.status_code == 200 and (r.json()["game"], r.json()["table_size"], r.json()["rounds"]) == (
        "ringrace", 5, 3)

    bots = [create_bot_player(name=f"k-{i}", kind="heuristic", clubs=[accounts["club"]]) for i in range(5)]
    assert c["organiser"].post(url + "entries/", {"players": [b.pk for b in bots]}, format="json").status_code == 201
    r = c["organiser"].patch(url, {"game": "diamonds", "table_size": 4}, format="json")
    # The entrants registered are in the way (Diamonds has no heuristic bot): a conflict with its state.
    assert r.status_code == 409 and "heuristic" in r.json()["detail"]
    tournament = Tournament.objects.get(pk=tournament_id)
    assert (tournament.game, tournament.table_size) == ("ringrace", 5)

    start_tournament(tournament=tournament)
    r = c["organiser"].patch(url, {"rounds": 5}, format="json")
    assert r.status_code == 409 and "rounds" in r.json()["detail"]
    r = c["organiser"].patch(url, {"name": "kids' race", "auto_advance": False, "deadline_action": "forfeit"},
                             format="json")
    assert r.status_code == 200 and r.json()["name"] == "kids' race" and r.json()["deadline_action"] == "forfeit"
    r = c["organiser"].delete(url)
    assert r.status_code == 409 and Tournament.objects.filter(pk=tournament.pk).exists()

    # The round's clock (issue 28) may change while the tournament runs, within its bounds.
    r = c["organiser"].patch(url, {"round_minutes": 45}, format="json")
    assert r.status_code == 200 and r.json()["round_minutes"] == 45
    for bad in (0, 601, "soon"):
        r = c["organiser"].patch(url, {"round_minutes": bad}, format="json")
        assert r.status_code == 400 and "round_minutes" in r.json()["errors"]
    assert Tournament.objects.get(pk=tournament.pk).round_minutes == 45

    r = c["organiser"].post("/api/v1/tournaments/", {"name": "gone", "club": club, "rounds": 1}, format="json")
    gone = f"/api/v1/tournaments/{r.json()['id']}/"
    assert c["organiser"].delete(gone).status_code == 204
    assert c["anon"].get(gone).status_code == 404


def test_partnership_tournaments_register_teams_all_or_nothing(accounts):
    from league.models import TournamentEntry

    c, club = accounts["clients"], accounts["club"].pk
    r = c["organiser"].post("/api/v1/tournaments/", {"name": "pairs", "club": club, "rounds": 1, "table_size": 4,
                                                     "ruleset": {"partnerships": True}}, format="json")
    assert r.status_code == 201
    url = f"/api/v1/tournaments/{r.json()['id']}/entries/"
    bots = [create_bot_player(name=f"pair-{i}", kind="random", clubs=[accounts["club"]]) for i in range(6)]
    r = c["organiser"].post(url, {"players": [b.pk for b in bots[:2]]}, format="json")
    assert r.status_code == 409 and "teams" in r.json()["detail"]
    assert c["organiser"].post(url, {"teams": [[bots[0].pk]]}, format="json").status_code == 400
    assert c["organiser"].post(url, {"teams": [[bots[0].pk, 99999]]}, format="json").status_code == 400
    # The second pair is one player twice: neither team is registered.
    r = c["organiser"].post(url, {"teams": [[bots[0].pk, bots[1].pk], [bots[2].pk, bots[2].pk]]}, format="json")
    assert r.status_code == 409 and not TournamentEntry.objects.filter(player__in=bots).exists()
    r = c["organiser"].post(url, {"teams": [[bots[0].pk, bots[1].pk], [bots[2].pk, bots[3].pk]]}, format="json")
    assert r.status_code == 201 and len(r.json()["teams"]) == 2
    teams = {}
    for e in TournamentEntry.objects.filter(player__in=bots):
        teams.setdefault(e.team, set()).add(e.player_id)
    assert sorted(map(sorted, teams.values())) == [sorted([bots[0].pk, bots[1].pk]), sorted([bots[2].pk, bots[3].pk])]
    assert c["outsider"].post(url, {"teams": [[bots[4].pk, bots[5].pk]]}, format="json").status_code == 403


def test_organisers_rename_and_delete_empty_leagues_and_seasons_and_pause_ladders(accounts):
    from league.models import Ladder, League, Season

    c, club = accounts["clients"], accounts["club"].pk
    league = c["organiser"].post("/api/v1/leagues/", {"club": club, "name": "Monday"}, format="json").json()["id"]
    season = c["organiser"].post("/api/v1/seasons/", {"league": league, "name": "spring", "starts_on": "2026-03-01",
                                                      "ends_on": "2026-06-01"}, format="json").json()["id"]
    assert c["outsider"].patch(f"/api/v1/leagues/{league}/", {"name": "x"}, format="json").status_code == 403
    r = c["organiser"].patch(f"/api/v1/leagues/{league}/", {"name": "Monday night"}, format="json")
    assert r.status_code == 200 and League.objects.get(pk=league).name == "Monday night"
    r = c["organiser"].patch(f"/api/v1/seasons/{season}/", {"ends_on": "2026-01-01"}, format="json")
    assert r.status_code == 400 and Season.objects.get(pk=season).ends_on.isoformat() == "2026-06-01"
    r = c["organiser"].patch(f"/api/v1/seasons/{season}/", {"name": "spring '26", "ends_on": "2026-07-01"},
                             format="json")
    assert r.status_code == 200 and r.json()["ends_on"] == "2026-07-01"
    t = create_tournament(name="in-season", rounds=1, table_size=2, seed="x", season=Season.objects.get(pk=season))
    assert c["organiser"].delete(f"/api/v1/leagues/{league}/").status_code == 409
    assert c["organiser"].delete(f"/api/v1/seasons/{season}/").status_code == 409
    t.delete()
    assert c["outsider"].delete(f"/api/v1/seasons/{season}/").status_code == 403
    assert c["organiser"].delete(f"/api/v1/seasons/{season}/").status_code == 204
    assert c["organiser"].delete(f"/api/v1/leagues/{league}/").status_code == 204
    assert not League.objects.filter(pk=league).exists()

    r = c["organiser"].post("/api/v1/ladders/", {"name": "race", "club": club, "game": "ringrace", "table_size": 3},
                            format="json")
    assert r.status_code == 201 and r.json()["game"] == "ringrace"
    ladder = r.json()["id"]
    r = c["organiser"].post("/api/v1/ladders/", {"name": "castles", "club": club, "game": "diamoniak",
                                                 "table_size": 6}, format="json")
    assert r.status_code == 400 and "4" in r.json()["detail"]
    url = f"/api/v1/ladders/{ladder}/"
    assert c["outsider"].patch(url, {"active": False}, format="json").status_code == 403
    r = c["organiser"].patch(url, {"game": "diamonds"}, format="json")
    assert r.status_code == 400 and "cannot change" in r.json()["detail"]
    assert c["organiser"].patch(url, {"active": "no"}, format="json").status_code == 400
    r = c["organiser"].patch(url, {"active": False, "max_tables_per_tick": 5}, format="json")
    assert r.status_code == 200 and r.json()["active"] is False
    assert (Ladder.objects.get(pk=ladder).game, Ladder.objects.get(pk=ladder).max_tables_per_tick) == ("ringrace", 5)
    assert c["organiser"].delete(url).status_code == 405


def test_K_BUY_1_a_competition_whose_buy_pays_is_no_rule_is_refused_and_creates_nothing(accounts):
    """K-BUY-1: a tournament's or ladder's shared Diamoniak ruleset is checked by the engine on creation: a
    `buy_pays` that is neither "seller" nor "discard" is a 400 and nothing is stored."""
    from league.models import Ladder, Tournament

    c, club = accounts["clients"], accounts["club"].pk
    before = (Tournament.objects.count(), Ladder.objects.count())
    for bad in ("bank", 0, None):
        ruleset = {"buy_pays": bad}
        r = c["organiser"].post("/api/v1/tournaments/", {"name": "cup", "club": club, "rounds": 1, "table_size": 3,
                                                         "game": "diamoniak", "ruleset": ruleset}, format="json")
        assert r.status_code == 400 and "buy_pays" in r.content.decode(), r.content
        r = c["organiser"].post("/api/v1/ladders/", {"name": "castles", "club": club, "game": "diamoniak",
                                                     "table_size": 3, "ruleset": ruleset}, format="json")
        assert r.status_code == 400 and "buy_pays" in r.content.decode(), r.content
    assert (Tournament.objects.count(), Ladder.objects.count()) == before
