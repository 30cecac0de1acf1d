"""Load benchmark of the API: standings reads and decisions, sent over loopback to a real server process.

    python -m tools.bench.api                       # SQLite in a scratch file
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/diamonds python -m tools.bench.api --clients 8
    DATABASE_URL=... python -m tools.bench.api --finished-matches 10000 --clients 50   # the issue's scale

Sets up a scratch database (a temporary SQLite file, or `<name>_apibench` beside DATABASE_URL's, dropped afterwards
unless --keep) with a finished tournament of engine bots (for standings) and live matches between external bots
(for decisions), starts gunicorn on 127.0.0.1 in a second process, and from this process sends, with --clients
threads on keep-alive connections:
- `--reads` GET /api/v1/tournaments/{id}/standings/ requests;
- every decision of `--matches` matches (each client plays whole matches of its own: POST decisions/, whose answer
  names the next awaited seat and, for the caller's own seat, carries its legal decisions; GET legal/ only when
  it has none fresh: at the start, after a 409, or for a seat of another account). By default there is one match
  per client, whose four seats one bot account holds (`--accounts-per-match 4`: an account per seat, so most
  decisions need a legal/ read first).
- `--record-reads` reads of finished matches' play, as anonymous readers (a finished match's record is public
  once its deal is revealed, which league.selectors.live.public_record serves whole): for each, GET
  /api/v1/matches/{id}/record/, tricks/ as a plain GET gets it (the first page, of the default 50: all 40 tricks
  of a standard four-player game), a later page as a reader paging through would (`?page_size=10&page=N`, the
  last page: the deepest an OFFSET reaches; `--tricks-page-size`), and the website's replay page
  /matches/{id}/replay/ (the API has no replay of its own; `--no-replay-page` leaves it out). The
  match is a random one of all the finished matches stored, or, for `--repeat-share` of the reads, one of a few
  popular ones read again and again (`--popular`), as readers crowd round a final. Closed loop, by
  `--read-clients`, one kind after the other over the same matches, so each kind's figures are its own.
Decisions are sent in a closed loop by default (each client sends its next request as soon as the last is
answered: the most the server answers, with latency about clients / throughput), or with `--rate R` in an open
loop: the clients pace their decisions (like bots that think between moves) so that together they offer R
decisions/s, and each decision's latency is counted from the moment it was due, so a server (or client) that
falls behind shows in the figures rather than slowing the offered load. `--read-rate R` does the same for the
standings readers.
With `--finished-matches N` the standings are those of a tournament of N stored finished matches: `--templates`
matches are played by engine bots through the ordinary storage path, and the N matches are bulk-inserted as copies
of their rows (the match with its stored play, its seats' results) at tournament tables of `--entrants` players, so
setting up 10,000 matches takes seconds rather than the hours playing them would.
Prints requests per second and the p50/p95/p99 latency of each kind. (`--longpolls N`: the other benchmark, of
waiting long-polls under the ASGI server: tools/bench/api_longpolls.py.) Tasks run in the server process (no broker)
and the rate limits are lifted for the run. Every request loop is bounded; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from tools.scratch_database import create_scratch_database, drop_scratch_database

ROOT = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if any(a == "--longpolls" or a.startswith("--longpolls=") for a in argv):
        from tools.bench.api_longpolls import main as longpolls  # the other benchmark: waiting long-polls under ASGI

        return longpolls(argv)
    parser = argparse.ArgumentParser(prog="python -m tools.bench.api", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=4, help="concurrent client threads")
    parser.add_argument("--reads", type=int, default=400, help="standings requests")
    parser.add_argument("--read-clients", type=int, default=None,
                        help="concurrent standings readers (default: --clients)")
    parser.add_argument("--record-reads", type=int, default=300,
                        help="finished matches' play read (each: record/, tricks/ first and a later page, replay "
                             "page)")
    parser.add_argument("--repeat-share", type=float, default=0.2,
                        help="share of the record reads that go to the few popular matches (the rest: any match)")
    parser.add_argument("--popular", type=int, default=5, help="how many popular matches the repeated reads share")
    parser.add_argument("--replay-page", action=argparse.BooleanOptionalAction, default=True,
                        help="read the website's replay page too (--no-replay-page: the API's reads alone, whose "
                             "figures the page's heavier rendering then does not crowd)")
    parser.add_argument("--tricks-page-size", type=int, default=10,
                        help="page size of the later page of tricks/ read (its last page)")
    parser.add_argument("--matches", type=int, default=None,
                        help="live matches of 4 external bots to play out (default: one per client, at least 8)")
    parser.add_argument("--entrants", type=int, default=None,
                        help="players in the standings' tournament (default 16; with --finished-matches 64, or "
                             "more where a tournament's round limit needs more tables per round)")
    parser.add_argument("--finished-matches", type=int, default=0,
                        help="bulk-store this many finished matches in the standings' tournament")
    parser.add_argument("--accounts-per-match", type=int, choices=(1, 4), default=1,
                        help="1: one bot account holds a match's four seats (each POST answer carries the next "
                             "legal); 4: an account per seat")
    parser.add_argument("--rate", type=float, default=None,
                        help="open loop: the clients together offer this many decisions/s (default: closed loop)")
    parser.add_argument("--read-rate", type=float, default=None,
                        help="open loop: the standings readers together offer this many reads/s (default: closed "
                             "loop)")
    parser.add_argument("--templates", type=int, default=24,
                        help="real bot matches whose rows the bulk-stored matches copy")
    # As deployed (deploy/Procfile, docker-compose.yml): with 2 workers of 4 threads the workers sat waiting on the
    # database (row locks, synchronous commits) with a third of the cores idle; 3 x 16 keeps them busy.
    parser.add_argument("--server-workers", type=int, default=3)
    parser.add_argument("--server-threads", type=int, default=16)
    parser.add_argument("--asgi", action="store_true",
                        help="run the server as deployed now: ASGI, gunicorn with uvicorn workers (default: WSGI with "
                             "--server-threads threads, as the figures below were measured)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args(argv)
    if args.read_clients is None:
        args.read_clients = args.clients
    if args.matches is None:
        args.matches = max(8, args.clients)
    if args.entrants is None:
        # A tournament has at most MAX_TOURNAMENT_ROUNDS rounds, so more matches need more tables in each.
        from league.limits import MAX_TOURNAMENT_ROUNDS

        args.entrants = max(64, 4 * -(-args.finished_matches // MAX_TOURNAMENT_ROUNDS)) if args.finished_matches else 16

    # DEBUG off as deployed, so it needs a secret key of its own; plain HTTP on localhost, so no HTTPS redirect.
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="0", DJANGO_SSL_REDIRECT="0",
               DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(50),
               DIAMONDS_WRITE_RATE="1000000/min", DIAMONDS_DECISION_RATE="1000000/min", DJANGO_LOG_LEVEL="ERROR")
    env.pop("REDIS_URL", None)  # tasks run in the server process: the bench measures the API, not the workers
    env["DIAMONDS_EMBEDDED_BEAT"] = "0"  # nor the ladder ticks and sweeps the embedded default would run there
    base_url = os.environ.get("DATABASE_URL", "")
    scratch_dir = use_scratch_database(env, "apibench")
    os.environ.pop("REDIS_URL", None)

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    server = None
    try:
        tournament_id, bots = _setup(args)
        port = _free_port()
        # --asgi: as deploy/Procfile now runs it (uvicorn workers; --server-threads does not apply).
        kind = (["config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker"] if args.asgi
                else ["config.wsgi:application", "--threads", str(args.server_threads)])
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", *kind, "--bind", f"127.0.0.1:{port}",
             "--workers", str(args.server_workers), "--log-level", "error"],
            cwd=ROOT, env=env, start_new_session=True,
        )
        _wait_for_port(port, server)
        return _run(args, port, tournament_id, bots, server.pid)
    finally:
        stop_and_clean_up(server, database_url=env["DATABASE_URL"] if base_url else None, scratch_dir=scratch_dir,
                          keep=args.keep)


def _setup(args) -> tuple[int, list[tuple[str, str]]]:
    """A finished tournament (played here, eagerly) and the external bots' tokens."""
    from api.tokens import issue_token
    from league.services import create_bot_player
    from league.services.advancing import start_tournament
    from league.services.players import create_external_bot
    from league.services.registration import register_players
    from league.services.tournament_setup import create_tournament
    from workers import app

    app.conf.task_always_eager = True
    started = time.perf_counter()
    if args.finished_matches:
        tournament_id = _bulk_tournament(args.finished_matches, args.entrants, args.templates)
    else:
        players = [create_bot_player(name=f"bench-bot-{i}", kind="random") for i in range(args.entrants)]
        t = create_tournament(name="bench cup", rounds=3, table_size=4, seed="bench")
        register_players(tournament=t, players=players)
        start_tournament(tournament=t)
        tournament_id = t.pk
    print(f"setup: standings tournament {tournament_id} stored in {time.perf_counter() - started:.1f} s")
    from league.models import Player
    from league.models.player import EXTERNAL_BOT

    bots = []
    for i in range(4 * args.matches):
        if args.accounts_per_match == 1 and i % 4:
            # Another seat of the account that holds seat 0 of this match: a Player of its own on the same user.
            holder = Player.objects.get(name=bots[i - i % 4][0])
            player = Player.objects.create(name=f"bench-ext-{i}", user=holder.user, bot_kind=EXTERNAL_BOT)
            bots.append((player.name, bots[i - i % 4][1]))
            continue
        player = create_external_bot(name=f"bench-ext-{i}")
        bots.append((player.name, issue_token(player.user)))
    return tournament_id, bots


