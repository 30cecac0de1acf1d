"""End to end in a real headless Chromium (issue 29, "a card table people want to sit at"): at a phone's width and
at a desktop's, a person plays a whole game of Diamonds against three bots by tapping the drawn cards (a tap lifts
a card, a second tap plays it; on the phone one card is swiped up, on the desktop one is played by keyboard),
while a second browser, a spectator's, sees each of her moves arrive without reloading and without polling: its
polling endpoint is blocked, so only the WebSocket can bring them. Both pages are checked with axe, the finished
game's replay is stepped, scrubbed and played on the same table, and screenshots of all of it go to artifacts/.

The site is served by uvicorn in a thread (test_e2e_live_push's `asgi_server`: WSGI has no WebSockets). Waits are
generous timeouts for the page to change, never measures of time.
"""

from __future__ import annotations

import json
import threading
from contextlib import nullcontext

import pytest
from django.db import connection

from league.models import Match, MatchStatus
from web import consumers

from .browser import DESKTOP, PHONE, SCREENSHOTS, assert_accessible
from .conftest import PASSWORD, table_with_bots
from .support import leaked, others_cards
from .test_e2e_live_push import asgi_server  # noqa: F401  (the site under uvicorn, with its WebSockets)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SEEN = 8000  # ms a page may take to show a move before the test fails (a generous wait, not a measure)

# The test database in-memory SQLite is one shared cache, whose table locks do not wait: a socket's read while a
# decision is being stored fails ("database table is locked"). There, the server's requests, its sockets' reads and
# the test's own reads take turns (as site_server's requests do); PostgreSQL needs none of it.
ONE_AT_A_TIME = threading.RLock()


class OneAtATime:
    """A middleware holding ONE_AT_A_TIME for the whole of a request (the bots' moves it sets off included)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with ONE_AT_A_TIME:
            return self.get_response(request)


@pytest.fixture
def taking_turns(settings, monkeypatch):
    """Before the server is made: its requests and its sockets' reads take turns on in-memory SQLite. Yields the
    context manager for the test's own reads."""
    if not (connection.vendor == "sqlite" and connection.is_in_memory_db()):
        yield nullcontext
        return
    settings.MIDDLEWARE = [f"{__name__}.OneAtATime", *settings.MIDDLEWARE]
    threaded = consumers.database_sync_to_async

    def in_turn(fn):
        def call(*args, **kwargs):
            with ONE_AT_A_TIME:
                return fn(*args, **kwargs)
        return threaded(call)

    monkeypatch.setattr(consumers, "database_sync_to_async", in_turn)
    yield lambda: ONE_AT_A_TIME


def snap(page, name: str) -> None:
    """A screenshot at the page's own size, and nothing sticking out sideways."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => !document.querySelector('.flying')")  # the table at rest, nothing moving
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{name} is {overflow}px wider than the screen"


def move_of(page) -> int:
    return int(page.locator("#table .table-view").get_attribute("data-move"))


def moved_past(page, move: int) -> None:
    page.wait_for_function("m => Number(document.querySelector('#table .table-view').dataset.move) > m",
                           arg=move, timeout=SEEN)


def steps_of(page) -> list[dict]:
    return json.loads(page.locator("#table-steps").text_content())


def sign_in(page, base: str, next_path: str) -> None:
    page.goto(f"{base}/accounts/login/?next={next_path}")
    page.fill("#id_login", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**{next_path}")


def play_a_card(page, how: str) -> str:
    """Plays a card ann may play, by two taps (the first lifts it), a swipe up, or the keyboard; its code."""
    card = page.locator("button.handcard:not([aria-disabled='true'])").first
    code = card.get_attribute("value")
    if how == "keyboard":
        page.locator("button.handcard[tabindex='0']").focus()
        page.keyboard.press("End")
        focused = page.evaluate("document.activeElement.value")
        assert page.evaluate("document.activeElement.tabIndex") == 0  # the roving tab stop follows the arrows
        page.keyboard.press("Home")
        for _ in range(20):  # arrows choose: to the first card that may be played
            if page.evaluate("document.activeElement.getAttribute('aria-disabled')") != "true":
                break
            page.keyboard.press("ArrowRight")
        code = page.evaluate("document.activeElement.value")
        assert focused and code
        page.keyboard.press("Enter")
    elif how == "swipe":
        box = card.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x, y - 70, steps=5)
        page.mouse.up()
    else:
        card.click()
        assert "lifted" in card.get_attribute("class")  # the first tap only lifts it
        assert page.locator("button.handcard.lifted").count() == 1
        card.click()
    return code


def take_turn(page, kind: str, how: str = "taps") -> str | None:
    """Makes ann's decision of `kind` on the drawn table by tapping (a card played: `how`); the card played."""
    if kind == "pass_count":
        page.locator("button[name=count]").first.click()
    elif kind == "pass_cards":
        want = int(page.locator("button[data-pass-count]").get_attribute("data-pass-count"))
        assert page.locator("button[data-pass-count]").is_disabled()
        picks = page.locator("label.cardpick")
        for i in range(want):
            picks.nth(i).click()  # a tap chooses the card (it is lifted)
        assert page.locator("label.cardpick:has(input:checked)").count() == want
        page.click("button[data-pass-count]")
    elif kind == "play":
        return play_a_card(page, how)
    else:
        page.locator("fieldset button.choice").first.click()
    return None


