"""External bots over real HTTP: the example bot script (examples/external_bot.py, standard library only) plays two
seats against a live server while two people play theirs through the test client."""

from __future__ import annotations

import importlib.util
import random
import threading
from pathlib import Path

import pytest
from django.db import connection

from league.models import Match, MatchStatus

from .conftest import live_match
from .support import take_turn

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "external_bot.py"


def load_example():
    spec = importlib.util.spec_from_file_location("external_bot", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_example_bots_and_people_finish_a_match_in_process(accounts):
    """The example's own functions, its HTTP calls served by the test client, taking turns with the people in one
    thread (so it runs on in-memory SQLite too)."""
    bot = load_example()
    clients = {name: accounts["clients"][name] for name in ("ext-1", "ext-2")}

    def call_through(name):
        def call(url, token, method="GET", body=None):
            path = url.split("://", 1)[1].split("/", 1)[1]
            client = clients[name]
            r = client.get("/" + path) if method == "GET" else client.post("/" + path, body, format="json")
            return r.status_code, r.json()
        return call

    match = live_match(accounts, ["ann", "ext-1", "bob", "ext-2"], seed="in-process")
    rng = random.Random(9)
    people = [accounts["clients"]["ann"], accounts["clients"]["bob"]]
    made = {"ext-1": 0, "ext-2": 0}
    for _ in range(5000):
        for name in made:
            bot.call = call_through(name)
            made[name] += bot.play("http://testserver", accounts["tokens"][name], wait=0, idle_polls=1, seed=name)
        for client in people:
            take_turn(client, match.pk, rng)
        if Match.objects.get(pk=match.pk).status != MatchStatus.RUNNING:
            break
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED and made["ext-1"] > 0 and made["ext-2"] > 0


@pytest.mark.parametrize("game", ["diamoniak", "ringrace"])
def test_example_bot_plays_the_other_games_knowing_none_of_their_rules(accounts, game):
    """The same example script, unchanged, finishes a Diamoniak game and a ring race between two of its copies:
    the legal decisions are complete decisions in those games, so picking one is all a bot must do."""
    from league.services.decisions import advance_match
    from league.services.matches import create_match

    bot = load_example()
    names = ("ext-1", "ext-2")
    match = create_match(players=[accounts["players"][n] for n in names], ruleset={"players": 2},
                         seed=f"example-{game}", club=accounts["club"], game=game)
    advance_match(match_id=match.pk)
    paths = []

    def call_through(name):
        def call(url, token, method="GET", body=None):
            path = url.split("://", 1)[1].split("/", 1)[1]
            paths.append(path)
            client = accounts["clients"][name]
            r = client.get("/" + path) if method == "GET" else client.post("/" + path, body, format="json")
            return r.status_code, r.json()
        return call

    made = dict.fromkeys(names, 0)
    for _ in range(5000):
        for name in names:
            bot.call = call_through(name)
            made[name] += bot.play("http://testserver", accounts["tokens"][name], wait=0, idle_polls=1, seed=name)
        if Match.objects.get(pk=match.pk).status != MatchStatus.RUNNING:
            break
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED, match.error
    assert match.game == game and made["ext-1"] > 0 and made["ext-2"] > 0
    # Every decision came from the long-poll's or the previous answer's `legal`: not one legal/ read.
    assert not [p for p in paths if "/legal/" in p] and any("me/turns/" in p and "legal=1" in p for p in paths)


def test_example_bots_and_people_finish_a_match(accounts, live_server, settings):
    if connection.vendor != "postgresql":
        # The live server's threads would share the test thread's in-memory SQLite connection: concurrent requests
        # on one connection break its transactions. The in-process test above runs the same logic on SQLite.
        pytest.skip("a live server with concurrent clients needs PostgreSQL (DATABASE_URL)")
    settings.DIAMONDS_TURNS_POLL_SECONDS = 0.05
    bot = load_example()
    match = live_match(accounts, ["ann", "ext-1", "bob", "ext-2"], seed="live-server")
    done = threading.Event()
    made, errors = {}, []

    def run(name):
        try:
            # Short long-polls; the bot stops after a few empty ones once the match is over.
            made[name] = bot.play(live_server.url, accounts["tokens"][name], wait=1, idle_polls=2, seed=name,
                                  log=errors.append)
        except BaseException as e:  # noqa: B036 - report anything (SystemExit too) to the test thread
            errors.append(repr(e))

    threads = [threading.Thread(target=run, args=(n,), daemon=True) for n in ("ext-1", "ext-2")]
    for t in threads:
        t.start()
    rng = random.Random(5)
    people = [accounts["clients"]["ann"], accounts["clients"]["bob"]]
    for _ in range(20000):
        for client in people:
            take_turn(client, match.pk, rng)
        if Match.objects.get(pk=match.pk).status != MatchStatus.RUNNING:
            break
    done.set()
    for t in threads:
        t.join(timeout=30)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED, match.error
    assert not errors, errors
    assert made["ext-1"] > 0 and made["ext-2"] > 0
