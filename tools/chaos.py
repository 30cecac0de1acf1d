"""`python -m tools.chaos`: break a real deployment mid-tournament and check that it heals.

It starts what deploy/Procfile declares (web, two workers, beat, relay; tools/procfile.py), on PostgreSQL
(a scratch database `<DATABASE_URL's>_chaos`, created and dropped here) and a Redis server of its own (started here
on a free port, without persistence, so that stopping it loses every queued message: the hard case). Then it runs
the same 16-player, 3-round bot tournament (same seeds) once per fault:

  none         uninterrupted: the reference
  kill-main    kill -9 the main process of the worker playing a match, mid-match (its pool is left orphaned)
  kill-child   kill -9 the pool process playing a match, mid-match
  redis        stop Redis for 10 s mid-round, then start it again (empty)
  redis-acks   stop Redis for 3 s while the workers acknowledge a burst of short tasks on top of the round's
               matches, then start it again (empty): the workers must stay alive (issue 27: a worker died of
               kombu's AttributeError on such an acknowledgement); one that dies is started again, as a supervisor
               would, and timed
  database     pg_terminate_backend every connection of the workers, beat, relay and web, mid-round

and prints, for each fault, the seconds from the fault to the first stored progress after it, to the recovery of
the work it hit (the killed match moving again; after Redis, a match not yet begun starting; after the database, a
stored move), and to the tournament's end; after `redis-acks`, also the seconds from Redis's return to every worker
connected again. Then it checks that every run finished every match exactly once, closed
every round, and ended with the reference's standings and records (every record replaying), and that the web
answered no 5xx while Redis was down. Exit status 0 if all holds.

  DATABASE_URL=postgres://postgres@127.0.0.1:5432/diamonds python -m tools.chaos            # the benchmark
  python -m tools.chaos --faults none,redis --match-rounds 10 --json out.json               # a quicker one

Timings depend on the machine; tests (tests/workers/test_chaos.py) check the outcomes, never the times.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from tools.procfile import PROCFILE, Process, ProcfileRunner

FAULTS = ("none", "kill-main", "kill-child", "redis", "redis-acks", "database")
REDIS_DOWN_SECONDS = 10.0
# redis-acks: the short tasks sent at once mid-round (a no-op webhook sweep each, on the bookkeeping queue); Redis is
# stopped once the workers have acknowledged this many (more are running, their acknowledgements due), and stays down
# this long (short: the fault is the moment it goes, not the length of the outage).
ACK_BURST_TASKS = 200
ACK_BURST_ACKED_BEFORE_STOP = 20
REDIS_ACKS_DOWN_SECONDS = 3.0
SHORT_TASK = "workers.tasks.deliver_webhooks"


@dataclass
class FaultReport:
    fault: str
    finished: bool = False
    to_first_progress: float | None = None  # seconds from the fault to the first stored progress after it
    to_recovery: float | None = None  # ... to the work the fault hit moving again
    to_end: float | None = None  # ... to the tournament's end
    total: float | None = None  # the whole run, from starting the tournament
    web_statuses: dict[str, int] = field(default_factory=dict)  # while Redis was down: status -> count
    workers_alive: bool | None = None  # redis-acks: no worker process exited
    worker_back_after: float | None = None  # redis-acks: Redis's return to every worker connected (or restarted) again
    restarted: list[str] = field(default_factory=list)  # redis-acks: workers that died and were started again
    acked_before_stop: int | None = None  # redis-acks: short tasks the workers had acknowledged when Redis stopped
    healthz_during: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(condition, timeout: float, what: str, interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise TimeoutError(f"timed out after {timeout:.0f}s waiting for {what}")


class RedisServer:
    """A redis-server of our own: stopping it must not touch anybody else's."""

    def __init__(self, port: int, log_dir: Path):
        self.port, self.log_dir, self.proc = port, log_dir, None

    def start(self) -> None:
        log = open(self.log_dir / "redis.log", "a")
        self.proc = subprocess.Popen(["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                                      "--appendonly", "no"], stdout=log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)

        def answers():
            try:
                return client.ping()
            except redis.RedisError:
                return False

        _wait(answers, 20, "redis-server to answer")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # as a crash: nothing saved, every queued message gone
            self.proc.wait(timeout=10)


class Scratch:
    """The scratch PostgreSQL database the run uses, made from DATABASE_URL's."""

    def __init__(self, url: str, suffix: str = "_chaos"):
        parts = urlsplit(url)
        self.name = parts.path.strip("/") + suffix
        self.url = urlunsplit(parts._replace(path="/" + self.name))
        self.admin_url = urlunsplit(parts._replace(path="/postgres"))

    def _admin(self, sql: str) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(sql)

    def create(self) -> None:
        self.drop()
        self._admin(f'CREATE DATABASE "{self.name}"')

    def drop(self) -> None:
        self._admin(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{self.name}'")
        self._admin(f'DROP DATABASE IF EXISTS "{self.name}"')


class Chaos:
    def __init__(self, args, log_dir: Path):
        self.args, self.log_dir = args, log_dir
        self.redis = RedisServer(_free_port(), log_dir)
        self.scratch = Scratch(args.database_url, args.scratch_suffix)
        self.web_port = _free_port()
        self.env = dict(
            os.environ, DATABASE_URL=self.scratch.url, REDIS_URL=f"redis://127.0.0.1:{self.redis.port}/0",
            DJANGO_SETTINGS_MODULE="config.settings", PORT=str(self.web_port), WEB_CONCURRENCY="1",
            WEB_THREADS="8", WORKER_CONCURRENCY="2", BEAT_SCHEDULE_FILE=str(log_dir / "celerybeat-schedule"),
            DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost", DJANGO_SECRET_KEY="chaos-run-only-" + os.urandom(8).hex(),
            DIAMONDS_LADDER_TICK="3600", DIAMONDS_CACHE_URL=f"redis://127.0.0.1:{self.redis.port}/1",
            DIAMONDS_PLAY_QUEUE="play", PYTHONUNBUFFERED="1",
            # The run's client speaks plain HTTP to gunicorn (no TLS proxy in front), as the tests' does.
            DJANGO_SSL_REDIRECT="0",
            # Bots checkpoint after every trick (not every couple of seconds), so that faults strike matches with
            # play stored part of the way: the hardest case for a resume. `--set` may put the default back.
            DIAMONDS_BOT_CHECKPOINT_SECONDS="0",
            # The Procfile's commands (gunicorn, celery, python) are this interpreter's, as in an activated virtualenv.
            PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        )
        for name, value in args.setting or []:
            self.env[name] = value
        self.env.pop("DIAMONDS_DB_PATH", None)
        self.runner = ProcfileRunner(self.env, log_dir, procfile=args.procfile)
        self.supervisor: threading.Thread | None = None  # redis-acks: watches the workers through the outage

    # ---- the deployment ---------------------------------------------------------------------------------------
    def up(self) -> None:
        self.scratch.create()
        self.redis.start()
        os.environ.update(self.env)  # this process is one more client of the same deployment (it starts tournaments)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        self.runner.start({"worker": 2, "comparisons": 0})  # a tournament only: no comparison worker needed
        markers = {"worker": " ready.", "beat": "beat: Starting", "relay": "relay ready", "web": "Booting worker"}
        for name, process in self.runner.processes.items():
            marker = markers[name.split(".")[0]]
            _wait(lambda p=process, m=marker: self._ready(p, m), 90, f"{name} to start")
        _wait(lambda: self._get("/healthz")[0] == 200, 60, "the web to answer /healthz")

    @staticmethod
    def _ready(process, marker: str) -> bool:
        if not process.alive():
            raise RuntimeError(f"{process.name} exited:\n{process.log()[-3000:]}")
        return marker in process.log()

    def down(self) -> None:
        self.runner.stop_all()
        self.redis.stop()
        from django.db import connections

        connections.close_all()
        if not self.args.keep_database:
            self.scratch.drop()

    def _get(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.web_port}{path}", timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()
        except OSError:
            return 0, b""

    def ensure_workers(self) -> None:
        """Start again any Procfile process a fault left dead, before the next run (a supervisor's restart)."""
        for name, process in list(self.runner.processes.items()):
            if not process.alive():
                self.runner.restart(name)
                _wait(lambda p=self.runner.processes[name]: self._ready(p, " ready."), 90, f"{name} to restart")

    # ---- one run ----------------------------------------------------------------------------------------------
    def run(self, fault: str) -> tuple[FaultReport, dict]:
        from league.models import Match, TournamentRound
        from league.services import create_bot_player
        from league.services.advancing import start_tournament
        from league.services.registration import register_players
        from league.services.tournament_setup import create_tournament

        report = FaultReport(fault)
        args = self.args
        kinds = ("greedy", "random")
        players = [create_bot_player(name=f"{fault}-{i:02d}", kind=kinds[i % 2]) for i in range(args.players)]
        # The same seating seed and deal salt every time: each fault run deals what the uninterrupted one dealt.
        t = create_tournament(name=f"chaos {fault}", rounds=args.rounds, table_size=4, seed="chaos", deal_salt="chaos",
                              rated=True,
                              ruleset={"rounds": args.match_rounds})
        register_players(tournament=t, players=players)
        self.tournament_id = t.pk
        began = time.monotonic()
        start_tournament(tournament=t)  # its rows are relayed by this process once committed
        matches = Match.objects.filter(tournament_round__tournament=t)

        def progress() -> tuple[int, int]:
            rows = list(matches.values_list("move_number", "status"))
            return sum(m for m, _ in rows), sum(s == "finished" for _, s in rows)

        def over() -> bool:
            t.refresh_from_db()
            return t.status == "finished"

        if fault != "none":
            # Mid-match of the second round: a match of it has stored a good part of its play.
            target_round = min(2, args.rounds)
            threshold = args.match_rounds * 10 * 4 // 3  # a third of a match's moves (ten tricks of 4 a round)

            def mid_match():
                return (matches.filter(tournament_round__index=target_round, status="running",
                                       move_number__gte=threshold).exclude(claimed_by="")
                        .values("pk", "claimed_by", "move_number").first())

            victim = _wait(mid_match, args.timeout, "a match to be mid-play")
            fault_at, recovered = self.inject(fault, victim, report)
            before = progress()
            hit_moves = Match.objects.get(pk=victim["pk"]).move_number
            begun = set(matches.filter(move_number__gt=0).values_list("pk", flat=True))
            while not over():
                now = time.monotonic()
                if now - fault_at > args.timeout:
                    report.problems.append(f"the tournament did not end within {args.timeout}s of the fault")
                    break
                if report.to_first_progress is None and progress() > before:
                    report.to_first_progress = now - fault_at
                    if fault == "database":  # whatever moves next moved on connections made after the cut
                        report.to_recovery = report.to_first_progress
                if report.to_recovery is None and self._recovered(fault, victim, hit_moves, matches, begun, recovered):
                    report.to_recovery = time.monotonic() - fault_at
                time.sleep(0.1)
            else:
                report.to_end = time.monotonic() - fault_at
                report.to_first_progress = report.to_first_progress or report.to_end
                report.to_recovery = report.to_recovery or report.to_end
        else:
            try:
                _wait(over, args.timeout, "the tournament to end", interval=0.2)
            except TimeoutError as e:
                report.problems.append(str(e))
        report.total = time.monotonic() - began
        if self.supervisor is not None:
            self.supervisor.join(timeout=130)
            self.supervisor = None
        report.finished = over()
        rounds = list(TournamentRound.objects.filter(tournament=t).values_list("status", flat=True))
        if rounds != ["closed"] * args.rounds:
            report.problems.append(f"rounds: {rounds}")
        return report, self.outcome(t, fault)

    def _recovered(self, fault, victim, hit_moves, matches, begun, recovered) -> bool:
        from league.models import Match

        if recovered is not None and not recovered.is_set():
            return False  # Redis is still down: what follows is not a recovery yet
        if fault in ("kill-main", "kill-child"):
            m = Match.objects.get(pk=victim["pk"])
            return m.move_number > hit_moves or m.status == "finished"
        if fault in ("redis", "redis-acks"):  # a match begun after the fault: its message went through the new Redis
            return matches.exclude(pk__in=begun).filter(move_number__gt=0).exists()
        return False  # database: the first progress after the cut is the recovery (the caller's)

    def inject(self, fault: str, victim: dict, report: FaultReport):
        """Do it; returns (when, an event set once the fault is over, or None for an instant fault)."""
        pid = int(victim["claimed_by"].rsplit(":", 1)[1])
        if fault == "kill-main":
            owner = next((n for n, p in self.runner.processes.items() if n.startswith("worker.")
                          and (pid in p.children() or p.pid == pid)), None)
            if owner is None:
                raise RuntimeError(f"no worker plays match {victim['pk']} (pid {pid})")
            at = time.monotonic()
            self.runner.kill(owner, signal.SIGKILL)
            return at, None
        if fault == "kill-child":
            at = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            return at, None
        if fault == "redis":
            back = threading.Event()
            at = time.monotonic()
            self.redis.stop()
            threading.Thread(target=self._watch_web, args=(report, back), daemon=True).start()

            def restart():
                time.sleep(REDIS_DOWN_SECONDS)
                self.redis.start()
                back.set()

            threading.Thread(target=restart, daemon=True).start()
            return at, back
        if fault == "redis-acks":
            return self._stop_redis_while_acknowledging(report)
        if fault == "database":
            from django.db import connection

            at = time.monotonic()
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()")
            self._record_web(report)  # the web's next requests, on its cut connections: answered, not 500
            return at, None
        raise ValueError(f"unknown fault {fault!r}; one of {', '.join(FAULTS)}")

    def _workers(self) -> dict[str, Process]:
        return {name: p for name, p in self.runner.processes.items() if name.startswith("worker.")}

    def _stop_redis_while_acknowledging(self, report: FaultReport):
        """Send a burst of short tasks mid-round, and stop Redis once the workers have acknowledged some of them:
        they take them as the round's matches end and free their processes, so at that moment tasks are running,
        acknowledgements are due, the workers' BRPOPs are waiting, and the round's close is sending the next round
        through the broker (work that must then get through the Redis that came back). Start it again after
        REDIS_ACKS_DOWN_SECONDS, and watch the workers meanwhile (`_supervise`)."""
        from workers import app

        workers = self._workers()
        marks = {name: len(p.log()) for name, p in workers.items()}
        done = re.compile(rf"Task {re.escape(SHORT_TASK)}\[[^\]]+\] succeeded")

        def acknowledged() -> int:
            return sum(len(done.findall(p.log()[marks[n]:])) for n, p in workers.items())

        with app.producer_or_acquire() as producer:
            for _ in range(ACK_BURST_TASKS):
                app.send_task(SHORT_TASK, queue="bookkeeping", producer=producer)

        def acknowledging() -> bool:
            return acknowledged() >= ACK_BURST_ACKED_BEFORE_STOP

        _wait(acknowledging, 60, "the workers to acknowledge tasks", interval=0.01)
        report.acked_before_stop = acknowledged()
        back = threading.Event()
        at = time.monotonic()
        self.redis.stop()
        threading.Thread(target=self._watch_web, args=(report, back), daemon=True).start()
        returned: list[float] = []

        def restart():
            time.sleep(REDIS_ACKS_DOWN_SECONDS)
            self.redis.start()
            returned.append(time.monotonic())
            back.set()

        threading.Thread(target=restart, daemon=True).start()
        self.supervisor = threading.Thread(target=self._supervise, args=(report, back, returned, marks), daemon=True)
        self.supervisor.start()
        return at, back

    def _supervise(self, report: FaultReport, back: threading.Event, returned: list[float], marks: dict) -> None:
        """What a supervisor (systemd's Restart=always, compose's restart policy) would do for a worker that exits:
        start it again at once. Records whether every worker stayed alive, and the seconds from Redis's return to
        every worker connected to it again (a restarted one: ready again)."""
        report.workers_alive = True
        pending = dict(marks)  # worker -> where its log stood before the fault
        deadline = time.monotonic() + 120
        while pending and time.monotonic() < deadline:
            for name in list(pending):
                process = self.runner.processes[name]
                if not process.alive():
                    assert process.proc is not None
                    report.workers_alive = False
                    report.restarted.append(name)
                    report.problems.append(f"{name} exited with {process.proc.returncode} after Redis stopped; "
                                           f"started again by the chaos run")
                    process = self.runner.restart(name)
                    pending[name] = len(process.log())
                    continue
                if back.is_set() and ("Connected to redis" in process.log()[pending[name]:]
                                      or (name in report.restarted and " ready." in process.log()[pending[name]:])):
                    del pending[name]
            time.sleep(0.05)
        if pending:
            report.problems.append(f"workers not connected again 120 s after the fault: {sorted(pending)}")
        elif returned:
            report.worker_back_after = time.monotonic() - returned[0]

    def _watch_web(self, report: FaultReport, back: threading.Event) -> None:
        """While Redis is down: the web must keep answering reads (and /healthz says degraded)."""
        while not back.is_set():
            self._record_web(report)
            status, body = self._get("/healthz")
            try:
                report.healthz_during.append(json.loads(body)["status"])
            except ValueError:
                report.healthz_during.append(f"HTTP {status}")
            time.sleep(0.5)

    def _record_web(self, report: FaultReport) -> None:
        paths = ("/api/v1/tournaments/", "/api/v1/matches/?page_size=5",
                 f"/api/v1/tournaments/{self.tournament_id}/standings/", f"/tournaments/{self.tournament_id}/")
        for path in paths:
            status, _ = self._get(path)
            report.web_statuses[str(status)] = report.web_statuses.get(str(status), 0) + 1

    # ---- what a run ended with ----------------------------------------------------------------------------------
    def outcome(self, t, fault: str) -> dict:
        """The run's standings and records with its players' names made run-independent, and what was done twice."""
        from engine.games import by_format
        from league.models import Match, MatchStep, OutboxMessage, RatingHistory
        from league.selectors import match_record
        from league.selectors.standings import tournament_standings

        prefix = f"{fault}-"
        names = dict(t.entries.values_list("player_id", "player__name"))
        standings = [(row.rank, sorted(names[p].removeprefix(prefix) for p in row.player_ids), row.games,
                      sorted(row.metrics.items())) for row in tournament_standings(tournament=t)]
        records, problems = {}, []
        for m in Match.objects.filter(tournament_round__tournament=t).order_by("tournament_round__index",
                                                                              "table_number"):
            key = f"{m.tournament_round.index}/{m.table_number}"
            if m.status != "finished":
                problems.append(f"match {key} is {m.status}: {m.error}")
                continue
            record = match_record(m)
            replayed = by_format(record["format"]).from_record(record)
            if replayed.result._asdict() != m.result:
                problems.append(f"match {key}'s record does not replay to its result")
            if RatingHistory.objects.filter(match=m).count() != len(m.seats):
                problems.append(f"match {key} was rated {RatingHistory.objects.filter(match=m).count()} times")
            if MatchStep.objects.filter(match=m).exists() or not m.moves:
                problems.append(f"match {key} is finished but its play is not all in its moves")
            records[key] = json.loads(json.dumps(record).replace(prefix, ""))
        if OutboxMessage.objects.filter(match__tournament_round__tournament=t, done_at__isnull=True).exists():
            problems.append("outbox rows of the tournament are not carried out")
        return {"standings": standings, "records": records, "problems": problems}


def _parse_setting(text: str) -> tuple[str, str]:
    name, _, value = text.partition("=")
    if not name or not _:
        raise argparse.ArgumentTypeError("NAME=VALUE")
    return name, value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.chaos", description=__doc__.split("\n\n")[0])
    parser.add_argument("--faults", default=",".join(FAULTS), help="comma-separated, the reference 'none' first")
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3, help="tournament rounds")
    parser.add_argument("--match-rounds", type=int, default=40, help="Diamonds rounds per match (its length)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds a run may take after its fault")
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--set", dest="setting", type=_parse_setting, action="append",
                        help="an environment setting for every process, e.g. DIAMONDS_LEASE_SECONDS=5")
    parser.add_argument("--json", type=Path, help="write the reports here")
    parser.add_argument("--log-dir", type=Path, help="keep the processes' logs here (default: a temporary folder)")
    parser.add_argument("--procfile", type=Path, default=PROCFILE, help="another Procfile with the same types")
    parser.add_argument("--scratch-suffix", default="_chaos", help="the scratch database is DATABASE_URL's + this")
    parser.add_argument("--keep-database", action="store_true")
    args = parser.parse_args(argv)
    if not args.database_url.startswith("postgres"):
        parser.error("a PostgreSQL DATABASE_URL (or --database-url) is needed: the run uses <its database>_chaos")
    faults = [f.strip() for f in args.faults.split(",") if f.strip()]
    if faults[0] != "none" or any(f not in FAULTS for f in faults) or len(set(faults)) != len(faults):
        parser.error(f"faults are of {', '.join(FAULTS)}, each once, the reference 'none' first")
    log_dir = args.log_dir or Path(tempfile.mkdtemp(prefix="diamonds-chaos-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    print(f"Procfile {args.procfile}; logs in {log_dir}", flush=True)
    chaos = Chaos(args, log_dir)
    reports, ok = [], True
    try:
        chaos.up()
        reference = None
        for fault in faults:
            chaos.ensure_workers()
            report, outcome = chaos.run(fault)
            report.problems += outcome["problems"]
            if reference is None:
                reference = outcome
            else:
                if outcome["standings"] != reference["standings"]:
                    report.problems.append("standings differ from the uninterrupted run's")
                differing = [k for k in reference["records"] if outcome["records"].get(k) != reference["records"][k]]
                if differing:
                    report.problems.append(f"records differ from the uninterrupted run's: {differing}")
            bad = {s: n for s, n in report.web_statuses.items() if s.startswith("5") or s == "0"}
            if bad:
                report.problems.append(f"the web answered {bad} during the fault (0: no answer)")
            ok = ok and report.finished and not report.problems
            reports.append(report)
            _print(report)
        crashed = [n for n, p in chaos.runner.processes.items() if not p.alive()]
        killed = {"kill-main"} & set(faults)
        if crashed and not (killed and all(n.startswith("worker.") for n in crashed)):
            ok = False
            print(f"processes that died by themselves: {crashed}")
        for name, process in chaos.runner.processes.items():
            if "Unrecoverable error" in process.log():
                ok = False
                print(f"{name} logged an unrecoverable error")
    finally:
        chaos.down()
    if args.json:
        args.json.write_text(json.dumps({"ok": ok, "reports": [asdict(r) for r in reports]}, indent=2))
    print("ALL HEALED" if ok else "NOT HEALED", flush=True)
    return 0 if ok else 1


def _print(report: FaultReport) -> None:
    def s(value):
        return "-" if value is None else f"{value:6.1f}s"

    line = (f"{report.fault:<11} finished={report.finished!s:<5} first progress {s(report.to_first_progress)}  "
            f"recovered {s(report.to_recovery)}  end {s(report.to_end)}  (run {s(report.total)})")
    if report.workers_alive is not None:
        back = "-" if report.worker_back_after is None else f"{report.worker_back_after:.1f}s"
        line += f"  workers alive={report.workers_alive} back after {back}"
        if report.restarted:
            line += f" (restarted: {', '.join(report.restarted)})"
    if report.web_statuses:
        line += f"  web during the fault: {report.web_statuses}, healthz {sorted(set(report.healthz_during))}"
    print(line, flush=True)
    for problem in report.problems:
        print(f"    PROBLEM: {problem}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
