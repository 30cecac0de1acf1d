"""Issue 28, divisions on the website: the club's organisers set a league's and a season's divisions with fields (how
many, how many go up and down, their names), put players in them, close the season after a page saying who moves,
and start the next one from those moves; the league's and the season's pages show each division's standings with the
zones in words. Nobody else reaches the organisers' pages (403, nothing changed), bad input is a 400 that changes
nothing, and the API shows the divisions read-only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import Division, DivisionMember, League, Match, MatchSeat, Season, Tournament, TournamentStatus
from league.services import create_bot_player, create_club, create_tournament, register_players, seat_round
from league.services.divisions import Placing, place_players
from league.services.leagues import create_league, create_season
from league.services.players import add_club_admin
from tests.league.tournament_support import store_result

from .support import administrators_account
from .test_organiser_create import posted

pytestmark = pytest.mark.django_db
PASSWORD = "pw-divisions-1"
FR = {"HTTP_ACCEPT_LANGUAGE": "fr-FR,fr;q=0.9"}


@pytest.fixture
def league_site(db):
    User = get_user_model()
    club = create_club(name="Crystal Club")
    other = create_club(name="Other Club")
    organiser = administrators_account("olive", password=PASSWORD)
    add_club_admin(club=club, user=organiser)
    stranger = administrators_account("otto", password=PASSWORD)  # organises the other club only
    add_club_admin(club=other, user=stranger)
    member = User.objects.create_user("mia", password=PASSWORD)
    players = [create_bot_player(name=f"p{i}", kind="random", clubs=[club]) for i in range(8)]
    outsider = create_bot_player(name="outsider", kind="random", clubs=[other])
    return {"club": club, "organiser": organiser, "stranger": stranger, "member": member, "players": players,
            "outsider": outsider}


def _table(season: Season, players, results) -> None:
    """A one-table tournament of the season, finished with each player's (score, vault), in order."""
    number = Tournament.objects.count()
    t = create_tournament(name=f"evening {number}", rounds=1, table_size=len(players), club=season.league.club,
                          season=season, seed=f"s{number}", rated=False)
    register_players(tournament=t, players=players)
    match = Match.objects.get(tournament_round=seat_round(tournament=t))
    by_player = {p.pk: r for p, r in zip(players, results)}
    store_result(match, {s.seat: by_player[s.player_id] for s in MatchSeat.objects.filter(match=match)})
    Tournament.objects.filter(pk=t.pk).update(status=TournamentStatus.FINISHED)


def _played_season(site) -> Season:
    """Two divisions of four, one up and one down, each division's evening played: p1 p3 p2 p0 | p4 p6 p5 p7."""
    league = create_league(club=site["club"], name="Thursday league", division_count=2, promoted=1, relegated=1)
    season = create_season(league=league, name="Spring")
    top, bottom = site["players"][:4], site["players"][4:]
    place_players(season=season, placing={**{p.pk: 1 for p in top}, **{p.pk: 2 for p in bottom}})
    _table(season, top, [(4, 1), (20, 5), (10, 3), (14, 4)])
    _table(season, bottom, [(30, 10), (8, 2), (12, 4), (6, 2)])
    return season


def test_an_organiser_sets_up_a_league_of_divisions_and_its_first_season_with_fields(client, league_site):
    club = league_site["club"]
    client.force_login(league_site["organiser"])
    form = posted(client.get(f"/clubs/{club.pk}/leagues/new/").content.decode(), "data-organiser-form")
    assert (form["division_count"], form["promoted"], form["relegated"]) == ("1", "2", "2")  # one table by default
    response = client.post(f"/clubs/{club.pk}/leagues/new/", {**form, "name": "Thursday league",
                                                               "division_count": "2", "promoted": "1"})
    league = League.objects.get()
    assert response.status_code == 302 and (league.division_count, league.promoted, league.relegated) == (2, 1, 2)
    url = f"/leagues/{league.pk}/seasons/new/"
    form = posted(client.get(url).content.decode(), "data-organiser-form")
    assert (form["division_count"], form["promoted"], form["relegated"]) == ("2", "1", "2")  # the league's
    # Relegating 2 from a top division of 4 fits; but 5 from each does not: said, nothing created.
    refused = client.post(url, {**form, "name": "Spring", "placing": "rating", "promoted": "3", "relegated": "5"})
    assert refused.status_code == 400 and not Season.objects.exists()
    assert "Division 1 has 4 players" in refused.content.decode()
    response = client.post(url, {**form, "name": "Spring", "placing": Placing.RATING})
    season = Season.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/seasons/{season.pk}/divisions/"
    assert [d.members.count() for d in season.divisions.order_by("number")] == [4, 4]
    page = client.get(response["Location"]).content.decode()
    assert "check who is in which division" in page and "Division 1: 4 players" in page


