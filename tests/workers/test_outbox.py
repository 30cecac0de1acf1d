"""The transactional outbox (league.services.outbox, workers.outbox), in this process: work is recorded with the change
that calls for it; a send that fails is kept and sent again; a message delivered twice has one effect; a row sent but
never carried out is sent again unless a live lease shows its match is being played; and while Redis is down the web
keeps serving reads and takes decisions, whose follow-ups go out when the broker is back."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

import workers.outbox
from league.models import (
    Match,
    MatchStatus,
    OutboxKind,
    OutboxMessage,
    RatingHistory,
    RoundStatus,
    Tournament,
    TournamentStatus,
)
from league.selectors import match_record
from league.selectors.records import match_tricks
from league.services import outbox
from league.services.advancing import start_tournament
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament
from workers.tasks import run_match

from ..api.conftest import _fast_passwords, accounts, client_for, live_match  # noqa: F401 (fixtures)
from ..api.support import choose
from ..league.matches_support import reference_record
from ..league.tournament_support import bot_field

SMALL = {"rounds": 1, "hand_size": 4}


@pytest.fixture(autouse=True)
def _broker_answers():
    workers.outbox._broker_down_until = 0.0
    yield
    workers.outbox._broker_down_until = 0.0


def _broker_down(monkeypatch) -> list:
    """Make every send fail as kombu fails when Redis is unreachable; returns the attempts."""
    attempts = []

    def refused(message):
        attempts.append(message.pk)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(workers.outbox, "send", refused)
    return attempts


def _time_passes() -> None:
    """Every waiting row's time to be (re)sent has come (instead of sleeping through the backoff)."""
    OutboxMessage.objects.filter(done_at__isnull=True).update(send_after=timezone.now() - timedelta(seconds=1))


def _cup(name: str, rounds: int = 2) -> Tournament:
    t = create_tournament(name=name, rounds=rounds, table_size=2, seed=name, ruleset=SMALL)
    register_players(tournament=t, players=bot_field(4, prefix=name))
    return t


@pytest.mark.django_db(transaction=True)
def test_a_round_started_while_the_broker_is_down_is_played_when_it_is_back(monkeypatch):
    attempts = _broker_down(monkeypatch)
    t = _cup("outage")
    start_tournament(tournament=t)  # commits: the round and its two outbox rows, though nothing can be sent
    rows = list(OutboxMessage.objects.order_by("pk"))
    assert [r.kind for r in rows] == [OutboxKind.PLAY_MATCH] * 2
    assert attempts == [rows[0].pk]  # the first send failed, and the fast path stood aside for the rest
    first = OutboxMessage.objects.get(pk=rows[0].pk)
    assert first.sent_at is None and first.done_at is None and "Connection refused" in first.last_error
    assert first.send_after > timezone.now()  # backing off
    assert set(Match.objects.values_list("status", flat=True)) == {MatchStatus.PENDING}

    _time_passes()
    assert workers.outbox.relay().failed == 1  # still down: kept again
    assert OutboxMessage.objects.get(pk=rows[0].pk).sends == 2

    monkeypatch.undo()  # the broker is back (eager here: sending plays the match in this process)
    _time_passes()
    report = workers.outbox.relay()
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    assert report.sent == 4  # two tables of round 1, then the two of round 2, recorded as round 1 closed
    assert not OutboxMessage.objects.filter(done_at__isnull=True).exists()
    assert set(Match.objects.values_list("status", flat=True)) == {MatchStatus.FINISHED}


@pytest.mark.django_db(transaction=True)
def test_work_is_recorded_only_if_its_change_commits(monkeypatch):
    sent = []
    monkeypatch.setattr(workers.outbox, "send", lambda message: sent.append(message.match_id))
    t = _cup("rolled-back")
    with pytest.raises(RuntimeError), transaction.atomic():
        start_tournament(tournament=t)
        raise RuntimeError("the change fails after the round was started")
    assert not OutboxMessage.objects.exists() and sent == []
    assert not t.tournament_rounds.exists()


