"""Moves pushed over WebSockets (issue 29, "moves arrive at once"): web.push's notices and web.consumers' sockets.

Each test runs its sockets in one event loop (asyncio.run; pytest-asyncio is not installed), doing its database work
in threads as the server would (database_sync_to_async), on the transactional database so that what a decision
stores is committed and announced (league.events) as in production. The channel layer is the in-memory one.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from engine import card_str, to_record
from engine.diamonds.cards import deck
from league.models import LobbyTable, Match
from league.selectors.live import legal_decisions, match_game
from league.services import (
    create_bot_player,
    create_match,
    create_person_player,
    create_tournament,
    register_players,
    start_tournament,
)
from league.services.decisions import start_live_match, submit_user_decision
from league.services.lobby import create_table, join_table
from runtime.asgi_routing import router
from web import consumers, push
from web.push import match_group
from web.routing import websocket_application

from ..api.support import choose
from ..api.test_secrecy import known_cards
from .conftest import table_with_bots
from .sockets import WebsocketCommunicator
from .support import leaked, others_cards, table_steps, vault_figures

pytestmark = pytest.mark.django_db(transaction=True)

APP = router(websocket=websocket_application())
ALL_CARDS = [card_str(c) for c in deck()]
WAIT = 20  # seconds a socket may take to answer before the test fails (never a measure of speed)


@pytest.fixture(autouse=True)
def _fresh_layer(settings):
    """A new in-memory layer per test (even where REDIS_URL is set), so no group outlives its test."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    consumers.SPECTATOR_TABLES.entries.clear()
    consumers.SPECTATOR_READS.latest.clear()  # its reads belong to the last test's event loop
    consumers.SPECTATOR_FEED.answers.clear()  # so do its answers


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def socket(path: str, session: str | None = None, origin: str = "http://localhost") -> WebsocketCommunicator:
    headers = [(b"origin", origin.encode()), (b"host", b"localhost")]
    if session:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={session}".encode()))
    return WebsocketCommunicator(APP, path, headers=headers)


def match_socket(match: Match, session: str | None = None, move: int | None = None, status: str | None = None):
    move = match.move_number if move is None else move
    return socket(f"/ws/matches/{match.pk}/?move={move}&status={status or match.status}", session)


async def until_move(communicator: WebsocketCommunicator, move_number: int) -> list[dict]:
    """Every message up to the one that shows `move_number` (or later)."""
    got = []
    while True:
        got.append(json.loads(await communicator.receive_from(timeout=WAIT)))
        if got[-1]["move_number"] >= move_number:
            return got


