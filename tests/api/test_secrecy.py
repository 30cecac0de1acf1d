"""No seat sees another seat's hand, passes or vault before the game ends, through any endpoint.

A match of two people and two external bots is played over HTTP; at many points (every decision of the first
round, which covers partial passes, then every few decisions) every endpoint is read as each seat and as a
spectator, and every card named anywhere in the answers must be one the reader may know: its own dealt hands, the
cards passed to it, and the cards played so far. Every vault (and hands, passes) field must be empty, except the
reader's own vault, and the match's seed (from which every deal follows) must appear nowhere.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from engine import to_record
from league.models import Match
from league.selectors.games import load_match_game

from .conftest import live_match
from .support import choose

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile(r"^[DHSC](1[0-5]|[1-9])$")
SECRET_KEYS = ("hands", "passes", "dealt_hands", "vaults", "passed", "received")
NAMES = ["ann", "ext-1", "bob", "ext-2"]


def known_cards(record: dict, seat: int | None, partnerships: bool) -> set[str]:
    """Every card `seat` (None: a spectator) has seen: its dealt hands, what it received, every card played."""
    n = len(record["seats"])
    seen: set[str] = set()
    for r in record["rounds"]:
        for t in r["tricks"]:
            seen.update(p["card"] for p in t["plays"])
        if seat is None:
            continue
        seen.update(r["hands"][seat])
        if r["passes"] is not None:
            giver = (seat - n // 2) % n if partnerships else (seat - 1) % n
            seen.update(r["passes"][giver])
    return seen


def walk(value, path=""):
    """Yield (path, key, value) for every dict entry and every string, depth first."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from walk(v, f"{path}[{i}]")


def check(responses: dict[str, object], allowed: set[str], own_vault: int | None, who: str, seed: str) -> None:
    for url, body in responses.items():
        assert seed not in json.dumps(body), f"{who} sees the seed (and so every deal) at {url}"
        for path, key, value in walk(body):
            if isinstance(value, str) and CARD.match(value):
                assert value in allowed, f"{who} sees {value} at {url} {path}.{key}"
            if isinstance(value, list):
                for v in value:
                    if isinstance(v, str) and CARD.match(v):
                        assert v in allowed, f"{who} sees {v} at {url} {path}.{key}"
            if key in SECRET_KEYS and key not in ("passed", "received"):
                assert value is None, f"{who} sees {key} at {url} {path}"
            if key == "vault":
                assert value is None or (url.endswith("/state/") and path == "" and value == own_vault), \
                    f"{who} sees a vault at {url} {path}"


def read_everything(client, match_id: int) -> dict[str, object]:
    urls = [f"/api/v1/matches/{match_id}/state/", f"/api/v1/matches/{match_id}/legal/",
            f"/api/v1/matches/{match_id}/record/", f"/api/v1/matches/{match_id}/tricks/?page_size=500",
            f"/api/v1/matches/{match_id}/", "/api/v1/matches/", "/api/v1/matches/?player=1&status=running",
            "/api/v1/me/turns/", "/api/v1/me/turns/?legal=1", "/api/v1/players/", "/api/v1/me/"]
    out = {}
    for url in urls:
        r = client.get(url)
        if r.status_code in (401, 403):
            continue  # a spectator may not ask for legal decisions or turns
        assert r.status_code == 200, (url, r.status_code)
        out[url] = json.loads(r.content)
    return out


def test_no_endpoint_shows_another_seats_hand_or_vault_before_the_end(accounts):
    match = live_match(accounts, NAMES, seed="secrecy")
    clients = [accounts["clients"][n] for n in NAMES]
    rng = random.Random(3)
    decisions = 0
    checked = 0
    while True:
        match = Match.objects.get(pk=match.pk)
        if match.status != "running" and decisions:
            break
        game, _ = load_match_game(match)
        truth = to_record(game)
        if decisions < 30 or decisions % 15 == 0:
            partnerships = bool(truth["ruleset"]["partnerships"])
            for seat, client in enumerate([*clients, accounts["clients"]["anon"]]):
                seat = seat if seat < 4 else None
                allowed = known_cards(truth, seat, partnerships)
                own = game.vault[game.team_of(seat)] if seat is not None else None
                check(read_everything(client, match.pk), allowed, own, NAMES[seat] if seat is not None else "anon",
                      match.seed)
            checked += 1
        pending = game.pending
        seat = pending.seats[rng.randrange(len(pending.seats))]  # passes come in a random order
        legal = clients[seat].get(f"/api/v1/matches/{match.pk}/legal/").json()
        r = clients[seat].post(f"/api/v1/matches/{match.pk}/decisions/",
                               {"move_number": legal["move_number"], "decision": choose(legal, rng)}, format="json")
        assert r.status_code == 201, r.content
        decisions += 1
    assert match.status == "finished" and checked > 35
    # Once it is over, everything is open: the whole record, with hands and passes.
    record = accounts["clients"]["anon"].get(f"/api/v1/matches/{match.pk}/record/").json()
    assert record["rounds"][0]["hands"] and record["rounds"][0]["passes"] and record["result"]
