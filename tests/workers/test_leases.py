"""Leases (league.services.locks): a worker playing a match renews its lease with every stored step, and a match whose
worker died (its lease lapsed) is sent to another worker by the outbox relay, which resumes it from the stored state
to the same result as an uninterrupted run. In this process; the real-process take-over is tests/workers/test_chaos.py
and test_worker_processes.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import league.services.play as play_module
import workers.outbox
from league.models import Match, MatchStatus, OutboxKind, OutboxMessage
from league.selectors import match_record
from league.services import outbox, play_bot_match

from ..league.matches_support import VARIANTS, bot_match, reference_record

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_playing_worker_renews_its_lease_with_every_stored_step(monkeypatch, settings):
    settings.DIAMONDS_BOT_CHECKPOINT_SECONDS = 0  # a checkpoint after every trick, as slow bots would take them
    match = bot_match(VARIANTS["4p-thief"], seed="lease-renewed")
    seen = []
    real = play_module.store_progress

    def watching(**kwargs):
        stored = Match.objects.get(pk=match.pk)
        seen.append((timezone.now(), stored.lease_expires_at, kwargs["extra"]["lease_expires_at"]))
        return real(**kwargs)

    monkeypatch.setattr(play_module, "store_progress", watching)
    assert play_bot_match(match_id=match.pk, worker="w:1", max_tricks=5).status == "paused"
    assert len(seen) >= 5  # a checkpoint per trick (and one at the first lead)
    for now, held, renewed in seen:
        assert held is not None and held > now  # the lease is live while the worker plays
        assert renewed >= now + timedelta(seconds=settings.DIAMONDS_LEASE_SECONDS - 1)
    assert [r for _, _, r in seen] == sorted(r for _, _, r in seen)
    match.refresh_from_db()
    assert match.claimed_by == "w:1" and match.lease_expires_at is None  # given back when it stopped


def test_a_match_of_quick_bots_is_stored_once_as_it_ends(monkeypatch, settings):
    """With checkpoints the default seconds apart, a match played in milliseconds is one write (its play, result and
    seats), which is what lets the workers play many a second."""
    match = bot_match(VARIANTS["4p-thief"], seed="stored-once")
    stores = []
    real = play_module.store_progress
    monkeypatch.setattr(play_module, "store_progress", lambda **kwargs: stores.append(1) or real(**kwargs))
    assert settings.DIAMONDS_BOT_CHECKPOINT_SECONDS >= 1
    assert play_bot_match(match_id=match.pk).status == "finished"
    assert len(stores) == 1
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)


def test_a_match_whose_worker_died_is_taken_over_and_ends_as_if_nothing_happened(monkeypatch):
    match = bot_match(VARIANTS["4p-thief"], seed="lease-lapsed")
    sent = []
    monkeypatch.setattr(workers.outbox, "send", sent.append)
    outbox.record_many(kind=OutboxKind.PLAY_MATCH, match_ids=[match.pk])  # sent; the worker took it ...
    assert len(sent) == 1
    play_bot_match(match_id=match.pk, worker="doomed:1", max_tricks=7)
    # ... and died mid-match (kill -9): its last renewal stays on the row and lapses.
    Match.objects.filter(pk=match.pk).update(claimed_by="doomed:1", lease_expires_at=timezone.now() + timedelta(
        seconds=30))
    OutboxMessage.objects.update(send_after=timezone.now() - timedelta(seconds=1))
    assert workers.outbox.relay().sent == 0  # its lease still runs: not sent again yet
    Match.objects.filter(pk=match.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    monkeypatch.undo()
    assert workers.outbox.relay().sent == 1  # lapsed: another worker (this process, eager) takes it over
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.lease_expires_at is None
    assert match_record(match) == reference_record(match)
    assert OutboxMessage.objects.get().done_at is not None
