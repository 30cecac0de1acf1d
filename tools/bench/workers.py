"""Benchmark: a batch of bot matches played by real Celery workers into PostgreSQL.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/diamonds REDIS_URL=redis://127.0.0.1:6379/0 \\
        python -m tools.bench.workers --matches 400 --workers 2
        python -m tools.bench.workers --game diamoniak --players 3 --bot heuristic

Creates a scratch database beside DATABASE_URL's (`<name>_bench`, dropped afterwards unless --keep), starts
`celery -A workers worker` processes on a queue of their own, sends the matches as the outbox relay sends matches
due together (tasks of up to DIAMONDS_PLAY_BATCH matches, workers.outbox.batches; `--batch 1` sends a task a
match) and waits until all are finished. `--game` benches another game of engine.games (Diamonds by default).
Every game's play is stored as its ordered choices, compactly encoded (league.services.progress): a finished match
is its row and its seats'. Prints matches and decisions per second, the CPU one match costs (the workers' and their
PostgreSQL backends', read from /proc: it holds on a machine busy with other work, where matches per second do not)
and the transactions it commits, the bytes one stored match takes (growth of the league tables with their indexes,
and the sum of the row sizes), and what a million matches would take.
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

from tools.scratch_database import create_scratch_database, drop_scratch_database

ROOT = Path(__file__).resolve().parents[2]
TABLES = ["league_match", "league_matchseat", "league_matchstep"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.workers", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2, help="worker processes to start (one task at a time each)")
    parser.add_argument("--game", default="diamonds", help="diamonds, diamoniak or ringrace")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bot", default="random")
    parser.add_argument("--batch", type=int, default=None,
                        help="matches a task at most (default: DIAMONDS_PLAY_BATCH, as the outbox relay sends them)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    parser.add_argument("--no-steady", dest="steady", action="store_false",
                        help="skip the second batch that measures bytes per match in the steady state")
    args = parser.parse_args(argv)
    from engine.games import game_type

    try:
        kind = game_type(args.game)
    except ValueError as e:
        parser.error(str(e))
    if args.bot not in kind.bots:
        parser.error(f"{kind.title} has no bot {args.bot!r}; its bots are {', '.join(sorted(kind.bots))}")

    base_url, redis_url = os.environ.get("DATABASE_URL"), os.environ.get("REDIS_URL")
    if not base_url or not redis_url or not base_url.startswith(("postgres://", "postgresql://")):
        print("the benchmark needs DATABASE_URL (PostgreSQL) and REDIS_URL: it measures real workers", file=sys.stderr)
        return 2
    bench_url = create_scratch_database(base_url, "bench")
    os.environ["DATABASE_URL"] = bench_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # With DATABASE_URL, DEBUG is off as deployed and a secret key is required: a throwaway one for this run.
    os.environ.setdefault("DJANGO_SECRET_KEY", "bench-run-only-" + secrets.token_hex(16))

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    procs: list[subprocess.Popen] = []
    try:
        return _run(args, bench_url, procs)
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_scratch_database(bench_url)


def _run(args, bench_url: str, procs: list[subprocess.Popen]) -> int:
    from django.db import connection
    from django.db.models import Sum

    from league.models import Match, MatchStatus, Player
    from league.services import create_bot_player, create_match
    from workers.outbox import batches
    from workers.tasks import run_match, run_matches

    players = [
        Player.objects.filter(name=f"bench-{args.bot}-{i}").first()
        or create_bot_player(name=f"bench-{args.bot}-{i}", kind=args.bot)
        for i in range(args.players)
    ]
    sizes_before = _table_sizes(connection)
    ids = [
        create_match(players=players, ruleset={"players": args.players}, seed=f"bench/{i}", game=args.game).pk
        for i in range(args.matches)
    ]
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    logs = []
    for w in range(args.workers):
        log_path = Path(f"/tmp/diamonds-bench-worker-{w}.log")
        logs.append(log_path)
        with open(log_path, "w") as log:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "workers", "worker", "-n", f"bench{w}@%h", "-Q", queue,
                 "--pool", "solo", "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"],
                cwd=ROOT, env=dict(os.environ, DATABASE_URL=bench_url), stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            ))
    # Wait until every worker answers a ping, so that start-up is not timed.
    from workers import app

    names = [f"bench{w}@{socket.gethostname()}" for w in range(args.workers)]
    deadline = time.monotonic() + 60
    while len(app.control.ping(destination=names, timeout=0.5) or []) < args.workers:
        if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
            print("workers did not start; see " + ", ".join(map(str, logs)), file=sys.stderr)
            return 1

    # CPU seconds spent by the workers and by their PostgreSQL backends, and transactions committed, over the run:
    # figures that hold on a machine shared with other work, where the wall time does not.
    worker_pids = [proc.pid for proc in procs]
    cpu_before = _cpu_seconds(worker_pids), _cpu_seconds(_backend_pids(connection))
    commits_before = _commits(connection)
    def play(match_ids: list[int]) -> int:
        """Send the matches to the workers as the outbox relay does (without its rows: a run of its own) and wait until
        all are done; the polls made."""
        for ids in batches(match_ids, most=args.batch):
            if len(ids) == 1:
                run_match.apply_async((ids[0],), queue=queue, ignore_result=True)
            else:
                run_matches.apply_async(([[pk, None] for pk in ids],), queue=queue, ignore_result=True)
        pending = Match.objects.filter(pk__in=match_ids).exclude(status__in=[MatchStatus.FINISHED,
                                                                             MatchStatus.FAILED])
        polls = 1
        while pending.exists():
            time.sleep(0.05)
            polls += 1
        return polls

    started = time.perf_counter()
    polls = play(ids)
    elapsed = time.perf_counter() - started
    worker_cpu = _cpu_seconds(worker_pids) - cpu_before[0]
    # A backend's CPU counts from its start (the workers connect at their first task): the start-up is in the figure.
    backend_cpu = _cpu_seconds(_backend_pids(connection)) - cpu_before[1]
    time.sleep(1)  # the backends report their transactions to the statistics within a second of being idle
    commits = _commits(connection) - commits_before - polls - 1  # not this process's polls and pid look-up

    failed = Match.objects.filter(pk__in=ids, status=MatchStatus.FAILED).count()
    decisions = Match.objects.filter(pk__in=ids).aggregate(n=Sum("move_number"))["n"] or 0
    sizes_after = _table_sizes(connection)
    grown = {t: sizes_after[t] - sizes_before[t] for t in TABLES}
    per_match_total = sum(grown.values()) / args.matches
    row_bytes = _row_bytes(connection, ids)
    per_match_rows = sum(row_bytes.values()) / args.matches

    tasks = len(batches(ids, most=args.batch))
    print(f"{args.matches} {args.game} matches of {args.players} {args.bot} bots, {args.workers} worker processes, "
          f"{tasks} tasks, {elapsed:.2f} s ({failed} failed)")
    print(f"matches per second:     {args.matches / elapsed:8.1f}")
    print(f"decisions per second:   {decisions / elapsed:8.0f}   ({decisions / args.matches:.0f} a match)")
    per_match_cpu = 1000 * (worker_cpu + backend_cpu) / args.matches
    print(f"CPU per match:          {per_match_cpu:8.2f} ms   ({1000 * worker_cpu / args.matches:.2f} in the workers, "
          f"{1000 * backend_cpu / args.matches:.2f} in their PostgreSQL backends; Redis not counted)")
    print(f"  so on 2 idle cores:   {2000 / per_match_cpu:8.1f} matches/s at most")
    print(f"transactions per match: {commits / args.matches:8.1f} (pg_stat_database: a statement outside BEGIN is one)")
    print(f"bytes per stored match: {per_match_total:8.0f}   tables with indexes (pg_total_relation_size growth)")
    print(f"                        {per_match_rows:8.0f}   row data alone (pg_column_size sums)")
    for t in TABLES:
        print(f"    {t:20s} {grown[t] / args.matches:8.0f} B with indexes, {row_bytes[t] / args.matches:7.0f} B rows")
    print(f"a million matches:      {per_match_total * 1e6 / 1e9:8.1f} GB with indexes "
          f"({per_match_rows * 1e6 / 1e9:.1f} GB of row data)")
    if args.steady:
        # The growth above counts the row versions a match's updates leave behind (created, claimed, running,
        # finished), which VACUUM (autovacuum, in production) makes free space for the next rows. So: vacuum, play
        # the same number of matches again, and measure what they add: what a stored match costs over time.
        with connection.cursor() as cursor:
            cursor.execute(f"VACUUM {', '.join(TABLES)}")
        sizes_before = _table_sizes(connection)
        more = [create_match(players=players, ruleset={"players": args.players}, seed=f"bench/steady/{i}",
                             game=args.game).pk for i in range(args.matches)]
        play(more)
        failed += Match.objects.filter(pk__in=more, status=MatchStatus.FAILED).count()
        sizes_after = _table_sizes(connection)
        steady = sum(sizes_after[t] - sizes_before[t] for t in TABLES) / args.matches
        print(f"  in the steady state:  {steady:8.0f}   tables with indexes, another {args.matches} matches after a "
              f"VACUUM (row versions reclaimed, as autovacuum does)")
        print(f"  a million matches:    {steady * 1e6 / 1e9:8.1f} GB")
    return 1 if failed else 0


def _cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of these processes (Linux /proc; a process gone counts nothing)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime and stime, the 14th and 15th fields of the line
    return total / ticks


def _backend_pids(connection) -> list[int]:
    """The PostgreSQL backends of the bench database but this process's own (the workers', once connected)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid()")
        return [row[0] for row in cursor.fetchall()]


