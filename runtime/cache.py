"""The shared cache (rate limits, standings tables) on Redis, degrading to this process's memory while Redis is
down, so that an outage of the cache never turns a request into a 500.

While Redis does not answer, every call goes to a per-process LocMemCache instead: rate limits are then counted per
process (a little more lenient, never a refusal for a wrong reason), standings are computed and kept here. After
`PAUSE_SECONDS` the next call tries Redis again; a request pays Redis's connect timeout at most once per pause, not
once per call. What went into the fallback is not copied back: the standings cache keys on fingerprints of the stored
results (league.selectors.standings_cache), so nothing stale can be read when Redis returns.

Clearing deletes only the cache's own keys (its KEY_PREFIX), never the whole database: by default the cache shares
REDIS_URL's database with the Celery broker's queues.
"""

from __future__ import annotations

import logging
import re
import threading
import time

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient

log = logging.getLogger(__name__)

PAUSE_SECONDS = 5.0


# What a Redis that does not answer raises: the calls that meet one of these go to the fallback.
REDIS_DOWN_ERRORS: tuple[type[BaseException], ...] = (redis.ConnectionError, redis.TimeoutError,
                                                      redis.BusyLoadingError, OSError)


class SharedRedis:
    """A process's one client of a Redis server (its connection pool), and until when that Redis is taken as down.

    Django makes a cache object per thread and per async context (its CacheHandler is an asgiref Local that is not
    thread-critical): under ASGI that is one per request and one per WebSocket, and each made its own connection
    pool, so nearly every request and socket read opened a new TCP connection to Redis (a tenth of the web
    processes' CPU with 1,000 viewers). All of a process's cache objects of one server share this instead; redis-py's
    pool is thread-safe and starts afresh in a forked child."""

    _made: dict[tuple, SharedRedis] = {}
    _lock = threading.Lock()

    def __init__(self, client: RedisCacheClient):
        self.client, self.down_until = client, 0.0

    @classmethod
    def of(cls, servers: list[str], options: dict) -> SharedRedis:
        key = (tuple(servers), repr(sorted(options.items())))
        with cls._lock:
            if key not in cls._made:
                cls._made[key] = cls(RedisCacheClient(servers, **options))
            return cls._made[key]


class FailSoftRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._fallback = LocMemCache(f"fail-soft:{server}", {"TIMEOUT": params.get("TIMEOUT", 300),
                                                            "KEY_PREFIX": params.get("KEY_PREFIX", ""),
                                                            "OPTIONS": {"MAX_ENTRIES": 5000}})
        # The servers and options as RedisCache reads them (its own attributes are private, and not in its stubs).
        servers = re.split("[;,]", server) if isinstance(server, str) else list(server)
        self._shared = SharedRedis.of(servers, params.get("OPTIONS", {}))

    @property
    def _cache(self) -> RedisCacheClient:
        return self._shared.client

    @property
    def _down_until(self) -> float:
        return self._shared.down_until

    @_down_until.setter
    def _down_until(self, until: float) -> None:
        self._shared.down_until = until

    @property
    def degraded(self) -> bool:
        """Whether calls go to this process's memory now because Redis did not answer."""
        return time.monotonic() < self._down_until

    def ping(self) -> None:
        """Ask Redis itself (not the fallback): raises when it does not answer. For /healthz."""
        self._cache.get_client(write=True).ping()

    def _call(self, name: str, *args, **kwargs):
        return self._either(getattr(super(), name), name, *args, **kwargs)

    def _either(self, on_redis, name: str, *args, **kwargs):
        """`on_redis(...)`, or the fallback's `name(...)` while Redis does not answer."""
        if not self.degraded:
            try:
                return on_redis(*args, **kwargs)
            except REDIS_DOWN_ERRORS as e:
                if not self.degraded:
                    log.warning("the cache's Redis does not answer (%s); using this process's memory for %ss", e,
                                PAUSE_SECONDS)
                self._down_until = time.monotonic() + PAUSE_SECONDS
        return getattr(self._fallback, name)(*args, **kwargs)

    def add(self, *args, **kwargs):
        return self._call("add", *args, **kwargs)

    def get(self, *args, **kwargs):
        return self._call("get", *args, **kwargs)

    def set(self, *args, **kwargs):
        return self._call("set", *args, **kwargs)

    def touch(self, *args, **kwargs):
        return self._call("touch", *args, **kwargs)

    def delete(self, *args, **kwargs):
        return self._call("delete", *args, **kwargs)

    def get_many(self, *args, **kwargs):
        return self._call("get_many", *args, **kwargs)

    def has_key(self, *args, **kwargs):
        return self._call("has_key", *args, **kwargs)

    def incr(self, *args, **kwargs):
        return self._call("incr", *args, **kwargs)

    def set_many(self, *args, **kwargs):
        return self._call("set_many", *args, **kwargs)

    def delete_many(self, *args, **kwargs):
        return self._call("delete_many", *args, **kwargs)

    def clear(self):
        return self._either(self._delete_own_keys, "clear")

    def _delete_own_keys(self) -> None:
        """RedisCache.clear() empties the whole Redis database (FLUSHDB), with whatever else keeps keys there: the
        broker's queued tasks when the cache shares REDIS_URL's database. This deletes the keys under the prefix."""
        client = self._cache.get_client(write=True)
        batch = []
        for key in client.scan_iter(match=f"{self.key_prefix}:*", count=1000):
            batch.append(key)
            if len(batch) == 1000:
                client.unlink(*batch)
                batch = []
        if batch:
            client.unlink(*batch)
