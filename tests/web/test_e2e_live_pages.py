"""End to end in a real headless Chromium (issue 29): a tournament's page follows its entrants and tables without a
reload and without polling, and a clocked table shows each player's clock in their seat, counting down; both pages
pass axe-core and fit a phone.

Served by uvicorn in a thread, as in test_e2e_live_push (pytest-django's live server has no WebSockets); the pages'
polling endpoints are blocked in the browser, so what changes can only have been pushed.
"""

from __future__ import annotations

import time

import pytest

from league.services import create_bot_player, create_match, create_person_player, create_tournament, register_players
from league.services.decisions import start_live_match
from web import push

from .browser import PHONE, assert_accessible, shoot
from .test_e2e_live_push import asgi_server  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


DESKTOP = {"width": 1280, "height": 800}


def opened(chromium, viewport: dict):
    """A new browser context and page at `viewport`, and the page's script errors as they happen."""
    context = chromium.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def blocked_polls(page) -> list[str]:
    polls: list[str] = []

    def refuse(route):
        polls.append(route.request.url)
        route.abort()

    page.route("**/live/**", refuse)
    return polls


def test_a_tournament_page_shows_a_new_entrant_without_reload_or_polling(chromium, asgi_server, site,  # noqa: F811
                                                                         monkeypatch):
    monkeypatch.setattr(push, "COALESCE_SECONDS", 0.05)
    tournament = create_tournament(name="Live evening", rounds=1, ruleset={"rounds": 1}, club=site["club"],
                                   seed="live-e2e")
    context, page, errors = opened(chromium, DESKTOP)
    polls = blocked_polls(page)
    page.goto(f"{asgi_server}/tournaments/{tournament.pk}/")
    assert "No one is registered yet" in page.inner_text("#live-entrants")
    page.evaluate("window.sameDocument = true")
    time.sleep(0.5)  # the socket opens (a change before that is sent on connect anyway)
    newcomer = create_bot_player(name="late-arrival", kind="random", clubs=[site["club"]])
    register_players(tournament=tournament, players=[newcomer])
    page.wait_for_function("() => document.querySelector('#live-entrants').innerText.includes('late-arrival')")
    assert page.evaluate("window.sameDocument === true"), "the page reloaded"
    assert polls == [] and errors == []
    assert_accessible(page, "live tournament page")
    shoot(page, "live-tournament")
    context.close()


def test_a_clocked_table_shows_the_clocks_counting_down(chromium, asgi_server, site, django_user_model):  # noqa: F811
    user = django_user_model.objects.create_user("clara", password="pw-clara-12345")
    from league.services.accounts import mark_made_by_administrator

    mark_made_by_administrator(user)
    person = create_person_player(user=user, name="clara")
    bots = [create_bot_player(name=f"clock-e2e-{i}", kind="greedy") for i in range(3)]
    match = create_match(players=[person, *bots], ruleset={"players": 4, "rounds": 1}, seed="clock-e2e",
                         clock_bank_seconds=180, clock_increment_seconds=2)
    start_live_match(match=match)
    context, page, errors = opened(chromium, DESKTOP)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    # Her clock is in her own seat, beside her name, and named as hers; the bots' seats have none.
    seat = page.locator(".dseat[data-seat='0']")
    assert seat.locator(".chess-clock").count() == 1 and page.locator(".chess-clock").count() == 1
    assert seat.locator(".chess-clock").get_attribute("aria-label") == "clara's clock"
    assert seat.locator(".chess-clock").get_attribute("role") == "timer"
    clock = seat.locator(".chess-clock .left")
    first = clock.inner_text()
    assert first.startswith(("3:00", "2:5")) and "3 minutes each" in page.inner_text(".clock-summary")
    # Her turn: her clock runs down on the page, from the server's figure, marked running in words for a screen
    # reader and by a sign on the screen.
    page.wait_for_function("(first) => document.querySelector(\".dseat[data-seat='0'] .chess-clock .left\")"
                           ".innerText !== first", arg=first)
    assert seat.locator(".chess-clock").get_attribute("data-running") == "1"
    assert "running" in seat.locator(".chess-clock").inner_text()
    # A seat's figure drawn a minute before the read that brought it (a spectators' table shared from an earlier
    # read) counts that minute too; under 20 s a running clock is marked low.
    page.evaluate("""() => {
      const clock = document.querySelector(".dseat[data-seat='0'] .chess-clock");
      document.querySelector('[data-clock-now]').dataset.clockNow = String(Number(clock.dataset.takenAt) + 60000);
      ChessClocks.tick();
    }""")
    assert clock.inner_text().startswith(("1:5", "1:4"))
    page.evaluate("""() => {
      const clock = document.querySelector(".dseat[data-seat='0'] .chess-clock");
      clock.dataset.remainingMs = String(75000);
      ChessClocks.tick();
    }""")
    assert "low" in seat.locator(".chess-clock").get_attribute("class")
    assert errors == []
    assert_accessible(page, "clocked table")
    page.set_viewport_size(PHONE)  # at a phone's width: in the seat, and nothing sticks out sideways
    assert seat.locator(".chess-clock").is_visible()
    assert_accessible(page, "clocked table on a phone")
    shoot(page, "clocked-table")
    context.close()


@pytest.mark.parametrize("game", ["diamoniak", "ringrace"])
def test_a_clocked_boards_seat_shows_its_clock_on_a_phone(chromium, asgi_server, site, django_user_model,  # noqa: F811
                                                          game):
    user = django_user_model.objects.create_user(f"rue-{game}", password="pw-rue-12345")
    person = create_person_player(user=user, name="rue")
    bots = [create_bot_player(name=f"clock-{game}-{i}", kind="random") for i in range(3)]
    match = create_match(players=[person, *bots], ruleset={"players": 4}, game=game, seed="clock-board-e2e",
                         clock_bank_seconds=300, clock_increment_seconds=0)
    start_live_match(match=match)
    context, page, errors = opened(chromium, PHONE)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    clock = page.locator(".seat[data-seat='0'] .seat-name .chess-clock")
    assert clock.get_attribute("aria-label") == "rue's clock" and page.locator(".chess-clock").count() == 1
    assert clock.is_visible() and "no time added" in page.inner_text(".clock-summary")
    assert errors == []
    assert_accessible(page, f"clocked {game} table on a phone")
    shoot(page, f"clocked-{game}-table")
    context.close()
