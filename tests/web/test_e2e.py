"""End to end in a real headless Chromium: a person signs in, sits at a table with three bots, plays a whole
one-round game by clicking (pass count, passing, cards, a clubs target), sees the result, and steps through the
replay; the page source never holds another seat's cards. Screenshots of the main pages go to artifacts/."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine import Game, Ruleset, SeatView
from engine.diamonds.bots import make_bot
from league.models import Match, MatchStatus
from league.services.play import seeded_for

from .browser import shoot
from .conftest import PASSWORD
from .support import leaked, others_cards

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RULESET = Ruleset(players=4, rounds=1, clubs="choose")


def clicks(game: Game) -> object:
    """What the test clicks, as a decision: "Pass 2", the first cards of the hand, the first card it may play,
    the first target offered."""
    from engine import Decision

    pending = game.pending
    legal = game.legal(0)
    if pending.kind == "pass_count":
        return Decision.pass_count(2)
    if pending.kind == "pass_cards":
        return Decision.pass_cards(sorted(legal)[: pending.count])
    if pending.kind == "play":
        return Decision.play(min(legal))
    return Decision.clubs_target(legal[0])


def decisions_for_seat_0(seed: str) -> set[str]:
    """The decision kinds seat 0 meets in the game the seed deals, if it clicks as `clicks` does against the house
    greedy bots (seeded as the workers seed them), the bots deciding first when several seats choose at once."""
    game = Game(RULESET, seed, ["ann", "b1", "b2", "b3"])
    kinds = set()
    while not game.over:
        seats = game.pending.seats
        for seat in [s for s in seats if s != 0] + [s for s in seats if s == 0]:
            if seat == 0:
                kinds.add(game.pending.kind)
                game.apply(0, clicks(game))
            else:
                bot = seeded_for(make_bot("greedy"), SimpleNamespace(seed=seed), seat, game.move_number)
                game.apply(seat, bot.decide(SeatView(game, seat)))
    return kinds


def a_seed_with_every_decision() -> str:
    for i in range(500):
        seed = f"e2e-{i}"
        if decisions_for_seat_0(seed) == {"pass_count", "pass_cards", "play", "clubs_target"}:
            return seed
    raise AssertionError("no seed in 500 gives seat 0 every kind of decision")


def move_of(page) -> str:
    return page.locator(".table-view").get_attribute("data-move")


def test_a_person_plays_a_game_against_bots_in_a_browser(chromium, site_server, site):
    server, quiet = site_server
    seed = a_seed_with_every_decision()
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(server.url + "/")
    shoot(page, "home-anonymous")
    page.goto(server.url + f"/tournaments/{site['tournament'].pk}/")
    shoot(page, "tournament")
    page.goto(server.url + f"/ladders/{site['ladder'].pk}/")
    shoot(page, "ladder")

    page.goto(server.url + "/accounts/login/?next=/play/")
    page.fill("#id_login", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url("**/play/")
    page.select_option("#id_rounds", "1")
    page.select_option("#id_clubs", "choose")
    page.select_option("#id_bots", "greedy")
    page.fill("#id_seed", seed)
    page.click("text=Sit down and play")
    page.wait_for_url("**/matches/*/")
    with quiet():
        match = Match.objects.order_by("-pk").first()
    assert match.seed == seed and match.match_seats.get(seat=0).player == site["ann"]

    seen, shots = [], set()
    for _ in range(60):
        form = page.locator("form.decision")
        kind = form.get_attribute("data-kind") if form.count() else ""
        if not kind:
            break
        html = page.content()
        with quiet():
            assert leaked(html, others_cards(match, 0)) == [], "another seat's card is in the page source"
        if kind not in shots:
            shoot(page, f"match-{kind}")
            shots.add(kind)
        before = move_of(page)
        seen.append(kind)
        if kind == "pass_count":
            page.click("button[name=count][value='2']")
        elif kind == "pass_cards":
            want = int(page.locator("button[data-pass-count]").get_attribute("data-pass-count"))
            boxes = page.locator("label.cardpick")  # a tap on a drawn card chooses it
            assert page.locator("button[data-pass-count]").is_disabled()  # not until enough are chosen
            for i in range(want):
                boxes.nth(i).click()
            page.click("button[data-pass-count]")
        elif kind == "play":
            disabled = page.locator("button.cardbutton[aria-disabled=true]")  # reachable by keyboard, not playable
            if disabled.count():
                assert "You must follow" in page.locator("#prompt").inner_text()
                assert "must follow" in disabled.first.get_attribute("title")
            card = page.locator("button.cardbutton:not([aria-disabled=true])").first
            card.click()  # the first tap lifts the card, the second plays it
            card.click()
        else:
            page.locator("fieldset button.choice").first.click()
        page.wait_for_function("m => document.querySelector('.table-view').dataset.move !== m", arg=before)
    assert set(seen) == {"pass_count", "pass_cards", "play", "clubs_target"}, seen

    page.wait_for_selector("text=Final result")
    assert page.locator("#match-status").inner_text() == "finished"
    assert "★ winner" in page.locator(".result").inner_text()
    with quiet():
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED
        winners = [s.player.name for s in match.match_seats.filter(is_winner=True).select_related("player")]
    assert all(name in page.locator(".result").inner_text() for name in winners)
    shoot(page, "match-finished")

    page.click("text=Replay the game trick by trick")
    page.wait_for_url("**/replay/")
    counter = page.locator("#frame-counter")
    assert counter.inner_text() == "Step 1 of 12"
    assert page.locator(".frame:visible").count() == 1
    assert "the deal" in page.locator(".frame:visible h2").inner_text()
    page.click("text=Next ▶")
    page.click("text=Next ▶")
    assert counter.inner_text() == "Step 3 of 12"
    assert "trick 1" in page.locator(".frame:visible h2").inner_text()
    shoot(page, "replay")
    page.click("text=Last »")
    assert "the round ends" in page.locator(".frame:visible h2").inner_text()
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text() == "Step 11 of 12"

    page.goto(server.url + "/")
    shoot(page, "home")
    assert errors == [], errors
    context.close()
