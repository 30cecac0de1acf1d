"""End to end in a real headless Chromium with a French browser (Accept-Language from the browser's locale): the
pages read in French at phone width, the replay's script counts its steps in French, and the footer's switcher
turns the site to English."""

from __future__ import annotations

import pytest

from league.models import Match, MatchStatus

from .browser import shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_french_browser_reads_the_site_in_french_and_switches_to_english(chromium, site_server, site):
    server, quiet = site_server
    with quiet():
        match = Match.objects.filter(status=MatchStatus.FINISHED, tournament_round__isnull=False).first()
    context = chromium.new_context(locale="fr-FR", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(server.url + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("button.primary").inner_text() == "Jouer une partie contre des bots"
    shoot(page, "home-french")  # usable on a phone too, the language switcher included

    page.goto(server.url + f"/matches/{match.pk}/replay/")
    counter = page.locator("#frame-counter")
    assert counter.inner_text().startswith("Étape 1 sur ")  # written by replay.js, from the page's French words
    page.click("text=Suivante ▶")
    assert counter.inner_text().startswith("Étape 2 sur ")
    assert "Manche 1" in page.locator(".frame:visible h2").inner_text()

    page.select_option("#language-choice", "en")
    page.click("footer.site button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "en"
    assert "Replay of match" in page.locator("h1").inner_text()  # back on the same page, now in English
    page.goto(server.url + "/")
    assert page.locator("button.primary").inner_text() == "Play a game against bots"  # the cookie outlasts the page
    assert errors == []
    context.close()
