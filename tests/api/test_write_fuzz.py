"""Property-based fuzz of the JSON bodies of the write endpoints (hypothesis): whatever JSON an organiser or a seat
sends, shaped like the endpoint's body or not, the answer is never a 5xx. The values mix what breaks storage and
parsing: NUL and lone surrogates in keys and text, integers far past 64 bits, huge and tiny floats, deep nesting.

Kept small for CI (DIAMONDS_WRITE_FUZZ_EXAMPLES per endpoint, 15 by default); raise it for a longer hunt.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.services.leagues import create_league
from league.services.tournament_setup import create_tournament

from .conftest import live_match

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("DIAMONDS_WRITE_FUZZ_EXAMPLES", "15"))

text = st.one_of(st.text(max_size=12), st.text(st.characters(codec=None), max_size=6),
                 st.sampled_from(["", "\x00", "a\x00b", "\ud800", "=cmd|x", "x" * 300, "random", "greedy",
                                  "diamonds", "person", "engine_bot", "external_bot", "points", "forfeit"]))
number = st.one_of(st.integers(), st.integers(min_value=-(2**70), max_value=2**70), st.sampled_from(
    [0, 1, -1, 2**31, 2**63, 10**40]), st.floats(allow_nan=False, allow_infinity=False))
scalar = st.one_of(st.none(), st.booleans(), number, text)
value = st.recursive(scalar, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(text, inner, max_size=4)), max_leaves=12)

# The keys each endpoint reads: a body shaped like the real one reaches past the first refusal.
BODIES = {
    "players": ["kind", "name", "club", "username", "bot_kind", "bot_settings"],
    "matches": ["players", "game", "ruleset", "club", "seed", "turn_deadline_seconds", "deadline_fallback"],
    "tournaments": ["name", "club", "season", "game", "ruleset", "format", "rounds", "table_size", "match_points",
                    "tiebreaks", "auto_advance", "rated", "turn_deadline_seconds", "deadline_action",
                    "deadline_fallback"],
    "entries": ["players", "teams"],
    "leagues": ["club", "name"],
    "seasons": ["league", "name", "starts_on", "ends_on"],
    "ladders": ["name", "club", "game", "ruleset", "table_size", "rating_model", "max_tables_per_tick", "active"],
    "members": ["player"],
    "admins": ["username"],
    "corrections": ["reason", "vault", "showroom", "score"],
    "deadline": ["turn_deadline_seconds", "deadline_fallback", "deadline_action"],
    "decisions": ["move_number", "decision", "seat"],
    "join": ["players"],
    "withdraw": ["player"],
}


def bodies(keys: list[str]):
    shaped = st.fixed_dictionaries({}, optional={k: value for k in keys})
    return st.one_of(shaped, shaped, value)


@pytest.fixture
def world(accounts):
    club = accounts["club"].pk
    tournament = create_tournament(name="fuzz", rounds=1, club=accounts["club"])
    league = create_league(club=accounts["club"], name="fuzz")
    match = live_match(accounts, ["ext-1", "greedy-1"])
    ladder = accounts["clients"]["organiser"].post("/api/v1/ladders/", {"name": "fuzz", "club": club},
                                                   format="json").json()["id"]
    return {"accounts": accounts, "urls": {
        "players": ("post", "/api/v1/players/"), "matches": ("post", "/api/v1/matches/"),
        "tournaments": ("post", "/api/v1/tournaments/"),
        "tournament-patch": ("patch", f"/api/v1/tournaments/{tournament.pk}/"),
        "entries": ("post", f"/api/v1/tournaments/{tournament.pk}/entries/"),
        "withdraw": ("post", f"/api/v1/tournaments/{tournament.pk}/withdraw/"),
        "leagues": ("post", "/api/v1/leagues/"), "seasons": ("post", "/api/v1/seasons/"),
        "league-patch": ("patch", f"/api/v1/leagues/{league.pk}/"),
        "ladders": ("post", "/api/v1/ladders/"), "ladder-patch": ("patch", f"/api/v1/ladders/{ladder}/"),
        "join": ("post", f"/api/v1/ladders/{ladder}/join/"),
        "members": ("post", f"/api/v1/clubs/{club}/members/"), "admins": ("post", f"/api/v1/clubs/{club}/admins/"),
        "corrections": ("post", f"/api/v1/matches/{match.pk}/corrections/"),
        "deadline": ("post", f"/api/v1/matches/{match.pk}/deadline/"),
        "decisions": ("post", f"/api/v1/matches/{match.pk}/decisions/"),
    }}


ENDPOINTS = {"players": "players", "matches": "matches", "tournaments": "tournaments",
             "tournament-patch": "tournaments", "entries": "entries", "withdraw": "withdraw", "leagues": "leagues",
             "seasons": "seasons", "league-patch": "leagues", "ladders": "ladders", "ladder-patch": "ladders",
             "join": "join", "members": "members", "admins": "admins", "corrections": "corrections",
             "deadline": "deadline", "decisions": "decisions"}


@pytest.mark.parametrize("endpoint", list(ENDPOINTS))
def test_no_json_body_gets_a_server_error(world, endpoint):
    method, url = world["urls"][endpoint]
    # The seat's account decides; the organiser does everything else.
    client = world["accounts"]["clients"]["ext-1" if endpoint == "decisions" else "organiser"]

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(body=bodies(BODIES[ENDPOINTS[endpoint]]))
    def send(body):
        raw = json.dumps(body)  # ASCII: lone surrogates travel as \\ud800 escapes, as a hostile client sends them
        response = client.generic(method.upper(), url, raw, content_type="application/json")
        assert response.status_code < 500, (endpoint, raw[:300], response.content[:300])

    send()
