"""No secret in an access log (issue 27): lobby invitation tokens (`?token=`, /lobby/invite/<token>/), email
confirmation keys and password reset keys are redacted from what gunicorn (deploy/Procfile's command), uvicorn,
`runserver` and Django's request log print. The servers run in processes of their own, on an empty temporary
database (an answer's status does not matter here: every request is logged)."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from runtime.secrecy import ACCESS_LOGGERS, REDACTED

pytestmark = pytest.mark.backend_free  # each server runs with none of our settings (OURS), whatever the pass sets

ROOT = Path(__file__).resolve().parents[2]
OURS = ("DJANGO_", "DATABASE_URL", "REDIS_URL", "DIAMONDS_CACHE_URL")
SECRET = "s3cr3tV4lue"
PATHS = [f"/lobby/tables/1/live/?token={SECRET}", f"/api/v1/lobby/tables/1/?page=1&token={SECRET}",
         f"/lobby/invite/{SECRET}/", f"/accounts/confirm-email/{SECRET}/",
         f"/accounts/password/reset/key/1a-{SECRET}/", f"/p/{SECRET}/", f"/p/{SECRET}/tables/1/result/",
         f"/claim/{SECRET}/"]
SERVERS = {
    "gunicorn": ["-m", "gunicorn", "config.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker",
                 "--workers", "1", "--access-logfile", "-", "--bind"],
    "gunicorn-wsgi": ["-m", "gunicorn", "config.wsgi:application", "--workers", "1", "--access-logfile", "-",
                      "--bind"],
    "uvicorn": ["-m", "uvicorn", "config.asgi:application", "--port"],
    "runserver": ["manage.py", "runserver", "--noreload"],
}


class Captured(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.mark.parametrize("name", ACCESS_LOGGERS)
def test_the_configured_loggers_redact_secrets_in_every_shape_of_record(name):
    logger, captured = logging.getLogger(name), Captured()
    logger.addHandler(captured)
    try:
        logger.warning('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", f"/lobby/tables/1/?token={SECRET}", "1.1",
                       200)  # uvicorn's
        logger.warning('"%s" %s %s', f"GET /accounts/confirm-email/{SECRET}/ HTTP/1.1", "302", "0")  # runserver's
        logger.warning('%(h)s "%(r)s" %(s)s "%(f)s" %(q)s',  # gunicorn's atoms, with the Referer and query string
                       {"h": "127.0.0.1", "r": f"GET /lobby/invite/{SECRET}/ HTTP/1.1", "s": "200",
                        "f": f"https://league.example/lobby/tables/1/?token={SECRET}", "q": f"token={SECRET}"})
        logger.warning("Not Found: %s", f"/accounts/password/reset/key/1a-{SECRET}/")  # Django's request log
    finally:
        logger.removeHandler(captured)
    assert len(captured.lines) == 4
    assert not [line for line in captured.lines if SECRET in line], captured.lines
    assert all(REDACTED in line for line in captured.lines), captured.lines


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("server", SERVERS)
def test_a_servers_access_log_shows_no_secret(server, tmp_path):
    port = _free_port()
    address = f"127.0.0.1:{port}"
    command = [sys.executable, *SERVERS[server], str(port) if server == "uvicorn" else address]
    clean = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    env = {**clean, "DIAMONDS_DB_PATH": str(tmp_path / "db.sqlite3"), "DIAMONDS_EMBEDDED_BEAT": "0",
           "PYTHONUNBUFFERED": "1"}
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            answered = 0
            deadline = time.monotonic() + 60
            while answered < len(PATHS) and time.monotonic() < deadline and process.poll() is None:
                try:
                    urllib.request.urlopen(f"http://{address}{PATHS[answered]}", timeout=10).close()
                except urllib.error.HTTPError:
                    pass  # a 404 or a 500 (no tables) is logged all the same
                except OSError:
                    time.sleep(0.2)  # not listening yet
                    continue
                answered += 1
            time.sleep(0.5)  # the last line written
        finally:
            process.terminate()
            process.wait(timeout=20)
    text = log.read_text(encoding="utf-8", errors="replace")
    assert answered == len(PATHS), text[-3000:]
    assert text.count(REDACTED) >= len(PATHS), text[-3000:]
    assert SECRET not in text, [line for line in text.splitlines() if SECRET in line]