def kind_of(page) -> str:
    form = page.locator("form.decision")
    return (form.get_attribute("data-kind") if form.count() else "") or ""


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_person_plays_a_whole_game_by_tapping_while_a_spectator_watches(chromium, site, taking_turns,
                                                                          asgi_server, screen):  # noqa: F811
    base, quiet = asgi_server, taking_turns
    size = PHONE if screen == "phone" else DESKTOP
    match = table_with_bots(site["ann"], site["bots"], seed=f"drawn-table-{screen}", clubs="choose")
    errors: list[str] = []

    player_context = chromium.new_context(viewport=size, has_touch=screen == "phone")
    player = player_context.new_page()
    player.set_default_timeout(15000)
    player.on("pageerror", lambda e: errors.append(f"player: {e}"))
    sign_in(player, base, f"/matches/{match.pk}/")

    watcher_context = chromium.new_context(viewport=size)
    watcher = watcher_context.new_page()
    watcher.set_default_timeout(15000)
    watcher.on("pageerror", lambda e: errors.append(f"spectator: {e}"))
    polls: list[str] = []

    def refuse_poll(route):
        polls.append(route.request.url)
        route.abort()

    watcher.route("**/live/**", refuse_poll)  # only the socket can bring the moves
    watcher.goto(f"{base}/matches/{match.pk}/")
    watcher.evaluate("window.sameDocument = true")  # gone if the page reloads
    faces = watcher.evaluate("Array.from(document.querySelectorAll('svg.sprite symbol')).map(s => s.id)"
                             ".filter(id => /^card-[dhsc]\\d+$/.test(id))")
    assert len(set(faces)) == 60  # every card, drawn

    kinds, plays, shots = [], 0, set()
    for _ in range(80):
        kind = kind_of(player)
        if not kind:
            break
        shown = move_of(player)
        # The spectator is shown the same move without asking (the socket), and nobody's hand.
        watcher.wait_for_function("m => Number(document.querySelector('#table .table-view').dataset.move) >= m",
                                  arg=shown, timeout=SEEN)
        if kind not in shots:
            with_spectator = f"diamonds-table-{screen}-{kind.replace('_', '-')}"
            snap(player, with_spectator)
            snap(watcher, f"{with_spectator}-spectator")
            if screen == "phone" and kind == "play":  # turned sideways: the hand beside the table, still no overflow
                player.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
                snap(player, "diamonds-table-phone-landscape")
                player.set_viewport_size(PHONE)
            with quiet():
                hidden_from_watcher, hidden_from_ann = others_cards(match, -1), others_cards(match, 0)
            assert leaked(watcher.content(), hidden_from_watcher) == []
            assert leaked(player.content(), hidden_from_ann) == []
            if kind in ("play", "pass_cards"):
                assert_accessible(player, f"the drawn table ({kind}), {screen}")
            if kind == "play":
                assert_accessible(watcher, f"the spectator's drawn table, {screen}")
            shots.add(kind)
        kinds.append(kind)
        how = "swipe" if screen == "phone" and plays == 1 else "keyboard" if screen == "desktop" and plays == 1 \
            else "taps"
        played = take_turn(player, kind, how)
        plays += kind == "play"
        moved_past(player, shown)
        mine = move_of(player)
        watcher.wait_for_function("m => Number(document.querySelector('#table .table-view').dataset.move) >= m",
                                  arg=mine, timeout=SEEN)
        if played:
            # The spectator's table names the very card she played, as a step it animates and reads out.
            assert any(s["kind"] == "play" and s["seat"] == 0 and s["card"] == played for s in steps_of(watcher))
            # Gone from her hand (asked of the cards themselves: the form's CSRF token may spell any card's code).
            assert player.locator(f"form.decision [value='{played}']").count() == 0
    assert {"pass_cards", "play"} <= set(kinds) and plays >= 8, kinds

    player.wait_for_selector("text=Final result")
    watcher.wait_for_selector("text=Final result", timeout=SEEN)
    snap(player, f"diamonds-table-{screen}-finished")
    snap(watcher, f"diamonds-table-{screen}-finished-spectator")
    assert watcher.evaluate("window.sameDocument === true"), "the spectator's page reloaded"
    assert polls == [], "the spectator's page polled: the moves should have come over its socket"
    with quiet():
        assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    # Said in words for a screen reader: the live region read out the last moves.
    assert watcher.locator("#announce").inner_text().strip()

    # The replay, on the same table: the scrubber, the step buttons and autoplay, by keyboard too.
    replay = player
    replay.click("text=Replay the game trick by trick")
    replay.wait_for_url("**/replay/")
    counter = replay.locator("#frame-counter")
    total = int(counter.inner_text().rsplit(" ", 1)[1])
    assert counter.inner_text() == f"Step 1 of {total}"
    assert replay.locator(".frame:visible .felt .dseat").count() == 4
    replay.click("text=Next ▶")
    assert counter.inner_text() == f"Step 2 of {total}"
    scrubber = replay.locator("#replay-step")
    scrubber.focus()
    replay.keyboard.press("End")
    assert counter.inner_text() == f"Step {total} of {total}"
    assert "the round ends" in replay.locator(".frame:visible h2").inner_text()
    replay.keyboard.press("ArrowLeft")
    assert counter.inner_text() == f"Step {total - 1} of {total}"
    assert replay.locator(".frame:visible .played").count() == 4  # that trick's cards on the table
    replay.keyboard.press("Home")
    replay.select_option("#replay-speed", "300")
    replay.click("[data-play]")
    replay.wait_for_function("() => document.querySelector('#frame-counter').textContent.startsWith('Step 4 ')",
                             timeout=SEEN)
    replay.click("[data-play]")  # Pause
    stopped = counter.inner_text()
    replay.wait_for_timeout(700)
    assert counter.inner_text() == stopped  # paused: it stays
    snap(replay, f"diamonds-replay-{screen}")
    assert_accessible(replay, f"the replay on the drawn table, {screen}")
    assert errors == [], errors
    player_context.close()
    watcher_context.close()


