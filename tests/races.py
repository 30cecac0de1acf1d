"""Races for the concurrency tests: calls run at the same moment in threads, each with its own database connection
(PostgreSQL only: in-memory SQLite shares one connection between threads, so nothing there can race)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections


def skip_unless_postgres() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("threads need connections of their own: PostgreSQL (DATABASE_URL); in-memory SQLite shares one")


def race(*calls):
    """Run the calls at the same moment in threads; return what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        except Exception as e:  # noqa: BLE001 - the test inspects it
            results[i] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results
