"""`python -m tools.broker_outage`: stop Redis while a worker is acknowledging tasks, start it again, and check that
the worker is still there and working.

The finding it reproduces (issue 27): a worker of deploy/Procfile exited with code 1 after a Redis restart, on
`AttributeError: 'NoneType' object has no attribute 'hostname'` raised from kombu's `ack` in `_connparams`. A task
with late acknowledgement that finishes after the worker has dropped its lost broker connection acknowledges on the
closed channel of that connection; kombu's Redis channel then rebuilds a connection pool from a connection that is
gone (workers/broker.py says more).

Each run starts a redis-server of its own (a spare port, no persistence) and one worker with the Procfile's `worker`
command as written (its settings add only the short task below: tools/broker_outage_settings.py), keeps a few hundred
short tasks flowing through it, kills Redis once a good number have been acknowledged (so that tasks are running and
acknowledgements are due at that moment), starts Redis again after `--down` seconds, sends a fresh batch and waits
for the worker to play it. It prints, per run, whether the worker stayed alive, and the seconds from Redis's return
to the first task of the fresh batch played. Exit status 0 when the worker survived every run.

  python -m tools.broker_outage --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tools.chaos import RedisServer, _free_port
from tools.procfile import PROCFILE, ProcfileRunner, read_procfile
from workers import app

TASK = "tools.broker_outage.nap"
SUCCEEDED = re.compile(r"Task tools\.broker_outage\.nap\[[^\]]+\] succeeded")


@app.task(name=TASK, ignore_result=True)
def nap(seconds: float) -> None:
    """Sleep, then return: a task acknowledged late (the product's default, CELERY_TASK_ACKS_LATE), like the real
    ones, and short, so that acknowledgements are due many times a second."""
    time.sleep(seconds)


@dataclass
class OutageRun:
    index: int
    acknowledged_before: int = 0  # tasks the worker had played when Redis was killed
    alive: bool = False  # the worker process never exited
    exit_code: int | None = None
    back_after: float | None = None  # seconds from Redis's return to the first task of the fresh batch played
    fresh_played: int = 0
    problems: list[str] = field(default_factory=list)


def _wait(condition, timeout: float, interval: float = 0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    return None


class Drill:
    def __init__(self, args, log_dir: Path):
        self.args, self.log_dir = args, log_dir
        self.redis = RedisServer(_free_port(), log_dir)
        url = f"redis://127.0.0.1:{self.redis.port}/0"
        self.env = dict(
            os.environ, REDIS_URL=url, DJANGO_SETTINGS_MODULE="tools.broker_outage_settings",
            WORKER_CONCURRENCY=str(args.concurrency), PYTHONUNBUFFERED="1",
            DJANGO_SECRET_KEY="outage-drill-only-" + os.urandom(8).hex(), DJANGO_ALLOWED_HOSTS="127.0.0.1",
            # The worker needs no database for these tasks: an embedded one in the drill's folder, never the repo's.
            DIAMONDS_DB_PATH=str(log_dir / "drill.sqlite3"),
            PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        )
        self.env.pop("DATABASE_URL", None)
        self.env.pop("DIAMONDS_CACHE_URL", None)
        self.runner = ProcfileRunner(self.env, log_dir, procfile=args.procfile)
        self.command = read_procfile(args.procfile)["worker"]
        # This process sends the tasks, through the product's app configured (lazily, on first use) from the same
        # settings as the worker's.
        os.environ.update(REDIS_URL=url, DJANGO_SETTINGS_MODULE="tools.broker_outage_settings")

    def send(self, count: int) -> None:
        with app.producer_or_acquire() as producer:
            for _ in range(count):
                app.send_task(TASK, args=[self.args.task_seconds], queue="celery", producer=producer)

    def stop_redis(self) -> None:
        """kill: as a crash (kill -9); term: as `systemctl stop` or `docker stop` (SIGTERM: Redis closes its clients'
        connections and exits)."""
        if self.args.stop == "kill":
            self.redis.stop()
            return
        proc = self.redis.proc
        assert proc is not None
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)

    def run(self, index: int) -> OutageRun:
        report = OutageRun(index)
        self.redis.start()
        name = f"worker.{index}"
        process = self.runner.start_one(name, self.command)
        try:
            if not _wait(lambda: " ready." in process.log() or not process.alive(), 90) or not process.alive():
                report.problems.append(f"the worker did not start:\n{process.log()[-2000:]}")
                return report
            self.send(self.args.tasks)
            played = lambda: len(SUCCEEDED.findall(process.log()))  # noqa: E731
            # Kill Redis while tasks run and their acknowledgements are due: once a good part of the batch is played.
            _wait(lambda: played() >= self.args.tasks // 4 or not process.alive(), 60)
            report.acknowledged_before = played()
            self.stop_redis()
            time.sleep(self.args.down)
            self.redis.start()
            back = time.monotonic()
            # Redis came back empty: what was queued is gone (the outbox sends the product's work again). A fresh batch
            # shows the worker consuming again.
            before = played()
            self.send(self.args.fresh)
            _wait(lambda: played() > before or not process.alive(), self.args.timeout)
            if played() > before:
                report.back_after = time.monotonic() - back
            _wait(lambda: played() >= before + self.args.fresh or not process.alive(), self.args.timeout)
            report.fresh_played = played() - before
            report.alive = process.alive()
            if not report.alive:
                assert process.proc is not None
                report.exit_code = process.proc.returncode
                tail = process.log()[-3000:]
                report.problems.append(f"the worker exited with {report.exit_code}:\n{tail}")
            elif report.fresh_played < self.args.fresh:
                report.problems.append(f"the worker played {report.fresh_played} of {self.args.fresh} fresh tasks")
            if "Unrecoverable error" in process.log():
                report.problems.append("the worker logged an unrecoverable error")
            return report
        finally:
            if process.alive():
                os.killpg(process.pid, signal.SIGTERM)
                assert process.proc is not None
                try:
                    process.proc.wait(timeout=20)
                except Exception:  # noqa: BLE001 - a worker that will not stop is killed; the drill goes on
                    os.killpg(process.pid, signal.SIGKILL)
            self.runner.stop_all()
            self.redis.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.broker_outage", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--tasks", type=int, default=200, help="short tasks sent before the outage")
    parser.add_argument("--task-seconds", type=float, default=0.2, help="how long each task runs")
    parser.add_argument("--fresh", type=int, default=10, help="tasks sent once Redis is back")
    parser.add_argument("--down", type=float, default=3.0, help="seconds Redis stays down")
    parser.add_argument("--stop", choices=("kill", "term"), default="kill", help="how Redis is stopped")
    parser.add_argument("--concurrency", type=int, default=4, help="WORKER_CONCURRENCY: pool processes")
    parser.add_argument("--timeout", type=float, default=30, help="seconds the worker has to play the fresh batch")
    parser.add_argument("--procfile", type=Path, default=PROCFILE)
    parser.add_argument("--json", type=Path, help="write the reports here")
    parser.add_argument("--log-dir", type=Path, help="keep the logs here (default: a temporary folder)")
    args = parser.parse_args(argv)
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="diamonds-outage-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    print(f"Procfile {args.procfile}; logs in {log_dir}", flush=True)
    drill = Drill(args, log_dir)
    reports = []
    for index in range(1, args.runs + 1):
        report = drill.run(index)
        reports.append(report)
        back = "-" if report.back_after is None else f"{report.back_after:.1f}s"
        print(f"run {index}: killed Redis after {report.acknowledged_before} tasks; worker alive={report.alive} "
              f"exit={report.exit_code} back after {back}; fresh tasks played {report.fresh_played}/{args.fresh}",
              flush=True)
        for problem in report.problems:
            print(f"    PROBLEM: {problem}", flush=True)
    ok = all(r.alive and not r.problems for r in reports)
    if args.json:
        args.json.write_text(json.dumps({"ok": ok, "runs": [asdict(r) for r in reports]}, indent=2))
    print("WORKER SURVIVED" if ok else "WORKER DIED", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