@pytest.mark.django_db(transaction=True)
def test_a_message_delivered_twice_has_one_effect(monkeypatch):
    held = []
    monkeypatch.setattr(workers.outbox, "send", held.append)  # the broker takes the messages; nobody runs them yet
    t = _cup("twice", rounds=1)
    start_tournament(tournament=t)
    assert len(held) == 2
    message = held[0]
    first = run_match.apply((message.match_id,), {"message_id": message.pk}).get()
    second = run_match.apply((message.match_id,), {"message_id": message.pk}).get()  # the broker's redelivery
    match = Match.objects.get(pk=message.match_id)
    assert first["status"] == "finished" and first["tricks_written"] == len(match_tricks(match)) > 0
    assert second["status"] == "already_finished" and second["tricks_written"] == 0
    assert RatingHistory.objects.filter(match=match).count() == 2  # rated once
    assert OutboxMessage.objects.get(pk=message.pk).done_at is not None
    assert match_record(match) == reference_record(match)
    rnd = t.tournament_rounds.get()
    assert rnd.status == RoundStatus.RUNNING  # the other table has not been played
    other = held[1]
    for _ in range(2):
        run_match.apply((other.match_id,), {"message_id": other.pk}).get()
    rnd.refresh_from_db()
    t.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED and t.status == TournamentStatus.FINISHED
    assert RatingHistory.objects.count() == 4


@pytest.mark.django_db(transaction=True)
def test_a_sent_row_not_carried_out_is_sent_again_unless_a_live_lease_holds_its_match(monkeypatch, settings):
    lost = []
    monkeypatch.setattr(workers.outbox, "send", lost.append)  # sent, and the message is lost with the broker
    t = _cup("lost", rounds=1)
    start_tournament(tournament=t)
    assert len(lost) == 2 and workers.outbox.relay().sent == 0  # not due again yet
    row = OutboxMessage.objects.get(pk=lost[0].pk)
    assert row.sent_at is not None and row.done_at is None
    assert row.send_after >= row.sent_at + timedelta(seconds=settings.DIAMONDS_OUTBOX_RESEND_SECONDS - 1)

    # One match is being played by a live worker (its lease runs); the other's worker died (its lease lapsed).
    now = timezone.now()
    Match.objects.filter(pk=lost[0].match_id).update(status=MatchStatus.RUNNING, claimed_by="alive:1",
                                                       lease_expires_at=now + timedelta(seconds=10))
    Match.objects.filter(pk=lost[1].match_id).update(status=MatchStatus.RUNNING, claimed_by="dead:2",
                                                       lease_expires_at=now - timedelta(seconds=1))
    _time_passes()
    resent = []
    monkeypatch.setattr(workers.outbox, "send", resent.append)
    assert workers.outbox.relay().sent == 1
    assert [m.match_id for m in resent] == [lost[1].match_id]
    assert OutboxMessage.objects.get(pk=lost[1].pk).sends == 2


@pytest.mark.django_db(transaction=True)
def test_two_relays_do_not_send_one_row_twice(monkeypatch):
    sent = []
    monkeypatch.setattr(workers.outbox, "send", sent.append)
    start_tournament(tournament=_cup("two-relays", rounds=1))
    OutboxMessage.objects.update(sent_at=None)  # as if the fast path had not sent them
    _time_passes()
    rows = outbox.due_messages()
    assert len(rows) == 2
    assert outbox.claim_for_sending(message_id=rows[0].pk)
    assert not outbox.claim_for_sending(message_id=rows[0].pk)  # the second relay finds it taken


