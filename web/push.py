"""Pages told at once that something changed: league events turned into tiny notices on the channel layer.

A match's open pages (players' and spectators') each hold a WebSocket (web.consumers) in the channel group
`match-<id>`; the lobby's list pages sit in `lobby`, a lobby table's waiting room in `lobby-table-<id>`. When the
league announces that a match moved or the lobby changed (league.events, after the commit), the listener here sends
the group a notice holding the move number at most, never any state: each socket then reads its own reader's view
(what the polling endpoint would answer them) and sends that. So whatever travels on the layer is public, and every
pushed message carries only what its reader may see.

The notice is sent from synchronous code (a request's thread, a Celery worker, the embedded beat's thread):
- with Redis (channels_redis' pub/sub layer), from a publisher thread of this process with an event loop of its own,
  so the caller never waits on Redis and a Redis outage costs a logged warning, never the decision being stored;
- with the in-memory layer (embedded: one process), on the event loop the sockets live on, since its queues belong
  to that loop; a process that has no socket open has nobody to tell and sends nothing.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from concurrent.futures import Future

from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
MATCH_MOVED = "match.moved"  # the consumers' handler: match_moved
LOBBY_CHANGED = "lobby.changed"  # lobby_changed


def match_group(match_id: int) -> str:
    return f"match-{int(match_id)}"


def lobby_table_group(table_id: int) -> str:
    return f"lobby-table-{int(table_id)}"


def on_league_event(sender, *, name: str, payload: dict, **kwargs) -> None:
    """league_event's listener (web.apps): the notices of a match's move and of the lobby's changes."""
    if name == "match.moved":  # its last store included ("match.finished" follows it)
        notify(match_group(payload["match_id"]), {"type": MATCH_MOVED, "move": payload.get("move_number")})
    elif name == "lobby.changed":
        notify(LOBBY_GROUP, {"type": LOBBY_CHANGED})
        if payload.get("table_id") is not None:
            notify(lobby_table_group(payload["table_id"]), {"type": LOBBY_CHANGED})


# The loop this process's sockets run on (web.consumers records it on connect): the in-memory layer's home.
_socket_loop: asyncio.AbstractEventLoop | None = None


def sockets_run_on(loop: asyncio.AbstractEventLoop) -> None:
    global _socket_loop
    _socket_loop = loop


def notify(group: str, message: dict) -> None:
    """Send `message` to the group from synchronous code, without waiting for it to be delivered."""
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        loop = _socket_loop
        if loop is None or loop.is_closed():
            return  # no socket was ever opened in this process: nobody to tell
        future = _run_on(loop, layer.group_send(group, message))
    else:
        future = _run_on(_Publisher.loop(), layer.group_send(group, message))
    if future is not None:
        future.add_done_callback(_log_failure)


def _run_on(loop: asyncio.AbstractEventLoop, coroutine) -> Future | None:
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    try:
        if running is loop:  # called on the loop itself (a consumer's own code): just schedule it
            loop.create_task(coroutine)
            return None
        return asyncio.run_coroutine_threadsafe(coroutine, loop)
    except RuntimeError:  # the loop closed meanwhile (a test's loop, a server shutting down)
        coroutine.close()
        return None


def _log_failure(future: Future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("a live page notice was not sent: %r", future.exception())


class _Publisher:
    """One daemon thread per process running an event loop for the notices (started on first use, and again in a
    forked child, which inherits the object but not the thread)."""

    _lock = threading.Lock()
    _loop: asyncio.AbstractEventLoop | None = None
    _pid = 0

    @classmethod
    def loop(cls) -> asyncio.AbstractEventLoop:
        with cls._lock:
            if cls._loop is None or cls._pid != os.getpid():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="live-page-notices", daemon=True).start()
                cls._loop, cls._pid = loop, os.getpid()
            return cls._loop
