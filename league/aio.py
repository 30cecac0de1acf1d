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

from asgiref.sync import AsyncToSync, SyncToAsync, sync_to_async
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


def let_thread_go() -> None:
    """Before a long wait: end the thread asgiref keeps for this request's synchronous calls.

    Under ASGI, Django's handler gives each request a context whose synchronous calls (its signals, the session
    middleware, run_sync) all run in one thread made for it, which then idles until the request ends: a thousand
    waiting long-polls would be a thousand idle threads. Ended here, the thread is made again by the next
    synchronous call. Where the calls run in a parent synchronous thread instead (WSGI, the test client), there is
    no such thread and nothing to do."""
    context = SyncToAsync.thread_sensitive_context.get(None)
    if context is None or getattr(AsyncToSync.executors, "current", None) is not None:
        return
    if getattr(context, "_executor", None) is not None:
        return  # an executor its creator owns (asgiref >= 3.9): not ours to end
    executor = SyncToAsync.context_to_thread_executor.pop(context, None)
    if executor is not None:
        executor.shutdown(wait=False)
