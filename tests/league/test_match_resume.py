"""A half-stored match resumes from its rows and finishes exactly as an uninterrupted run; one runner at a time."""

from __future__ import annotations

import random
from datetime import timedelta

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from engine import PASS_CARDS, Decision, IllegalDecision, Ruleset, from_record, to_record
from league.models import Match, MatchStatus
from league.selectors import load_match_game, match_record, stalled_bot_match_ids
from league.services import apply_decision, create_match, create_person_player, play_bot_match
from league.services import play as play_module
from league.services.locks import _lock_key
from league.services.play import StaleMove

from .matches_support import VARIANTS, bot_match, reference_record, stored_tricks


def _expected_tricks(match: Match) -> int:
    ruleset = Ruleset.from_dict(match.ruleset)
    return ruleset.rounds * ruleset.tricks_per_round


@pytest.mark.django_db
@pytest.mark.parametrize("variant, pause_after", [
    ("4p-thief", 1), ("4p-thief", 10), ("5p-choose", 7), ("6p-partners", 23), ("2p", 5), ("3p-perfect", 12),
])
def test_a_paused_match_resumes_to_the_uninterrupted_result(variant, pause_after):
    match = bot_match(VARIANTS[variant], seed=f"resume/{variant}/{pause_after}")
    first = play_bot_match(match_id=match.pk, max_tricks=pause_after)
    assert first.status == "paused" and stored_tricks(match.pk) == pause_after
    second = play_bot_match(match_id=match.pk)
    assert second.status == "finished"
    assert first.tricks_written + second.tricks_written == _expected_tricks(match)
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)


@pytest.mark.django_db
def test_many_short_runs_make_the_same_game_as_one_long_one():
    match = bot_match(VARIANTS["6p-choose"], seed="resume/many")
    statuses = []
    while not statuses or statuses[-1] == "paused":
        statuses.append(play_bot_match(match_id=match.pk, max_tricks=3).status)
    assert statuses[-1] == "finished"
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)


@pytest.mark.django_db
def test_a_run_killed_between_tricks_loses_only_the_unstored_trick(monkeypatch, settings):
    settings.DIAMONDS_BOT_CHECKPOINT_SECONDS = 0  # a checkpoint after every trick
    match = bot_match(VARIANTS["4p-choose"], seed="resume/crash")
    real = play_module.store_progress
    calls = {"n": 0}

    def dies_on_the_ninth_store(**kwargs):
        calls["n"] += 1
        if calls["n"] == 9:
            raise RuntimeError("worker killed")
        return real(**kwargs)

    monkeypatch.setattr(play_module, "store_progress", dies_on_the_ninth_store)
    with pytest.raises(RuntimeError):
        play_bot_match(match_id=match.pk)
    stored = stored_tricks(match.pk)
    assert 0 < stored < _expected_tricks(match)
    monkeypatch.setattr(play_module, "store_progress", real)
    outcome = play_bot_match(match_id=match.pk)
    assert outcome.status == "finished" and stored + outcome.tricks_written == _expected_tricks(match)
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("variant", ["4p-thief", "5p-choose", "4p-partners"])
def test_resume_with_committed_rows(variant):
    # Outside a test transaction, as a worker runs: on PostgreSQL each trick is then one committed statement.
    match = bot_match(VARIANTS[variant], seed=f"committed/{variant}")
    assert play_bot_match(match_id=match.pk, max_tricks=17).status == "paused"
    assert play_bot_match(match_id=match.pk).status == "finished"
    match.refresh_from_db()
    record = match_record(match)
    assert record == reference_record(match)
    assert to_record(from_record(record)) == record


@pytest.mark.django_db
def test_running_twice_finishes_once():
    match = bot_match(VARIANTS["4p-thief"], seed="twice")
    first = play_bot_match(match_id=match.pk)
    second = play_bot_match(match_id=match.pk)
    assert (first.status, second.status) == ("finished", "already_finished")
    assert second.tricks_written == 0
    assert stored_tricks(match.pk) == _expected_tricks(match)


