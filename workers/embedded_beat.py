"""Beat's periodic work in the web process when there is no broker (the embedded default).

Production runs `celery -A workers beat` (deploy/Procfile), which sends the entries of the beat schedule
(`CELERY_BEAT_SCHEDULE` in config/settings.py, read here through the Celery app's `beat_schedule`, so there is one
schedule) to the workers. With nothing configured there is neither a broker nor a beat process, so ladders would
never be seated and turn deadlines never enforced. `start_embedded_beat()` runs the same schedule in a daemon thread
of the web process instead: each entry's task is run in that thread (tasks are eager there) when its schedule says
it is due. The outbox relay's sweep (`python -m workers.relay`, the Procfile's `relay`) runs there too, every
DIAMONDS_RELAY_SWEEP_SECONDS: eager sends after each commit do nearly all its work, the sweep retries what failed.

It starts only when tasks run in-process (no REDIS_URL: with a broker the real beat does this work, and a second
sender would seat every ladder twice) and DIAMONDS_EMBEDDED_BEAT is on (the test suite turns it off: tests run
the tasks they mean to). One scheduler per database: the first process to take a lock file next to it runs the
schedule, so several web processes on one machine do not tick the ladders several times.
"""

from __future__ import annotations

import fcntl
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from celery.schedules import BaseSchedule, maybe_schedule
from django.conf import settings
from django.db import close_old_connections, connections

from . import app
from . import tasks as _tasks  # noqa: F401  (registers the tasks the schedule names)
from .outbox import sweep

log = logging.getLogger(__name__)

# The longest the thread sleeps between looks at the schedule (a stop request is seen within this).
MAX_SLEEP_SECONDS = 5.0


@dataclass
class Entry:
    name: str
    task: str
    schedule: BaseSchedule  # a celery.schedules.schedule (or crontab): it says when the entry is due next
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    last_run_at: datetime | None = None  # None: never run here, so due at once
    function: Callable[[], object] | None = None  # instead of a task: the relay's sweep


def _schedule(every: Any) -> BaseSchedule:
    """The celery schedule of a beat entry's `schedule` (seconds, a timedelta or a schedule), as beat reads it."""
    # maybe_schedule makes a schedule of seconds and timedeltas; its stub's return type also names those inputs.
    return cast(BaseSchedule, maybe_schedule(every, app=app))


class EmbeddedBeat:
    """The beat schedule's entries and when each last ran; `run_due()` runs those that are due."""

    def __init__(self, schedule: dict | None = None, *, relay: bool | None = None):
        """`schedule`: beat's (the default) or a test's; `relay`: also sweep the outbox (by default with beat's)."""
        relay = schedule is None if relay is None else relay
        schedule = app.conf.beat_schedule if schedule is None else schedule
        self.entries = [
            Entry(name=name, task=spec["task"], schedule=_schedule(spec["schedule"]),
                  args=tuple(spec.get("args", ())), kwargs=dict(spec.get("kwargs", {})))
            for name, spec in schedule.items()
        ]
        if relay:
            self.entries.append(Entry(name="outbox-relay", task="", function=self._relay_sweep,
                                      schedule=_schedule(float(settings.DIAMONDS_RELAY_SWEEP_SECONDS))))
        self.purged_at = 0.0
        self.stop_event = threading.Event()

    def _relay_sweep(self) -> None:
        _, self.purged_at = sweep(purged_at=self.purged_at)

    def run_due(self) -> float:
        """Run every entry that is due, each in turn in this thread. Returns the seconds until the next is due."""
        wait = MAX_SLEEP_SECONDS
        for entry in self.entries:
            if entry.last_run_at is None:
                due, next_in = True, entry.schedule.remaining_estimate(entry.schedule.now()).total_seconds()
            else:
                due, next_in = entry.schedule.is_due(entry.last_run_at)
            if due:
                entry.last_run_at = entry.schedule.now()
                self._run(entry)
            wait = min(wait, max(float(next_in), 0.05))
        return wait

    def _run(self, entry: Entry) -> None:
        try:
            if entry.function is not None:
                entry.function()
                return
            # apply(): run here and now, whatever the app's eager setting, as the real worker would run it.
            result = app.tasks[entry.task].apply(args=entry.args, kwargs=entry.kwargs)
            if result.failed():
                log.error("embedded beat: %s failed: %r", entry.name, result.result)
        except Exception:  # one failing entry must not stop the others, nor the next tick
            log.exception("embedded beat: %s failed", entry.name)

    def loop(self) -> None:
        while not self.stop_event.is_set():
            close_old_connections()
            try:
                wait = self.run_due()
            finally:
                # This thread's connections, closed between ticks: SQLite's file and PostgreSQL's slots stay free.
                connections.close_all()
            self.stop_event.wait(wait)

    def stop(self) -> None:
        self.stop_event.set()


_started: EmbeddedBeat | None = None
_lock_file = None  # kept open for the process's life: closing it would release the lock


def should_run() -> bool:
    """Whether this process should run the schedule: tasks are in-process (no broker, so no real beat) and the
    embedded beat is not turned off."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER) and bool(settings.DIAMONDS_EMBEDDED_BEAT)


def _lock_path() -> Path:
    db = settings.DATABASES["default"]
    if db["ENGINE"].endswith("sqlite3") and str(db["NAME"]) != ":memory:":
        return Path(f"{db['NAME']}.beat.lock")
    return Path(settings.BASE_DIR) / ".embedded-beat.lock"


def _take_lock() -> bool:
    global _lock_file
    handle = open(_lock_path(), "a")  # noqa: SIM115 - held open on purpose
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return False
    _lock_file = handle
    return True


def start_embedded_beat() -> EmbeddedBeat | None:
    """Start the schedule's thread in this process if it should run here and no other process runs it; returns it
    (or None). Called by the web entry points (config/wsgi.py, config/asgi.py, so `runserver` too)."""
    global _started
    if _started is not None or not should_run():
        return _started
    if not _take_lock():
        log.info("embedded beat: another process on this database runs the schedule")
        return None
    _started = EmbeddedBeat()
    threading.Thread(target=_started.loop, name="embedded-beat", daemon=True).start()
    log.warning("embedded beat: running %s in this process (no REDIS_URL, so no celery beat)",
                ", ".join(e.name for e in _started.entries))
    return _started
