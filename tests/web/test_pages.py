"""The public pages: each answers 200 with what it is about, 404 for what does not exist, and the organiser's button
only for organisers."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import Match, MatchStatus, Player, Tournament
from league.services import create_tournament

from .conftest import table_with_bots

# Inside one transaction, rolled back after each test (quick on PostgreSQL); what services send after commit (the
# bots' play) is run by django_capture_on_commit_callbacks where a test needs it.
pytestmark = pytest.mark.django_db


def test_home_lists_clubs_tournaments_ladders_and_recent_matches(client, site):
    html = client.get("/").content.decode()
    assert "Crystal Club" in html and "Spring Open" in html and "Bot Ladder" in html
    assert "Play a game against bots" in html and "Sign in" in html


def test_club_league_and_season_pages(client, site):
    html = client.get(reverse("web:club", args=[site["club"].pk])).content.decode()
    assert "Thursday League" in html and "Spring" in html and "bot-0" in html and "Bot Ladder" in html
    html = client.get(reverse("web:league", args=[site["league"].pk])).content.decode()
    assert "Spring" in html
    html = client.get(reverse("web:season", args=[site["season"].pk])).content.decode()
    assert "Season standings" in html and "Spring Open" in html
    assert all(f"bot-{i}" in html for i in range(4))


def test_tournament_page_shows_rounds_seating_results_and_standings(client, site):
    tournament = site["tournament"]
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    html = client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    assert "Standings" in html and "Round 1" in html and "Table 1" in html and "winner" in html
    match = Match.objects.get(tournament_round__tournament=tournament)
    assert reverse("web:match", args=[match.pk]) in html
    assert "start the next round" not in html.lower()  # not an organiser
    assert match.seed not in html  # a round's seeds are never shown (they decide the deals)


def test_ladder_page_has_ratings_and_a_rating_history_chart(client, site):
    html = client.get(reverse("web:ladder", args=[site["ladder"].pk])).content.decode()
    assert "<svg" in html and "polyline" in html and 'role="img"' in html
    assert "bot-0" in html and "Ratings" in html


def test_player_page_lists_their_matches_and_ratings(client, site):
    bot = site["bots"][0]
    html = client.get(reverse("web:player", args=[bot.pk])).content.decode()
    assert "bot-0" in html and "An engine bot" in html and "Match " in html and "<svg" in html


def test_finished_match_page_shows_every_vault_and_links_the_replay(client, site):
    match = Match.objects.filter(status=MatchStatus.FINISHED).first()
    html = client.get(reverse("web:match", args=[match.pk])).content.decode()
    assert "Final result" in html and "secret" not in html
    assert reverse("web:match-replay", args=[match.pk]) in html
    html = client.get(reverse("web:match-replay", args=[match.pk])).content.decode()
    assert 'class="frame"' in html and "the deal" in html and "trick 10" in html and "the round ends" in html


def test_unknown_objects_are_404(client, site):
    for name in ("club", "league", "season", "tournament", "ladder", "player", "match", "match-replay", "match-live"):
        assert client.get(reverse(f"web:{name}", args=[999999])).status_code == 404, name


def test_an_unfinished_match_has_no_replay(client, site, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        match = table_with_bots(site["ann"], site["bots"])
    assert client.get(reverse("web:match-replay", args=[match.pk])).status_code == 404


def test_login_and_logout_pages(client, site):
    assert client.get(reverse("web:login")).status_code == 200
    response = client.post(reverse("web:login"), {"login": "ann", "password": "pw-web-test-1"})
    assert response.status_code == 302
    home = client.get("/").content.decode()
    assert "Sign out (ann)" in home and 'href="/me/"' in home and 'href="/accounts/profile/"' in home
    assert client.post(reverse("web:logout")).status_code == 302
    home = client.get("/").content.decode()
    assert "Sign in" in home and "Sign up" in home and "Sign out" not in home


def test_only_organisers_register_players_and_start_tournament_rounds(client, site,
                                                                     django_capture_on_commit_callbacks):
    tournament = create_tournament(name="Autumn Cup", rounds=1, ruleset={"rounds": 1}, club=site["club"])
    register = reverse("web:tournament-register", args=[tournament.pk])
    ids = [b.pk for b in site["bots"]]
    client.force_login(site["ann"].user)
    assert client.post(register, {"players": ids}).status_code == 403 and not tournament.entries.exists()
    client.force_login(site["organiser"])
    assert "Register the club's bots" in client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    assert client.post(register, {"players": ids}).status_code == 302
    assert sorted(tournament.entries.values_list("player_id", flat=True)) == sorted(ids)
    client.logout()
    url = reverse("web:tournament-start-round", args=[tournament.pk])
    assert client.post(url).status_code == 302 and not tournament.tournament_rounds.exists()  # to the sign-in
    client.force_login(site["ann"].user)
    assert client.post(url).status_code == 403 and not tournament.tournament_rounds.exists()
    assert "start the tournament" not in client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    client.force_login(site["organiser"])
    assert "Start the tournament" in client.get(reverse("web:tournament", args=[tournament.pk])).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, follow=True)
    assert response.status_code == 200 and "Round 1 is seated and started" in response.content.decode()
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"  # bots play it at once, in-process


def test_staff_create_on_the_website_and_the_admin_still_works(client, site):
    """Staff organise every club: the club page links the website's create pages (issue 28), not the admin's."""
    client.force_login(site["staff"])
    html = client.get(reverse("web:club", args=[site["club"].pk])).content.decode()
    assert reverse("web:tournament-new", args=[site["club"].pk]) in html
    assert reverse("admin:league_tournament_add") not in html
    assert client.get(reverse("admin:league_tournament_add")).status_code == 200


def test_play_against_bots_needs_an_account_and_seats_three_bots(client, site, django_capture_on_commit_callbacks):
    response = client.post(reverse("web:play-bots"), {"rounds": 1, "clubs": "thief", "bots": "greedy"})
    assert response.status_code == 302 and reverse("web:login") in response["Location"]
    client.force_login(site["ann"].user)
    assert client.get(reverse("web:play-bots")).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("web:play-bots"), {"rounds": 1, "clubs": "choose", "bots": "random"})
    match = Match.objects.order_by("-pk").first()
    assert response["Location"] == reverse("web:match", args=[match.pk])
    seats = list(match.match_seats.order_by("seat").select_related("player"))
    assert seats[0].player == site["ann"] and [s.player.bot_kind for s in seats[1:]] == ["random"] * 3
    assert match.ruleset["rounds"] == 1 and match.ruleset["clubs"] == "choose"
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING and match.match_seats.get(seat=0).awaiting  # bots played to ann
    client.post(reverse("web:play-bots"), {"rounds": 1, "clubs": "thief", "bots": "random"})
    assert Player.objects.filter(bot_kind="random", name__startswith="house-").count() == 3  # the same three


def test_a_user_without_a_player_gets_one(client, site, django_user_model):
    user = django_user_model.objects.create_user("newcomer", password="pw-new-123")
    client.force_login(user)
    client.post(reverse("web:play-bots"), {"rounds": 1, "clubs": "thief", "bots": "greedy"})
    assert Player.objects.get(user=user).name == "newcomer"


def test_the_sites_css_and_scripts_are_served_without_debug(client):
    """WhiteNoise serves static files under gunicorn too (no CDN: everything the pages load comes from here)."""
    for path in ("/static/web/site.css", "/static/web/match.js", "/static/web/replay.js"):
        response = client.get(path)
        assert response.status_code == 200, path


def test_a_forfeited_seat_is_marked_on_its_table_its_match_and_the_match_lists(client, site):
    from league.models import MatchSeat

    match = Match.objects.get(tournament_round__tournament=site["tournament"])
    late = match.match_seats.get(seat=2)
    MatchSeat.objects.filter(pk=late.pk).update(forfeited=True, forfeited_at_move=17)
    pages = [reverse("web:tournament", args=[site["tournament"].pk]), reverse("web:match", args=[match.pk]),
             reverse("web:player", args=[late.player_id])]
    for url in pages:
        html = client.get(url).content.decode()
        assert html.count("forfeited at move 17") == 1, url
    other = next(s for s in match.match_seats.all() if s.seat != 2)
    assert "forfeited" not in client.get(reverse("web:player", args=[other.player_id])).content.decode()
