"""Rate limits for the API and the website alike: one counter store, one way to tell who is asking, one set of rates.

Each limit counts requests per account (a signed-in caller) or per client address (runtime.client_address: the
proxy headers only behind DIAMONDS_TRUSTED_PROXIES) over a sliding window, with rates from DIAMONDS_RATE_LIMITS
(e.g. "120/min"). Counting is one atomic increment in the shared cache, so concurrent requests cannot slip past
each other the way DRF's read-then-write request history lets them.

When the shared cache (Redis) fails, counting goes on in this process's memory: the limits stay (each process then
counts alone) and no request is answered 500 because of them. The shared cache is tried again a few seconds later.
"""

from __future__ import annotations

import functools
import logging
import math
import time

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import BaseThrottle

from .client_address import client_ip

log = logging.getLogger(__name__)

_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
            "d": 86400, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """"120/min" -> (120, 60)."""
    count, _, period = rate.partition("/")
    return int(count), _PERIODS[period.strip().lower()]


class CounterStore:
    """Atomic counters in the shared cache, or in this process's memory while the shared cache fails."""

    RETRY_AFTER_FAILURE = 5.0  # seconds before the shared cache is tried again

    def __init__(self):
        self._local = LocMemCache("diamonds-rate-limits", {"MAX_ENTRIES": 100_000, "CULL_FREQUENCY": 10})
        self._shared_down_until = 0.0

    def _shared_ok(self) -> bool:
        return time.monotonic() >= self._shared_down_until

    def _failed(self, e: Exception) -> None:
        if self._shared_ok():
            log.warning("rate limits: the shared cache failed (%s); counting in this process for now", e)
        self._shared_down_until = time.monotonic() + self.RETRY_AFTER_FAILURE

    def incr(self, key: str, ttl: int) -> int:
        if self._shared_ok():
            try:
                cache.add(key, 0, ttl)
                return cache.incr(key)
            except Exception as e:  # noqa: BLE001 - any failure of the cache backend (Redis down, timeouts)
                self._failed(e)
        self._local.add(key, 0, ttl)
        try:
            return self._local.incr(key)
        except ValueError:  # culled between add and incr
            self._local.set(key, 1, ttl)
            return 1

    def get(self, key: str) -> int:
        if self._shared_ok():
            try:
                return int(cache.get(key) or 0)
            except Exception as e:  # noqa: BLE001
                self._failed(e)
        return int(self._local.get(key) or 0)

    def clear_local(self) -> None:
        self._local.clear()
        self._shared_down_until = 0.0


STORE = CounterStore()


class RateLimit(BaseThrottle):
    """A DRF throttle (usable from plain Django views through `rate_limited`). Subclasses name the scope (a key of
    DIAMONDS_RATE_LIMITS), whether only writes count, and whom the count is for."""

    scope = ""
    writes_only = True
    per_account = True  # a signed-in caller counts as their account, anyone else as their address

    def __init__(self):
        self._wait = None

    def get_ident(self, request) -> str:
        return client_ip(request) or "unknown"

    def who(self, request) -> str:
        user = getattr(request, "user", None)
        if self.per_account and user is not None and user.is_authenticated:
            return f"user:{user.pk}"
        return f"ip:{self.get_ident(request)}"

    def allow_request(self, request, view) -> bool:
        if self.writes_only and request.method in SAFE_METHODS:
            return True
        rate = settings.DIAMONDS_RATE_LIMITS.get(self.scope)
        if not rate:
            return True
        limit, period = parse_rate(rate)
        now = time.time()
        window, into = divmod(now, period)
        prefix = f"rl:{self.scope}:{self.who(request)}:"
        current = STORE.incr(prefix + str(int(window)), ttl=2 * period)
        previous = STORE.get(prefix + str(int(window) - 1))
        # The sliding window, estimated from two fixed ones: the last window's count weighted by how much of it
        # still lies within `period` of now. Refused requests count too, so hammering on keeps the door shut.
        if previous * (1 - into / period) + current <= limit:
            return True
        self._wait = max(1, math.ceil(period - into))
        return False

    def wait(self):
        return self._wait


class WriteLimit(RateLimit):
    scope = "writes"


class DecisionLimit(RateLimit):
    scope = "decisions"


class TableLimit(RateLimit):
    """New tables against the bots (the website's /play/): each is a match the server plays."""

    scope = "tables"


class SigninLimit(RateLimit):
    """Sign-in attempts per client address, whoever they claim to be (django-axes locks out per username and per
    address after repeated failures; this bounds the pace of any attempts at all)."""

    scope = "signin"
    per_account = False


def too_many(request, wait: int | None, what: str):
    """The website's 429: JSON for the page's scripts, a page for a person."""
    message = f"Too many {what}: try again in {wait or 1} s."
    response: HttpResponse
    if "application/json" in request.headers.get("Accept", ""):
        response = JsonResponse({"detail": message, "code": "throttled"}, status=429)
    else:
        response = render(request, "web/error.html", {"heading": "Slow down", "message": message}, status=429)
    response["Retry-After"] = str(wait or 1)
    return response


def rate_limited(*limits: type[RateLimit], what: str = "requests"):
    """Apply these limits to a Django view (only its writes, for the limits that count writes only)."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            for limit_class in limits:
                limit = limit_class()
                if not limit.allow_request(request, None):
                    return too_many(request, limit.wait(), what)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
