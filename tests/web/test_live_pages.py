"""Tournament, ladder and comparison pages updated live over the socket (issue 29: "Tournament, ladder and lobby
pages update live the same way: table states, standings, seats taken"): web.push's notices to `tournament-<id>`,
`ladder-<id>` and `comparison-<id>`, web.consumers.PageSocket, web.live_pages, and the endpoints the pages poll
where sockets fail.

As in test_live_push: each test runs its sockets in one event loop, doing its database work in threads, on the
transactional database (what a service stores is committed and announced as in production), with the in-memory
channel layer.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from channels.db import database_sync_to_async
from django.test import Client

from league.models import Comparison, Match, Tournament
from league.services import (
    create_bot_player,
    create_tournament,
    register_players,
    start_tournament,
)
from league.services.cancellation import cancel_tournament, stop_comparison
from league.services.comparisons import create_comparison
from league.services.ladders import seat_ladder_tables
from league.services.players import create_external_bot
from league.services.registration import withdraw_player
from web import consumers, push

from .test_live_push import WAIT, session_of, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_layer(settings, monkeypatch):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    consumers.SPECTATOR_READS.latest.clear()
    push._SOON.clear()
    monkeypatch.setattr(push, "COALESCE_SECONDS", 0.05)


async def next_message(s, timeout: float = WAIT) -> dict:
    return json.loads(await s.receive_from(timeout=timeout))


async def until(s, predicate, timeout: float = WAIT) -> dict:
    """The first message the predicate accepts (messages before it are read and dropped)."""
    while True:
        message = await next_message(s, timeout)
        if predicate(message):
            return message


def club_tournament(site, name: str = "Live night", rounds: int = 1) -> Tournament:
    return create_tournament(name=name, rounds=rounds, ruleset={"rounds": 1}, club=site["club"], seed="live-night")


def test_a_tournament_page_hears_of_entries_and_its_round_and_only_organisers_see_the_dashboard(site):
    tournament = club_tournament(site)
    organiser, bob = session_of(site["organiser"]), session_of(site["bob"].user)
    # A person at the table: the round stays in play until she decides (or it is cancelled).
    players = [site["ann"], *site["bots"][:3]]

    async def scenario():
        watching = socket(f"/ws/tournaments/{tournament.pk}/")  # anonymous
        signed_in = socket(f"/ws/tournaments/{tournament.pk}/", bob)
        organising = socket(f"/ws/tournaments/{tournament.pk}/", organiser)
        for s in (watching, signed_in, organising):
            assert (await s.connect())[0]
        first = [await next_message(s) for s in (watching, signed_in, organising)]
        await database_sync_to_async(register_players)(tournament=tournament, players=players)
        entered = await until(watching, lambda m: "ann" in m["fragments"].get("live-entrants", ""))
        await database_sync_to_async(start_tournament)(tournament=tournament)
        playing = await until(watching, lambda m: "status-running" in m["fragments"].get("live-rounds", ""))
        glance = await until(organising, lambda m: "at a glance" in m["fragments"].get("live-dashboard", ""))
        await database_sync_to_async(cancel_tournament)(tournament_id=tournament.pk, by="olive")
        seen = {"watching": [], "organising": []}
        for key, s in (("watching", watching), ("organising", organising)):
            while not (seen[key] and seen[key][-1]["done"]):
                seen[key].append(await next_message(s))
        for s in (watching, signed_in, organising):
            await s.disconnect()
        return first, entered, playing, glance, seen

    first, entered, playing, glance, seen = asyncio.run(scenario())
    # On connect, the page's live parts as they are (a page reconnecting catches up at once).
    assert set(first[0]["fragments"]) == {"live-status", "live-dashboard", "live-standings", "live-rounds",
                                          "live-entrants"}
    assert first[0]["fragments"] == first[1]["fragments"]  # a signed-in stranger sees what anyone sees
    assert "No one is registered yet" in first[0]["fragments"]["live-entrants"]
    assert "bot-2" in entered["fragments"]["live-entrants"]
    # The seated table reached everyone, its players by name; the organisers' dashboard went to them only.
    assert "Table 1" in playing["fragments"]["live-rounds"] and "ann" in playing["fragments"]["live-rounds"]
    assert "Table 1" in glance["fragments"]["live-dashboard"]
    everything_anyone_got = [m for m in [*first[:2], entered, playing, *seen["watching"]]]
    assert all("at a glance" not in m["fragments"].get("live-dashboard", "") for m in everything_anyone_got)
    # Cancelled: the status and the stopped table, and the socket is told the page changes no more.
    last = {k: v for m in seen["watching"] for k, v in m["fragments"].items()}
    assert "status-cancelled" in last["live-status"] and seen["watching"][-1]["done"]
    assert "status-cancelled" in seen["organising"][-1]["fragments"].get("live-status", "status-cancelled")


def test_what_a_page_socket_sends_is_what_its_endpoint_answers_the_same_reader(site):
    """The socket and the polling fallback draw the same parts for the same reader: nothing more over the socket."""
    tournament = club_tournament(site, "Same answer")
    register_players(tournament=tournament, players=site["bots"])
    start_tournament(tournament=tournament)

    async def scenario():
        s = socket(f"/ws/tournaments/{tournament.pk}/")
        assert (await s.connect())[0]
        message = await next_message(s)
        await s.disconnect()
        return message

    pushed = asyncio.run(scenario())
    polled = Client().get(f"/tournaments/{tournament.pk}/live/").json()
    assert pushed["fragments"] == polled["fragments"]
    organiser = Client()
    organiser.force_login(site["organiser"])
    theirs = organiser.get(f"/tournaments/{tournament.pk}/live/").json()["fragments"]
    assert theirs["live-rounds"] == polled["fragments"]["live-rounds"]
    assert "at a glance" not in polled["fragments"]["live-dashboard"]


def test_a_burst_of_changes_costs_a_page_a_read_or_two_not_one_per_change(site, monkeypatch):
    tournament = club_tournament(site, "Burst")
    players = [create_bot_player(name=f"burst-{i}", kind="random", clubs=[site["club"]]) for i in range(8)]
    reads = []
    original = consumers.shared_page_read
    monkeypatch.setattr(consumers, "shared_page_read", lambda *a: (reads.append(a), original(*a))[1])
    monkeypatch.setattr(push, "COALESCE_SECONDS", 0.5)

    @database_sync_to_async
    def enter_one_by_one():
        for p in players:
            register_players(tournament=tournament, players=[p])
        withdraw_player(tournament=tournament, player=players[0])

    async def scenario():
        watchers = [socket(f"/ws/tournaments/{tournament.pk}/") for _ in range(3)]
        for s in watchers:
            assert (await s.connect())[0]
            await next_message(s)
        await enter_one_by_one()
        last = [await until(s, lambda m: "withdrawn" in m["fragments"].get("live-entrants", "")) for s in watchers]
        for s in watchers:
            await s.disconnect()
        return last

    last = asyncio.run(scenario())
    assert all("burst-7" in m["fragments"]["live-entrants"] for m in last)
    # Nine changes; the notices were folded (0.5 s), and the three sockets shared each read.
    assert 1 <= len(reads) <= 3


def test_a_ladder_page_hears_of_its_matches_and_ratings(site):
    ladder = site["ladder"]

    async def scenario():
        s = socket(f"/ws/ladders/{ladder.pk}/")
        assert (await s.connect())[0]
        before = await next_message(s)
        await database_sync_to_async(seat_ladder_tables)(ladder=ladder, seed="live-ladder-tick")
        after = await until(s, lambda m: "ladder-live" in m["fragments"])
        await s.disconnect()
        return before, after

    before, after = asyncio.run(scenario())
    def shown(message: dict) -> set[int]:
        return set(map(int, re.findall(r'href="/matches/(\d+)/"', message["fragments"]["ladder-live"])))

    assert shown(after) - shown(before)  # the tick's new tables
    assert shown(after) <= set(Match.objects.filter(ladder=ladder).values_list("pk", flat=True))


def test_a_comparison_page_hears_when_it_ends_and_no_socket_for_what_does_not_exist(site):
    owner = site["organiser"]
    # An external bot's games wait for its decisions: the comparison runs until it is stopped.
    candidate = create_external_bot(name="live-ext-bot", owner=owner)
    comparison = create_comparison(user=owner, candidate=candidate, baseline=site["bots"][1],
                                   ruleset={"players": 4, "rounds": 1}, max_pairs=50)
    assert comparison.status == "running"
    session = session_of(owner)

    async def scenario():
        s = socket(f"/ws/comparisons/{comparison.pk}/")
        assert (await s.connect())[0]
        await next_message(s)
        await database_sync_to_async(stop_comparison)(user=owner, comparison_id=comparison.pk)
        ended = await until(s, lambda m: m["done"])
        missing = [await socket(path, session).connect() for path in
                   ("/ws/comparisons/999999/", "/ws/tournaments/999999/", "/ws/ladders/999999/")]
        await s.disconnect()
        return ended, missing

    ended, missing = asyncio.run(scenario())
    assert Comparison.objects.get(pk=comparison.pk).status == "stopped"
    assert ended["done"] and "stopped" in ended["fragments"]["summary"].lower()
    assert missing == [(False, 4404)] * 3


def test_a_page_without_sockets_polls_its_live_endpoint(client, site):
    """The fallback: the pages name their endpoint, which answers the same parts (404 for no such page)."""
    tournament = club_tournament(site, "Polled")
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'data-live-url="/tournaments/{tournament.pk}/live/"' in page and "live_page.js" in page
    assert f'data-socket-path="/ws/tournaments/{tournament.pk}/"' in page
    ladder_page = client.get(f"/ladders/{site['ladder'].pk}/").content.decode()
    assert f'data-live-url="/ladders/{site["ladder"].pk}/live/"' in ladder_page
    assert client.get("/tournaments/999999/live/").status_code == 404
    assert client.get("/ladders/999999/live/").status_code == 404
    finished = client.get(f"/tournaments/{site['tournament'].pk}/").content.decode()
    assert "live_page.js" not in finished  # a finished tournament changes no more