@pytest.mark.django_db(transaction=True)
def test_a_second_runner_is_turned_away_while_the_first_holds_the_match():
    match = bot_match(VARIANTS["4p-thief"], seed="busy")
    if connection.vendor == "postgresql":
        # Another session holds the advisory lock, as a worker playing the match would.
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        other = psycopg.connect(**params, autocommit=True)
        other.execute("SELECT pg_advisory_lock(%s, %s)", _lock_key(match.pk))
    else:
        other = None
        Match.objects.filter(pk=match.pk).update(
            claimed_by="another-worker", lease_expires_at=timezone.now() + timedelta(minutes=5)
        )
    try:
        outcome = play_bot_match(match_id=match.pk, worker="me")
        assert outcome.status == "busy" and outcome.tricks_written == 0
        assert stored_tricks(match.pk) == 0
    finally:
        if other is not None:
            other.execute("SELECT pg_advisory_unlock(%s, %s)", _lock_key(match.pk))
            other.close()
        else:
            Match.objects.filter(pk=match.pk).update(lease_expires_at=timezone.now() - timedelta(seconds=1))
    assert play_bot_match(match_id=match.pk, worker="me").status == "finished"


@pytest.mark.django_db
def test_a_bot_that_cannot_play_fails_its_match():
    match = bot_match(VARIANTS["3p-thief"], seed="fails")
    seat = match.match_seats.get(seat=1)
    seat.player.bot_settings = {"no_such_setting": 1}
    seat.player.save()
    outcome = play_bot_match(match_id=match.pk)
    assert outcome.status == "failed" and "no_such_setting" in outcome.error
    match.refresh_from_db()
    assert match.status == MatchStatus.FAILED
    assert play_bot_match(match_id=match.pk).status == "failed"


@pytest.mark.django_db
def test_stalled_running_bot_matches_are_found():
    match = bot_match(VARIANTS["4p-thief"], seed="stalled")
    play_bot_match(match_id=match.pk, max_tricks=2)
    assert stalled_bot_match_ids(idle_seconds=60) == []
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=5))
    assert stalled_bot_match_ids(idle_seconds=60) == [match.pk]


@pytest.mark.django_db
def test_people_play_one_decision_at_a_time_and_each_is_stored():
    users = [get_user_model().objects.create_user(username=name) for name in ("ann", "bob")]
    players = [create_person_player(user=u) for u in users]
    match = create_match(players=players, ruleset={"players": 2}, seed="people")
    assert play_bot_match(match_id=match.pk).status == "not_all_bots"
    rng = random.Random(7)
    saw_partial_pass = False
    while True:
        match.refresh_from_db()
        game, _ = load_match_game(match)
        assert game.move_number == match.move_number
        if game.over:
            break
        pending = game.pending
        seat = pending.seats[0]
        legal = game.legal(seat)
        if pending.kind == PASS_CARDS:
            saw_partial_pass |= len(pending.seats) == 1
            decision = Decision(PASS_CARDS, tuple(rng.sample(legal, pending.count)))
        else:
            decision = Decision(pending.kind, rng.choice(legal))
        with pytest.raises(StaleMove):
            apply_decision(match=match, seat=seat, decision=decision, move_number=match.move_number + 1)
        apply_decision(match=match, seat=seat, decision=decision, move_number=match.move_number)
    assert saw_partial_pass
    assert match.status == MatchStatus.FINISHED
    record = match_record(match)
    assert to_record(from_record(record)) == record
    with pytest.raises(IllegalDecision):
        apply_decision(match=match, seat=0, decision=Decision.pass_count(1))


@pytest.mark.django_db
def test_an_unknown_match_is_reported_missing():
    assert play_bot_match(match_id=987654321).status == "missing"
