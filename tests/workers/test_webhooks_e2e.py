"""End to end: a local receiver (http.server in a thread) gets the signed events of a real small tournament, in
order, each signature verified as api/README.md tells receivers to. Embedded: the embedded beat's webhook sweep
sends them. With REDIS_URL and DATABASE_URL: real `celery -A workers worker` processes play the tournament and send
them right after each commit."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import DeliveryStatus, Match, WebhookDelivery
from league.services import create_club
from league.services.advancing import start_tournament
from league.services.players import add_club_admin
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament
from league.services.webhooks import create_endpoint
from workers.embedded_beat import EmbeddedBeat

from ..league.tournament_support import bot_field
from ..league.webhook_receiver import Receiver
from .conftest import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

EVENTS = ["match.started", "match.finished", "round.seated", "tournament.finished"]


def organised_tournament(receiver: Receiver):
    club = create_club(name="hooks club")
    organiser = get_user_model().objects.create_user("olga")
    add_club_admin(club=club, user=organiser)
    endpoint = create_endpoint(owner=organiser, url=receiver.url, events=EVENTS)
    receiver.secret = endpoint.secret
    t = create_tournament(name="hooked", rounds=2, table_size=2, seed="hooks", club=club,
                          ruleset={"rounds": 1})
    register_players(tournament=t, players=bot_field(4, prefix="hk"))
    return t


def assert_in_order(received: list[dict], t) -> None:
    assert received and all(r["verified"] for r in received)
    events = [(r["event"], r["body"]["data"]) for r in received]
    assert [int(r["delivery"]) for r in received] == sorted(int(r["delivery"]) for r in received)
    assert len({r["body"]["id"] for r in received}) == len(received)  # each event once
    assert events[-1][0] == "tournament.finished" and events[-1][1]["tournament_id"] == t.pk
    seated = [i for i, (e, _) in enumerate(events) if e == "round.seated"]
    assert [events[i][1]["round_number"] for i in seated] == [1, 2]
    for number, at in zip((1, 2), seated, strict=True):
        matches = set(Match.objects.filter(tournament_round__tournament=t, tournament_round__index=number)
                      .values_list("pk", flat=True))
        assert {t_["match_id"] for t_ in events[at][1]["tables"]} == matches
        for match_id in matches:
            started = [i for i, (e, d) in enumerate(events) if e == "match.started" and d["match_id"] == match_id]
            finished = [i for i, (e, d) in enumerate(events) if e == "match.finished" and d["match_id"] == match_id]
            assert len(started) == len(finished) == 1 and at < started[0] < finished[0]
    assert not WebhookDelivery.objects.exclude(status=DeliveryStatus.DELIVERED).exists()


def test_embedded_beat_delivers_a_tournaments_events_in_order(settings):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True
    with Receiver(fail_first=1) as receiver:  # the first POST fails: retried after 10 s, the rest wait behind it
        t = organised_tournament(receiver)
        start_tournament(tournament=t)  # eager: the whole tournament is played as this commits
        beat = EmbeddedBeat({"deliver-webhooks": settings.CELERY_BEAT_SCHEDULE["deliver-webhooks"]}, relay=False)
        beat.run_due()
        assert receiver.received == []
        first = WebhookDelivery.objects.order_by("pk").first()
        assert first.attempts == 1 and first.last_status_code == 500
        WebhookDelivery.objects.filter(pk=first.pk).update(next_attempt_at=first.created_at)  # as 10 s later
        beat.entries[0].last_run_at = None
        beat.run_due()
        assert_in_order(receiver.received, t)


@pytest.mark.workers
def test_real_workers_deliver_a_tournaments_events_in_order(worker_pool, settings):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True
    settings.DIAMONDS_PLAY_QUEUE = settings.DIAMONDS_NOTIFY_QUEUE = worker_pool.queue
    env = {"DIAMONDS_PLAY_QUEUE": worker_pool.queue, "DIAMONDS_NOTIFY_QUEUE": worker_pool.queue,
           "DIAMONDS_WEBHOOKS_ALLOW_PRIVATE": "1"}
    worker_pool.start("h1", **env)
    worker_pool.start("h2", **env)
    with Receiver() as receiver:
        t = organised_tournament(receiver)
        start_tournament(tournament=t)
        wait_for(lambda: any(r["event"] == "tournament.finished" for r in receiver.received), timeout=120,
                 what="tournament.finished at the receiver", interval=0.2)
        assert_in_order(receiver.received, t)
