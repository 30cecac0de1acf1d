"""Test-wide settings: Celery tasks run in the test's own process, except in tests marked `workers`.

With REDIS_URL set (as in CI's PostgreSQL run) Celery would send every task to Redis, where no worker listens
during an ordinary test; running them in-process keeps such tests the same as in the embedded (SQLite) run.
Tests marked `workers` start real worker processes and send their tasks to them.
Each test starts with an empty cache of rebuilt games (league.selectors.games.GAME_CACHE), so no test depends on
what an earlier one left in the process.
"""

from __future__ import annotations

import os

import pytest

# No test process, nor any server a test starts, runs beat's schedule on its own (workers/embedded_beat.py): a test
# runs the tasks it means to. A test of the embedded beat turns it on for the process it starts.
os.environ["DIAMONDS_EMBEDDED_BEAT"] = "0"


@pytest.fixture(autouse=True)
def _tasks_in_process_unless_real_workers(request):
    if request.node.get_closest_marker("workers"):
        yield
        return
    from workers import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = eager


@pytest.fixture(autouse=True)
def _fresh_presence_notes():
    from league.services.presence import forget_notes

    # What a process noted of bots' presence (at most a write a minute): every test starts as a fresh process.
    forget_notes()
    yield
    forget_notes()


@pytest.fixture(autouse=True)
def _empty_game_cache():
    from league.selectors.games import GAME_CACHE

    GAME_CACHE.clear()
    yield
    GAME_CACHE.clear()
