"""The spectators' answer to a move's notice is read once between the web processes (web.consumers.SpectatorFeed).

Each "process" here is a SpectatorFeed with its own shared reads, as each web process has; the site's cache (its
claims) is the one they share, as Redis is between processes. A stand-in layer hands what one publishes to the
others, as channels_redis does through each spectator socket's handler; where REDIS_URL is set, the last test passes
the answer through channels_redis itself, between two layers as two processes hold them.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets

import pytest
from channels.db import database_sync_to_async

from league.models import Match
from web import consumers
from web.consumers import MatchSocket, SharedReads, SpectatorFeed
from web.push import MATCH_SPECTATORS, match_group

from .conftest import table_with_bots
from .support import leaked, others_cards

pytestmark = pytest.mark.django_db(transaction=True)


class Layer:
    """Stands for the channel layer between the processes: what one publishes reaches every other feed (`lose`:
    published into the void, as when Redis fails after the claim)."""

    def __init__(self, lose: bool = False):
        self.feeds: list[SpectatorFeed] = []
        self.published: list[tuple[str, dict]] = []
        self.lose = lose

    async def group_send(self, group: str, message: dict) -> None:
        self.published.append((group, message))
        if not self.lose:
            for feed in self.feeds:
                feed.arrived(message)


@pytest.fixture
def reads_counted(monkeypatch):
    """Every spectator read of the match made by any feed, by the language it was made in."""
    made: list[str] = []
    real = consumers.spectator_read

    def counted(match_id: int, language: str):
        made.append(language)
        return real(match_id, language)

    monkeypatch.setattr(consumers, "spectator_read", counted)
    return made


def processes(count: int, layer: Layer, fallback: float = SpectatorFeed.FALLBACK_SECONDS) -> list[SpectatorFeed]:
    feeds = []
    for _ in range(count):
        feed = SpectatorFeed(SharedReads())
        feed.FALLBACK_SECONDS = fallback
        feeds.append(feed)
    layer.feeds = feeds
    return feeds


def test_three_processes_read_a_notice_once_and_all_send_the_same_spectators_view(site, reads_counted):
    match = table_with_bots(site["ann"], site["bots"], seed="feed-1")
    layer = Layer()
    feeds = processes(3, layer)
    notice = secrets.token_hex(8)

    async def scenario():
        loop = asyncio.get_running_loop()
        # Every process's sockets are told at once; each asks its own feed (twice: two sockets in the process).
        return await asyncio.gather(*(feed.read(layer, match.pk, "en", loop.time(), notice)
                                      for feed in feeds for _ in range(2)))

    answers = asyncio.run(scenario())
    assert reads_counted == ["en"]  # one read for the three processes
    assert len(layer.published) == 1
    group, message = layer.published[0]
    assert group == match_group(match.pk) and message["type"] == MATCH_SPECTATORS and message["notice"] == notice
    assert all(json.dumps(a, sort_keys=True) == json.dumps(answers[0], sort_keys=True) for a in answers)
    now = Match.objects.get(pk=match.pk)
    assert answers[0]["move_number"] == now.move_number and answers[0]["status"] == now.status
    # What travels between the processes is the spectators' view: no seat's hand, no seed, no decision form.
    assert leaked(message["text"], others_cards(now, -1)) == [] and now.seed not in message["text"]
    assert "cardbutton" not in answers[0]["html"]


def test_each_notice_is_read_for_itself_even_at_the_same_move(site, reads_counted):
    """A match cancelled (its status changes, its move number does not) is a second notice at the same move: it is
    read again, not answered with the first notice's table."""
    match = table_with_bots(site["ann"], site["bots"], seed="feed-2")
    layer = Layer()
    feeds = processes(2, layer)

    async def scenario():
        loop = asyncio.get_running_loop()
        first = await asyncio.gather(*(f.read(layer, match.pk, "en", loop.time(), "n1") for f in feeds))
        await database_sync_to_async(Match.objects.filter(pk=match.pk).update)(status="cancelled")
        second = await asyncio.gather(*(f.read(layer, match.pk, "en", loop.time(), "n2") for f in feeds))
        return first, second

    first, second = asyncio.run(scenario())
    assert reads_counted == ["en", "en"]
    assert {a["status"] for a in first} == {"running"} and {a["status"] for a in second} == {"cancelled"}


