"""The cap on an account's waiting long-polls (DIAMONDS_TURNS_WAITS_PER_ACCOUNT): past it, 429 at once.

A waiting long-poll costs little (a coroutine), but without a cap one account could still open thousands of
connections. With Redis the count is shared by every web process: a sorted set per account of the waits open now,
each scored by the time it must be gone by, so a wait whose process was killed falls out by itself. Without Redis,
or while Redis fails, this process counts alone.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from functools import cache

import redis
from asgiref.sync import sync_to_async
from django.conf import settings

log = logging.getLogger(__name__)

# Drop the account's lapsed waits, then add this one if fewer than the cap are open; 1 if added.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""
SLACK_SECONDS = 30  # past its wait, how long a wait's slot stays counted if its process died without giving it back


@cache
def _redis():
    url = settings.DIAMONDS_CACHE_URL or settings.REDIS_URL
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
    return client, client.register_script(_TAKE)


_local_lock = threading.Lock()
_local: dict[int, int] = {}


def _key(user_id: int) -> str:
    return f"diamonds:waits:{user_id}"


def _take(user_id: int, seconds: float, cap: int) -> str | None:
    token = secrets.token_hex(8)
    if settings.REDIS_URL:
        try:
            _client, take = _redis()
            now = time.time()
            granted = take(keys=[_key(user_id)], args=[now, cap, now + seconds + SLACK_SECONDS, token,
                                                       int(seconds + SLACK_SECONDS) + 1])
            return f"r:{token}" if granted else None
        except redis.RedisError as e:
            log.warning("long-poll cap: Redis failed (%s); counting in this process", e)
    with _local_lock:
        if _local.get(user_id, 0) >= cap:
            return None
        _local[user_id] = _local.get(user_id, 0) + 1
    return f"l:{token}"


def _give_back(user_id: int, slot: str) -> None:
    if slot.startswith("r:"):
        try:
            _redis()[0].zrem(_key(user_id), slot[2:])
        except redis.RedisError as e:  # it lapses by itself SLACK_SECONDS after its wait
            log.warning("long-poll cap: could not give a slot back (%s)", e)
        return
    with _local_lock:
        left = _local.get(user_id, 0) - 1
        if left > 0:
            _local[user_id] = left
        else:
            _local.pop(user_id, None)


async def take_slot(user_id: int, seconds: float) -> str | None:
    """A slot for one wait of up to `seconds`, or None if the account has its cap of waits open."""
    return await sync_to_async(_take, thread_sensitive=False)(user_id, seconds,
                                                              settings.DIAMONDS_TURNS_WAITS_PER_ACCOUNT)


async def give_back(user_id: int, slot: str) -> None:
    await sync_to_async(_give_back, thread_sensitive=False)(user_id, slot)
