"""Benchmark of moves pushed to WebSocket viewers against the server as deployed: `python -m tools.bench.live_push`.

    DATABASE_URL=postgres://... REDIS_URL=redis://.../6 python -m tools.bench.live_push --viewers 1000 --matches 50

Sets up a scratch database (`<name>_pushbench` beside DATABASE_URL's) with --matches live matches of four external
bots each (accounts with API tokens), starts gunicorn with uvicorn workers (config.asgi, as deploy/Procfile) on
127.0.0.1, and from this process:
1. plays the matches through the API as external bots play: each seat's bot holds the turns long-poll
   (GET me/turns/?wait=30&legal=1, as docs/bot-authors.md shows), and the bench posts one of the legal decisions a
   bot was told of (POST decisions/) at --rate decisions per second in all (an open loop spread over the matches):
   first --warmup-seconds uncounted (the server's first requests), then --baseline-seconds with no viewer: the
   decisions' latency (the POST) and the long-poll's (from a decision sent to the long-poll of a seat it made owe
   answering), alone;
2. opens --viewers WebSockets (`/ws/matches/<id>/`, anonymous spectators, as many on each match, permessage-deflate
   as browsers ask) and reads the server's memory before and after: the memory per connection;
3. plays on at the same rate for --seconds while they watch, and reports how long each decision took to reach each
   viewer of its match (from the moment the decision was sent to the first pushed table showing its move number or
   a later one), p50/p95/p99 over every (decision, viewer) pair, what never arrived, and the decisions' and the
   long-poll's latency again;
4. the CPU the server used.
Figures are printed, never asserted. Every loop is bounded in count and time; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import secrets
import subprocess
import sys
import time
from pathlib import Path

from tools.bench.api import _CpuMeter, _free_port, _wait_for_port, stop_and_clean_up, use_scratch_database
from tools.bench.api_longpolls import _pcts

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.live_push", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--viewers", type=int, default=1000, help="WebSocket viewers, spread evenly over the matches")
    parser.add_argument("--matches", type=int, default=50, help="live matches")
    parser.add_argument("--rate", type=float, default=10, help="decisions per second over all the matches")
    parser.add_argument("--seconds", type=float, default=60, help="how long the viewers watch")
    parser.add_argument("--warmup-seconds", type=float, default=15,
                        help="play this long first, uncounted (the bots' first long-polls, and each process's "
                             "first reads of the games, are the slowest)")
    parser.add_argument("--baseline-seconds", type=float, default=20, help="then play without viewers, this long")
    parser.add_argument("--open-rate", type=float, default=200, help="sockets opened per second")
    parser.add_argument("--server-workers", type=int, default=3, help="uvicorn workers (deploy/Procfile: 3)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        parser.error("measure as deployed: set DATABASE_URL (PostgreSQL) and REDIS_URL")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.viewers * 2 + 256)), hard))

    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="0", DJANGO_LOG_LEVEL="ERROR",
               DJANGO_SSL_REDIRECT="0",
               DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
               DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost", DIAMONDS_EMBEDDED_BEAT="0")
    scratch_dir = use_scratch_database(env, "pushbench")

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    server = None
    try:
        matches = _matches(args.matches)
        port = _free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.asgi:application", "--worker-class",
             "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}", "--workers", str(args.server_workers),
             "--log-level", "error"],
            cwd=ROOT, env=env, start_new_session=True,
        )
        _wait_for_port(port, server)
        asyncio.run(_run(args, port, matches, server.pid))
        return 0
    finally:
        stop_and_clean_up(server, database_url=env["DATABASE_URL"], scratch_dir=scratch_dir, keep=args.keep)


def _matches(count: int) -> list[dict]:
    """`count` started matches of four external bots: each its id, move number and its seats' tokens."""
    from api.tokens import issue_token
    from league.services import create_match
    from league.services.decisions import advance_match, start_live_match
    from league.services.players import create_external_bot

    out = []
    for m in range(count):
        bots = [create_external_bot(name=f"pusher-{m}-{s}") for s in range(4)]
        match = create_match(players=bots, ruleset={"players": 4}, seed=f"push-bench-{m}")
        start_live_match(match=match)
        advance_match(match_id=match.pk)  # what a worker does next: the first seat to decide is flagged (awaited)
        match.refresh_from_db()
        out.append({"id": match.pk, "move": match.move_number, "tokens": [issue_token(b.user) for b in bots],
                    "pending": None})
    return out


