"""The number of database statements live play costs per request, pinned on PostgreSQL so it cannot creep back.

A decision is the load benchmark's hot path (tools/bench/api.py): every statement is a round trip and, through the ORM,
CPU. On PostgreSQL a POST decisions/ is: the token and its account (1), BEGIN, the match row locked (1), its seats
(1), the step (one small row appended) with its awaited-seat flags as one statement (league.services.progress),
COMMIT: 6. A legal/ read is
the token (1) and the caller's seats with their match (1), its game coming from the process's GAME_CACHE. The last
decision of a match (its seats' results) and ones that hand engine bots their turns do more, and are not played
here: the four seats are external bots'.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection

from api.tokens import issue_token
from league.models import Match, MatchSeat, MatchStep
from league.services import create_match, presence
from league.services.decisions import advance_match
from league.services.players import create_external_bot

from .conftest import client_for
from .support import choose

POST_QUERIES = 6
LEGAL_QUERIES = 2


@pytest.mark.django_db(transaction=True)
def test_a_decision_and_a_legal_read_cost_a_fixed_handful_of_statements(django_assert_max_num_queries, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("the one-statement step is PostgreSQL's; SQLite writes through the ORM")
    bots = [create_external_bot(name=f"counted-{i}") for i in range(4)]
    clients = [client_for(token=issue_token(b.user)) for b in bots]
    # A bot's presence costs a write about once a minute (league.services.presence): each is seen once here, by its
    # first poll, and not again however long the run takes, so what is counted is the decision's own cost.
    monkeypatch.setattr(presence, "SEEN_EVERY_SECONDS", 10**9)
    for client in clients:
        assert client.get("/api/v1/me/turns/?wait=0").status_code == 200
    match = create_match(players=bots, ruleset={"players": 4}, seed="counted")
    advance_match(match_id=match.pk)
    rng = random.Random(3)
    pending = clients[0].get(f"/api/v1/matches/{match.pk}/state/").json()["pending"]
    kinds = set()
    for _ in range(80):  # the pass count, the passes, and a few tricks of the first round (under 150 decisions)
        seat = pending["seats"][0]
        with django_assert_max_num_queries(LEGAL_QUERIES):
            legal = clients[seat].get(f"/api/v1/matches/{match.pk}/legal/").json()
        decision = choose(legal, rng)
        kinds.add(decision["kind"])
        with django_assert_max_num_queries(POST_QUERIES):
            response = clients[seat].post(f"/api/v1/matches/{match.pk}/decisions/",
                                          {"move_number": legal["move_number"], "decision": decision}, format="json")
        assert response.status_code == 201, response.content
        pending = response.json()["pending"]
    assert {"pass_count", "pass_cards", "play"} <= kinds
    # What was written in those few statements is all there: the match's move number, the tricks, the flags.
    stored = Match.objects.get(pk=match.pk)
    assert stored.move_number == response.json()["move_number"]
    assert MatchStep.objects.filter(match=stored).count() == stored.move_number  # one small row a decision
    awaited = set(MatchSeat.objects.filter(match=stored, awaiting=True).values_list("seat", flat=True))
    assert awaited == set(pending["seats"])
