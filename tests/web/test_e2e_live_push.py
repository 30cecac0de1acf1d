"""End to end in a real headless Chromium (issue 29, "moves arrive at once"): a spectator's match page sees a move
without reloading and without polling.

pytest-django's live server speaks WSGI, which has no WebSockets, so the site is served here by uvicorn (the server
the deployment runs, with its `websockets` implementation) on a free port, in a thread of this process: it reads the
test database as the test does, and the in-memory channel layer carries the notices. The page's polling endpoint is
blocked in the browser, so the table can only change by a push.
"""

from __future__ import annotations

import random
import socket
import threading
import time

import pytest
import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

from league.models import Match
from league.selectors.live import legal_decisions, match_game
from league.services.decisions import submit_user_decision
from runtime.asgi_routing import router
from web.routing import websocket_application

from ..api.support import choose
from .conftest import table_with_bots

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def asgi_server(transactional_db, settings):
    """The site under uvicorn in a thread, on the test database; yields its base URL."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    port = free_port()
    app = ASGIStaticFilesHandler(router(websocket=websocket_application()))
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


def test_a_spectator_sees_a_move_arrive_without_reload_or_polling(chromium, asgi_server, site, monkeypatch):
    match = table_with_bots(site["ann"], site["bots"], seed="push-e2e")
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    polls, errors = [], []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def refuse_poll(route):
        polls.append(route.request.url)
        route.abort()

    page.route("**/live/**", refuse_poll)
    page.goto(f"{asgi_server}/matches/{match.pk}/")
    shown = match.move_number
    assert page.get_attribute("#table .table-view", "data-move") == str(shown)
    page.evaluate("window.sameDocument = true")  # gone if the page reloads
    page.wait_for_function("document.querySelector('#table') !== null")
    time.sleep(0.5)  # let the page open its socket (a move before that is sent on connect anyway)

    game = match_game(Match.objects.get(pk=match.pk))
    legal = legal_decisions(game, 0)
    submit_user_decision(match_id=match.pk, user=site["ann"].user, move_number=legal["move_number"],
                         decision_json=choose(legal, random.Random(1)), seat=0)
    now = Match.objects.get(pk=match.pk).move_number
    assert now > shown
    page.wait_for_selector(f"#table .table-view[data-move='{now}']")
    assert page.evaluate("window.sameDocument === true"), "the page reloaded"
    assert polls == [] and errors == []
    context.close()