def _commits(connection) -> int:
    with connection.cursor() as cursor:
        return _one(cursor, "SELECT xact_commit + xact_rollback FROM pg_stat_database "
                            "WHERE datname = current_database()", [])


def _table_sizes(connection) -> dict[str, int]:
    with connection.cursor() as cursor:
        return {t: _one(cursor, "SELECT pg_total_relation_size(%s)", [t]) for t in TABLES}


def _row_bytes(connection, ids: list[int]) -> dict[str, int]:
    queries = {
        "league_match": "SELECT coalesce(sum(pg_column_size(m.*)), 0) FROM league_match m WHERE id = ANY(%s)",
        "league_matchseat": "SELECT coalesce(sum(pg_column_size(s.*)), 0) FROM league_matchseat s "
                            "WHERE match_id = ANY(%s)",
        "league_matchstep": "SELECT coalesce(sum(pg_column_size(c.*)), 0) FROM league_matchstep c "
                            "WHERE match_id = ANY(%s)",
    }
    with connection.cursor() as cursor:
        return {t: _one(cursor, sql, [ids]) for t, sql in queries.items()}


def _one(cursor, sql: str, params: list) -> int:
    cursor.execute(sql, params)
    return int(cursor.fetchone()[0])


if __name__ == "__main__":
    sys.exit(main())
