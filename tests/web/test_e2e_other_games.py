"""End to end in a real headless Chromium, for the games beyond Diamonds: a person chooses the ring race or
Diamoniak on the "play against bots" page, plays a whole game by clicking the buttons of their legal decisions,
sees the result under the game's own labels and steps through the replay turn by turn. The page source never holds
what no seat may know yet (the deck's or draw pile's order; which untried ring-race positions are loose). Screenshots
of each kind of decision, the result and the replay go to artifacts/screenshots/ at desktop and phone width."""

from __future__ import annotations

import re

import pytest

from engine.diamoniak.rules import card_name as diamoniak_card
from engine.ringrace.rules import card_name as ringrace_card
from league.models import Match, MatchStatus
from league.selectors.live import match_game
from web.games.replay import REPLAY_WINDOW

from .browser import shoot
from .conftest import PASSWORD

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def unseen_cards(match) -> list[str]:
    """The names of the cards still face down in the match's game (the ring race's deck, Diamoniak's draw pile
    while it has never been reshuffled, so none of them has been shown)."""
    game = match_game(Match.objects.get(pk=match.pk))
    if match.game == "ringrace":
        return [ringrace_card(c) for c in game.deck]
    return [] if game.reshuffles else [diamoniak_card(c) for c in game.draw_pile]


def named(html: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", html) is not None


@pytest.mark.parametrize("game, labels", [("ringrace", ("Dollars", "Set rings")),
                                          ("diamoniak", ("Castle cards", "Diamond cards"))])
def test_a_person_plays_another_game_against_bots_in_a_browser(chromium, site_server, site, game, labels):
    server, quiet = site_server
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(server.url + "/accounts/login/?next=/play/")
    page.fill("#id_login", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url("**/play/")
    page.check(f"input[name=game][value={game}]")
    page.fill("#id_seed", f"e2e-{game}-1")
    shoot(page, "play-choose-game")
    page.click("text=Sit down and play")
    page.wait_for_url("**/matches/*/")
    with quiet():
        match = Match.objects.order_by("-pk").first()
    assert match.game == game and match.match_seats.get(seat=0).player == site["ann"]

    seen, shots = [], set()
    for _ in range(400):
        form = page.locator("form.decision")
        kind = form.get_attribute("data-kind") if form.count() else ""
        if not kind:
            break
        # The page source, searched for every face-down card: at the first dozen decisions and every fourth after
        # (each search reads the game back from the database; tests/web/test_boards_push.py checks every step).
        if len(seen) < 12 or len(seen) % 4 == 0:
            html = page.content()
            with quiet():
                hidden = unseen_cards(match)
            assert [c for c in hidden if named(html, c)] == [], "a face-down card is in the page source"
            if game == "ringrace":
                assert "cell-loose" not in html, "the page tells a loose position before the end"
        if kind not in shots:
            shoot(page, f"{game}-{kind}")
            shots.add(kind)
        before = page.locator(".table-view").get_attribute("data-move")
        seen.append(kind)
        buttons = page.locator("form.decision button[name=decision]:enabled")
        draw = page.locator("form.decision button[name=decision]:enabled", has_text="Draw")
        # Diamoniak: keep drawing (the quickest way to a castle of six); otherwise the first decision offered. On the
        # drawn board a first click lifts the card or pile (test_e2e_boards), the second plays it.
        chosen = draw.first if draw.count() else buttons.first
        chosen.click()
        chosen.click()
        page.wait_for_function("m => document.querySelector('.table-view').dataset.move !== m", arg=before)
        assert page.locator("#decision-error").count() == 0 or not page.locator("#decision-error").inner_text()
    assert seen, "ann never had a decision to make"

    page.wait_for_selector("text=Final result")
    assert page.locator("#match-status").inner_text() == "finished"
    result = page.locator(".result").inner_text()
    assert "★ winner" in result and all(label in result for label in labels)
    with quiet():
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED
        winners = [s.player.name for s in match.match_seats.filter(is_winner=True).select_related("player")]
    assert all(name in result for name in winners)
    shoot(page, f"{game}-finished")

    page.click("text=Replay the game turn by turn")
    page.wait_for_url("**/replay/")
    counter = page.locator("#frame-counter")
    total = int(re.search(r"of (\d+)", counter.inner_text()).group(1))
    assert counter.inner_text() == f"Step 1 of {total}" and total > 2
    assert page.locator(".frame:visible").count() == 1
    assert page.locator(".frame:visible h2").inner_text() == "The start"
    page.click("text=Next ▶")
    assert page.locator(".frame:visible h2").inner_text().startswith("Turn 1:")
    shoot(page, f"{game}-replay")
    if total > REPLAY_WINDOW:
        # The page holds one window of steps: past its edge the stepper opens the next window's page on the step
        # that comes next, and stepping back from there opens the previous window's page on its last step.
        for _ in range(REPLAY_WINDOW - 2):
            page.keyboard.press("ArrowRight")
        assert counter.inner_text() == f"Step {REPLAY_WINDOW} of {total}"
        page.keyboard.press("ArrowRight")
        page.wait_for_url(f"**/replay/?step={REPLAY_WINDOW + 1}")
        assert counter.inner_text() == f"Step {REPLAY_WINDOW + 1} of {total}"
        assert page.locator(".frame:visible h2").inner_text().startswith(f"Turn {REPLAY_WINDOW}:")
        page.click("text=◀ Previous")
        page.wait_for_url(f"**/replay/?step={REPLAY_WINDOW}")
        assert counter.inner_text() == f"Step {REPLAY_WINDOW} of {total}"
        assert page.locator(".frame:visible").count() == 1
    page.click("text=Last »")
    if total > REPLAY_WINDOW:
        page.wait_for_url(f"**/replay/?step={total}")
    assert "the game ends" in page.locator(".frame:visible h2").inner_text()
    assert counter.inner_text() == f"Step {total} of {total}"
    assert errors == [], errors
    context.close()