class _Http:
    """A keep-alive HTTP/1.1 connection of one client (one per match: its decisions come one after another)."""

    def __init__(self, port: int):
        self.port, self.reader, self.writer = port, None, None

    async def request(self, method: str, path: str, token: str, body: dict | None = None) -> tuple[int, dict]:
        for attempt in (1, 2):
            try:
                if self.writer is None:
                    self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                data = json.dumps(body).encode() if body is not None else b""
                self.writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token {token}\r\n"
                                  f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n".encode()
                                  + data)
                await self.writer.drain()
                status = int((await self.reader.readline()).split(b" ", 2)[1])
                length = 0
                while (line := await self.reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.decode().partition(":")
                    if name.lower() == "content-length":
                        length = int(value)
                return status, json.loads(await self.reader.readexactly(length)) if length else {}
            except (OSError, IndexError, ValueError, asyncio.IncompleteReadError):
                self.writer = None
                if attempt == 2:
                    return 0, {}
        return 0, {}


async def _bot(port: int, match: dict, seat: int, wakes: list[tuple[float, int, int]]) -> None:
    """A seat's bot, as docs/bot-authors.md writes one: it holds GET me/turns/?wait=30&legal=1 until told of a turn
    of its match (noted in `wakes` as (when, seat, move number)), hands the turn's legal decisions to the match's
    queue (the bench decides when to play, at its steady rate: `_play`), then waits for the match to move on and
    asks again. Runs until cancelled."""
    http = _Http(port)
    token = match["tokens"][seat]
    while True:
        status, answer = await http.request("GET", "/api/v1/me/turns/?wait=30&legal=1", token)
        if status != 200:  # refused or cut off: as a bot would, not at once
            await asyncio.sleep(0.5)
            continue
        turns = [t for t in answer.get("turns", ()) if t.get("match") == match["id"] and t.get("legal")]
        if not turns:
            continue
        move = turns[0]["move_number"]
        wakes.append((time.monotonic(), seat, move))
        match["ready"].put_nowait((seat, turns[0]["legal"]))
        async with match["moved"]:
            await match["moved"].wait_for(lambda move=move: match["move"] > move)


async def _decide(http: _Http, match: dict, seat: int, legal: dict,
                  rng: random.Random) -> tuple[int, float, float]:
    """The seat's decision, chosen from its legal ones: (the move number it led to or 0, when it was sent, its
    latency)."""
    if legal["pass_cards"]:
        offer = legal["pass_cards"]
        decision = {"kind": "pass_cards", "cards": rng.sample(offer["from"], offer["count"])}
    else:
        decision = rng.choice(legal["decisions"])
    sent = time.monotonic()
    status, answer = await http.request("POST", f"/api/v1/matches/{match['id']}/decisions/", match["tokens"][seat],
                                        {"move_number": legal["move_number"], "decision": decision})
    took = time.monotonic() - sent
    if status != 201:
        return 0, sent, took
    match["pending"] = None if answer.get("over") or not answer.get("pending") else answer["pending"]["seats"]
    match["move"] = answer["move_number"]
    async with match["moved"]:
        match["moved"].notify_all()
    return answer["move_number"], sent, took


def _wake_latencies(decisions: list[tuple[int, int, float, list[int]]],
                    wakes: dict[int, list[tuple[float, int, int]]]) -> tuple[list[float], int]:
    """For each decision that left seats owing, from when it was sent to the first long-poll answer of one of those
    seats at its move number or later: the latencies, and how many never answered."""
    out, missed = [], 0
    for match_id, move, sent, seats in decisions:
        when = next((t for t, seat, m in wakes[match_id] if seat in seats and m >= move and t >= sent), None)
        if when is None:
            missed += 1
        else:
            out.append(when - sent)
    return out, missed


async def _play(args, port: int, matches: list[dict],
                seconds: float) -> tuple[list[tuple[int, int, float, list[int]]], list[float]]:
    """Decisions at --rate over the matches for `seconds`: [(match id, move number, sent, seats now owing)] and
    their latencies."""
    rng = random.Random(29)
    decisions: list[tuple[int, int, float, list[int]]] = []
    latencies: list[float] = []
    per_match = args.rate / len(matches)

    async def one_match(i: int, match: dict) -> None:
        http = _Http(port)
        start = time.monotonic() + i / args.rate  # staggered: a steady stream overall
        n = 0
        while True:
            due = start + n / per_match
            if due > end:
                return
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            try:  # a turn a seat's bot was told of at the match's move now (an earlier one is stale)
                while True:
                    seat, legal = await asyncio.wait_for(match["ready"].get(), max(0.1, end - time.monotonic()))
                    if legal["move_number"] >= match["move"]:
                        break
            except TimeoutError:
                return
            move, sent, took = await _decide(http, match, seat, legal, rng)
            if move:
                decisions.append((match["id"], move, sent, list(match["pending"] or ())))
                latencies.append(took)
            n += 1

    end = time.monotonic() + seconds
    await asyncio.gather(*(one_match(i, m) for i, m in enumerate(matches)))
    return decisions, latencies


async def _run(args, port: int, matches: list[dict], server_pid: int) -> None:
    from websockets.asyncio.client import connect

    print(f"server: gunicorn config.asgi with {args.server_workers} uvicorn workers, PostgreSQL, Redis "
          f"(channels_redis pub/sub); {args.matches} matches of four API bots; {args.rate:g} decisions/s in all; "
          f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    wakes: dict[int, list[tuple[float, int, int]]] = {m["id"]: [] for m in matches}
    for m in matches:
        m["moved"], m["ready"] = asyncio.Condition(), asyncio.Queue()
    bots = [asyncio.ensure_future(_bot(port, m, seat, wakes[m["id"]])) for m in matches for seat in range(4)]
    await _play(args, port, matches, args.warmup_seconds)
    made, alone = await _play(args, port, matches, args.baseline_seconds)
    await asyncio.sleep(1)  # the last answers
    print(f"decisions without viewers: {_pcts(alone)}")
    woken, unanswered = _wake_latencies(made, wakes)
    print(f"  long-poll answered (a decision sent to the turns long-poll of a seat it made owe): {_pcts(woken)}; "
          f"never answered: {unanswered}")

    rss_before = _tree_rss(server_pid)
    seen: dict[int, list[list[tuple[float, int]]]] = {m["id"]: [] for m in matches}
    sockets = []

    async def viewer(match: dict, arrivals: list[tuple[float, int]], opened: asyncio.Event) -> None:
        url = f"ws://127.0.0.1:{port}/ws/matches/{match['id']}/?move={match['move']}&status=running"
        async with connect(url, origin=f"http://127.0.0.1:{port}", max_size=2**22, open_timeout=60) as ws:
            sockets.append(ws)
            opened.set()
            async for message in ws:
                arrivals.append((time.monotonic(), json.loads(message)["move_number"]))

    tasks, opened_events = [], []
    started = time.monotonic()
    for i in range(args.viewers):
        match = matches[i % len(matches)]
        arrivals: list[tuple[float, int]] = []
        seen[match["id"]].append(arrivals)
        event = asyncio.Event()
        opened_events.append(event)
        tasks.append(asyncio.ensure_future(viewer(match, arrivals, event)))
        await asyncio.sleep(max(0.0, started + (i + 1) / args.open_rate - time.monotonic()))
    await asyncio.wait_for(asyncio.gather(*(e.wait() for e in opened_events)), 120)
    await asyncio.sleep(3)  # settle
    rss_after = _tree_rss(server_pid)
    failed = sum(t.done() for t in tasks)
    print(f"viewers: {len(sockets)} sockets open ({failed} closed early) after {time.monotonic() - started:.1f} s; "
          f"server memory {rss_before / 2**20:.0f} MiB -> {rss_after / 2**20:.0f} MiB: "
          f"{(rss_after - rss_before) / max(1, len(sockets)) / 1024:.1f} KiB per connection")

    cpu = _CpuMeter(server_pid)
    phase = time.monotonic()
    decisions, watched = await _play(args, port, matches, args.seconds)
    elapsed = time.monotonic() - phase
    await asyncio.sleep(5)  # the last pushes
    reach, missed = [], 0
    for match_id, move, sent, _seats in decisions:
        for arrivals in seen[match_id]:
            when = next((t for t, m in arrivals if m >= move and t >= sent), None)
            if when is None:
                missed += 1
            else:
                reach.append(when - sent)
    print(f"with {len(sockets)} viewers: {len(decisions)} decisions in {elapsed:.1f} s "
          f"({len(decisions) / elapsed:.1f}/s)")
    print(f"  decision to every viewer of its match: {_pcts(reach)}; never arrived: {missed}")
    print(f"  decisions: {_pcts(watched)}")
    woken, unanswered = _wake_latencies(decisions, wakes)
    print(f"  long-poll answered: {_pcts(woken)}; never answered: {unanswered}")
    cpu.report(len(decisions), elapsed)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    for ws in sockets:
        await ws.close()
    for t in tasks + bots:
        t.cancel()
    await asyncio.gather(*tasks, *bots, return_exceptions=True)


def _tree_rss(pid: int) -> int:
    """Resident bytes of `pid` and its children (Linux /proc)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            if int(entry) != pid and ppid != pid:
                continue
            with open(f"/proc/{entry}/status") as f:
                total += next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmRSS:"))
        except (OSError, StopIteration, ValueError):
            continue
    return total


if __name__ == "__main__":
    sys.exit(main())
