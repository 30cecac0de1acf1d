"""Pages told at once that something changed: league events turned into tiny notices on the channel layer.

A match's open pages (players' and spectators') each hold a WebSocket (web.consumers) in the channel group
`match-<id>`; the lobby's list pages sit in `lobby`, a lobby table's waiting room in `lobby-table-<id>`; a
tournament's, a ladder's and a comparison's pages in `tournament-<id>`, `ladder-<id>` and `comparison-<id>`. When the
league announces that a match moved or the lobby changed (league.events, after the commit), the listener here sends
the group a notice holding the move number at most, never any state: each socket then reads its own reader's view
(what the polling endpoint would answer them) and sends that. The one other thing a match's group carries is the
spectators' answer to a notice, read by one web process for all of them (web.consumers.SpectatorFeed): what any
spectator is sent, taken by spectators' sockets only. So whatever travels on the layer is public, and every pushed
message carries only what its reader may see.

The competitions' pages hear of their matches starting and finishing, their rounds, entries and results, ladders'
ratings and comparisons' pairs (league.events' *.changed). Those come in bursts (a ladder's tick starts hundreds of
matches; a round's tables finish together), and such a page reads a good deal: their notices are sent at most once
per COALESCE_SECONDS per group from each process (`notify_soon`), the last change of a burst included.

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
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future

from channels.layers import InMemoryChannelLayer, get_channel_layer

from league.selectors.competitions import tournament_id_of_round

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"
MATCH_MOVED = "match.moved"  # the consumers' handler: match_moved
MATCH_SPECTATORS = "match.spectators"  # match_spectators: the spectators' answer to a notice (SpectatorFeed)
LOBBY_CHANGED = "lobby.changed"  # lobby_changed
PAGE_CHANGED = "page.changed"  # a competition's page: page_changed
# A competition page's notices, at most once per this many seconds per group from each process.
COALESCE_SECONDS = 0.5


def match_group(match_id: int) -> str:
    return f"match-{int(match_id)}"


def lobby_table_group(table_id: int) -> str:
    return f"lobby-table-{int(table_id)}"


def tournament_group(tournament_id: int) -> str:
    return f"tournament-{int(tournament_id)}"


def ladder_group(ladder_id: int) -> str:
    return f"ladder-{int(ladder_id)}"


def comparison_group(comparison_id: int) -> str:
    return f"comparison-{int(comparison_id)}"


def on_league_event(sender, *, name: str, payload: dict, **kwargs) -> None:
    """league_event's listener (web.apps): the notices of a match's move, of the lobby's changes and of the
    competitions' pages."""
    if name == "match.moved":  # its last store included ("match.finished" follows it)
        # Each notice is named (`notice`), so that the web processes, which all hear it, can read the spectators'
        # answer to it once between them (web.consumers.SpectatorFeed).
        notify(match_group(payload["match_id"]), {"type": MATCH_MOVED, "move": payload.get("move_number"),
                                                  "notice": secrets.token_hex(8)})
    elif name == "lobby.changed":
        notify(LOBBY_GROUP, {"type": LOBBY_CHANGED})
        if payload.get("table_id") is not None:
            notify(lobby_table_group(payload["table_id"]), {"type": LOBBY_CHANGED})
    elif name in ("match.started", "match.finished"):
        if payload.get("ladder_id") is not None:
            notify_soon(ladder_group(payload["ladder_id"]))
        if payload.get("round_id") is not None and _loop_for(get_channel_layer()) is not None:
            tournament_id = _tournament_of_round(payload["round_id"])
            if tournament_id is not None:
                notify_soon(tournament_group(tournament_id))
    elif name in ("round.seated", "tournament.finished", "tournament.changed"):
        notify_soon(tournament_group(payload["tournament_id"]))
    elif name == "ladder.changed":
        notify_soon(ladder_group(payload["ladder_id"]))
    elif name == "comparison.changed":
        notify_soon(comparison_group(payload["comparison_id"]))


# A round's tournament never changes: looked up once per round in each process.
_ROUNDS: OrderedDict[int, int | None] = OrderedDict()
_ROUNDS_LOCK = threading.Lock()


def _tournament_of_round(round_id: int) -> int | None:
    with _ROUNDS_LOCK:
        if round_id in _ROUNDS:
            return _ROUNDS[round_id]
    found = tournament_id_of_round(round_id)
    with _ROUNDS_LOCK:
        _ROUNDS[round_id] = found
        while len(_ROUNDS) > 4096:
            _ROUNDS.popitem(last=False)
    return found


# The loop this process's sockets run on (web.consumers records it on connect): the in-memory layer's home.
_socket_loop: asyncio.AbstractEventLoop | None = None


def sockets_run_on(loop: asyncio.AbstractEventLoop) -> None:
    global _socket_loop
    _socket_loop = loop


def _loop_for(layer) -> asyncio.AbstractEventLoop | None:
    """The loop the layer's notices are sent from in this process; None when there is nobody to tell."""
    if layer is None:
        return None
    if isinstance(layer, InMemoryChannelLayer):
        loop = _socket_loop
        return None if loop is None or loop.is_closed() else loop  # no socket was ever opened here: nobody to tell
    return _Publisher.loop()


def notify(group: str, message: dict) -> None:
    """Send `message` to the group from synchronous code, without waiting for it to be delivered."""
    layer = get_channel_layer()
    loop = _loop_for(layer)
    if loop is None:
        return
    future = _run_on(loop, layer.group_send(group, message))
    if future is not None:
        future.add_done_callback(_log_failure)


# The groups with a notice on its way (notify_soon): the loop it waits on, and when it is due.
_SOON: dict[str, tuple[asyncio.AbstractEventLoop, float]] = {}
_SOON_LOCK = threading.Lock()


def notify_soon(group: str, message: dict | None = None, within: float | None = None) -> None:
    """notify, `within` seconds from now (COALESCE_SECONDS), folded with every other notice to the group made
    meanwhile in this process: a burst of changes costs each of the group's sockets one read. The notice says only
    that the page changed (PAGE_CHANGED), unless `message` says more."""
    within = COALESCE_SECONDS if within is None else within
    message = message or {"type": PAGE_CHANGED}
    layer = get_channel_layer()
    loop = _loop_for(layer)
    if loop is None:
        return
    now = time.monotonic()
    with _SOON_LOCK:
        waiting = _SOON.get(group)
        # One on its way already (a notice lost with a closed loop, or past its time by far, no longer counts).
        if waiting is not None and waiting[0] is loop and not loop.is_closed() and now < waiting[1] + 5:
            return
        _SOON[group] = (loop, now + within)

    def send() -> None:
        with _SOON_LOCK:
            _SOON.pop(group, None)
        task = loop.create_task(layer.group_send(group, message))
        task.add_done_callback(_log_task_failure)

    try:
        loop.call_soon_threadsafe(loop.call_later, within, send)
    except RuntimeError:  # the loop closed meanwhile (a test's, a server shutting down)
        with _SOON_LOCK:
            _SOON.pop(group, None)


def _log_task_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("a live page notice was not sent: %r", task.exception())


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
