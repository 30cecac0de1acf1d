"""The turns long-poll waits without a thread and within a cap (issue 15, "Starvation": one account opened 150
long-polls and the site stopped answering).

The requests here go through Django's ASGI handler (AsyncClient), as under the deployed uvicorn workers, from one
event loop: a wait that held a thread would hold the test's only one, and every other request would queue behind it.
"""

from __future__ import annotations

import asyncio
import gc
import inspect

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings as django_settings
from django.test import AsyncClient
from django.urls import resolve
from django.utils.module_loading import import_string

from league import turn_signals
from league.services.decisions import submit_decision

from .conftest import live_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_connection_left_behind():
    """Requests served in threads of their own (asgiref's, per request context) leave their connection objects
    behind with the thread: collected, they close, and the test database can be dropped."""
    yield
    gc.collect()


class token_client:  # noqa: N801 - reads as the clients it stands beside
    """An AsyncClient sending the bot's token (per request: client-wide headers reach ASGI under WSGI names)."""

    def __init__(self, token: str):
        self.client, self.headers = AsyncClient(), {"Authorization": f"Token {token}"}

    def get(self, path: str):
        return self.client.get(path, headers=self.headers)


async def until(condition, what: str, rounds: int = 2000):
    """Let the loop run until `condition()` holds (bounded: a few seconds of 1 ms turns)."""
    for _ in range(rounds):
        if condition():
            return
        await asyncio.sleep(0.001)
    pytest.fail(f"never happened: {what}")


def test_the_long_poll_is_a_coroutine_and_no_middleware_forces_it_into_a_thread():
    """Django runs an async view in a thread (one held for the whole wait) if any middleware is synchronous only."""
    assert inspect.iscoroutinefunction(resolve("/api/v1/me/turns/").func)
    sync_only = [path for path in django_settings.MIDDLEWARE
                 if not getattr(import_string(path), "async_capable", False)]
    assert not sync_only, f"synchronous-only middleware: {sync_only}"


def test_waits_past_the_cap_get_429_at_once_while_the_site_answers(accounts, settings):
    settings.DIAMONDS_TURNS_WAITS_PER_ACCOUNT = 3
    settings.DIAMONDS_TURNS_POLL_SECONDS = settings.DIAMONDS_TURNS_RECHECK_SECONDS = 60
    match = live_match(accounts, ["ext-1", "ext-2"], {"players": 2})
    dealer = match.match_seats.get(awaiting=True)
    waiter = match.match_seats.exclude(pk=dealer.pk).get()
    bot = token_client(accounts["tokens"][waiter.player.name])
    other = token_client(accounts["tokens"][dealer.player.name])

    async def scenario():
        waits = [asyncio.ensure_future(bot.get("/api/v1/me/turns/?wait=30")) for _ in range(3)]
        await until(lambda: turn_signals.waiting_here(waiter.player.user_id) == 3, "three waits")
        # Past the cap: refused at once, while the three still wait.
        refused = await bot.get("/api/v1/me/turns/?wait=30")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_waits"
        assert refused["Retry-After"]
        assert not any(w.done() for w in waits)
        # Everyone else is served meanwhile: another account, an anonymous reader, the health check.
        assert (await other.get("/api/v1/me/turns/?wait=0")).json()["turns"][0]["match"] == match.pk
        assert (await AsyncClient().get("/api/v1/clubs/")).status_code == 200
        assert (await AsyncClient().get("/healthz")).status_code == 200
        assert not any(w.done() for w in waits)
        # The turn comes: every wait answers with it (woken, not found by a re-read: those are a minute apart).
        await sync_to_async(submit_decision)(match=match, player=dealer.player, move_number=0,
                                             decision_json={"kind": "pass_count", "count": 1})
        answers = await asyncio.wait_for(asyncio.gather(*waits), timeout=20)
        assert [[t["match"] for t in a.json()["turns"]] for a in answers] == [[match.pk]] * 3
        assert turn_signals.waiting_here(waiter.player.user_id) == 0
        # The slots were given back: the account may wait again.
        assert (await bot.get("/api/v1/me/turns/?wait=0.01")).status_code == 200

    async_to_sync(scenario)()


def test_an_abandoned_wait_gives_its_slot_back(accounts, settings):
    """A hostile bot that opens waits and drops them (the server cancels the request) does not use up its cap."""
    settings.DIAMONDS_TURNS_WAITS_PER_ACCOUNT = 2
    settings.DIAMONDS_TURNS_POLL_SECONDS = settings.DIAMONDS_TURNS_RECHECK_SECONDS = 60
    user_id = accounts["players"]["ext-1"].user_id
    bot = token_client(accounts["tokens"]["ext-1"])

    async def scenario():
        for _ in range(3):
            waits = [asyncio.ensure_future(bot.get("/api/v1/me/turns/?wait=30")) for _ in range(2)]
            await until(lambda: turn_signals.waiting_here(user_id) == 2, "two waits")
            for w in waits:
                w.cancel()
            await asyncio.gather(*waits, return_exceptions=True)
            await until(lambda: turn_signals.waiting_here(user_id) == 0, "the waits to end")
        answer = await bot.get("/api/v1/me/turns/?wait=0.01")
        assert answer.status_code == 200 and answer.json()["turns"] == []

    async_to_sync(scenario)()


