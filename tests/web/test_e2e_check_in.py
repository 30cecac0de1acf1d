"""The check-in list in a real browser at a phone's width: the organiser signs in, taps players in, and seats the
round with those present."""

from __future__ import annotations

import pytest

from league.models import CheckIn

from .browser import PHONE, shoot
from .test_evening_pages import PASSWORD, evening  # noqa: F401  (the fixture)


@pytest.mark.e2e
def test_the_organiser_checks_players_in_on_a_phone(chromium, site_server, evening):  # noqa: F811
    server, quiet = site_server
    t = evening["t"]
    page = chromium.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + f"/accounts/login/?next=/tournaments/{t.pk}/")
    page.fill("#id_login", "olive")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**/tournaments/{t.pk}/")
    page.click("text=Check-in list")
    page.wait_for_url("**/check-in/")
    for name in ("ann", "eve-0"):
        page.click(f"button.check-in:has-text('{name}')")
        page.wait_for_selector(f"button.check-in.here:has-text('{name}')")
    shoot(page, "check-in-list")
    page.click("text=Seat and start round 1")
    page.wait_for_url(f"**/tournaments/{t.pk}/")
    with quiet():
        assert CheckIn.objects.filter(round_index=1).count() == 2
        rnd = t.tournament_rounds.get()
        assert sorted(pid for table in rnd.tables for pid in table["seats"]) == sorted(
            [evening["ann"].pk, evening["bots"][0].pk])
    assert not errors
