"""`python -m tools.soak`: the embedded default under ordinary concurrent use.

It makes a SQLite file database in a temporary folder with the demo (`manage.py demo`, small: a club of eight quick
bots, one round, and the club's ladder), an open tournament and one account per writer (a person with an external
bot, both with API tokens), then starts the embedded server on it (`runserver`, or the ASGI app under uvicorn with
`--server uvicorn`), whose embedded beat seats the ladder's tables. Then `--writers` client threads write through
the API for `--seconds`: each person puts their bot in the ladder and takes it out, enters the tournament and leaves
it, opens lobby tables and cancels them or starts them with bots, and both play their turns. Nobody is throttled
(the soak measures the database, not the rate limits).

It prints the answers by status and the number of "database is locked" errors (in answers and in the server's log)
and exits non-zero on any 5xx or lock error.

  python -m tools.soak                              # 20 writers for 60 s
  python -m tools.soak --writers 4 --seconds 10     # a quick one
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import random
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCKED = "database is locked"


@dataclass
class Writer:
    person_token: str
    bot_token: str
    bot_id: int


@dataclass
class Soak:
    ladder: int
    tournament: int
    writers: list[Writer]


class Tally:
    """Answers by status, and the lock errors seen in them; shared by the writer threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: collections.Counter[int] = collections.Counter()
        self.by_action: collections.Counter[str] = collections.Counter()
        self.locked = 0
        self.failures: list[str] = []

    def add(self, action: str, status: int, body: bytes) -> None:
        with self.lock:
            self.statuses[status] += 1
            self.by_action[f"{action} {status}"] += 1
            if LOCKED.encode() in body:
                self.locked += 1
            if status >= 500 and len(self.failures) < 5:
                self.failures.append(f"{action}: HTTP {status} {body[:300]!r}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_environment(db_path: Path) -> dict[str, str]:
    """The embedded default (no DATABASE_URL, no REDIS_URL) on `db_path`, with no rate limit in the way."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "DIAMONDS_CACHE_URL",
                                                                 "DJANGO_SETTINGS_MODULE")}
    env.update(DIAMONDS_DB_PATH=str(db_path), DIAMONDS_WRITE_RATE="1000000/min",
               DIAMONDS_DECISION_RATE="1000000/min", DIAMONDS_LADDER_TICK=env.get("DIAMONDS_LADDER_TICK", "2"),
               PYTHONUNBUFFERED="1")
    return env


SETUP = """
import json, sys
from io import StringIO
import django
django.setup()
from django.contrib.auth import get_user_model
from django.core.management import call_command
from api.tokens import issue_token
from league.models import Club, Ladder
from league.services import create_person_player
from league.services.accounts import mark_made_by_administrator
from league.services.players import create_external_bot
from league.services.tournament_setup import create_tournament

call_command("demo", players=8, rounds=1, bots="greedy,random", stdout=StringIO())
club, ladder = Club.objects.get(name="Demo Club"), Ladder.objects.get(name="Demo ladder")
tournament = create_tournament(name="Soak open", rounds=3, club=club)
writers = []
for i in range(int(sys.argv[1])):
    user = get_user_model().objects.create_user(username=f"soak-{i}", password=None)
    mark_made_by_administrator(user)  # made by this script, not a sign-up: it takes part without an address
    create_person_player(user=user, name=f"soak-{i}")
    bot = create_external_bot(name=f"soak-bot-{i}", clubs=[club], owner=user)
    writers.append({"person_token": issue_token(user), "bot_token": issue_token(bot.user), "bot_id": bot.pk})
print(json.dumps({"ladder": ladder.pk, "tournament": tournament.pk, "writers": writers}))
"""


def prepare(env: dict[str, str], writers: int) -> Soak:
    """The demo, an open tournament and the writers' accounts, made by a process of their own."""
    done = subprocess.run([sys.executable, "-c", SETUP, str(writers)], cwd=ROOT, capture_output=True, text=True,
                          env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"}, check=False)
    if done.returncode:
        raise SystemExit(f"setting up failed:\n{done.stderr}")
    data = json.loads(done.stdout.strip().splitlines()[-1])
    return Soak(data["ladder"], data["tournament"], [Writer(**w) for w in data["writers"]])


def start_server(kind: str, port: int, env: dict[str, str], log) -> subprocess.Popen:
    if kind == "uvicorn":
        command = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port)]
    else:
        command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def call(base: str, token: str, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}/api/v1/{path}", data=data, method=method, headers={
        "Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def wait_until_up(base: str, token: str, server: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode}")
        try:
            if call(base, token, "GET", "me/")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not answer within a minute")


