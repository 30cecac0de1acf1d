"""End to end, a bot author on their own: signs in, creates a bot on My bots, copies its token from the page, enters
it in a ladder with engine bots; the ladder seats it (its tick service called here rather than waiting for the
beat), examples/external_bot.py plays its first match against the live server, and the author sees the match and
the bot's rating on the bot's page."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import timezone

from league.models import Match, MatchStatus, Player, Rating
from league.services import create_bot_player
from league.services.ladders import create_ladder, join_ladder, seat_ladder_tables

from .browser import shoot
from .support import administrators_account

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "pw-author-e2e-1"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # test accounts only


def test_an_author_creates_a_bot_enters_it_and_sees_its_first_match(chromium, site_server, settings):
    settings.DIAMONDS_TURNS_POLL_SECONDS = 0.05  # the long-poll's re-check: the bot's next turn is found sooner
    server, quiet = site_server
    with quiet():
        administrators_account("author", password=PASSWORD)
        # One round of play keeps the test short; the ladder is otherwise as any other.
        ladder = create_ladder(name="Bot Ladder", table_size=4, ruleset={"rounds": 1})
        join_ladder(ladder=ladder, players=[create_bot_player(name=f"greedy-{i}", kind="greedy") for i in range(3)])
    page = chromium.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(server.url + "/accounts/login/?next=/")
    page.fill("input[name=login]", "author")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button[type=submit], main input[type=submit]")
    page.get_by_role("link", name="My bots").click()
    page.fill("input[name=name]", "first-bot")
    page.get_by_role("button", name="Create").click()
    token = page.locator("#new-token").input_value()
    assert len(token) == 40
    shoot(page, "my-bots-new-token")
    page.select_option("select[name=competition]", label="Bot Ladder")
    page.get_by_role("button", name="Enter", exact=True).click()
    assert "first-bot is entered in Bot Ladder" in page.locator(".messages").inner_text()
    page.reload()
    assert page.locator("#new-token").count() == 0  # the token was shown once

    with quiet():
        bot = Player.objects.get(name="first-bot")
        # As if its first poll had come in: a ladder seats an external bot only while it polls.
        Player.objects.filter(pk=bot.pk).update(last_seen_at=timezone.now())
        (match,) = seat_ladder_tables(ladder=ladder, seed="e2e")
    out = subprocess.run([sys.executable, "examples/external_bot.py", "--url", server.url, "--token", token,
                          "--matches", "1"], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "playing as first-bot" in out.stdout and f"match {match.pk} finished" in out.stdout, out.stdout[-2000:]
    with quiet():
        assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
        rating = Rating.objects.get(player=bot, ladder=ladder)
        assert rating.matches == 1

    page.goto(server.url + "/bots/")
    page.get_by_role("link", name="first-bot").click()
    assert page.locator("h1").inner_text() == "first-bot"
    assert "by author" in page.locator("main").inner_text()
    assert page.locator(f'a[href="/matches/{match.pk}/"]').count() >= 1
    assert page.locator("strong.rating").first.inner_text() == f"{rating.ordinal:.2f}"
    assert page.locator("figure.chart svg").count() == 1
    shoot(page, "bot-page")
    assert not errors, errors
