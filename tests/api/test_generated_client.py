"""A client generated from the schema, as a bot author makes one (openapi-python-client, api/README.md), reads every
GET operation and plays a whole bot game with typed calls: it joins a ladder, long-polls /me/turns/, decides.

Generation runs offline from the committed api/openapi.yaml (test_schema_file keeps it the served schema). The
client talks real HTTP to a live server on PostgreSQL; on the embedded SQLite (whose in-memory database a server
thread cannot share) it goes through httpx's WSGI transport to the same application, in the test's thread.
"""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import yaml
from django.core.wsgi import get_wsgi_application
from django.db import connection

from league.models import Match, MatchStatus
from league.services.ladders import create_ladder
from workers.tasks import ladder_tick

from .populated import populate, resource_of

pytestmark = pytest.mark.django_db(transaction=True)

SCHEMA = Path(__file__).resolve().parents[2] / "api" / "openapi.yaml"
PACKAGE = "diamonds_league_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """The generated package, imported."""
    out = tmp_path_factory.mktemp("client")
    config = out / "config.yaml"
    config.write_text("post_hooks: []\n")  # no formatting pass: the code is only imported
    tool = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run([str(tool), "generate", "--path", str(SCHEMA), "--meta", "none", "--config", str(config),
                          "--output-path", str(out / PACKAGE)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr  # nothing of the schema left out
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


@pytest.fixture
def server(request, settings):
    """(base URL, httpx arguments): a live server on PostgreSQL; the app in-process on SQLite."""
    settings.DIAMONDS_TURNS_POLL_SECONDS = 0.05
    if connection.vendor == "postgresql":
        return request.getfixturevalue("live_server").url, {}
    return "http://testserver", {"transport": httpx.WSGITransport(app=get_wsgi_application())}


def client_of(generated, server, token: str):
    base, httpx_args = server
    return generated.AuthenticatedClient(base_url=base, token=token, prefix="Token", httpx_args=httpx_args,
                                         raise_on_unexpected_status=True)  # an undocumented status fails the test


def get_operations() -> list[tuple[str, str, str]]:
    """(tag, operationId, path) of every GET operation in the schema."""
    schema = yaml.safe_load(SCHEMA.read_text())
    return [(op["tags"][0], op["operationId"], path)
            for path, item in schema["paths"].items() for method, op in item.items() if method == "get"]


def test_the_client_reads_every_get_operation(generated, server, accounts, django_capture_on_commit_callbacks):
    data = populate(accounts, django_capture_on_commit_callbacks)
    client = client_of(generated, server, data["tokens"]["seat"])  # a seat: it may read legal/ and its turns
    # A club's roster of guests is its organisers' to read (issue 28).
    organiser = client_of(generated, server, data["tokens"]["organiser"])
    organisers_only = {"clubs_guests_list"}
    error_type = importlib.import_module(f"{PACKAGE}.models").Error
    read = []
    for tag, operation_id, path in get_operations():
        call = importlib.import_module(f"{PACKAGE}.api.{tag.replace('-', '_')}.{operation_id}")
        kwargs = {}
        if "{id}" in path:
            known = data["ids"][resource_of(path)]
            kwargs["id"] = known[0] if isinstance(known, list) else known  # matches: the live one, the seat's
        response = call.sync_detailed(client=organiser if operation_id in organisers_only else client, **kwargs)
        parsed = response.parsed
        assert response.status_code == 200, (operation_id, response.status_code, response.content[:500])
        assert parsed is not None and not isinstance(parsed, error_type), (operation_id, parsed)
        read.append(operation_id)
    assert len(read) == len(get_operations()) >= 29

    # The typed answers are the data: standings list their rows, the turns long-poll the seat's turns.
    api = importlib.import_module(f"{PACKAGE}.api")
    tournament = data["ids"]["tournaments"]
    standings = importlib.import_module(f"{api.__name__}.tournaments.tournaments_standings_list").sync(
        id=tournament, client=client)
    assert [row.rank for row in standings] == sorted(row.rank for row in standings) and len(standings) == 4
    rounds = importlib.import_module(f"{api.__name__}.tournaments.tournaments_rounds_list").sync(id=tournament,
                                                                                                client=client)
    assert [r.index for r in rounds] == [0] or [r.index for r in rounds] == [1]
    corrections = importlib.import_module(f"{api.__name__}.matches.matches_corrections_list").sync(
        id=data["ids"]["matches"][1], client=client)
    assert len(corrections) == 1 and corrections[0].reason == "a miscounted showroom"
    turns = importlib.import_module(f"{api.__name__}.me.me_turns_retrieve").sync(client=client, wait=0, legal=True)
    assert isinstance(turns.waited, float) and all(t.match == data["live"] and t.legal.my_turn for t in turns.turns)


def test_a_generated_client_plays_a_whole_ladder_game(generated, server, accounts):
    from diamonds_league_client.api.ladders import ladders_join_create
    from diamonds_league_client.api.matches import matches_decisions_create, matches_retrieve
    from diamonds_league_client.api.me import me_retrieve, me_turns_retrieve
    from diamonds_league_client.models import DecisionRequestRequest, Error, LaddersJoinCreateBody

    ladder = create_ladder(name="Open ladder", table_size=2, club=accounts["club"])
    bot = client_of(generated, server, accounts["tokens"]["ext-1"])
    me = me_retrieve.sync(client=bot)
    assert [p.name for p in me.players] == ["ext-1"]
    # The bot puts its own player in the pool; an organiser adds an engine bot to meet it.
    joined = ladders_join_create.sync(id=ladder.pk, client=bot, body=LaddersJoinCreateBody(players=[me.players[0].id]))
    assert joined.entries == [me.players[0].id]
    organiser = client_of(generated, server, _token(accounts["organiser"]))
    ladders_join_create.sync(id=ladder.pk, client=organiser,
                             body=LaddersJoinCreateBody(players=[accounts["players"]["greedy-1"].pk]))
    me_turns_retrieve.sync(client=bot, wait=0)  # it polls: a ladder seats an external bot only while it does
    assert ladder_tick.apply().get() == {"Open ladder": 1}  # the workers' beat seats the table
    match_id = Match.objects.get(ladder=ladder).pk

    rng, made = random.Random(16), 0
    for _ in range(2000):
        turns = me_turns_retrieve.sync(client=bot, wait=1, legal=True)
        for turn in turns.turns:
            legal = turn.legal
            while legal is not None and legal.my_turn:
                answer = matches_decisions_create.sync(id=turn.match, client=bot, body=DecisionRequestRequest(
                    move_number=legal.move_number, decision=choose(legal, rng), seat=legal.seat))
                assert not isinstance(answer, Error), answer
                made += 1
                legal = answer.legal
        if matches_retrieve.sync(id=match_id, client=bot).status.value != MatchStatus.RUNNING:
            break
    match = Match.objects.get(pk=match_id)
    assert match.status == MatchStatus.FINISHED, match.error
    assert made > 0 and match.match_seats.filter(player=accounts["players"]["ext-1"]).exists()
    assert not me_turns_retrieve.sync(client=bot, wait=0).turns


def choose(legal, rng) -> dict:
    """A random legal decision from the typed `Legal` (Diamonds' passing: `count` of the offered cards)."""
    if legal.pass_cards is not None:
        offer = legal.pass_cards.to_dict()
        return {"kind": "pass_cards", "cards": rng.sample(offer["from"], offer["count"])}
    return rng.choice(legal.decisions).to_dict()


def _token(user) -> str:
    from api.tokens import issue_token

    return issue_token(user)
