"""End to end in a real headless Chromium (issue 29, "a drawn table"): Diamoniak and the ring race, drawn.

At phone width (390×844, touch) and at desktop width, a person plays a whole game against two bots by tapping on the
board (a first tap lifts a card, pile or position and says which move it is, a second plays it; at desktop width some
moves are played by keyboard: arrows choose, Enter plays), while a second browser context, a spectator whose polling
is blocked, sees each move arrive over the WebSocket without reloading. Then the replay on the same board: its step
buttons, its scrubber by keyboard, its autoplay, movement shown on a step forward and none under
prefers-reduced-motion. The page source never names what nobody may know yet; axe-core finds no WCAG A/AA violation
on the boards and the replay; screenshots of each go to artifacts/screenshots/.

The site is served by uvicorn in a thread, as in test_e2e_live_push, with the in-memory channel layer. On SQLite's
shared in-memory test database two threads touching it at once fail ("database table is locked"): there the server's
database work (each request, each socket's read) takes one lock in turn, which a whole game of pushes to two pages
needs (one move in test_e2e_live_push never met it). On PostgreSQL it runs as deployed.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time

import channels.auth
import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.db import connection

from engine.diamoniak.rules import card_name as diamoniak_card
from engine.games import game_type
from engine.ringrace.rules import card_name as ringrace_card
from league.models import Match, MatchStatus
from league.selectors.live import match_game
from league.services import create_bot_player, create_match, create_person_player
from league.services.decisions import start_live_match
from runtime.asgi_routing import router
from web import consumers
from web.routing import websocket_application

from .browser import DESKTOP, PHONE, SCREENSHOTS, assert_accessible
from .support import administrators_account
from .test_e2e_live_push import free_port

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-boards-e2e-1"
SEEN_WITHIN_MS = 5000  # a spectator's page must show each move by then (a bound on failure, not a measure)
RULESETS = {"diamoniak": {"players": 3, "max_turns": 24}, "ringrace": {"players": 3}}


class OneAtATime:
    """The server's database work one piece at a time (on SQLite's in-memory test database): each HTTP request, and
    each database call of a socket (its session's user, its reads), holds one asyncio lock of the server's loop."""

    def __init__(self, app):
        self.app = app
        self.lock: asyncio.Lock | None = None

    def held(self) -> asyncio.Lock:
        if self.lock is None:
            self.lock = asyncio.Lock()
        return self.lock

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        async with self.held():
            return await self.app(scope, receive, send)

    def wrap(self, make):
        """database_sync_to_async (or an already made async function) whose calls take the lock."""
        def made(fn=None, **kwargs):
            run = make(fn, **kwargs) if fn is not None else make

            async def call(*args, **kw):
                async with self.held():
                    return await run(*args, **kw)
            return call
        return made


@pytest.fixture
def board_server(transactional_db, settings, monkeypatch):
    """The site under uvicorn in a thread, on the test database; yields its base URL."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    consumers.SPECTATOR_TABLES.entries.clear()
    consumers.SPECTATOR_READS.latest.clear()
    app = ASGIStaticFilesHandler(router(websocket=websocket_application()))
    if connection.vendor == "sqlite":
        app = OneAtATime(app)
        monkeypatch.setattr(consumers, "database_sync_to_async", app.wrap(consumers.database_sync_to_async))
        monkeypatch.setattr(channels.auth, "get_user", app.wrap(channels.auth.get_user)())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, ws="auto", lifespan="off",
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):  # until it listens (a failure to start fails the test below)
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def person(name: str):
    return create_person_player(user=administrators_account(name, password=PASSWORD), name=name)


def sign_in(context, base: str, username: str):
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{base}/accounts/login/?next=/")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{base}/")
    return page


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} is {overflow}px wider than its screen"


