"""The embedded beat (workers/embedded_beat.py): with no broker the web process runs beat's own schedule, so a
ladder is seated and played with nothing configured; never with a broker, never in the tests unless asked."""

from __future__ import annotations

import fcntl
import threading

import pytest
from django.conf import settings
from django.test import override_settings

from league.models import Match, MatchStatus
from league.services.ladders import create_ladder, join_ladder
from workers import app, embedded_beat
from workers.embedded_beat import EmbeddedBeat

from ..league.tournament_support import bot_field


def test_it_reads_the_one_beat_schedule_and_every_task_exists():
    beat = EmbeddedBeat()
    assert [e.name for e in beat.entries] == [*settings.CELERY_BEAT_SCHEDULE, "outbox-relay"]
    assert {e.task for e in beat.entries if e.function is None} <= set(app.tasks)
    assert {"workers.tasks.ladder_tick", "workers.tasks.enforce_turn_deadlines"} <= {e.task for e in beat.entries}


@pytest.mark.django_db(transaction=True)  # the tick's matches are sent on commit, as in the web process
def test_a_ladder_is_seated_and_played_by_the_schedule_and_not_again_before_the_next_tick():
    ladder = create_ladder(name="embedded", table_size=4)
    join_ladder(ladder=ladder, players=bot_field(4))
    beat = EmbeddedBeat({"ladder-tick": settings.CELERY_BEAT_SCHEDULE["ladder-tick"]})
    wait = beat.run_due()  # never run here: due at once
    match = Match.objects.get(ladder=ladder)
    assert match.status == MatchStatus.FINISHED
    assert 0 < wait <= float(settings.CELERY_BEAT_SCHEDULE["ladder-tick"]["schedule"])
    beat.run_due()  # not due yet: no second table
    assert Match.objects.filter(ladder=ladder).count() == 1


@pytest.mark.django_db
def test_a_failing_entry_does_not_stop_the_others(monkeypatch):
    ran = []

    @app.task(name="tests.embedded_beat.boom")
    def boom():
        raise RuntimeError("a broken sweep")

    @app.task(name="tests.embedded_beat.fine")
    def fine():
        ran.append("fine")

    beat = EmbeddedBeat({"boom": {"task": boom.name, "schedule": 60.0},
                         "fine": {"task": fine.name, "schedule": 60.0}})
    beat.run_due()
    assert ran == ["fine"]
    assert all(e.last_run_at is not None for e in beat.entries)


@pytest.mark.django_db(transaction=True)
def test_the_relay_sweep_sends_an_outbox_row_left_unsent(monkeypatch):
    """What the Procfile's relay process does: a row whose send after commit failed is sent by the next sweep."""
    from league.models import OutboxMessage
    from league.services.matches import create_match

    match = create_match(players=bot_field(4), ruleset={"players": 4, "rounds": 1})
    OutboxMessage.objects.all().delete()
    # A row written as outbox.record writes it, whose send after commit never happened (a crash, a broker outage).
    OutboxMessage.objects.create(kind="play_match", match=match)
    assert Match.objects.get(pk=match.pk).status != MatchStatus.FINISHED
    beat = EmbeddedBeat({}, relay=True)
    assert [e.name for e in beat.entries] == ["outbox-relay"]
    beat.run_due()
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED


def test_never_with_a_broker_nor_when_turned_off(monkeypatch):
    monkeypatch.setattr(embedded_beat, "_started", None)
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False, DIAMONDS_EMBEDDED_BEAT=True):
        assert embedded_beat.start_embedded_beat() is None  # the real `celery beat` does it
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True, DIAMONDS_EMBEDDED_BEAT=False):
        assert embedded_beat.start_embedded_beat() is None


def test_the_tests_run_no_schedule_of_their_own():
    assert not settings.DIAMONDS_EMBEDDED_BEAT or embedded_beat._started is None
    assert "embedded-beat" not in {t.name for t in threading.enumerate()}


def test_a_second_process_on_the_same_database_leaves_the_schedule_to_the_first(monkeypatch, tmp_path):
    """Several web processes (gunicorn's workers) on one embedded database: one runs the schedule."""
    lock = tmp_path / "db.sqlite3.beat.lock"
    monkeypatch.setattr(embedded_beat, "_lock_path", lambda: lock)
    monkeypatch.setattr(embedded_beat, "_started", None)
    with open(lock, "a") as other_process:
        fcntl.flock(other_process, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another open file: as another process would
        with override_settings(CELERY_TASK_ALWAYS_EAGER=True, DIAMONDS_EMBEDDED_BEAT=True):
            assert embedded_beat.start_embedded_beat() is None


def test_when_the_process_running_the_schedule_is_killed_the_next_one_takes_it_over(monkeypatch, tmp_path):
    """The lock is the operating system's (flock): it goes with a killed process, never left behind in a file."""
    import subprocess
    import sys
    import time

    lock = tmp_path / "db.sqlite3.beat.lock"
    monkeypatch.setattr(embedded_beat, "_lock_path", lambda: lock)
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, sys, time\n"
        f"f = open({str(lock)!r}, 'a'); fcntl.flock(f, fcntl.LOCK_EX)\n"
        "print('held', flush=True); time.sleep(600)")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert not embedded_beat._take_lock()
        holder.kill()
        holder.wait(timeout=30)
        deadline = time.monotonic() + 30
        while not embedded_beat._take_lock():  # polled: the kernel drops the lock as the process goes
            assert time.monotonic() < deadline, "the killed process's lock was never released"
    finally:
        holder.kill()
        if embedded_beat._lock_file is not None:
            embedded_beat._lock_file.close()
            monkeypatch.setattr(embedded_beat, "_lock_file", None)
