"""The API's load benchmark runs end to end at a tiny scale (its figures are printed, never asserted): a scratch
database (SQLite, or `<name>_apibench` beside DATABASE_URL's), a gunicorn server on loopback, standings reads,
reads of finished matches' play (record, tricks, replay page) and whole matches of external bots played over HTTP,
in the closed loop on PostgreSQL and the open loop with nothing configured."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench(*args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "REDIS_URL")}
    done = subprocess.run([sys.executable, "-m", "tools.bench.api", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


# One loop in each of CI's passes (each run takes over half a minute): the closed loop on PostgreSQL (DATABASE_URL
# set), the open loop with nothing configured (SQLite). How the requests are offered does not depend on the
# database, and each database still serves the whole benchmark.
LOOP = [] if os.environ.get("DATABASE_URL") else ["--read-rate", "40", "--rate", "60"]


def test_the_load_benchmark_plays_its_matches_over_http_and_reports_each_kind():
    loop = LOOP
    out = _bench("--clients", "2", "--matches", "2", "--reads", "12", "--finished-matches", "24", "--entrants", "8",
                 "--templates", "2", "--server-workers", "1", "--server-threads", "4", "--record-reads", "6",
                 "--popular", "2", *loop)
    assert re.search(r"setup: standings tournament \d+ stored", out)
    assert re.search(r"standings reads.*: 12 requests", out)
    # Six finished matches read by each of four kinds of request (the answers about the first are checked whole: an
    # error would have failed the run), among the 24 stored and the 2 templates; each kind with its server CPU.
    assert re.search(r"record reads: 6 finished matches read \(\d+ different of 26 stored, of 40-40 tricks", out), out
    for kind in ("record", "tricks", r"tricks \(later page\)", "replay page"):
        figures = rf"\n  {kind} *: 6 requests, .* p50 .* p95 .* p99 .*\n  CPU per request: server"
        assert re.search(figures, out), (kind, out)
    decisions = re.search(r"decisions \(POST\): (\d+) requests", out)
    # two whole 4-player matches: each lasts far more than a handful of decisions
    assert decisions and int(decisions.group(1)) > 20, out
    if loop:
        assert "at an offered 40/s" in out and "at an offered 60/s" in out
    assert "p50" in out and "p95" in out and "p99" in out and "CPU per request" in out