@database_sync_to_async
def current(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


@database_sync_to_async
def decide(match: Match, user, rng: random.Random, seat: int | None = None) -> None:
    game = match_game(Match.objects.get(pk=match.pk))
    seat = game.pending.seats[0] if seat is None else seat
    legal = legal_decisions(game, seat)
    submit_user_decision(match_id=match.pk, user=user, move_number=legal["move_number"],
                         decision_json=choose(legal, rng), seat=seat)


def test_a_seat_and_a_spectator_each_get_their_own_table_when_the_match_moves(site):
    """A person's decision (and the bots' moves after it) reaches her socket with her own hand and no other seat's
    card, and a spectator's socket with the table and no hand at all, without asking."""
    match = table_with_bots(site["ann"], site["bots"], seed="push-1")
    ann = site["ann"].user
    ann_session = session_of(ann)

    async def scenario():
        mine, watching = match_socket(match, ann_session), match_socket(match)
        assert (await mine.connect())[0] and (await watching.connect())[0]
        assert await mine.receive_nothing(0.2) and await watching.receive_nothing(0.2)  # the page is up to date
        await decide(match, ann, random.Random(1), seat=0)
        now = await current(match)
        seen_by_ann, seen_by_spectator = await until_move(mine, now.move_number), await until_move(watching,
                                                                                               now.move_number)
        for socket_ in (mine, watching):
            await socket_.disconnect()
        return now, seen_by_ann[-1], seen_by_spectator[-1]

    now, ann_view, spectator_view = asyncio.run(scenario())
    assert now.move_number > match.move_number
    hand = [card_str(c) for c in match_game(now).hands[0]]
    assert hand and all(code in ann_view["html"] for code in hand)
    assert leaked(ann_view["html"], others_cards(now, 0)) == []
    assert leaked(spectator_view["html"], others_cards(now, -1)) == [] and "cardbutton" not in spectator_view["html"]
    assert spectator_view["status"] == now.status


def test_over_a_whole_game_each_seat_and_a_spectator_receive_only_their_own_view(site):
    """The secrecy tests, over the socket: four people play a whole round; after every decision each seat's socket
    and a spectator's receive the new table, and every card named in what they receive is one they may know (their
    own dealt hand, what was passed to them, the cards played), drawn or in words; the seed appears nowhere. Each
    seat's table shows its own vault's total and no other (a spectator's, none) until the game is over, and the
    steps its page animates name only the passed cards that seat gave or got (a spectator's, none)."""
    User = get_user_model()
    users = [User.objects.create_user(f"p{i}") for i in range(4)]
    people = [create_person_player(user=u, name=f"p{i}", clubs=[site["club"]]) for i, u in enumerate(users)]
    match = create_match(players=people, ruleset={"players": 4, "rounds": 1}, seed="push-secrecy", club=site["club"])
    start_live_match(match=match)
    match.refresh_from_db()
    sessions = [session_of(u) for u in users]
    rng = random.Random(29)

    @database_sync_to_async
    def truth():
        m = Match.objects.get(pk=m_id)
        game = match_game(m)
        return m, game, to_record(game)

    m_id = match.pk

    async def scenario():
        sockets = [match_socket(match, s) for s in sessions] + [match_socket(match)]
        for s in sockets:
            assert (await s.connect())[0]
        steps = 0
        while True:
            m, game, _ = await truth()
            if m.status != "running":
                break
            seat = game.pending.seats[rng.randrange(len(game.pending.seats))]
            await decide(m, users[seat], rng, seat=seat)
            m, game, record = await truth()
            partnerships = bool(record["ruleset"]["partnerships"])
            for reader, s in enumerate(sockets):
                reader_seat = reader if reader < 4 else None
                allowed = known_cards(record, reader_seat, partnerships)
                for message in await until_move(s, m.move_number):
                    html = message["html"]
                    assert m.seed not in html
                    assert leaked(html, [c for c in ALL_CARDS if c not in allowed]) == [], \
                        f"reader {reader_seat} sees another seat's card at step {steps}"
                    if message["move_number"] == m.move_number and m.status == "running":
                        vaults = vault_figures(html)
                        assert set(vaults) == {0, 1, 2, 3}
                        assert vaults == {v: str(game.vault[game.team_of(v)]) if v == reader_seat else "?"
                                          for v in range(4)}, f"reader {reader_seat} sees a vault at step {steps}"
                    for step in table_steps(html):
                        if "gave" in step or "got" in step:
                            assert reader_seat is not None and step["seat"] == reader_seat
            steps += 1
        for s in sockets:
            await s.disconnect()
        return steps, m

    steps, final = asyncio.run(scenario())
    assert final.status == "finished" and steps > 40



def test_a_spectator_of_a_duplicate_table_still_in_play_is_refused_as_by_the_live_endpoint(site):
    """A duplicate round's tables share their deal: while the round is played nobody but a table's own seats may
    watch it, so a spectator's socket is refused (4403) like the polled endpoint (403); its seated person's is not."""
    ann = site["ann"]
    bots = [create_bot_player(name=f"dup-bot-{i}", kind="greedy", clubs=[site["club"]]) for i in range(7)]
    tournament = create_tournament(name="Dup", rounds=1, table_size=4, format="duplicate", seed="push-dup",
                                   ruleset={"rounds": 1}, club=site["club"])
    register_players(tournament=tournament, players=[ann, *bots])
    start_tournament(tournament=tournament)
    match = Match.objects.get(match_seats__player=ann)
    assert match.status == "running"
    client = Client()
    client.force_login(site["bob"].user)
    assert client.get(f"/matches/{match.pk}/live/").status_code == 403
    bob_session, ann_session = session_of(site["bob"].user), session_of(ann.user)

    async def scenario():
        answers = []
        for session in (None, bob_session, ann_session):
            s = match_socket(match, session, move=-1)  # a page that shows no move yet
            answers.append(await s.connect())
            if answers[-1][0]:
                answers.append(bool(json.loads(await s.receive_from(timeout=WAIT))["html"]))
                await s.disconnect()
        return answers

    assert asyncio.run(scenario()) == [(False, 4403), (False, 4403), (True, None), True]


def test_no_socket_for_a_match_that_does_not_exist(site):
    async def scenario():
        return await socket("/ws/matches/999999/?move=0&status=running").connect()

    assert asyncio.run(scenario()) == (False, 4404)


def test_a_socket_opened_again_after_a_drop_gets_the_current_table_at_once(site):
    """Resume: the page reopens its socket with the move it shows; if the match moved while it was away the table
    comes at once, and if not nothing comes."""
    match = table_with_bots(site["ann"], site["bots"], seed="push-resume")
    ann = site["ann"].user
    session = session_of(ann)

    async def scenario():
        first = match_socket(match, session)
        assert (await first.connect())[0]
        await first.disconnect()  # the drop
        await decide(match, ann, random.Random(2), seat=0)  # moves made meanwhile
        now = await current(match)
        behind = match_socket(match, session, move=match.move_number)
        assert (await behind.connect())[0]
        caught_up = json.loads(await behind.receive_from(timeout=WAIT))
        up_to_date = match_socket(now, session)
        assert (await up_to_date.connect())[0]
        quiet = await up_to_date.receive_nothing(0.3)
        for s in (behind, up_to_date):
            await s.disconnect()
        return now, caught_up, quiet

    now, caught_up, quiet = asyncio.run(scenario())
    assert now.move_number > match.move_number
    assert caught_up["move_number"] == now.move_number and f'data-move="{now.move_number}"' in caught_up["html"]
    assert leaked(caught_up["html"], others_cards(now, 0)) == []
    assert quiet


def test_a_socket_from_another_sites_page_is_refused(site):
    """The origin check: a page of another site cannot open a socket with the reader's cookies."""
    match = table_with_bots(site["ann"], site["bots"], seed="push-origin")
    session = session_of(site["ann"].user)

    async def scenario():
        foreign = await socket(f"/ws/matches/{match.pk}/", session, origin="https://evil.example").connect()
        ours = socket(f"/ws/matches/{match.pk}/?move={match.move_number}&status=running", session)
        own = await ours.connect()
        await ours.disconnect()
        return foreign, own

    foreign, own = asyncio.run(scenario())
    assert foreign[0] is False and own[0] is True


@pytest.mark.parametrize("frame", [{"text_data": "garbage {"}, {"bytes_data": b"\xff" * 1_000_000},
                                   {"text_data": json.dumps({"type": "match.moved", "move": 1})}])
def test_anything_a_client_sends_closes_its_socket_cleanly(site, frame):
    """The page never writes on its socket: a frame from the client (garbage, a megabyte, a forged notice) closes
    that socket with 4400, and the application ends without an error (the server's worker goes on)."""
    match = table_with_bots(site["ann"], site["bots"], seed="push-hostile")

    async def scenario():
        s = match_socket(match)
        assert (await s.connect())[0]
        await s.send_to(**frame)
        closed = await s.receive_output(timeout=WAIT)
        await s.disconnect()  # the server's disconnect; raises if the application failed
        return closed

    assert asyncio.run(scenario()) == {"type": "websocket.close", "code": 4400}


def test_a_burst_of_moves_is_read_once_more_not_once_per_move(site, monkeypatch):
    """Notices arriving while a socket reads are folded into one more read: twenty notices sent while the first read
    is held cost the socket two reads, not twenty."""
    match = table_with_bots(site["ann"], site["bots"], seed="push-burst")
    reads, release = [], threading.Event()
    original = consumers.live_update

    def counted(*args, **kwargs):
        reads.append(1)
        release.wait(WAIT)
        return original(*args, **kwargs)

    async def scenario():
        s = match_socket(match)
        release.set()  # the connect's own read
        assert (await s.connect())[0]
        release.clear()
        reads.clear()
        layer = get_channel_layer()
        for _ in range(20):
            await layer.group_send(match_group(match.pk), {"type": "match.moved", "move": match.move_number})
        for _ in range(50):  # let the socket take its notices (the first read is held meanwhile)
            await asyncio.sleep(0.01)
        release.set()
        await s.receive_nothing(0.5)
        await s.disconnect()

    monkeypatch.setattr(consumers, "live_update", counted)
    asyncio.run(scenario())
    assert len(reads) == 2


def test_the_lobby_and_a_tables_waiting_room_are_told_when_someone_sits_down(site):
    """The lobby's list socket gets the new list when a table opens, and a table's waiting room socket gets the
    table when someone joins. A private table's waiting room refuses a stranger's socket (4404, as its page 404s)
    and takes the invitation's."""
    ann, bob = site["ann"].user, site["bob"].user
    bob_session = session_of(bob)

    @database_sync_to_async
    def open_table(public: bool) -> LobbyTable:
        return create_table(user=ann, game="diamonds", seats=3, options={"rounds": 1}, public=public)

    @database_sync_to_async
    def join(table: LobbyTable) -> None:
        join_table(user=bob, table_id=table.pk, token=table.token)

    async def scenario():
        lobby = socket("/ws/lobby/", bob_session)
        assert (await lobby.connect())[0]
        before = json.loads(await lobby.receive_from(timeout=WAIT))  # the lists as they are (a page reconnecting)
        public = await open_table(True)
        after = json.loads(await lobby.receive_from(timeout=WAIT))
        room = socket(f"/ws/lobby/tables/{public.pk}/", bob_session)
        assert (await room.connect())[0]
        assert json.loads(await room.receive_from(timeout=WAIT))["free_seats"] == 2
        await join(public)
        joined = json.loads(await room.receive_from(timeout=WAIT))
        private = await open_table(False)
        stranger = await socket(f"/ws/lobby/tables/{private.pk}/", bob_session).connect()
        invited = socket(f"/ws/lobby/tables/{private.pk}/?token={private.token}", bob_session)
        with_link = await invited.connect()
        for s in (lobby, room, invited):
            await s.disconnect()
        return before, after, joined, stranger, with_link, public

    before, after, joined, stranger, with_link, public = asyncio.run(scenario())
    assert not before["tables"] and [t["id"] for t in after["tables"]] == [public.pk]
    assert joined["free_seats"] == 1 and "bob" in joined["players"]
    assert stranger == (False, 4404) and with_link[0] is True


def test_websocket_connections_go_to_channels_and_http_stays_as_it_was():
    """The ASGI router hands `websocket` scopes to the application it is given, and keeps its two http handlers."""
    seen = []

    async def sockets(scope, receive, send):
        seen.append(scope["type"])

    application = router(websocket=sockets)
    asyncio.run(application({"type": "websocket", "path": "/ws/lobby/"}, None, None))
    assert seen == ["websocket"] and set(application.handlers) == {"async", "sync"}


def test_the_spectators_of_a_match_share_one_read_per_move(site, monkeypatch):
    """Spectators (anonymous or signed in without a seat) all see the same table: after a move, one read serves
    every spectator socket of the process, while the seat's socket reads its own view."""
    match = table_with_bots(site["ann"], site["bots"], seed="push-share")
    ann, bob_session = site["ann"].user, session_of(site["bob"].user)
    reads = []
    original = consumers.spectator_read

    def counted(*args):
        reads.append(args)
        return original(*args)

    monkeypatch.setattr(consumers, "spectator_read", counted)
    notices = []
    notify = push.notify
    monkeypatch.setattr(push, "notify", lambda group, message: (notices.append(group), notify(group, message)))

    async def scenario():
        watchers = [match_socket(match) for _ in range(4)] + [match_socket(match, bob_session)]
        for s in watchers:
            assert (await s.connect())[0]
        await decide(match, ann, random.Random(3), seat=0)
        now = await current(match)
        seen = [(await until_move(s, now.move_number))[-1] for s in watchers]
        for s in watchers:
            await s.disconnect()
        return now, seen

    now, seen = asyncio.run(scenario())
    assert {v["move_number"] for v in seen} == {now.move_number} and len({v["html"] for v in seen}) == 1
    assert leaked(seen[0]["html"], others_cards(now, -1)) == []
    # At most one read per notice (ann's move, then the bots' after it), never one per socket.
    assert notices and 1 <= len(reads) <= len(notices)


def test_a_spectators_table_is_rendered_once_for_every_web_process():
    """A move's spectator table, rendered by one process, is read from the site's cache by another (here: the same
    process with its own memory cleared), not rendered again; another move or language is rendered anew."""
    renders = []

    def render(label):
        renders.append(label)
        return 7, f"<table>{label}</table>"

    first, second = consumers.SharedTables(), consumers.SharedTables()  # two processes' memories
    assert first.get((1, 7, "playing", "en"), lambda: render("a")) == (7, "<table>a</table>")
    assert second.get((1, 7, "playing", "en"), lambda: render("b")) == (7, "<table>a</table>")
    assert second.get((1, 7, "playing", "fr"), lambda: render("c")) == (7, "<table>c</table>")
    assert second.get((1, 8, "playing", "en"), lambda: render("d")) == (7, "<table>d</table>")
    assert renders == ["a", "c", "d"]