@pytest.mark.django_db(transaction=True)
def test_while_redis_is_down_the_web_reads_and_takes_decisions_and_the_follow_up_waits(monkeypatch, settings,
                                                                                      accounts):  # noqa: F811
    from django.core.cache import cache

    # The cache on a Redis that does not answer (nothing listens on port 1), as when Redis is stopped.
    settings.CACHES = {"default": {"BACKEND": "runtime.cache.FailSoftRedisCache", "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2}}}
    match = live_match(accounts, ["ann", "greedy-1", "random-1"])
    attempts = _broker_down(monkeypatch)
    ann = accounts["clients"]["ann"]
    anon = accounts["clients"]["anon"]
    rng = random.Random(3)
    assert anon.get(f"/api/v1/matches/{match.pk}/").status_code == 200
    made = 0
    while not OutboxMessage.objects.filter(match=match, done_at__isnull=True).exists():
        # ann decides until a decision of hers leaves the engine bots to play, which a worker must do
        legal = ann.get(f"/api/v1/matches/{match.pk}/legal/").json()
        assert legal["my_turn"] and made < 50
        response = ann.post(f"/api/v1/matches/{match.pk}/decisions/",
                            {"move_number": legal["move_number"], "decision": choose(legal, rng)}, format="json")
        assert response.status_code == 201, response.content  # throttled through the fallback cache, and stored
        made += 1
    assert cache.degraded
    stored = Match.objects.get(pk=match.pk)
    assert stored.move_number == legal["move_number"] + 1
    waiting = OutboxMessage.objects.get(match=match, done_at__isnull=True)
    assert waiting.kind == OutboxKind.ADVANCE_MATCH and waiting.sent_at is None and attempts == [waiting.pk]
    assert not ann.get(f"/api/v1/matches/{match.pk}/legal/").json()["my_turn"]  # the bots' turn, waiting
    health = anon.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "degraded"
    assert health.json()["checks"]["cache"] == "failing"

    monkeypatch.undo()  # the broker is back: the relay sends the advance, and the engine bots play
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    _time_passes()
    assert workers.outbox.relay().sent == 1
    after = Match.objects.get(pk=match.pk)
    assert after.move_number > stored.move_number or after.status == MatchStatus.FINISHED
    assert OutboxMessage.objects.get(pk=waiting.pk).done_at is not None
    assert ann.get(f"/api/v1/matches/{match.pk}/legal/").json()["my_turn"] or after.status == MatchStatus.FINISHED


@pytest.mark.django_db(transaction=True)
def test_the_admin_lists_waiting_rows_with_why_their_send_failed(monkeypatch, admin_client):
    _broker_down(monkeypatch)
    start_tournament(tournament=_cup("admin-view", rounds=1))
    page = admin_client.get("/admin/league/outboxmessage/?done_at__isempty=1")
    assert page.status_code == 200
    assert b"Connection refused" in page.content and b"play_match" in page.content
    row = OutboxMessage.objects.first()
    assert admin_client.post(f"/admin/league/outboxmessage/{row.pk}/change/", {"sends": 0}).status_code == 403


# ---- bot matches due together go out as a few tasks (workers.outbox.batches, workers.tasks.run_matches) -----------

def test_batches_cut_matches_in_order_at_most_so_many_a_task_and_never_fewer_tasks_than_the_spread():
    ids = list(range(1, 101))
    cut = workers.outbox.batches(ids, most=8, spread=4)
    assert [pk for batch in cut for pk in batch] == ids  # every match once, in order
    assert len(cut) == 13 and max(map(len, cut)) == 8 and min(map(len, cut)) == 7  # evenly, not 8 * 12 + 4
    assert workers.outbox.batches(ids[:10], most=8, spread=4) == [[1, 2, 3], [4, 5, 6], [7, 8], [9, 10]]
    assert workers.outbox.batches(ids[:3], most=8, spread=16) == [[1], [2], [3]]  # a small round: a worker each
    assert workers.outbox.batches(ids[:5], most=1, spread=1) == [[1], [2], [3], [4], [5]]
    assert workers.outbox.batches([], most=8, spread=4) == []


def _ladder_matches(n: int, prefix: str) -> list[Match]:
    from league.services import create_match

    players = bot_field(2, prefix=prefix)
    return [create_match(players=players, ruleset={"players": 2, **SMALL}, seed=f"{prefix}/{i}") for i in range(n)]


@pytest.mark.django_db(transaction=True)
def test_the_relay_sends_many_bot_matches_as_batches_and_each_is_played_once(monkeypatch, settings):
    settings.DIAMONDS_PLAY_BATCH, settings.DIAMONDS_PLAY_SPREAD = 3, 2
    matches = _ladder_matches(7, "batched")
    batches, singles = [], []
    monkeypatch.setattr(workers.outbox, "send_batch", lambda rows, queue: batches.append((queue, rows)))
    monkeypatch.setattr(workers.outbox, "send", singles.append)
    outbox.record_many(kind=OutboxKind.PLAY_MATCH, match_ids=[m.pk for m in matches])  # relayed after commit
    assert singles == [] and [len(rows) for _, rows in batches] == [3, 2, 2]
    assert {queue for queue, _ in batches} == {settings.DIAMONDS_PLAY_QUEUE}
    rows = [m for _, batch in batches for m in batch]
    assert [m.match_id for m in rows] == [m.pk for m in matches]
    assert not OutboxMessage.objects.filter(sent_at__isnull=True).exists()
    assert workers.outbox.relay().sent == 0  # sent, not due again yet

    # The worker plays a batch; the broker delivers it again (a redelivery after a lost acknowledgement).
    from workers.tasks import run_matches

    first_batch = [[m.match_id, m.pk] for m in batches[0][1]]
    first = run_matches.apply((first_batch,)).get()
    again = run_matches.apply((first_batch,)).get()
    assert [o["status"] for o in first] == ["finished"] * 3 and all(o["tricks_written"] > 0 for o in first)
    assert [o["status"] for o in again] == ["already_finished"] * 3 and all(o["tricks_written"] == 0 for o in again)
    for match_id, message_id in first_batch:
        match = Match.objects.get(pk=match_id)
        assert match.status == MatchStatus.FINISHED and match_record(match) == reference_record(match)
        assert OutboxMessage.objects.get(pk=message_id).done_at is not None
    # The other batches' rows wait for their workers, and are sent again only once their time comes.
    assert OutboxMessage.objects.filter(done_at__isnull=True).count() == 4


@pytest.mark.django_db(transaction=True)
def test_a_batch_the_broker_refuses_is_kept_and_the_rest_of_the_page_stays_due(monkeypatch, settings):
    settings.DIAMONDS_PLAY_BATCH, settings.DIAMONDS_PLAY_SPREAD = 3, 1
    matches = _ladder_matches(6, "refused")
    tried = []

    def refused(rows, queue):
        tried.append([m.pk for m in rows])
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(workers.outbox, "send_batch", refused)
    with transaction.atomic():
        for m in matches:
            outbox.record(kind=OutboxKind.PLAY_MATCH, match_id=m.pk)
    assert len(tried) == 1 and len(tried[0]) == 3  # the first batch failed; the fast path stood aside
    refused_rows = OutboxMessage.objects.filter(pk__in=tried[0])
    assert all(r.sent_at is None and "Connection refused" in r.last_error and r.sends == 1 for r in refused_rows)
    rest = OutboxMessage.objects.exclude(pk__in=tried[0])
    assert all(r.sends == 0 and r.last_error == "" for r in rest)  # never claimed: due as they were
    assert {r.pk for r in outbox.due_messages()} == {r.pk for r in rest}

    monkeypatch.undo()  # the broker is back (eager: sending plays the matches here)
    _time_passes()
    report = workers.outbox.relay()
    assert report.sent == 6 and report.failed == 0
    assert set(Match.objects.values_list("status", flat=True)) == {MatchStatus.FINISHED}
    assert not OutboxMessage.objects.filter(done_at__isnull=True).exists()
