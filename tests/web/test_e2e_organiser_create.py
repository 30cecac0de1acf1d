"""Issue 28, "create everything on the website", in a real browser at a phone's width: the organiser finds "New
tournament" on the club page, a preset fills the form at once (the page's script), "Preview" shows the tables for
the players expected, "Create" makes the tournament; nothing sticks out sideways at 390 px."""

from __future__ import annotations

import re

import pytest

from league.models import Tournament

from .browser import PHONE, assert_accessible, shoot
from .test_organiser_create import PASSWORD, club_site  # noqa: F401  (the fixture)


@pytest.mark.e2e
def test_an_organiser_creates_a_club_night_on_a_phone(chromium, site_server, club_site):  # noqa: F811
    server, quiet = site_server
    club = club_site["club"]
    page = chromium.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + f"/accounts/login/?next=/clubs/{club.pk}/")
    page.fill("#id_login", "olive")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**/clubs/{club.pk}/")
    page.click("text=New tournament")
    page.wait_for_url("**/tournaments/new/")
    assert page.is_hidden("[data-preset-button]")  # with the script, choosing a preset fills the form at once
    assert page.is_visible("fieldset[data-game=diamonds]") and page.is_hidden("fieldset[data-game=ringrace]")

    page.select_option("#preset", "online-swiss")
    assert page.input_value("#id_rounds") == "5" and page.input_value("#id_turn_deadline_seconds") == "120"
    assert not page.is_checked("#id_offline_tables")
    assert "Online Swiss" in page.text_content("#preset-status")  # said to a screen reader
    page.select_option("#preset", "ringrace-night")
    assert page.input_value("#id_game") == "ringrace" and page.is_visible("fieldset[data-game=ringrace]")
    assert page.is_hidden("fieldset[data-game=diamonds]")
    page.select_option("#preset", "club-night")
    assert page.input_value("#id_rounds") == "3" and page.is_checked("#id_offline_tables")
    assert page.is_visible("fieldset[data-competitors='3']") and page.is_hidden("fieldset[data-competitors='6']")

    page.fill("#id_name", "Thursday club night")
    page.fill("#id_expected_players", "10")
    page.click("button[value=preview]")
    page.wait_for_selector("#preview")
    assert "4 + 3 + 3" in page.text_content("#preview")
    with quiet():
        assert not Tournament.objects.exists()
    shoot(page, "tournament-new-preview")
    assert_accessible(page, "the new tournament form with its preview")
    page.click("button[value=save]")
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))  # no fragment left over from the preview
    assert "Thursday club night is created" in page.text_content("main")
    with quiet():
        tournament = Tournament.objects.get()
        assert (tournament.format, tournament.rounds, tournament.table_size, tournament.offline_tables) == (
            "swiss", 3, 4, True)
    page.click("text=Edit settings")
    page.wait_for_url("**/settings/")
    shoot(page, "tournament-settings")
    assert_accessible(page, "the tournament's settings")
    assert not errors