def test_an_organiser_moves_players_between_divisions_and_renames_them(client, league_site):
    season = _played_season(league_site)
    p0, p4 = league_site["players"][0], league_site["players"][4]
    client.force_login(league_site["organiser"])
    url = f"/seasons/{season.pk}/divisions/"
    form = posted(client.get(url).content.decode(), "data-organiser-form")
    assert form[f"player_{p0.pk}"] == "1" and form[f"player_{p4.pk}"] == "2"
    assert f"player_{league_site['outsider'].pk}" not in form  # only the club's members are offered
    response = client.post(url, {**form, f"player_{p0.pk}": "2", f"player_{p4.pk}": ""})
    assert response.status_code == 302
    assert DivisionMember.objects.get(player=p0).division.number == 2
    assert not DivisionMember.objects.filter(player=p4).exists()
    season_page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert "Played this season but in no division: p4." in season_page  # named, with a link to place them
    assert client.post(url, {**form, f"player_{p0.pk}": "7"}).status_code == 400  # no Division 7: nothing changed
    assert DivisionMember.objects.get(player=p0).division.number == 2
    # The season's own settings: the names of its divisions, and zones too large refused with the reason.
    url = f"/seasons/{season.pk}/settings/"
    form = posted(client.get(url).content.decode(), "data-organiser-form")
    assert form["division_name_1"] == "Division 1" and form["division_count"] == "2"
    response = client.post(url, {**form, "division_name_1": "Premier", "division_name_2": "Championship"})
    assert response.status_code == 302
    assert list(season.divisions.order_by("number").values_list("name", flat=True)) == ["Premier", "Championship"]
    too_many = client.post(url, {**form, "division_name_1": "Top", "promoted": "4", "relegated": "4"})
    assert too_many.status_code == 400 and "do not fit" in too_many.content.decode()
    season.refresh_from_db()
    assert (season.promoted, season.relegated) == (1, 1) and season.divisions.filter(name="Premier").exists()
    for bad in ({"division_count": "0"}, {"promoted": "-1"}, {"relegated": "many"}, {"division_count": "99"}):
        assert client.post(url, {**form, **bad}).status_code == 400, bad
    assert season.divisions.count() == 2


def test_the_league_and_season_pages_show_the_zones_in_words_and_after_closing_who_moved(client, league_site):
    season = _played_season(league_site)
    league = season.league
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert page.count("promotion zone") == 1 and page.count("relegation zone") == 1  # p4 up, p0 down
    assert '<tr class="zone-up">' in page and '<span aria-hidden="true">↑</span> promotion zone' in page
    assert "The top player goes up." in page and "The bottom player goes down." in page
    assert "Who went up and down" not in page
    fr = client.get(f"/leagues/{league.pk}/", **FR).content.decode()
    assert "zone de promotion" in fr and "zone de relégation" in fr

    client.force_login(league_site["organiser"])
    confirm = client.get(f"/seasons/{season.pk}/close/")
    assert confirm.status_code == 200 and "promotion zone" in confirm.content.decode()
    assert not Season.objects.get(pk=season.pk).closed_at  # reading the page closes nothing
    response = client.post(f"/seasons/{season.pk}/close/")
    assert response.status_code == 302 and Season.objects.get(pk=season.pk).closed_at
    assert client.post(f"/seasons/{season.pk}/close/").status_code == 400  # closed already
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Who went up and down at the end of Spring" in page
    assert '<span aria-hidden="true">↑</span> promoted</span> <a href="/players/' in page
    assert f'href="/leagues/{league.pk}/seasons/new/?from={season.pk}"' in page  # "Start the next season"
    form = posted(client.get(f"/leagues/{league.pk}/seasons/new/?from={season.pk}").content.decode(),
                  "data-organiser-form")
    assert form["placing"] == "previous" and form["from_season"] == str(season.pk)
    response = client.post(f"/leagues/{league.pk}/seasons/new/", {**form, "name": "Autumn"})
    autumn = Season.objects.get(name="Autumn")
    names = [sorted(m.player.name for m in d.members.all()) for d in autumn.divisions.order_by("number")]
    assert names == [["p1", "p2", "p3", "p4"], ["p0", "p5", "p6", "p7"]]
    # The league page now shows the new season, and still who moved at the end of the last.
    page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "Autumn" in page and "Who went up and down at the end of Spring" in page