def test_a_process_that_hears_nothing_reads_for_itself(site, reads_counted):
    """The winner's answer is lost (Redis failed after the claim, or the winner died): the others read for
    themselves after FALLBACK_SECONDS, so the move is late, never lost."""
    match = table_with_bots(site["ann"], site["bots"], seed="feed-3")
    layer = Layer(lose=True)
    winner, other = processes(2, layer, fallback=0.2)

    async def scenario():
        loop = asyncio.get_running_loop()
        won = await winner.read(layer, match.pk, "en", loop.time(), "lost-notice")
        late = await other.read(layer, match.pk, "en", loop.time(), "lost-notice")
        return won, late

    won, late = asyncio.run(scenario())
    assert reads_counted == ["en", "en"]
    assert late["move_number"] == won["move_number"] and late["html"] == won["html"]


def test_languages_are_read_apart(site, reads_counted):
    match = table_with_bots(site["ann"], site["bots"], seed="feed-4")
    layer = Layer()
    feeds = processes(2, layer)

    async def scenario():
        loop = asyncio.get_running_loop()
        return await asyncio.gather(*(f.read(layer, match.pk, language, loop.time(), "n")
                                      for f in feeds for language in ("en", "fr")))

    answers = asyncio.run(scenario())
    assert sorted(reads_counted) == ["en", "fr"]
    assert answers[0]["html"] != answers[1]["html"]  # the French table is in French


def test_a_page_showing_a_later_move_is_not_sent_an_earlier_one():
    """A socket opened after another process read a notice shows a later move already: the shared answer to the
    earlier notice is not sent to it (nor the same table twice)."""
    socket = MatchSocket()
    socket.shown = ("12", "running")
    assert socket._shows_already({"move_number": 11, "status": "running"})
    assert socket._shows_already({"move_number": 12, "status": "running"})
    assert not socket._shows_already({"move_number": 12, "status": "cancelled"})
    assert not socket._shows_already({"move_number": 13, "status": "running"})


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="channels_redis needs REDIS_URL")
def test_the_answer_travels_between_two_processes_through_channels_redis(site, reads_counted):
    """As deployed: two channels_redis layers (two processes). The winner publishes to the match's group; the other
    process's socket, a member of the group, receives the message as its handler would, and its feed takes it."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    match = table_with_bots(site["ann"], site["bots"], seed="feed-5")
    prefix = f"diamonds:test-feed:{secrets.token_hex(4)}"
    notice = secrets.token_hex(8)

    async def scenario():
        first, second = (RedisPubSubChannelLayer(hosts=[os.environ["REDIS_URL"]], prefix=prefix) for _ in range(2))
        try:
            feed_first, feed_second = SpectatorFeed(SharedReads()), SpectatorFeed(SharedReads())
            socket_channel = await second.new_channel()
            await second.group_add(match_group(match.pk), socket_channel)
            loop = asyncio.get_running_loop()
            won = await feed_first.read(first, match.pk, "en", loop.time(), notice)
            message = await asyncio.wait_for(second.receive(socket_channel), 10)
            assert message["type"] == MATCH_SPECTATORS
            feed_second.arrived(message)  # what MatchSocket.match_spectators does
            got = await feed_second.read(second, match.pk, "en", loop.time(), notice)
            return won, got
        finally:
            await first.flush()
            await second.flush()

    won, got = asyncio.run(scenario())
    assert reads_counted == ["en"]
    assert got == json.loads(json.dumps(won))
