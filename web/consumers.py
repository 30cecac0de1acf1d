"""The website's WebSockets: a match's page, the lobby's list, a lobby table's waiting room, and a tournament's,
a ladder's and a comparison's pages, each told at once what its polling would find.

A socket joins its page's channel group (web.push). A notice there says only that something changed; the socket
then reads its own reader's answer with the very code the page's polling endpoint runs (web.play.live_update,
web.lobby.lobby_update and lobby_table_update, web.live_pages.page_update: the reader's seat view, or a
spectator's, and the same refusals) and sends it as the endpoint's JSON. Reads run off the event loop
(database_sync_to_async). Notices that arrive while a read runs are folded into one more read, so a burst of moves
costs a socket two reads at most. A competition's page is sent only the parts of it that changed.

The page opens its socket with the move number and status it shows (`?move=N&status=S`); on connect, and so on a
reconnect after a drop, the socket sends the current view at once if the match moved since. The client sends
nothing: any frame from it closes the socket (4400).

Close codes: 4400 the client sent something, 4403 the reader may not watch (or no longer), 4404 no such match or
table, 1011 a read failed (the page falls back to polling).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from urllib.parse import parse_qs

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import translation

from league.selectors.live import seats_of_user
from league.selectors.matches import matches
from runtime.language import profile_language

from .live_pages import page_update, reader_sees_more
from .lobby import lobby_table_update, lobby_update
from .play import live_update
from .push import (
    LOBBY_GROUP,
    MATCH_SPECTATORS,
    comparison_group,
    ladder_group,
    lobby_table_group,
    match_group,
    sockets_run_on,
    tournament_group,
)

log = logging.getLogger(__name__)

CLIENT_SENT_SOMETHING, MAY_NOT_WATCH, NOT_FOUND, READ_FAILED = 4400, 4403, 4404, 1011

_json = DjangoJSONEncoder()


def request_for(scope) -> tuple[HttpRequest, str]:
    """An HttpRequest standing for the socket's reader (the page's own user, session, cookies and headers), for the
    views' code and templates, and the language their pages are in. Reads the database (the profile's language)."""
    http_scope = {**scope, "type": "http", "method": "GET",
                  "scheme": {"wss": "https", "ws": "http"}.get(scope.get("scheme", "ws"), "http")}
    request = ASGIRequest(http_scope, io.BytesIO())
    request.user = scope["user"]
    request.session = scope["session"]
    # The decision forms of a seat's table carry the CSRF token of the page's own cookie, as the polled ones do.
    CsrfViewMiddleware(_no_response).process_request(request)
    language = profile_language(request.user) or translation.get_language_from_request(request)
    return request, language


def _no_response(request: HttpRequest) -> HttpResponse:
    raise AssertionError("only the middleware's process_request is used")


class SharedTables:
    """The spectators' tables of recent moves, rendered once and shared: every spectator of a move in one language
    sees the same table (a seat's own table is never kept here). Kept in this process, and in the site's cache
    (Redis when deployed) for the other web processes: a move is rendered for spectators once, not once in every
    process that holds a spectator of it. The cache is fail-soft (runtime.cache): an outage costs a render."""

    CACHE_SECONDS = 120

    def __init__(self, size: int = 512):
        self.size, self.lock = size, threading.Lock()
        self.entries: OrderedDict[tuple, tuple[int, str]] = OrderedDict()

    def get(self, key: tuple, render: Callable[[], tuple[int, str]]) -> tuple[int, str]:
        with self.lock:
            if key in self.entries:
                self.entries.move_to_end(key)
                return self.entries[key]
        cache_key = "live-spectator-table:" + ":".join(map(str, key))
        cached = cache.get(cache_key)
        if isinstance(cached, (list, tuple)) and len(cached) == 2:
            value = (int(cached[0]), str(cached[1]))
        else:
            value = render()
            cache.set(cache_key, value, self.CACHE_SECONDS)
        with self.lock:
            self.entries[key] = value
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)
        return value


SPECTATOR_TABLES = SharedTables()


class LiveSocket(AsyncWebsocketConsumer):
    """A page's socket: joins `group`, reads its reader's answer (`read`, synchronous, in a thread) on connect
    and on every notice, folding bursts, and sends it when `changed` says the page does not show it yet."""

    group = ""

    async def dispatch(self, message):
        # Channels' own dispatch first closes old database connections in the one thread the reads share, for every
        # message: a notice would then wait for the read under way instead of being folded into the next one. No
        # handler here touches the database but through database_sync_to_async, which closes them itself.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)

    async def connect(self):
        sockets_run_on(asyncio.get_running_loop())
        self.dirty, self.refresher = False, None
        self.group = self.group_name()
        self.request, self.language = await database_sync_to_async(request_for)(self.scope)
        # Joined before the first read, so a move stored in between is read then or notified after.
        await self.channel_layer.group_add(self.group, self.channel_name)
        answer = await self.read_in_thread()
        if isinstance(answer, int):
            await self.close(code=answer)  # before accept: the handshake is refused (403)
            return
        await self.accept()
        await self.send_if_changed(answer)

    async def disconnect(self, code):
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        refresher = getattr(self, "refresher", None)
        if refresher is not None:
            refresher.cancel()

    async def receive(self, text_data=None, bytes_data=None):
        # The page never writes on its socket (decisions are posted): anything sent is a client misbehaving.
        await self.close(code=CLIENT_SENT_SOMETHING)

    async def changed_notice(self, event):
        """A notice of the group: read again, once for however many arrive while a read runs."""
        self.dirty = True
        self.noticed = asyncio.get_running_loop().time()
        if self.refresher is None or self.refresher.done():
            self.refresher = asyncio.ensure_future(self.refresh())

    async def refresh(self):
        try:
            while self.dirty:
                self.dirty = False
                answer = await self.read_after_notice()
                if isinstance(answer, int):
                    await self.close(code=answer)
                    return
                await self.send_if_changed(answer)
        except asyncio.CancelledError:
            raise
        except Exception:  # a read that failed must not leave the page silent: it reconnects, or polls
            log.exception("a live page's read failed (%s)", self.group)
            await self.close(code=READ_FAILED)

    async def read_in_thread(self):
        return await database_sync_to_async(self.read_as_reader)()

    async def read_after_notice(self):
        return await self.read_in_thread()

    def read_as_reader(self):
        with translation.override(self.language):
            return self.read()

    async def send_if_changed(self, answer: dict) -> None:
        if self.changed(answer):
            await self.send(text_data=_json.encode(answer))

    # ---- for each kind of page
    def group_name(self) -> str:
        raise NotImplementedError

    def read(self) -> dict | int:
        """The reader's answer, or a close code."""
        raise NotImplementedError

    def changed(self, answer: dict) -> bool:
        return True


class SharedReads:
    """The spectators' reads of a match, shared by every spectator socket of this process: a notice costs the
    process one read for all of them (per language), not one each. A socket told at time T takes a read that began
    at T or later (so it saw the move notified, which was committed before the notice was sent), or begins one."""

    def __init__(self, size: int = 2048):
        self.size = size
        self.latest: OrderedDict[tuple, tuple[float, asyncio.Future]] = OrderedDict()

    async def get(self, key: tuple, since: float, read: Callable[[], dict | int]) -> dict | int:
        entry = self.latest.get(key)
        if entry is None or entry[0] < since:
            entry = (asyncio.get_running_loop().time(), asyncio.ensure_future(database_sync_to_async(read)()))
            self.latest[key] = entry
            self.latest.move_to_end(key)
            while len(self.latest) > self.size:
                self.latest.popitem(last=False)
        return await asyncio.shield(entry[1])


SPECTATOR_READS = SharedReads()


class SpectatorFeed:
    """The spectators' answer to each move's notice, read once between all the web processes, not once in each.

    Every web process holds spectators of most live matches, and each hears a notice at the same moment: when each
    read the match and rendered the spectators' table itself, a move cost the server that work once per process
    (three times as deployed, the largest part of its CPU with a thousand viewers). Here the processes race for the
    notice (an atomic add in the site's cache: Redis when deployed); the winner reads it (SharedReads, for its own
    sockets) and publishes the answer to the match's group (MATCH_SPECTATORS), and the other processes' spectator
    sockets hand that to their process's waiting read. What is published is the spectators' view, which anyone
    who may watch the match is sent anyway; a seat's socket never takes it. A process that hears nothing within
    FALLBACK_SECONDS (the winner died, or Redis failed) reads for itself: a move is late then, never lost.

    With the in-memory layer (embedded: one process) there is nobody to share with: a plain shared read."""

    FALLBACK_SECONDS = 3.0
    CLAIM_SECONDS = 60

    # Answers are kept only for the few seconds their notice's sockets take to read them (FALLBACK_SECONDS at most):
    # a few hundred is minutes of moves, and each holds a whole table.
    def __init__(self, reads: SharedReads, size: int = 512):
        self.reads, self.size = reads, size  # this process's shared reads (of its sockets of every kind)
        self.answers: OrderedDict[tuple, asyncio.Future] = OrderedDict()

    async def read(self, layer, match_id: int, language: str, since: float, notice: str | None) -> dict | int:
        if notice is None or layer is None or isinstance(layer, InMemoryChannelLayer):
            return await self._read_here(match_id, language, since)
        key = (match_id, language, notice)
        entry = self.answers.get(key)
        if entry is None:
            entry = self._entry(key)
            asyncio.ensure_future(self._fill(layer, key, since, entry))
        return await asyncio.shield(entry)

    def arrived(self, event: dict) -> None:
        """The answer another process published (or this one: then it is here already)."""
        key = (event["match"], event["language"], event["notice"])
        entry = self.answers.get(key) or self._entry(key)
        if not entry.done():
            entry.set_result(json.loads(event["text"]))

    def _entry(self, key: tuple) -> asyncio.Future:
        entry = self.answers[key] = asyncio.get_running_loop().create_future()
        while len(self.answers) > self.size:
            self.answers.popitem(last=False)
        return entry

    async def _fill(self, layer, key: tuple, since: float, entry: asyncio.Future) -> None:
        match_id, language, notice = key
        try:
            # The claim is one Redis command, not a database read: not queued behind the process's reads.
            if await sync_to_async(self._claim, thread_sensitive=False)(key):
                answer = await self._read_here(match_id, language, since)
                try:
                    await layer.group_send(match_group(match_id), {
                        "type": MATCH_SPECTATORS, "match": match_id, "language": language, "notice": notice,
                        "text": _json.encode(answer)})
                except Exception as e:  # the others read for themselves after FALLBACK_SECONDS
                    log.warning("the spectators' answer was not published: %r", e)
            else:
                try:
                    await asyncio.wait_for(asyncio.shield(entry), self.FALLBACK_SECONDS)
                    return
                except TimeoutError:
                    answer = await self._read_here(match_id, language, since)
            if not entry.done():
                entry.set_result(answer)
        except Exception as e:
            if not entry.done():
                entry.set_exception(e)

    async def _read_here(self, match_id: int, language: str, since: float) -> dict | int:
        """The spectators' answer read by this process (once for all its sockets told since `since`)."""
        return await self.reads.get((match_id, language), since, lambda: spectator_read(match_id, language))

    def _claim(self, key: tuple) -> bool:
        """Whether this process reads the answer to the notice (the first to ask); True while the cache fails
        (runtime.cache falls back to this process's memory)."""
        return bool(cache.add("live-spectator-claim:" + ":".join(map(str, key)), 1, self.CLAIM_SECONDS))


SPECTATOR_FEED = SpectatorFeed(SPECTATOR_READS)


def spectator_read(match_id: int, language: str) -> dict | int:
    """What any spectator of the match (signed in or not, holding no seat) is sent now, in `language`."""
    with translation.override(language):
        match = matches().filter(pk=match_id).first()
        if match is None:
            return NOT_FOUND
        answer = live_update(_SPECTATOR, match, None, None, shared=SPECTATOR_TABLES.get)
        return MAY_NOT_WATCH if answer is None else answer


def _spectator_request() -> HttpRequest:
    request = HttpRequest()
    request.user = AnonymousUser()
    return request


_SPECTATOR = _spectator_request()


class MatchSocket(LiveSocket):
    """A match page's socket (`ws/matches/<pk>/?move=N&status=S`): the table as the reader sees it, each move.

    A reader who holds no seat at the match when the socket opens is a spectator for its whole life: its socket
    takes the spectators' answer read once for every web process (SpectatorFeed). A seat's socket reads for its
    reader each time (the seat may change hands: it is looked up every time)."""

    def group_name(self) -> str:
        self.match_id = self.scope["url_route"]["kwargs"]["pk"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.shown = (query.get("move", [None])[0], query.get("status", [None])[0])
        return match_group(self.match_id)

    async def match_moved(self, event):
        move, shown = event.get("move"), self.shown[0]
        if isinstance(move, int) and shown is not None and shown.isdigit() and move < int(shown):
            return  # a late notice of a move the page shows already
        self.notice = event.get("notice")
        await self.changed_notice(event)

    async def match_spectators(self, event):
        """The spectators' answer to a notice, read by one of the web processes: for this process's spectators
        (SpectatorFeed). Every socket of the group is handed it; the first one passes it on."""
        SPECTATOR_FEED.arrived(event)

    def read(self) -> dict | int:
        match = matches().filter(pk=self.match_id).first()
        if match is None:
            return NOT_FOUND
        if not hasattr(self, "spectator"):  # the connect's read
            self.spectator = not seats_of_user(match, self.request.user)
        answer = live_update(self.request, match, *self.shown, shared=SPECTATOR_TABLES.get)
        return MAY_NOT_WATCH if answer is None else answer

    async def read_after_notice(self):
        if not self.spectator:
            return await self.read_in_thread()
        answer = await SPECTATOR_FEED.read(self.channel_layer, self.match_id, self.language, self.noticed,
                                           getattr(self, "notice", None))
        if isinstance(answer, dict) and self._shows_already(answer):
            return {k: v for k, v in answer.items() if k != "html"}
        return answer

    def _shows_already(self, answer: dict) -> bool:
        """Whether the page shows this answer, or a later move (its socket's first read may have been later than
        the read another process made for a notice)."""
        move, shown = str(answer["move_number"]), self.shown[0]
        if (move, answer["status"]) == self.shown:
            return True
        return shown is not None and shown.isdigit() and move.isdigit() and int(move) < int(shown)

    def changed(self, answer: dict) -> bool:
        if "html" not in answer:
            return False
        self.shown = (str(answer["move_number"]), answer["status"])
        return True


class LobbySocket(LiveSocket):
    """The lobby page's socket (`ws/lobby/`): its two lists, whenever a table opens, fills, starts or closes."""

    def group_name(self) -> str:
        self.last: dict | None = None
        return LOBBY_GROUP

    async def lobby_changed(self, event):
        await self.changed_notice(event)

    def read(self) -> dict | int:
        return lobby_update(self.request)

    def changed(self, answer: dict) -> bool:
        changed, self.last = answer["html"] != self.last, answer["html"]
        return changed


class LobbyTableSocket(LiveSocket):
    """A lobby table's waiting room (`ws/lobby/tables/<pk>/?token=…`): the table's JSON when someone joins or
    leaves, or it starts; refused (4404) for a private table the reader may not see, as its page is."""

    def group_name(self) -> str:
        self.table_id = self.scope["url_route"]["kwargs"]["pk"]
        self.token = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
        self.last: tuple | None = None
        return lobby_table_group(self.table_id)

    async def lobby_changed(self, event):
        await self.changed_notice(event)

    def read(self) -> dict | int:
        answer = lobby_table_update(self.request, self.table_id, self.token)
        return NOT_FOUND if answer is None else answer

    def changed(self, answer: dict) -> bool:
        seen = (answer["status"], answer["free_seats"], tuple(answer["players"]))
        changed, self.last = seen != self.last, seen
        return changed


PAGE_GROUPS = {"tournament": tournament_group, "ladder": ladder_group, "comparison": comparison_group}


def shared_page_read(kind: str, pk: int, language: str) -> dict | int:
    """A competition page's live parts as anyone sees them (anyone who sees no more than the public: web.live_pages
    .reader_sees_more), in `language`."""
    with translation.override(language):
        answer = page_update(kind, _SPECTATOR, pk)
    return NOT_FOUND if answer is None else answer


class PageSocket(LiveSocket):
    """A competition's page (`ws/tournaments/<pk>/`, `ws/ladders/<pk>/`, `ws/comparisons/<pk>/`): the page's live
    parts (web.live_pages) whenever the league announces a change to it (web.push), those that changed only. The
    sockets of readers who see no more than anyone share one read per notice in each process (SharedReads); a
    tournament's organisers' sockets read for them alone (their round dashboard)."""

    kind = ""

    def group_name(self) -> str:
        self.pk = self.scope["url_route"]["kwargs"]["pk"]
        self.last: dict | None = None
        return PAGE_GROUPS[self.kind](self.pk)

    async def page_changed(self, event):
        await self.changed_notice(event)

    def read(self) -> dict | int:
        if not hasattr(self, "private"):  # the connect's read
            self.private = reader_sees_more(self.kind, self.request.user, self.pk)
        answer = page_update(self.kind, self.request, self.pk)
        return NOT_FOUND if answer is None else answer

    async def read_after_notice(self):
        if self.private:
            return await self.read_in_thread()
        return await SPECTATOR_READS.get((self.kind, self.pk, self.language), self.noticed,
                                         lambda: shared_page_read(self.kind, self.pk, self.language))

    async def send_if_changed(self, answer: dict) -> None:
        # `answer` may be shared with other sockets (SharedReads): it is read here, never changed.
        fragments = answer.get("fragments") or {}
        if self.last is None:  # the connect's read, all of it: the page may have changed since it was drawn
            news = fragments
        else:
            news = {k: v for k, v in fragments.items() if self.last.get(k) != v}
            if not news and not answer.get("done"):
                self.last = fragments
                return
        self.last = fragments
        # Only what changed travels (the comparison's older keys, for a client that reads them, go whole).
        await self.send(text_data=_json.encode({**answer, "fragments": news}))


class TournamentSocket(PageSocket):
    kind = "tournament"


class LadderSocket(PageSocket):
    kind = "ladder"


class ComparisonSocket(PageSocket):
    kind = "comparison"