def test_without_javascript_the_drawn_table_is_a_form(chromium, site, taking_turns, asgi_server):  # noqa: F811
    """No script: each drawn card is a submit button (one tap plays it), passing is a set of boxes to tick, and the
    page comes back with the new table."""
    base = asgi_server
    match = table_with_bots(site["ann"], site["bots"], seed="drawn-no-script")
    context = chromium.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    page.set_default_timeout(15000)
    sign_in(page, base, f"/matches/{match.pk}/")
    assert page.locator("[data-table-tools]").is_hidden()  # no animations to skip without a script
    for _ in range(6):
        kind = page.locator("form.decision").get_attribute("data-kind")
        shown = move_of(page)
        if kind == "pass_count":
            page.locator("button[name=count]").first.click()
        elif kind == "pass_cards":
            want = int(page.locator("button[data-pass-count]").get_attribute("data-pass-count"))
            for i in range(want):
                page.locator("label.cardpick").nth(i).click()
            page.click("button[data-pass-count]")
        elif kind == "play":
            page.locator("button.handcard:enabled").first.click()  # one tap: the form is sent
        else:
            page.locator("fieldset button.choice").first.click()
        page.wait_for_load_state()
        assert move_of(page) > shown, kind
    snap(page, "diamonds-table-phone-no-script")
    context.close()


FLIGHTS = """window.flights = 0;
new MutationObserver(changes => changes.forEach(c => c.addedNodes.forEach(n => {
  if (n.classList && n.classList.contains('flying')) window.flights++;
}))).observe(document.body, {childList: true});"""


def flights_after_a_turn(page) -> int:
    """How many things moved across the screen (cards, crystals) after ann's next decision and the bots' replies."""
    page.evaluate(FLIGHTS)
    shown = move_of(page)
    take_turn(page, kind_of(page))
    moved_past(page, shown)
    page.wait_for_function("() => !document.querySelector('.flying')")
    return page.evaluate("window.flights")