def test_organisers_of_another_club_and_members_are_refused_and_change_nothing(client, league_site):
    season = _played_season(league_site)
    league = season.league
    p0 = league_site["players"][0]
    gets = [f"/leagues/{league.pk}/settings/", f"/seasons/{season.pk}/settings/", f"/seasons/{season.pk}/divisions/",
            f"/seasons/{season.pk}/close/", f"/leagues/{league.pk}/seasons/new/"]
    posts = {
        f"/leagues/{league.pk}/settings/": {"name": "Taken", "division_count": "5", "promoted": "0",
                                           "relegated": "0"},
        f"/seasons/{season.pk}/settings/": {"name": "Taken", "division_count": "1", "promoted": "0",
                                           "relegated": "0"},
        f"/seasons/{season.pk}/divisions/": {f"player_{p0.pk}": ""},
        f"/seasons/{season.pk}/close/": {},
        f"/seasons/{season.pk}/reopen/": {},
    }
    for user in (league_site["stranger"], league_site["member"]):
        client.force_login(user)
        for url in gets:
            assert client.get(url).status_code == 403, url
        for url, data in posts.items():
            assert client.post(url, data).status_code == 403, url
    client.logout()
    assert client.post(f"/seasons/{season.pk}/close/").status_code == 302  # to sign in
    league.refresh_from_db()
    season.refresh_from_db()
    assert (league.name, league.division_count, season.name, season.closed_at) == (
        "Thursday league", 2, "Spring", None)
    assert DivisionMember.objects.filter(player=p0).exists() and Division.objects.filter(season=season).count() == 2
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert "/close/" not in page and "/divisions/" not in page  # nothing offered to a visitor


def test_a_season_of_one_division_is_as_before(client, league_site):
    league = create_league(club=league_site["club"], name="Thursday league")
    season = create_season(league=league, name="Spring")
    _table(season, league_site["players"][:4], [(4, 1), (20, 5), (10, 3), (14, 4)])
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    assert "Season standings" in page and "zone" not in page.split("<main", 1)[1].split("Season standings")[0]
    assert "promotion zone" not in page and "Divisions" not in page
    client.force_login(league_site["organiser"])
    assert client.get(f"/seasons/{season.pk}/divisions/").status_code == 404
    league_page = client.get(f"/leagues/{league.pk}/").content.decode()
    assert "p3" in league_page  # the current season's one table


def test_the_api_shows_divisions_and_zones_read_only(client, league_site):
    season = _played_season(league_site)
    data = client.get(f"/api/v1/seasons/{season.pk}/").json()
    assert (data["promoted"], data["relegated"], data["closed_at"]) == (1, 1, None)
    assert [(d["number"], d["name"], d["promotion_places"], d["relegation_places"]) for d in data["divisions"]] == [
        (1, "Division 1", 0, 1), (2, "Division 2", 1, 0)]
    assert {p["name"] for p in data["divisions"][1]["players"]} == {"p4", "p5", "p6", "p7"}
    rows = client.get(f"/api/v1/seasons/{season.pk}/standings/?division=2").json()
    assert [(r["name"], r["zone"]) for r in rows] == [("p4", "up"), ("p6", ""), ("p5", ""), ("p7", "")]
    csv = client.get(f"/api/v1/seasons/{season.pk}/standings/?division=1&format=csv").content.decode()
    assert csv.splitlines()[0].startswith("rank,shared,name,players,games,zone")
    for bad in ("3", "x", "-1", "99999"):
        assert client.get(f"/api/v1/seasons/{season.pk}/standings/?division={bad}").status_code == 400, bad
    league = client.get(f"/api/v1/leagues/{season.league_id}/").json()
    assert (league["division_count"], league["promoted"], league["relegated"]) == (2, 1, 1)
    client.force_login(league_site["organiser"])
    response = client.patch(f"/api/v1/seasons/{season.pk}/", {"promoted": 3, "closed_at": "2026-01-01T00:00:00Z"},
                            content_type="application/json")
    assert response.status_code in (200, 400)
    season.refresh_from_db()
    assert (season.promoted, season.closed_at) == (1, None)  # read-only: nothing changed
