"""The embedded default (SQLite in a file) takes concurrent writers (issue 27): "While the demo's ladder played,
pressing 'Enter the tournament' answered 500 with sqlite3.OperationalError: database is locked".

A transaction that reads and then writes, while another writer commits in between (the ladder's tick seating
tables), cannot take the write lock later on: SQLite answers "database is locked" at once, whatever the busy
timeout. The embedded settings begin every transaction with the write lock (IMMEDIATE), so it waits instead.
The settings are read once per process: the case runs in a process of its own on a temporary database file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OURS = ("DJANGO_", "DATABASE_URL", "REDIS_URL", "DIAMONDS_CACHE_URL")

# A request's transaction reads, then, after the tick's transaction committed a write, writes itself.
INTERLEAVED = """
import threading
import django
django.setup()
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE entry (id INTEGER PRIMARY KEY, who TEXT)")
read, ticked, errors = threading.Event(), threading.Event(), []

def request():
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT COUNT(*) FROM entry")
            read.set()
            ticked.wait(1)  # the tick commits meanwhile (or, holding the write lock, we do not let it)
            cursor.execute("INSERT INTO entry (who) VALUES ('request')")
    except Exception as e:
        errors.append(f"request: {e}")
    finally:
        read.set()
        connection.close()

def tick():
    read.wait(5)
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("INSERT INTO entry (who) VALUES ('tick')")
    except Exception as e:
        errors.append(f"tick: {e}")
    finally:
        ticked.set()
        connection.close()

threads = [threading.Thread(target=request), threading.Thread(target=tick)]
for t in threads:
    t.start()
for t in threads:
    t.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT who FROM entry ORDER BY id")
    print("written:", ",".join(who for (who,) in cursor.fetchall()))
print("errors:", "; ".join(errors))
"""


def test_a_transaction_that_reads_then_writes_waits_for_a_concurrent_writer(tmp_path):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(OURS)}
    done = subprocess.run([sys.executable, "-c", INTERLEAVED], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings",
                               "DIAMONDS_DB_PATH": str(tmp_path / "db.sqlite3")})
    assert done.returncode == 0, done.stderr
    assert "errors: \n" in done.stdout, done.stdout  # before: "request: database is locked"
    assert "written: request,tick" in done.stdout  # the tick waited for the request's write lock
