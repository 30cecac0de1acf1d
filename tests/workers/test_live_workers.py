"""Live play with real `celery -A workers worker` processes on PostgreSQL and Redis: a person decides over HTTP, and
a worker plays the engine bots' turns in between (workers.tasks.advance_match) until the match ends.
The embedded equivalent is tests/api/test_play.py."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import Match, MatchStatus
from league.services import create_bot_player, create_match, create_person_player
from league.services.decisions import start_live_match

from ..api.support import choose
from .conftest import wait_for

pytestmark = [pytest.mark.workers, pytest.mark.django_db(transaction=True)]


def test_a_worker_plays_the_bots_between_a_persons_decisions(worker_pool, settings):
    queue = worker_pool.queue
    settings.DIAMONDS_PLAY_QUEUE = queue  # the outbox relay sends to this run's own workers
    worker_pool.start("live1", DIAMONDS_PLAY_QUEUE=queue)
    user = get_user_model().objects.create_user("lee")
    lee = create_person_player(user=user, name="lee")
    bots = [create_bot_player(name="w-greedy", kind="greedy"), create_bot_player(name="w-random", kind="random")]
    match = create_match(players=[bots[0], lee, bots[1]], ruleset={"players": 3}, seed="live-workers")
    start_live_match(match=match)
    client = APIClient()
    client.force_authenticate(user)
    rng = random.Random(4)

    def lees_turn_or_over():
        m = Match.objects.get(pk=match.pk)
        return m.status == MatchStatus.FINISHED or m.match_seats.get(seat=1).awaiting

    for _ in range(200):
        wait_for(lees_turn_or_over, timeout=60, what="lee's turn (the worker plays the bots)")
        if Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED:
            break
        legal = client.get(f"/api/v1/matches/{match.pk}/legal/").json()
        r = client.post(f"/api/v1/matches/{match.pk}/decisions/",
                        {"move_number": legal["move_number"], "decision": choose(legal, rng)}, format="json")
        assert r.status_code == 201, r.content
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.FINISHED, match.error
