"""Real Celery worker processes for tests, pointed at the test database.

pytest-django creates `test_<name>` for the run; a worker subprocess gets that database in its DATABASE_URL, and
tests that use it are `django_db(transaction=True)` so that their rows are committed and visible to workers.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
EMBEDDED_EQUIVALENTS = "tests/workers/test_run_match.py and tests/league/test_match_resume.py"


def require_worker_services() -> None:
    """Skip when the run is configured embedded (no REDIS_URL/DATABASE_URL); when they are configured but Redis
    cannot be reached, skip on a laptop but FAIL under CI, where a silent skip would hide a broken setup."""
    missing = [name for name in ("REDIS_URL", "DATABASE_URL") if not os.environ.get(name)]
    if missing:
        pytest.skip(f"{' and '.join(missing)} not set: real worker processes need Redis and PostgreSQL; "
                    f"the embedded (in-process) equivalents run in {EMBEDDED_EQUIVALENTS}")
    import redis

    try:
        redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3).ping()
    except redis.RedisError as e:
        message = f"REDIS_URL={os.environ['REDIS_URL']} cannot be reached: {e}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


def wait_for(condition, *, timeout: float, what: str, interval: float = 0.02):
    """Poll `condition` until it returns something true; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout}s waiting for {what}")
        time.sleep(interval)


def worker_database_url() -> str:
    """DATABASE_URL naming the test database pytest-django created, for the worker subprocesses."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


class WorkerPool:
    """Start `celery -A workers worker` processes, each in its own process group, and stop them all after."""

    def __init__(self, log_dir: Path):
        self.log_dir = log_dir
        self.queue = f"play-test-{uuid.uuid4().hex[:8]}"  # our own queue: other runs sharing Redis never see it
        self.procs: list[subprocess.Popen] = []

    def start(self, name: str, pool: str = "solo", **env_overrides: str) -> subprocess.Popen:
        env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DATABASE_URL=worker_database_url())
        env.update(env_overrides)
        log_path = self.log_dir / f"{name}.log"
        with open(log_path, "w") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "workers", "worker", "-n", f"{name}@%h", "-Q", self.queue,
                 "--pool", pool, "--concurrency", "1", "--without-gossip", "--without-mingle", "--without-heartbeat",
                 "-l", "info"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        self.procs.append(proc)

        def ready():
            if proc.poll() is not None:
                pytest.fail(f"worker {name} exited with {proc.returncode}:\n{log_path.read_text()}")
            return " ready." in log_path.read_text()

        wait_for(ready, timeout=60, what=f"worker {name} to be ready", interval=0.05)
        return proc

    @staticmethod
    def children(proc: subprocess.Popen) -> list[int]:
        """The worker's pool processes (prefork), from /proc."""
        path = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill(self, proc: subprocess.Popen) -> None:
        """SIGKILL the worker and everything it started: no clean-up, no acknowledgement, as in a crash."""
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        # A killed worker's server session may linger a moment; the test database must be free to drop.
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )


@pytest.fixture
def worker_pool(transactional_db, tmp_path):
    require_worker_services()
    if connection.vendor != "postgresql":
        pytest.skip("worker processes share the test database only on PostgreSQL")
    pool = WorkerPool(tmp_path)
    yield pool
    pool.stop_all()
