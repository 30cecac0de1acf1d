"""Issue 28, divisions in a real browser at a phone's width: the organiser makes a league of two divisions with its
form's fields, starts a season with the players placed by rating, moves a player on the divisions page, and after
the evenings are played sees the zones on the league page, closes the season after the page saying who moves, and
finds who went up and down. axe-core finds no WCAG A/AA violation on any of these pages, and nothing sticks out
sideways at 390 px."""

from __future__ import annotations

import re

import pytest

from league.models import DivisionMember, League, Season

from .browser import PHONE, assert_accessible, shoot
from .test_division_pages import PASSWORD, _table, league_site  # noqa: F401  (the fixture)


@pytest.mark.e2e
def test_an_organiser_runs_a_league_of_divisions_on_a_phone(chromium, site_server, league_site):  # noqa: F811
    server, quiet = site_server
    club = league_site["club"]
    page = chromium.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + f"/accounts/login/?next=/clubs/{club.pk}/leagues/new/")
    page.fill("#id_login", "olive")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**/clubs/{club.pk}/leagues/new/")
    page.fill("#id_name", "Thursday league")
    page.fill("#id_division_count", "2")
    page.fill("#id_promoted", "1")
    page.fill("#id_relegated", "1")
    assert_accessible(page, "the new league form")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"/leagues/\d+/$"))
    page.click("text=New season")
    page.wait_for_url("**/seasons/new/")
    page.fill("#id_name", "Spring")
    page.check("input[name=placing][value=rating]")
    shoot(page, "season-new-divisions")
    assert_accessible(page, "the new season form")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"/seasons/\d+/divisions/$"))
    with quiet():
        season = Season.objects.get()
        assert season.league.division_count == 2 and DivisionMember.objects.filter(season=season).count() == 8
        bottom = DivisionMember.objects.filter(season=season, division__number=2).order_by("player__name").first()
        moved = bottom.player
    page.select_option(f"#id_player_{moved.pk}", "1")
    shoot(page, "season-divisions")
    assert_accessible(page, "the season's divisions page")
    page.click("text=Save the divisions")
    page.wait_for_url(re.compile(r"/seasons/\d+/divisions/$"))
    assert "Saved: 1 player moved." in page.text_content("main")
    with quiet():
        assert DivisionMember.objects.get(season=season, player=moved).division.number == 1
        tops = [m.player for m in DivisionMember.objects.filter(season=season, division__number=1).order_by("id")]
        lows = [m.player for m in DivisionMember.objects.filter(season=season, division__number=2).order_by("id")]
        assert (len(tops), len(lows)) == (5, 3)
        _table(season, tops, [(20, 5), (14, 4), (10, 3), (6, 2), (4, 1)])
        _table(season, lows, [(30, 10), (8, 2), (6, 1)])
        league = League.objects.get()

    page.goto(server.url + f"/leagues/{league.pk}/")
    main = page.text_content("main")
    assert "promotion zone" in main and "relegation zone" in main
    shoot(page, "league-divisions")
    assert_accessible(page, "the league page with its divisions")

    page.goto(server.url + f"/seasons/{season.pk}/")
    page.click("text=Close the season")
    page.wait_for_url("**/close/")
    shoot(page, "season-close")
    assert_accessible(page, "the page closing a season")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(r"/seasons/\d+/$"))
    assert "its promotions and relegations are final" in page.text_content("main")
    page.goto(server.url + f"/leagues/{league.pk}/")
    main = page.text_content("main")
    assert "Who went up and down at the end of Spring" in main and "promoted" in main and "relegated" in main
    assert page.is_visible("text=Start the next season")
    shoot(page, "league-after-closing")
    assert_accessible(page, "the league page after closing")
    with quiet():
        assert DivisionMember.objects.filter(season=season, movement="up").count() == 1
        assert DivisionMember.objects.filter(season=season, movement="down").count() == 1
    assert not errors