def test_a_wait_ends_empty_after_its_time_and_bad_waits_are_refused(accounts, settings):
    settings.DIAMONDS_TURNS_POLL_SECONDS = 0.01
    bot = token_client(accounts["tokens"]["ext-1"])

    async def scenario():
        empty = await bot.get("/api/v1/me/turns/?wait=0.05")
        assert empty.status_code == 200 and empty.json()["turns"] == [] and empty.json()["waited"] >= 0.05
        for bad in ("x", "-1", "inf", "nan"):
            assert (await bot.get(f"/api/v1/me/turns/?wait={bad}")).status_code == 400
        assert (await AsyncClient().get("/api/v1/me/turns/?wait=5")).status_code in (401, 403)

    async_to_sync(scenario)()


@pytest.fixture
def dead_redis(settings):
    """REDIS_URL naming a Redis that is down (nothing listens on port 1), with this process's Redis clients and its
    turn listener made afresh for it, and put back afterwards."""
    from api import waits

    turn_signals.stop_listener()
    settings.REDIS_URL = settings.DIAMONDS_CACHE_URL = "redis://127.0.0.1:1/0"
    turn_signals.redis_client.cache_clear()
    waits._redis.cache_clear()
    yield
    turn_signals.stop_listener()
    turn_signals.redis_client.cache_clear()
    waits._redis.cache_clear()


def test_with_redis_down_waits_are_still_capped_woken_and_answered(accounts, settings, dead_redis):
    """Redis lost: the cap counts in this process, the wait falls back to re-reading the database, nothing is 5xx."""
    settings.DIAMONDS_TURNS_WAITS_PER_ACCOUNT = 2
    settings.DIAMONDS_TURNS_POLL_SECONDS = 0.05
    match = live_match(accounts, ["ext-1", "ext-2"], {"players": 2})
    dealer = match.match_seats.get(awaiting=True)
    waiter = match.match_seats.select_related("player").exclude(pk=dealer.pk).get()
    dealer_player = dealer.player
    bot = token_client(accounts["tokens"][waiter.player.name])

    async def scenario():
        waits = [asyncio.ensure_future(bot.get("/api/v1/me/turns/?wait=30")) for _ in range(2)]
        await until(lambda: turn_signals.waiting_here(waiter.player.user_id) == 2, "two waits")
        assert (await bot.get("/api/v1/me/turns/?wait=30")).status_code == 429
        # A decision whose announcement cannot reach Redis: the waits find the turn in the database.
        await sync_to_async(submit_decision)(match=match, player=dealer_player, move_number=0,
                                             decision_json={"kind": "pass_count", "count": 1})
        answers = await asyncio.wait_for(asyncio.gather(*waits), timeout=20)
        assert [a.status_code for a in answers] == [200, 200]
        assert all(a.json()["turns"][0]["match"] == match.pk for a in answers)
        assert not turn_signals.listener_ready()

    async_to_sync(scenario)()


def test_the_slots_of_a_killed_process_lapse_by_themselves(settings):
    """A web process killed mid-wait never gives its slots back: past their wait (and a margin) they stop counting."""
    if not settings.REDIS_URL:
        pytest.skip("without Redis the cap is counted in the process, which dies with its slots")
    from api import waits

    user_id = 2_000_000_000 + id(settings) % 1000  # no real account: nothing else counts here
    client = waits._redis()[0]
    client.delete(waits._key(user_id))
    try:
        lapsed = -waits.SLACK_SECONDS - 1  # slots taken by a process that died, already past their time
        assert waits._take(user_id, lapsed, 2) and waits._take(user_id, lapsed, 2)
        live = [waits._take(user_id, 30, 2) for _ in range(3)]
        assert live[0] and live[1] and live[2] is None
    finally:
        client.delete(waits._key(user_id))


def test_the_asgi_application_keeps_async_views_async_and_runs_the_rest_in_one_thread(accounts, monkeypatch):
    """config.asgi: the long-poll through Django's async handler; any other view through the one-hop chain. Both
    answer through the ASGI protocol as the deployed server speaks it."""
    from asgiref.testing import ApplicationCommunicator
    from django.db import connection

    # As deployed under ASGI (config/settings.py): a request's connection is closed when it ends, whichever thread
    # it ran in, so none is left open on the test database.
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 0)

    from runtime.asgi_routing import is_async_view, router

    assert is_async_view("/api/v1/me/turns/")
    assert not is_async_view("/api/v1/clubs/") and not is_async_view("/healthz") and not is_async_view("/nowhere")
    app = router()
    assert inspect.iscoroutinefunction(app.handlers["async"]._middleware_chain)
    assert not inspect.iscoroutinefunction(app.handlers["sync"]._middleware_chain)

    async def get(path: str, headers=()):
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "path": path,
                 "raw_path": path.encode(), "query_string": b"wait=0.01", "root_path": "", "scheme": "http",
                 "headers": [(b"host", b"testserver"), *headers], "client": ("127.0.0.1", 5000),
                 "server": ("testserver", 80)}
        talk = ApplicationCommunicator(app, scope)
        await talk.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await talk.receive_output(20)
        body = b""
        while True:
            part = await talk.receive_output(20)
            body += part.get("body", b"")
            if not part.get("more_body"):
                break
        return start["status"], body

    async def scenario():
        token = accounts["tokens"]["ext-1"]
        status, body = await get("/api/v1/me/turns/", [(b"authorization", f"Token {token}".encode())])
        assert status == 200 and b'"turns":[]' in body
        assert (await get("/api/v1/clubs/"))[0] == 200

    async_to_sync(scenario)()
