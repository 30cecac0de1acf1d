"""docs/bot-authors.md's "Your first bot game in five minutes", run as written: the demo, `runserver` in the background
(its embedded beat seats the ladder), the bot created in the ladder with its token, and examples/external_bot.py
playing its first ladder match against the live server, on a fresh SQLite file, with nothing configured."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

# The README's commands run with nothing configured (a SQLite file of their own), whatever the pass sets.
pytestmark = pytest.mark.backend_free

ROOT = Path(__file__).resolve().parents[2]
HEADING = "## Your first bot game in five minutes"


def readme_block() -> str:
    text = (ROOT / "docs" / "bot-authors.md").read_text()
    section = text[text.index(HEADING):]
    return re.search(r"```sh\n(.*?)```", section, re.S).group(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_block_is_the_four_steps():
    lines = [line for line in readme_block().splitlines() if line.strip()]
    assert [line.split()[:3] for line in lines] == [
        ["python", "manage.py", "demo"], ["python", "manage.py", "runserver"],
        ["TOKEN=$(python", "manage.py", "create_external_bot"], ["python", "examples/external_bot.py", "--url"]]


@pytest.mark.slow
def test_the_readme_first_bot_commands_play_a_rated_ladder_match(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "DIAMONDS_CACHE_URL", "DJANGO_DEBUG")}
    db = tmp_path / "first-bot.sqlite3"
    bin_dir = str(Path(sys.executable).parent)  # `python` is this virtualenv's, as after `. .venv/bin/activate`
    env.update(PATH=f"{bin_dir}:{env.get('PATH', '')}", PORT=str(port), DIAMONDS_DB_PATH=str(db),
               # Nothing configured: the embedded beat runs (the test suite turns it off for everything else). A
               # quicker tick than the default 15 s only shortens the wait for the bot's first table.
               DIAMONDS_EMBEDDED_BEAT="1", DIAMONDS_LADDER_TICK="3", PYTHONUNBUFFERED="1")
    script = "set -e\n" + readme_block()
    log = tmp_path / "out.txt"
    # Into a file, not a pipe: the backgrounded server keeps its stdout open after the script's last command ends.
    with open(log, "w") as sink:
        proc = subprocess.Popen(["bash", "-c", script], cwd=ROOT, env=env, stdout=sink, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        proc.wait(timeout=420)  # the bot stops after its first match (--matches 1)
        ladder_page = urllib.request.urlopen(f"http://127.0.0.1:{port}/ladders/1/", timeout=30).read().decode()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # the backgrounded runserver and its autoreloader child
    out = log.read_text()
    assert proc.returncode == 0, out[-3000:]
    # the demo named the pages to open
    assert "http://127.0.0.1:8000/ladders/1/" in out and "Demo ladder" in out
    # the bot said what it did: who it is, its match and page, its decisions, its result
    assert "playing as my-first-bot" in out, out[-3000:]
    match = re.search(r"match (\d+): playing seat (\d)", out)
    assert match, out[-3000:]
    assert f"/matches/{match.group(1)}/" in out
    assert re.search(rf"match {match.group(1)}, move \d+: \w+", out)
    assert re.search(rf"match {match.group(1)} finished: seat \d placed \d of 4", out), out[-3000:]
    made = int(re.search(r"made (\d+) decisions", out).group(1))
    assert made > 10
    with sqlite3.connect(db) as conn:
        (owner_status, ladder_id), = conn.execute(
            "SELECT m.status, m.ladder_id FROM league_match m WHERE m.id = ?", (int(match.group(1)),)).fetchall()
        rated = conn.execute("SELECT r.matches FROM league_rating r JOIN league_player p ON p.id = r.player_id "
                             "WHERE p.name = 'my-first-bot' AND r.ladder_id = 1").fetchall()
    assert owner_status == "finished" and ladder_id == 1
    assert rated and rated[0][0] >= 1
    assert "my-first-bot" in ladder_page  # its rating on the ladder's page