def test_moves_are_animated_unless_skipped_or_the_reader_wants_less_motion(chromium, site, taking_turns,
                                                                            asgi_server):  # noqa: F811
    base = asgi_server
    match = table_with_bots(site["ann"], site["bots"], seed="drawn-motion")
    context = chromium.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15000)
    sign_in(page, base, f"/matches/{match.pk}/")
    assert flights_after_a_turn(page) > 0  # the passed cards, the cards played: they move
    page.check("#skip-animations")  # remembered from now on
    page.reload()
    assert page.is_checked("#skip-animations")
    assert flights_after_a_turn(page) == 0
    context.close()

    calm = chromium.new_context(viewport=DESKTOP, reduced_motion="reduce")
    page = calm.new_page()
    page.set_default_timeout(15000)
    sign_in(page, base, f"/matches/{match.pk}/")
    assert not page.is_checked("#skip-animations")
    assert flights_after_a_turn(page) == 0  # prefers-reduced-motion: nothing moves
    calm.close()


# One step forward on the replay, then what moves on the screen a moment later: the cards drawn moving (`.flying`,
# each naming its card's drawing) and the animations running on them.
STEP_FORWARD = """async () => {
  document.querySelector('.stepper [data-step=next]').click();
  await new Promise(r => setTimeout(r, 40));
  const flying = Array.from(document.querySelectorAll('.flying'));
  return {cards: flying.map(f => f.querySelector('use').getAttribute('href')),
          animations: document.getAnimations().filter(a => flying.includes(a.effect.target)).length};
}"""


def first_step_of(page, step: int) -> dict:
    return json.loads(page.locator(f"#step-{step} > script[type='application/json']").text_content())[0]


def test_a_replay_step_forward_moves_its_cards_and_reads_it_out(chromium, site, taking_turns,
                                                                asgi_server):  # noqa: F811
    """Stepping forward one step on a Diamonds replay moves that step's cards as the live table does and reads the
    step out; a jump shows the step without motion; a step taken while cards move finishes them; prefers-reduced-
    motion and "Skip animations" move nothing."""
    base = asgi_server
    match = Match.objects.filter(tournament_round__tournament=site["tournament"]).first()
    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{base}/matches/{match.pk}/replay/?step=2")  # the pass; the next step is the first trick
    page.wait_for_selector("[data-table-tools]:not([hidden])")  # table_diamonds.js is listening
    played = first_step_of(page, 3)
    assert played["kind"] == "play"
    moving = page.evaluate(STEP_FORWARD)
    code = played["card"]
    assert f"#card-{code[0].lower()}{int(code[1:])}" in moving["cards"] and moving["animations"] > 0
    announced = page.inner_text("#announce")
    assert page.locator("#step-3 h2").inner_text() in announced and played["text"] in announced
    snap(page, "diamonds-replay-phone-moving")  # once it has landed: nothing sticks out while it moves either
    # A step forward while the last one still moves: that one lands at once, the new one moves.
    page.evaluate("document.querySelector('.stepper [data-step=next]').click()")
    moving = page.evaluate(STEP_FORWARD)
    assert moving["animations"] > 0 and page.locator("#step-4 .hide-until-landed").count() == 0
    # Jumps show the step without motion, and read it out.
    jumps = {"Last": lambda: page.click(".stepper [data-step=last]"), "back": lambda: page.keyboard.press("ArrowLeft"),
             "the scrubber": lambda: page.locator("#replay-step").fill("4"),
             "First": lambda: page.click(".stepper [data-step=first]")}
    for name, jump in jumps.items():
        jump()
        assert page.evaluate("document.querySelectorAll('.flying').length") == 0, name
        assert page.locator(".frame:visible h2").inner_text() in page.inner_text("#announce")
    page.check("#skip-animations")
    assert page.evaluate(STEP_FORWARD) == {"cards": [], "animations": 0}
    assert errors == []
    context.close()

    calm = chromium.new_context(viewport=PHONE, reduced_motion="reduce")
    page = calm.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{base}/matches/{match.pk}/replay/?step=2")
    page.wait_for_selector("[data-table-tools]:not([hidden])")
    assert page.evaluate(STEP_FORWARD) == {"cards": [], "animations": 0}  # prefers-reduced-motion: nothing moves
    assert first_step_of(page, 3)["text"] in page.inner_text("#announce")  # and the step is still read out
    calm.close()
