"""Wake the turns long-poll at once: when a step leaves a decision awaited, the accounts that owe it are told.

Waiters are coroutines (api/play.py's long-poll) registered here per account. An announcement wakes this process's
waiters directly and, with REDIS_URL set, is published on the account's Redis channel; one listener thread per
process, subscribed to every account's channel by pattern, wakes the waiters of the other processes. So a thousand
waiting long-polls cost one Redis connection per process, not one each. The database stays the truth: a waiter
re-reads the awaited seats when woken, and now and then anyway, so a lost message only delays it.

league.services.decisions announces; league.selectors.live.await_turns waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterable
from functools import cache

import redis
from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

PATTERN = "diamonds:turns:*"


def channel(user_id: int) -> str:
    return f"diamonds:turns:{user_id}"


@cache
def redis_client():
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=5)


def announce_turns(user_ids: Iterable[int]) -> None:
    """Once the current transaction commits, tell these accounts that a decision of theirs is awaited."""
    ids = sorted({u for u in user_ids if u is not None})
    if not ids:
        return
    transaction.on_commit(lambda: _announce(ids))


def _announce(user_ids: list[int]) -> None:
    wake_here(user_ids)
    if settings.REDIS_URL:
        _publish(user_ids)


def _publish(user_ids: list[int]) -> None:
    try:
        pipe = redis_client().pipeline(transaction=False)
        for user_id in user_ids:
            pipe.publish(channel(user_id), b"turn")
        pipe.execute()
    except redis.RedisError as e:  # the long-poll finds the turn in the database a little later
        log.warning("could not announce turns on Redis: %s", e)


# ---- this process's waiters ---------------------------------------------------------------------------------------
class Waiter:
    """One waiting coroutine: woken from any thread (an announcing request, the Redis listener)."""

    def __init__(self, user_id: int):
        self.user_id = user_id
        self.loop = asyncio.get_running_loop()
        self.event = asyncio.Event()

    def wake(self) -> None:
        with contextlib.suppress(RuntimeError):  # the waiter's loop has closed: nobody is waiting any more
            self.loop.call_soon_threadsafe(self.event.set)

    async def wait(self, timeout: float) -> bool:
        """True if woken within `timeout` seconds."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return False
        self.event.clear()
        return True


_lock = threading.Lock()
_waiters: dict[int, set[Waiter]] = {}


def wake_here(user_ids: Iterable[int]) -> None:
    """Wake this process's waiters of these accounts."""
    with _lock:
        woken = [w for u in user_ids for w in _waiters.get(u, ())]
    for waiter in woken:
        waiter.wake()


def wake_everyone_here() -> None:
    """Wake every waiter of this process: to re-read the database when announcements may have been missed."""
    with _lock:
        woken = [w for waiters in _waiters.values() for w in waiters]
    for waiter in woken:
        waiter.wake()


def waiting_here(user_id: int) -> int:
    """How many of this process's coroutines wait for the account's turns."""
    with _lock:
        return len(_waiters.get(user_id, ()))


@contextlib.asynccontextmanager
async def waiting_for(user_id: int):
    """Register a Waiter for the account for the duration of the block (enter it before reading the database, so
    that no announcement falls between the read and the wait)."""
    waiter = Waiter(user_id)
    with _lock:
        _waiters.setdefault(user_id, set()).add(waiter)
    try:
        yield waiter
    finally:
        with _lock:
            mine = _waiters.get(user_id)
            if mine is not None:
                mine.discard(waiter)
                if not mine:
                    del _waiters[user_id]


# ---- the Redis listener: other processes' announcements -----------------------------------------------------------
class _Listener(threading.Thread):
    def __init__(self):
        super().__init__(name="diamonds-turn-listener", daemon=True)
        self.ready = threading.Event()  # subscribed now: a waiter may rely on being woken
        self.stopping = threading.Event()

    def run(self) -> None:
        backoff = 0.5
        while not self.stopping.is_set():
            pubsub = None
            try:
                pubsub = redis_client().pubsub()
                pubsub.psubscribe(PATTERN)
                while not self.stopping.is_set():
                    message = pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    if message["type"] == "psubscribe":
                        self.ready.set()
                        backoff = 0.5
                        wake_everyone_here()  # whatever was announced while we were not listening
                    elif message["type"] == "pmessage":
                        user_id = message["channel"].rsplit(b":", 1)[-1]
                        if user_id.isdigit():
                            wake_here([int(user_id)])
            except (redis.RedisError, OSError, ValueError) as e:
                if self.ready.is_set():
                    log.warning("turn listener lost Redis (%s): waiters re-read the database until it is back", e)
                self.ready.clear()
                wake_everyone_here()  # so that they notice, and poll the database meanwhile
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, 10)
            finally:
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        pubsub.close()
        self.ready.clear()


_listener: _Listener | None = None


def listener_ready() -> bool:
    """Whether announcements from other processes reach this one's waiters (REDIS_URL set and subscribed); starts
    the listener on first use."""
    global _listener
    if not settings.REDIS_URL:
        return False
    if _listener is None:
        with _lock:
            if _listener is None:
                _listener = _Listener()
                _listener.start()
    return _listener.ready.is_set()


def stop_listener() -> None:
    """Stop this process's Redis listener (the next waiter starts another): for tests that change REDIS_URL."""
    global _listener
    with _lock:
        listener, _listener = _listener, None
    if listener is not None:
        listener.stopping.set()
        listener.join(timeout=5)