def named(html: str, name: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", html) is not None


def assert_nothing_hidden_shown(pages: list[tuple[str, str]], match: Match) -> None:
    """What no seat may know yet was in no page the browsers held: Diamoniak's draw pile (while never reshuffled),
    the ring race's deck and which untried positions are loose or fixed (each drawn like any other). Each page is
    checked against the game as it stood at the page's move, replayed from the finished match's record (read once
    the game is over: the test reads nothing while the server plays, as SQLite's shared in-memory database would
    refuse a read in the middle of the server's writes)."""
    kind = game_type(match.game)
    record = kind.to_record(match_game(Match.objects.get(pk=match.pk)))
    for who, html in pages:
        move = int(re.search(r'class="table-view" data-move="(\d+)"', html).group(1))
        game = kind.from_record({**record, "choices": record["choices"][:move]})
        assert game.move_number == move
        if match.game == "ringrace":
            hidden = [ringrace_card(c) for c in game.deck]
            if not game.over:  # the end reveals the board (G-END-1)
                untried = [p for p, on in enumerate(game.on_board) if on and p not in game.revealed]
                drawn = re.findall(r'(<li class="rr-pos .*?</li>)', html)
                assert len({re.sub(r"\d+", "#", drawn[p]) for p in untried}) == 1, f"{who} tells loose from fixed"
                assert "cell-loose" not in html and "under-" not in html, f"{who} tells a loose position"
        else:
            hidden = [] if game.reshuffles else [diamoniak_card(c) for c in game.draw_pile]
        assert [c for c in hidden if named(html, c)] == [], f"a face-down card is in {who}'s page source"
        assert match.seed not in html


def choose(page, game: str, drawn_this_turn: int):
    """The target the person plays: Diamoniak: buy a castle card when one is for sale, stop after three draws, else
    draw (the quickest way to a castle); the witch gets the first card offered. The ring race: the first offered."""
    targets = page.locator("form.decision .target:enabled")
    if game == "diamoniak":
        labels = [targets.nth(k).get_attribute("aria-label") or targets.nth(k).inner_text() for k in
                  range(targets.count())]
        for wanted in ("Buy the", "Stop" if drawn_this_turn >= 3 else "Draw", "Draw", "Stop"):
            for k, label in enumerate(labels):
                if label.startswith(wanted):
                    return k, targets
    return 0, targets


@pytest.mark.parametrize("game", ["diamoniak", "ringrace"])
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_person_plays_a_whole_game_on_the_drawn_board_and_a_spectator_sees_each_move(chromium, board_server,
                                                                                       game, screen):
    base = board_server
    ann = person("ann")
    administrators_account("bob", password=PASSWORD)  # the spectator
    bots = [create_bot_player(name=f"{game}-bot-{i}", kind="heuristic") for i in (1, 2)]
    match = create_match(players=[ann, *bots], ruleset=RULESETS[game], seed=f"boards-{game}-{screen}", game=game)
    start_live_match(match=match)
    phone = screen == "phone"
    options = {"viewport": PHONE, "has_touch": True, "is_mobile": True} if phone else {"viewport": DESKTOP}
    errors: list[str] = []

    player_context, spectator_context = chromium.new_context(**options), chromium.new_context(**options)
    page = sign_in(player_context, base, "ann")
    spectator = sign_in(spectator_context, base, "bob")
    polls: list[str] = []
    spectator.route("**/live/**", lambda route: (polls.append(route.request.url), route.abort()))
    for p in (page, spectator):
        p.on("pageerror", lambda e: errors.append(str(e)))
        p.goto(f"{base}/matches/{match.pk}/")
    spectator.evaluate("window.sameDocument = true")  # gone if the page reloads
    assert spectator.locator(".target").count() == 0 and spectator.locator("form.decision").count() == 0

    act = (lambda target: target.tap()) if phone else (lambda target: target.click())
    decisions, by_keyboard, drawn, shot = 0, 0, 0, False
    pages: list[tuple[str, str]] = []  # what the browsers held, checked for secrets once the game is over
    for _ in range(300):
        page.wait_for_selector("form.decision .target:enabled, .result")
        if page.locator(".result").count():
            break
        pages.append(("ann", page.content()))
        if not shot:
            shot = True
            screenshot(page, f"board-{game}-{screen}-player")
            assert_accessible(page, f"the {game} board of a seat ({screen})")
        if phone:  # every lit thing is a target a thumb can hit
            small = page.evaluate("Array.from(document.querySelectorAll('form.decision .target')).map(t => "
                                  "t.getBoundingClientRect()).filter(r => r.width < 44 || r.height < 44).length")
            assert small == 0, f"{small} targets are smaller than 44 px"
        before = page.get_attribute(".table-view", "data-move")
        k, targets = choose(page, game, drawn)
        target = targets.nth(k)
        name = target.get_attribute("aria-label") or target.inner_text()
        if not phone and decisions % 3 == 1 and targets.count() > 1:
            # By keyboard: focus the first lit target, the arrow keys choose (and say which), Enter plays.
            targets.first.focus()
            for _step in range(k):
                page.keyboard.press("ArrowRight")
            if k == 0:
                page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowLeft")
            assert "lifted" in target.get_attribute("class")
            assert name in page.inner_text("#board-hint")
            page.keyboard.press("Enter")
            by_keyboard += 1
        else:
            act(target)  # the first tap lifts it and says which move it is; nothing is sent
            assert "lifted" in target.get_attribute("class") and name in page.inner_text("#board-hint")
            assert page.get_attribute(".table-view", "data-move") == before
            act(target)  # the second plays it
        page.wait_for_function("m => document.querySelector('.table-view').dataset.move !== m", arg=before)
        assert not page.inner_text("#decision-error") if page.locator("#decision-error").count() else True
        decisions += 1
        drawn = drawn + 1 if name.startswith("Draw") else 0
        # The live region says in words what happened since the page's last table, then what it asks or waits for.
        # Read in one go: with real workers the bots' moves keep arriving, and each table pushed between two reads
        # changes all three (the page updates them together, in one MutationObserver callback).
        said, latest, prompt = page.evaluate(
            "() => [document.getElementById('announce').innerText,"
            " document.querySelector('.moves-log li').innerText, document.getElementById('prompt').innerText]")
        assert latest.strip() in said
        assert said.strip().endswith(prompt.strip())
        # The spectator's page shows the move (or a later one) within a few seconds, pushed, without a reload.
        shown = int(page.get_attribute(".table-view", "data-move"))
        spectator.wait_for_function("m => Number(document.querySelector('.table-view').dataset.move) >= m",
                                    arg=shown, timeout=SEEN_WITHIN_MS)
        pages.append(("the spectator", spectator.content()))
        if decisions == 2:
            screenshot(spectator, f"board-{game}-{screen}-spectator")
            assert_accessible(spectator, f"the {game} board of a spectator ({screen})")
    assert decisions > 5, "ann had too few decisions to call it a game"
    assert by_keyboard or phone

    page.wait_for_selector("text=Final result")
    spectator.wait_for_selector("text=Final result", timeout=SEEN_WITHIN_MS)
    assert spectator.evaluate("window.sameDocument === true"), "the spectator's page reloaded"
    assert polls == [], "the spectator's page polled: the moves did not arrive over the socket"
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    assert_nothing_hidden_shown(pages, match)
    assert "★ winner" in page.locator(".result").inner_text()
    screenshot(page, f"board-{game}-{screen}-finished")
    assert_accessible(page, f"the finished {game} board ({screen})")
    if phone:  # the phone turned sideways: still no sideways scrolling
        page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
        screenshot(page, f"board-{game}-{screen}-landscape")
        page.set_viewport_size(PHONE)

    # The replay, on the same board.
    page.click("text=Replay the game turn by turn")
    page.wait_for_url("**/replay/")
    counter = page.locator("#frame-counter")
    total = int(re.search(r"of (\d+)", counter.inner_text()).group(1))
    assert counter.inner_text() == f"Step 1 of {total}" and page.locator(".frame:visible .felt").count() == 1
    screenshot(page, f"board-{game}-{screen}-replay")
    assert_accessible(page, f"the {game} replay ({screen})")
    # A step forward shows its moves moving (started at once, skipped by the next key or tap).
    flying = page.evaluate("() => { document.querySelector('.stepper [data-step=next]').click();"
                           " return document.querySelectorAll('.fly-layer > *').length; }")
    assert counter.inner_text() == f"Step 2 of {total}" and flying > 0
    assert page.locator(".frame:visible h2").inner_text() in page.inner_text("#announce")
    # The scrubber, by keyboard: one step per arrow (not two: replay.js's own arrows stay out of it).
    page.focus("#replay-step")
    page.keyboard.press("ArrowRight")
    assert counter.inner_text() == f"Step 3 of {total}"
    assert page.get_attribute("#replay-step", "aria-valuetext") == f"Step 3 of {total}"
    # Autoplay at the fastest speed steps on by itself, and stops when asked.
    page.select_option("#replay-speed", "300")
    page.click("[data-play]")
    assert page.get_attribute("[data-play]", "aria-pressed") == "true"
    page.wait_for_function("() => !/^Step [123] of/.test(document.getElementById('frame-counter').textContent)")
    page.click("[data-play]")
    assert page.get_attribute("[data-play]", "aria-pressed") == "false"
    assert errors == [], errors

    # Under prefers-reduced-motion nothing moves.
    calm = chromium.new_context(viewport=options["viewport"], reduced_motion="reduce")
    still = calm.new_page()
    still.goto(f"{base}/matches/{match.pk}/replay/")
    flying = still.evaluate("() => { document.querySelector('.stepper [data-step=next]').click();"
                            " return document.querySelectorAll('.fly-layer > *').length; }")
    assert flying == 0 and still.locator("#frame-counter").inner_text() == f"Step 2 of {total}"
    for context in (player_context, spectator_context, calm):
        context.close()