def _bulk_tournament(total: int, entrants: int, templates: int) -> int:
    """A finished tournament of `total` stored matches at tables of four, ready for its standings; returns its id.

    Playing 10,000 matches would take hours, so `templates` real matches are played by engine bots and stored the
    ordinary way, and every tournament table is a copy of one of them: the match row, its seats' results (with the
    table's players in the seats) and its stored play (`moves`: every trick and Suit Action is derived from it)."""


    from django.db import connection, transaction
    from django.utils import timezone

    from league.limits import MAX_TOURNAMENT_ROUNDS
    from league.models import Match, MatchSeat, MatchStatus, TournamentRound
    from league.models.tournament import TournamentStatus
    from league.models.tournament_round import RoundStatus
    from league.services import create_bot_player, create_match
    from league.services.play import play_bot_match
    from league.services.registration import register_players
    from league.services.tournament_setup import create_tournament

    if entrants < 4 or entrants % 4:
        raise SystemExit("--entrants must be a multiple of 4 with --finished-matches")
    if -(-total // (entrants // 4)) > MAX_TOURNAMENT_ROUNDS:
        raise SystemExit(f"{total} matches at {entrants // 4} tables a round take more than a tournament's "
                         f"{MAX_TOURNAMENT_ROUNDS} rounds: more --entrants (or leave it out)")
    table_bots = [create_bot_player(name=f"bench-template-{i}", kind="random") for i in range(4)]
    played = []
    for k in range(templates):
        m = create_match(players=table_bots, ruleset={"players": 4}, seed=f"bench-template/{k}")
        play_bot_match(match_id=m.pk)
        m.refresh_from_db()
        if m.status != MatchStatus.FINISHED:
            raise SystemExit(f"template match {m.pk} did not finish: {m.status} {m.error}")
        played.append((m, list(MatchSeat.objects.filter(match=m).order_by("seat"))))

    players = [create_bot_player(name=f"bench-entrant-{i}", kind="random") for i in range(entrants)]
    per_round = entrants // 4
    rounds = -(-total // per_round)
    t = create_tournament(name="bench big cup", rounds=rounds, table_size=4, seed="bench-big", rated=False)
    register_players(tournament=t, players=players)
    rng = random.Random("bench-big")
    now = timezone.now()
    seat_fields = ("team", "score", "tiebreak", "showroom", "placement", "is_winner")
    with transaction.atomic():
        seatings, round_rows = [], []
        for r in range(rounds):
            order = list(players)
            rng.shuffle(order)
            tables = [order[4 * j:4 * j + 4] for j in range(min(per_round, total - r * per_round))]
            seatings.append(tables)
            round_rows.append(TournamentRound(
                tournament=t, index=r + 1, status=RoundStatus.CLOSED, started_at=now, closed_at=now, byes=[],
                tables=[{"number": j + 1, "units": [p.pk for p in ps], "seats": [p.pk for p in ps], "deal_id": None,
                         "seed": f"bench-big/{r}/{j}", "group": None, "rotation": 0} for j, ps in enumerate(tables)],
            ))
        round_rows = TournamentRound.objects.bulk_create(round_rows, batch_size=500)
        matches, sources, seats_of = [], [], []
        for rnd, tables in zip(round_rows, seatings):
            for j, ps in enumerate(tables):
                source = len(matches) % len(played)
                template, _ = played[source]
                matches.append(Match(
                    game=template.game, ruleset=template.ruleset, seed=template.seed, seats=[p.name for p in ps],
                    first_dealer=template.first_dealer, status=MatchStatus.FINISHED, move_number=template.move_number,
                    result=template.result, moves=template.moves, tournament_round=rnd, table_number=j + 1,
                    ratings_applied=True,
                    started_at=now, finished_at=now,
                ))
                sources.append(source)
                seats_of.append(ps)
        matches = Match.objects.bulk_create(matches, batch_size=2000)
        seat_rows = []
        for m, source, ps in zip(matches, sources, seats_of):
            _, template_seats = played[source]
            for ts, p in zip(template_seats, ps):
                seat_rows.append(MatchSeat(match=m, seat=ts.seat, player=p,
                                           **{f: getattr(ts, f) for f in seat_fields}))
        MatchSeat.objects.bulk_create(seat_rows, batch_size=5000)
        t.status, t.started_at, t.finished_at = TournamentStatus.FINISHED, now, now
        t.save(update_fields=["status", "started_at", "finished_at"])
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")  # fresh statistics, as autovacuum would give a table this size soon enough
    return t.pk


def _run(args, port: int, tournament_id: int, bots: list[tuple[str, str]], server_pid: int) -> int:
    from league.models import Player
    from league.services import create_match
    from league.services.decisions import advance_match

    # Standings reads.
    latencies: list[float] = []
    errors: list[str] = []
    per_client = _split(args.reads, args.read_clients)
    url = f"/api/v1/tournaments/{tournament_id}/standings/"
    for _ in range(args.server_workers * 2):
        # The first read in each server process computes the table (then cached until a result changes); with no
        # way to pick the process, a few reads warm them, and the first one's time is the computation's.
        t0 = time.perf_counter()
        cold: list[float] = []
        _reads(port, url, 1, cold, errors)
        print(f"standings read (warm-up): {(time.perf_counter() - t0) * 1000:.1f} ms")
    read_interval = args.read_clients / args.read_rate if args.read_rate else None
    cpu = _CpuMeter(server_pid)
    started = time.perf_counter()
    read_pace = _paces(args.read_clients, started, read_interval)
    _threads(args.read_clients, lambda i: _reads(port, url, per_client[i], latencies, errors, read_pace[i]))
    elapsed = time.perf_counter() - started
    offered = f" at an offered {args.read_rate:g}/s" if read_interval else ""
    waits = "; from when each was due to its answer" if read_interval else ""
    _report(f"standings reads{offered} ({args.read_clients} clients{waits})", latencies, elapsed, errors)
    cpu.report(len(latencies), elapsed)

    if args.record_reads:
        errors = _record_phase(args, port, server_pid)
        if errors:
            return 1

    # Decisions: each client plays whole matches of four external bots.
    tokens = dict(bots)
    matches = []
    for m in range(args.matches):
        names = [name for name, _ in bots[4 * m:4 * m + 4]]
        players = [Player.objects.get(name=n) for n in names]
        match = create_match(players=players, ruleset={"players": 4}, seed=f"bench/{m}")
        advance_match(match_id=match.pk)  # flags the first awaited seat
        matches.append((match.pk, [tokens[n] for n in names]))
    post_lat: list[float] = []
    legal_lat: list[float] = []
    decision_lat: list[float] = []
    errors = []
    groups = [matches[i::args.clients] for i in range(args.clients)]
    # Open loop: each client owes a decision every clients / rate seconds, from a phase of its own so that the
    # clients do not all send at once.
    interval = args.clients / args.rate if args.rate else None
    cpu = _CpuMeter(server_pid)
    started = time.perf_counter()
    pace = _paces(args.clients, started, interval)
    _threads(args.clients, lambda i: _play(port, groups[i], post_lat, legal_lat, decision_lat, errors, pace[i]))
    elapsed = time.perf_counter() - started
    if interval is not None:
        _report(f"decisions at an offered {args.rate:g}/s ({args.clients} clients; from when each was due to its "
                "answer)", decision_lat, elapsed, errors, unit="decisions")
    _report("decisions (POST)", post_lat, elapsed, errors if interval is None else [])
    _report("legal reads (GET) ", legal_lat, elapsed, [])
    print(f"  {len(post_lat) + len(legal_lat)} requests in {elapsed:.2f} s while playing {args.matches} matches: "
          f"{(len(post_lat) + len(legal_lat)) / elapsed:.1f} requests/s in all")
    cpu.report(len(post_lat) + len(legal_lat), elapsed)
    return 1 if errors else 0


def _record_phase(args, port: int, server_pid: int) -> list[str]:
    """Reads of finished matches' play (record/, tricks/ first and last page, replay page); their errors."""
    from engine import Ruleset
    from league.models import Match, MatchStatus

    # Every finished match stored (the standings' tournament, and with --finished-matches its templates too), with
    # its number of tricks (a finished game plays them all), which says its last page of tricks/.
    finished = [(pk, Ruleset.from_dict(ruleset).rounds * Ruleset.from_dict(ruleset).tricks_per_round)
                for pk, ruleset in Match.objects.filter(status=MatchStatus.FINISHED, game="diamonds", offline=False)
                .order_by("pk").values_list("pk", "ruleset")]
    if not finished:
        print("record reads: no finished matches stored")
        return []
    page_size = args.tricks_page_size
    rng = random.Random("record-reads")
    popular = rng.sample(finished, min(args.popular, len(finished)))
    picks = [rng.choice(popular) if rng.random() < args.repeat_share else rng.choice(finished)
             for _ in range(args.record_reads)]
    kinds = ["record", "tricks", "tricks (later page)", *(["replay page"] if args.replay_page else [])]
    errors: list[str] = []
    # Untimed, a few reads first, so that each server process has loaded its templates and code before the clock
    # starts (it cannot be picked: several reads reach most of them); these also check the answers whole.
    warm_up = {kind: [] for kind in kinds}
    _read_play(port, finished[:1] * (2 * args.server_workers), page_size, warm_up, errors)
    counts = sorted(count for _, count in finished)
    print(f"record reads: {len(picks)} finished matches read ({len({pk for pk, _ in picks})} different of "
          f"{len(finished)} stored, of {counts[0]}-{counts[-1]} tricks; {args.repeat_share:.0%} of the reads among "
          f"{len(popular)} popular ones), {args.read_clients} clients, anonymous; later page: page_size={page_size}")
    # One kind at a time, over the same picks: each kind's requests/s is its own, and so is its CPU per request, the
    # steadier figure on a shared machine (latency follows the neighbours' load).
    for kind in kinds:
        latencies: dict[str, list[float]] = {kind: []}
        kind_errors: list[str] = []
        cpu = _CpuMeter(server_pid)
        started = time.perf_counter()
        _threads(args.read_clients, lambda i, lat=latencies, errs=kind_errors: _read_play(
            port, picks[i::args.read_clients], page_size, lat, errs))
        elapsed = time.perf_counter() - started
        _report(f"  {kind:<19}", latencies[kind], elapsed, kind_errors)
        cpu.report(len(latencies[kind]), elapsed)
        errors += kind_errors
    return errors


def _read_play(port: int, picks: list[tuple[int, int]], page_size: int, kinds: dict[str, list[float]],
               errors: list[str]) -> None:
    """Read each picked match's play as an anonymous reader would, the kinds of read in `kinds` (whose latencies
    it appends to). The first match's answers are checked whole (the record complete, every trick there); the rest
    are only timed, so that parsing does not slow the client."""
    from api.pagination import Pagination

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for n, (match_id, trick_count) in enumerate(picks):
        last_page = max(1, -(-trick_count // page_size))
        urls = [("record", f"/api/v1/matches/{match_id}/record/", None),
                ("tricks", f"/api/v1/matches/{match_id}/tricks/", Pagination.page_size),
                ("tricks (later page)", f"/api/v1/matches/{match_id}/tricks/?page_size={page_size}&page={last_page}",
                 page_size),
                ("replay page", f"/matches/{match_id}/replay/", None)]
        for kind, url, size in urls:
            if kind not in kinds:
                continue
            t0 = time.perf_counter()
            conn.request("GET", url, headers={"Accept": "text/html" if kind == "replay page" else "application/json"})
            response = conn.getresponse()
            body = response.read()
            kinds[kind].append(time.perf_counter() - t0)
            if response.status != 200:
                errors.append(f"GET {url}: {response.status} {body[:200]!r}")
                continue
            if n == 0:
                problem = _check_play_answer(kind, body, trick_count, url.endswith(f"page={last_page}"), size)
                if problem:
                    errors.append(f"GET {url}: {problem}")
    conn.close()


def _check_play_answer(kind: str, body: bytes, trick_count: int, last_page: bool, page_size: int | None) -> str | None:
    """What is wrong with an answer about a finished match's play, if anything (for tricks/: a page of `page_size`,
    the match's last page or its first)."""
    if kind == "replay page":
        return None if b"<html" in body.lower() else "not an HTML page"
    answer = json.loads(body)
    if kind == "record":
        if answer.get("complete") is False or not answer.get("seed") or "result" not in answer:
            return "the record of a finished match is not whole (no seed or result)"
        recorded = sum(len(r["tricks"]) for r in answer["rounds"])
        return None if recorded == trick_count else f"{recorded} tricks in the record, {trick_count} stored"
    if answer.get("count") != trick_count:
        return f"count {answer.get('count')}, {trick_count} tricks stored"
    expected = (trick_count - 1) % page_size + 1 if last_page and trick_count else min(page_size, trick_count)
    return None if len(answer["results"]) == expected else f"{len(answer['results'])} tricks, {expected} expected"


def _paces(clients: int, started: float, interval: float | None) -> list[tuple[float, float] | None]:
    """Per client: when its first request is due and the interval after that (None: closed loop). Each client starts
    at a phase of its own so that they do not all send at once."""
    phases = random.Random(2)
    return [None if interval is None else (started + phases.uniform(0, interval), interval) for _ in range(clients)]


def _reads(port: int, url: str, count: int, latencies: list[float], errors: list[str],
           pace: tuple[float, float] | None = None) -> None:
    """`count` GETs of `url`; with `pace` each is sent when due and timed from then (see _play)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    due = pace[0] if pace else 0.0
    for _ in range(count):
        if pace:
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            t0, due = due, due + pace[1]
        else:
            t0 = time.perf_counter()
        conn.request("GET", url, headers={"Accept": "application/json"})
        response = conn.getresponse()
        response.read()
        latencies.append(time.perf_counter() - t0)
        if response.status != 200:
            errors.append(f"GET {url}: {response.status}")
    conn.close()


def _play(port: int, matches: list[tuple[int, list[str]]], post_lat, legal_lat, decision_lat, errors,
          pace: tuple[float, float] | None) -> None:
    """Play each match to its end: whichever seat is awaited makes a decision, from the legal decisions the last
    POST's answer carried, or (if it carried none for that seat) read with GET legal/. With `pace` (the time the
    first decision is due, and the interval between decisions) the client waits for each decision's time."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    rng = random.Random(1)
    due = pace[0] if pace else 0.0
    for match_id, tokens in matches:
        # The spectator's state says whose turn it is first; after that each POST's answer says it.
        status, state = _call(conn, "GET", f"/api/v1/matches/{match_id}/state/", None, None)
        over, pending = state["over"], state["pending"]
        legal = None
        for _ in range(2000):  # a 4-player match is under 200 decisions; the bound only stops a runaway loop
            if over:
                break
            if pace:
                wait = due - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                begun = due  # a decision sent late (the client fell behind) counts its wait too
                due += pace[1]
            else:
                begun = time.perf_counter()
            seat = legal["seat"] if legal else pending["seats"][0]
            if legal is None:
                t0 = time.perf_counter()
                status, legal = _call(conn, "GET", f"/api/v1/matches/{match_id}/legal/", tokens[seat], None)
                legal_lat.append(time.perf_counter() - t0)
            if legal["pass_cards"]:
                decision = {"kind": "pass_cards", "cards": rng.sample(legal["pass_cards"]["from"],
                                                                      legal["pass_cards"]["count"])}
            else:
                decision = rng.choice(legal["decisions"])
            t0 = time.perf_counter()
            status, body = _call(conn, "POST", f"/api/v1/matches/{match_id}/decisions/", tokens[seat],
                                 {"move_number": legal["move_number"], "decision": decision, "seat": seat})
            done = time.perf_counter()
            post_lat.append(done - t0)
            if status == 409:
                legal = None  # stale: read the seat's legal decisions afresh and decide again
                continue
            if status != 201:
                errors.append(f"POST decision: {status} {body}")
                return
            decision_lat.append(done - begun)
            # A server without the answer's `legal` (an older one) still works: the next round reads legal/.
            over, pending, legal = body["over"], body["pending"], body.get("legal")
    conn.close()


def _call(conn, method: str, url: str, token: str | None, body) -> tuple[int, dict]:
    headers = {"Accept": "application/json", "Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    conn.request(method, url, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    return response.status, json.loads(response.read() or b"null")


def _threads(count: int, target) -> None:
    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def _split(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def _report(what: str, latencies: list[float], elapsed: float, errors: list[str], unit: str = "requests") -> None:
    if not latencies:
        print(f"{what}: no requests")
        return
    ordered = sorted(latencies)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000

    print(f"{what}: {len(ordered)} {unit}, {len(ordered) / elapsed:8.1f} {unit}/s   "
          f"p50 {pct(50):6.1f} ms  p95 {pct(95):6.1f} ms  p99 {pct(99):6.1f} ms"
          + (f"   {len(errors)} errors, first: {errors[0]}" if errors else ""))


class _CpuMeter:
    """Where a phase's time went, on Linux: CPU seconds used by the server (gunicorn and its workers), by this client
    process, and by everything on the machine (the two cores are shared, so a slow run may be another's load)."""

    def __init__(self, server_pid: int):
        self.server_pid = server_pid
        self.server = _process_tree_cpu(server_pid)
        self.client = time.process_time()
        self.machine = _machine_cpu()

    def report(self, requests: int, elapsed: float) -> None:
        server, machine = _process_tree_cpu(self.server_pid), _machine_cpu()
        if server is None or machine is None or self.server is None or self.machine is None or not requests:
            return
        server -= self.server
        client = time.process_time() - self.client
        busy = machine[0] - self.machine[0]
        print(f"  CPU per request: server {server / requests * 1000:.1f} ms, client {client / requests * 1000:.1f} ms;"
              f" server {server / elapsed:.2f} cores, client {client / elapsed:.2f}, everything else (the database,"
              f" other users) {max(0.0, busy - server - client) / elapsed:.2f} of {os.cpu_count()}")


def _process_tree_cpu(pid: int) -> float | None:
    """CPU seconds (user + system) of `pid` and its children, from /proc; None where there is no /proc."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total, found = 0.0, False
    try:
        entries = os.listdir("/proc")
    except OSError:
        return None
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        # After the command name: state, ppid, ... utime and stime are the 12th and 13th.
        if int(entry) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
            found = True
    return total if found else None


def _machine_cpu() -> tuple[float, float] | None:
    """Busy and total CPU seconds of the whole machine so far, from /proc/stat."""
    try:
        with open("/proc/stat") as f:
            values = [int(v) for v in f.readline().split()[1:]]
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return (sum(values) - idle) / tick, sum(values) / tick


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def use_scratch_database(env: dict, name: str) -> str | None:
    """Point `env`, and this process, at a scratch database: a new PostgreSQL database beside DATABASE_URL's, or
    an SQLite file in a new folder (whose path it returns, for stop_and_clean_up)."""
    base_url = os.environ.get("DATABASE_URL", "")
    scratch_dir = None
    if base_url:
        env["DATABASE_URL"] = create_scratch_database(base_url, name)
    else:
        scratch_dir = tempfile.mkdtemp(prefix=f"diamonds-{name}-")
        env["DIAMONDS_DB_PATH"] = str(Path(scratch_dir) / "bench.sqlite3")
    os.environ.update(env)
    return scratch_dir


def stop_and_clean_up(server: subprocess.Popen | None, *, database_url: str | None, scratch_dir: str | None,
                      keep: bool) -> None:
    """After a benchmark: stop the server it started (its whole process group), then, unless asked to keep them,
    drop the scratch database and remove the scratch folder."""
    if server is not None and server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
    from django.db import connections

    connections.close_all()
    if database_url and not keep:
        drop_scratch_database(database_url)
    if scratch_dir and not keep:
        for f in Path(scratch_dir).iterdir():
            f.unlink()
        os.rmdir(scratch_dir)


def _wait_for_port(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start within 60 s")


if __name__ == "__main__":
    sys.exit(main())
