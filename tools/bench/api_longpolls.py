"""Benchmark of waiting long-polls against the server as deployed: `python -m tools.bench.api --longpolls 1000 ...`.

    DATABASE_URL=postgres://... REDIS_URL=redis://.../7 python -m tools.bench.api --longpolls 1000 --accounts 200

Sets up a scratch database (`<name>_pollbench` beside DATABASE_URL's, or a temporary SQLite file) with --accounts
bot accounts that owe no decision, starts gunicorn with uvicorn workers (config.asgi, as deploy/Procfile) on
127.0.0.1, and from one asyncio client in this process:
1. opens --longpolls `GET /api/v1/me/turns/?wait=--wait`, spread evenly over the accounts, and waits (bounded)
   until the server holds them all (with Redis, counted in the cap's sorted sets);
2. while they wait, sends --requests other requests at --rate per second (an account's `/api/v1/me/`, the public
   club list, the home page; an open loop: each is sent when due and its latency counts from then), and probes
   `/healthz` --probes times;
3. has one more account open its cap of waits, then one more: the time to that 429;
4. reports each kind's latency (p50/p95/p99), the slowest /healthz, the server's threads and database connections
   while the polls wait, and how the long-polls ended (they answer 200 with no turn once their wait is over).
Figures are printed, never asserted. Every loop is bounded in count and time; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

from tools.bench.api import _CpuMeter, _free_port, _wait_for_port, stop_and_clean_up, use_scratch_database

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.api --longpolls N", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--longpolls", type=int, default=1000, help="long-polls held open at once")
    parser.add_argument("--accounts", type=int, default=200, help="accounts the long-polls are spread over")
    parser.add_argument("--wait", type=float, default=30, help="each long-poll's wait=, seconds")
    parser.add_argument("--open-rate", type=float, default=200,
                        help="long-polls opened per second (bots come and go; a thousand at the same instant would "
                             "be a single accept burst that one worker process takes whole)")
    parser.add_argument("--cap", type=int, default=8, help="DIAMONDS_TURNS_WAITS_PER_ACCOUNT for the server")
    parser.add_argument("--requests", type=int, default=600, help="other requests sent while the polls wait")
    parser.add_argument("--rate", type=float, default=20, help="those requests offered per second (open loop)")
    parser.add_argument("--probes", type=int, default=20, help="/healthz probes while the polls wait")
    parser.add_argument("--server-workers", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    per_account = -(-args.longpolls // args.accounts)
    if per_account > args.cap:
        parser.error(f"{args.longpolls} long-polls over {args.accounts} accounts is {per_account} each, past the "
                     f"cap of {args.cap}")

    # DEBUG off as deployed, so it needs a secret key of its own; plain HTTP on localhost, so no HTTPS redirect.
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="0", DJANGO_LOG_LEVEL="ERROR",
               DJANGO_SSL_REDIRECT="0",
               DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
               DIAMONDS_TURNS_WAITS_PER_ACCOUNT=str(args.cap), DIAMONDS_TURNS_MAX_WAIT=str(args.wait),
               DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
               # What is measured is the server's requests, not ladder ticks or sweeps run beside them without Redis.
               DIAMONDS_EMBEDDED_BEAT="0")
    base_url = os.environ.get("DATABASE_URL", "")
    scratch_dir = use_scratch_database(env, "pollbench")

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    server = None
    try:
        tokens = _accounts(args.accounts + 1)
        port = _free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.asgi:application", "--worker-class",
             "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}", "--workers", str(args.server_workers),
             "--log-level", "error"],
            cwd=ROOT, env=env, start_new_session=True,
        )
        _wait_for_port(port, server)
        asyncio.run(_run(args, port, tokens, server.pid))
        return 0
    finally:
        stop_and_clean_up(server, database_url=env["DATABASE_URL"] if base_url else None, scratch_dir=scratch_dir,
                          keep=args.keep)


def _accounts(count: int) -> list[str]:
    from api.tokens import issue_token
    from league.services.players import create_external_bot

    return [issue_token(create_external_bot(name=f"poller-{i}").user) for i in range(count)]


async def _get(port: int, path: str, token: str | None = None, timeout: float = 120) -> tuple[int, float]:
    """One GET on a fresh connection: (status, seconds); status 0 if it failed."""
    started = time.perf_counter()
    writer = None
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
        auth = f"Authorization: Token {token}\r\n" if token else ""
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{auth}\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readline(), timeout)
        await asyncio.wait_for(reader.read(), timeout)
        return int(head.split(b" ", 2)[1]), time.perf_counter() - started
    except (OSError, TimeoutError, IndexError, ValueError):
        return 0, time.perf_counter() - started
    finally:
        if writer is not None:
            writer.close()


async def _until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await asyncio.to_thread(condition):
            return True
        await asyncio.sleep(0.1)
    return False


def _held_waits() -> int | None:
    """The waits the server holds now (the cap's sorted sets in Redis), or None without Redis."""
    from django.conf import settings

    if not settings.REDIS_URL:
        return None
    from api.waits import _redis

    client = _redis()[0]
    return sum(client.zcard(k) for k in client.scan_iter("diamonds:waits:*", count=1000))


async def _run(args, port: int, tokens: list[str], server_pid: int) -> None:
    pollers, spare = tokens[:-1], tokens[-1]
    path = f"/api/v1/me/turns/?wait={args.wait:g}"
    print(f"server: gunicorn config.asgi with {args.server_workers} uvicorn workers; cap {args.cap} waits per "
          f"account; {'Redis' if os.environ.get('REDIS_URL') else 'no Redis'}; "
          f"{'PostgreSQL' if os.environ.get('DATABASE_URL') else 'SQLite'}")
    started = time.monotonic()
    polls = []
    for i in range(args.longpolls):
        polls.append(asyncio.ensure_future(_get(port, path, pollers[i % len(pollers)], timeout=args.wait + 60)))
        await asyncio.sleep(max(0.0, started + (i + 1) / args.open_rate - time.monotonic()))
    if os.environ.get("REDIS_URL"):
        held = await _until(lambda: (_held_waits() or 0) >= args.longpolls, timeout=min(60, args.wait / 2))
    else:  # no count to read from outside without Redis: give them a moment
        await asyncio.sleep(min(5, args.wait / 4))
        held = False
    opened = time.monotonic() - started
    print(f"long-polls: {args.longpolls} opened over {len(pollers)} accounts (at {args.open_rate:g}/s), all held "
          f"after {opened:.2f} s; held by the server: "
          f"{_held_waits() if held else 'not all (' + str(_held_waits()) + ')'}; answered early: "
          f"{sum(p.done() for p in polls)}")
    print(f"server while they wait: {_threads(server_pid)}; {await asyncio.to_thread(_db_connections)}")

    # Other clients, while the polls wait: an open loop (requests are sent when due, whether or not the earlier ones
    # were answered, and each one's latency counts from when it was due), so a server that falls behind shows.
    kinds = [("/api/v1/me/", True), ("/api/v1/clubs/", False), ("/", False)]
    latencies: dict[str, list[float]] = {k: [] for k, _ in kinds}
    errors: list[str] = []

    async def one(i: int, due: float) -> None:
        await asyncio.sleep(max(0.0, due - time.monotonic()))
        kind, authed = kinds[i % len(kinds)]
        status, _ = await _get(port, kind, pollers[i % len(pollers)] if authed else None, timeout=30)
        latencies[kind].append(time.monotonic() - due)
        if status != 200:
            errors.append(f"{kind}: {status}")

    async def probes(start: float) -> list[float]:
        out = []
        for n in range(args.probes):
            due = start + n * args.requests / args.rate / max(1, args.probes)
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            status, _ = await _get(port, "/healthz", timeout=30)
            out.append(time.monotonic() - due if status == 200 else float("inf"))
        return out

    cpu = _CpuMeter(server_pid)
    phase = time.monotonic()
    health, *_ = await asyncio.gather(probes(phase), *(one(i, phase + i / args.rate) for i in range(args.requests)))
    elapsed = time.monotonic() - phase
    every = [s for v in latencies.values() for s in v]
    print(f"other requests while {args.longpolls} polls wait: {len(every)} offered at {args.rate:g}/s, done in "
          f"{elapsed:.2f} s, {len(errors)} not 200 {sorted(set(errors))[:5]}")
    for kind, values in [("all", every), *latencies.items()]:
        print(f"  {kind:16} {_pcts(values)}")
    print(f"  /healthz         {_pcts(health)}; slowest {max(health) * 1000:.1f} ms")
    cpu.report(len(every) + len(health), elapsed)
    still = sum(not p.done() for p in polls)
    print(f"long-polls still waiting after that phase: {still} of {args.longpolls}")

    # Past the cap: one more account fills its cap, then asks once more.
    extra = [asyncio.ensure_future(_get(port, path, spare, timeout=args.wait + 60)) for _ in range(args.cap)]
    if os.environ.get("REDIS_URL"):
        await _until(lambda: (_held_waits() or 0) >= args.longpolls + args.cap, timeout=20)
    else:
        await asyncio.sleep(1)
    status, seconds = await _get(port, path, spare, timeout=30)
    print(f"past the cap ({args.cap} waiting for one account): status {status} in {seconds * 1000:.1f} ms")

    results = await asyncio.gather(*polls, *extra)
    statuses: dict[int, int] = {}
    for status, _ in results:
        statuses[status] = statuses.get(status, 0) + 1
    waits = sorted(s for st, s in results if st == 200)
    print(f"long-polls ended: {dict(sorted(statuses.items()))} (0: failed); each waited {waits[0]:.1f} to "
          f"{waits[-1]:.1f} s (asked {args.wait:g})" if waits else f"long-polls ended: {statuses}")


def _pcts(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    return f"n={len(ordered)} p50 {pct(50):.1f} ms, p95 {pct(95):.1f} ms, p99 {pct(99):.1f} ms"


def _threads(server_pid: int) -> str:
    """The threads of the server's processes (Linux /proc)."""
    try:
        children = Path(f"/proc/{server_pid}/task/{server_pid}/children").read_text().split()
        counts = []
        for pid in children:
            status = Path(f"/proc/{pid}/status").read_text()
            counts.append(next(line.split()[1] for line in status.splitlines() if line.startswith("Threads:")))
        return f"threads per worker process {', '.join(counts)}"
    except OSError:
        return "threads: unknown (no /proc)"


def _db_connections() -> str:
    from django.db import connection

    if connection.vendor != "postgresql":
        return "database: SQLite"
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        (count,) = cursor.fetchone()
    return f"PostgreSQL connections to the scratch database {count} (this client's included)"


if __name__ == "__main__":
    sys.exit(main())
