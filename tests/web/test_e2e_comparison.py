"""A comparison's live page in a real browser: it updates without a reload as pairs end, and fits a phone."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import ComparisonPair
from league.services.cancellation import cancel_match
from league.services.comparisons import create_comparison
from league.services.matches import create_bot_player
from league.services.players import create_external_bot

from .browser import chromium, shoot, site_server  # noqa: F401 - fixtures

pytestmark = pytest.mark.e2e


def test_the_live_page_follows_the_comparison_without_a_reload(chromium, site_server):  # noqa: F811
    server, quiet = site_server
    with quiet():
        alice = get_user_model().objects.create_user("alice")
        # An external candidate keeps the comparison running: its games wait for it (the baseline's are played).
        candidate = create_external_bot(name="alice-e2e-bot", owner=alice)
        baseline = create_bot_player(name="greedy-e2e", kind="greedy")
        comparison = create_comparison(user=alice, candidate=candidate, baseline=baseline,
                                       ruleset={"players": 4, "rounds": 1}, elo1=100, max_pairs=10)
        first = ComparisonPair.objects.get(comparison=comparison)
    page = chromium.new_context().new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + f"/comparisons/{comparison.pk}/")
    assert page.locator("#pairs tr").count() == 1 and page.locator("#chart svg").count() == 1
    page.evaluate("window.stillTheSamePage = true")
    with quiet():
        cancel_match(match_id=first.candidate_match_id, reason="the test voids the first pair")
    # The first pair is void and the second started: the page shows both rows, from its poll, not a reload.
    from playwright.sync_api import expect

    expect(page.locator("#pairs tr")).to_have_count(2, timeout=15000)
    assert page.evaluate("window.stillTheSamePage") is True
    assert "void" in page.locator("#pairs tr").first.inner_text()
    shoot(page, "comparison-live")
    assert not errors, errors
