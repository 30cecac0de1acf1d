"""Running the ORM from async code (the turns long-poll): one thing, done one way.

Each call runs in the request's thread (asgiref's thread-sensitive mode, as Django runs synchronous views) and gives
its database connection back as soon as it returns, unless it is inside a transaction (a test's): a coroutine that
then waits a minute must not hold a connection of the pool meanwhile (under ASGI connections come from a pool and
CONN_MAX_AGE is 0, so closing hands it back; config/settings.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection

T = TypeVar("T")


def _releasing(fn: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> T:
        try:
            return fn(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:
                close_old_connections()

    return call


async def run_sync(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`fn(*args, **kwargs)` from async code, its connection given back afterwards."""
    return await sync_to_async(_releasing(fn))(*args, **kwargs)
