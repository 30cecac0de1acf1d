"""The ASGI application's two Django handlers: async views (the turns long-poll) get Django's async handler, whose
middleware chain stays on the event loop, so a waiting view holds no thread; every other view is synchronous and
gets a handler that runs the whole middleware chain and the view in one thread, as WSGI would.

Django's own ASGI handler alone would serve both, but it runs each synchronous middleware of a synchronous view
in a thread hop of its own, in and out: a decision cost about half as much CPU again as under WSGI
(docs/benchmarks.md). One hop per request instead keeps the synchronous views at WSGI's cost.

WebSocket connections go to the application the caller gives (Django Channels' routing of the website's live pages,
config/asgi.py); the http routing is the same with or without it.
"""

from __future__ import annotations

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.urls import Resolver404, resolve


class SyncChainHandler(ASGIHandler):
    """Django's ASGI handler with a synchronous middleware chain, run in one thread per request."""

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    async def get_response_async(self, request):
        return await sync_to_async(self.get_response)(request)


def is_async_view(path: str) -> bool:
    try:
        return iscoroutinefunction(resolve(path).func)
    except Resolver404:
        return False


def router(websocket=None):
    """The ASGI application (build it once Django is set up). `websocket` serves the WebSocket connections (the
    website's live pages: config/asgi.py passes web.routing's); without it they are refused."""
    waiting, plain = ASGIHandler(), SyncChainHandler()

    async def application(scope, receive, send):
        if scope["type"] == "websocket" and websocket is not None:
            await websocket(scope, receive, send)
            return
        handler = waiting if scope["type"] == "http" and is_async_view(scope["path"]) else plain
        await handler(scope, receive, send)

    # The tests read the two handlers off the application (tests/api/test_long_poll.py).
    application.handlers = {"async": waiting, "sync": plain}  # type: ignore[attr-defined]
    return application