def write(base: str, soak: Soak, writer: Writer, until: float, tally: Tally, seed: int) -> None:
    """One client: a random write at a time until `until`, each answer tallied."""
    rng = random.Random(seed)
    in_ladder = in_tournament = False

    def act(action: str, token: str, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
        try:
            status, answer = call(base, token, method, path, body)
        except OSError as e:  # no answer at all counts as a failure too
            status, answer = 599, str(e).encode()
        tally.add(action, status, answer)
        return status, answer

    while time.monotonic() < until:
        action = rng.choice(("ladder", "tournament", "lobby", "play", "play"))
        if action == "ladder" and (not in_ladder or rng.random() < 0.3):  # in the pool mostly, to be seated
            body = {"player": writer.bot_id} if in_ladder else {"players": [writer.bot_id]}
            status, _ = act("ladder leave" if in_ladder else "ladder join", writer.person_token, "POST",
                            f"ladders/{soak.ladder}/{'leave' if in_ladder else 'join'}/", body)
            in_ladder = (not in_ladder) if status in (200, 201) else in_ladder
        elif action == "tournament":  # the person enters the open tournament ("Enter the tournament") and leaves
            status, _ = act("tournament leave" if in_tournament else "tournament enter", writer.person_token, "POST",
                            f"tournaments/{soak.tournament}/{'leave' if in_tournament else 'enter'}/")
            in_tournament = (not in_tournament) if status in (200, 201) else in_tournament
        elif action == "lobby":
            status, answer = act("lobby open", writer.person_token, "POST", "lobby/tables/",
                                 {"game": "diamonds", "seats": 4, "bot_kind": "random", "turn_deadline_seconds": 5})
            if status == 201:  # cancelled, or started with bots (who play in the request until it is our turn)
                how = rng.choice(("cancel", "start"))
                act(f"lobby {how}", writer.person_token, "POST", f"lobby/tables/{json.loads(answer)['id']}/{how}/")
        else:
            play_turns(act, rng.choice((writer.bot_token, writer.person_token)), rng)


def play_turns(act, token: str, rng: random.Random) -> None:
    """The account's awaited turns, each answered with a random legal decision (as examples/external_bot.py does)."""
    status, answer = act("turns", token, "GET", "me/turns/?legal=1")
    if status != 200:
        return
    for turn in json.loads(answer)["turns"]:
        legal = turn.get("legal")
        if not legal or not legal.get("my_turn"):
            continue
        if legal["pass_cards"]:
            offer = legal["pass_cards"]
            decision = {"kind": "pass_cards", "cards": rng.sample(offer["from"], offer["count"])}
        else:
            decision = rng.choice(legal["decisions"])
        act("decision", token, "POST", f"matches/{turn['match']}/decisions/",
            {"move_number": legal["move_number"], "decision": decision, "seat": legal["seat"]})


def soak(*, writers: int, seconds: float, server: str = "runserver", keep: bool = False) -> dict:
    """Run the soak; returns its figures (statuses, lock errors, the server log's lock errors)."""
    folder = Path(tempfile.mkdtemp(prefix="diamonds-soak-"))
    try:
        return _soak(folder, writers=writers, seconds=seconds, server=server, keep=keep)
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)


def _soak(folder: Path, *, writers: int, seconds: float, server: str, keep: bool) -> dict:
    env = server_environment(folder / "db.sqlite3")
    started = time.monotonic()
    setup = prepare(env, writers)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = folder / "server.log"
    tally = Tally()
    with open(log_path, "wb") as log:
        process = start_server(server, port, env, log)
        try:
            wait_until_up(base, setup.writers[0].person_token, process)
            ready = time.monotonic()
            until = ready + seconds
            threads = [threading.Thread(target=write, args=(base, setup, w, until, tally, i), daemon=True)
                       for i, w in enumerate(setup.writers)]
            for t in threads:
                t.start()
            for t in threads:
                t.join(timeout=seconds + 120)
            ended = time.monotonic()
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
    server_log = log_path.read_text(encoding="utf-8", errors="replace")
    with closing(sqlite3.connect(folder / "db.sqlite3")) as db:
        matches = dict(db.execute("SELECT status, COUNT(*) FROM league_match GROUP BY status").fetchall())
    return {
        "server": server, "writers": writers, "seconds": round(ended - ready, 1),
        "setup_seconds": round(ready - started, 1), "requests": sum(tally.statuses.values()),
        "statuses": dict(sorted(tally.statuses.items())), "by_action": dict(sorted(tally.by_action.items())),
        "server_errors": sum(n for status, n in tally.statuses.items() if status >= 500),
        "locked_in_answers": tally.locked, "locked_in_server_log": server_log.count(LOCKED),
        "matches_by_status": matches, "failures": tally.failures, "folder": str(folder) if keep else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--server", choices=("runserver", "uvicorn"), default="runserver")
    parser.add_argument("--keep", action="store_true", help="keep the database and the server's log")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    figures = soak(writers=args.writers, seconds=args.seconds, server=args.server, keep=args.keep)
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    failed = figures["server_errors"] or figures["locked_in_answers"] or figures["locked_in_server_log"]
    print("FAILED: 5xx or 'database is locked'" if failed else "ok: no 5xx, no 'database is locked'")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
