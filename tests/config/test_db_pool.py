"""The pooled connections' check (runtime.db_pool.check_unless_quiet): no round trip for a quiet connection, and a
connection the database cut is never handed out. PostgreSQL only (DATABASE_URL), as the pool is."""

from __future__ import annotations

import os
import time

import psycopg
import pytest
from psycopg.conninfo import make_conninfo
from psycopg_pool import ConnectionPool

from runtime.db_pool import check_unless_quiet

pytestmark = [pytest.mark.skipif(not (os.environ.get("DATABASE_URL") or "").startswith("postgres"),
                                 reason="the pool is PostgreSQL's"),
              pytest.mark.django_db]


@pytest.fixture
def round_trips(monkeypatch):
    """The checks that went to the database (psycopg_pool's own check, called by ours)."""
    made = []
    real = ConnectionPool.check_connection

    def counted(conn):
        made.append(conn)
        return real(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    return made


def conninfo() -> str:
    """The test run's database (DATABASE_URL names the one it was made beside)."""
    from django.db import connection

    return make_conninfo(os.environ["DATABASE_URL"], dbname=connection.settings_dict["NAME"])


def cut(conn: psycopg.Connection) -> None:
    """The database ends the connection's backend, as a restart or an operator would; its FATAL has arrived after."""
    pid = conn.info.backend_pid
    with psycopg.connect(conninfo(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with psycopg.connect(conninfo(), autocommit=True) as admin:
            if admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()[0] == 0:
                return
        time.sleep(0.05)


def test_a_quiet_connection_is_handed_out_without_a_round_trip(round_trips):
    with psycopg.connect(conninfo(), autocommit=True) as conn:
        conn.execute("SELECT 1")
        check_unless_quiet(conn)
        check_unless_quiet(conn)
    assert round_trips == []


def test_a_connection_the_database_cut_fails_the_check(round_trips):
    with psycopg.connect(conninfo(), autocommit=True) as conn:
        cut(conn)
        with pytest.raises(psycopg.OperationalError):
            check_unless_quiet(conn)
    assert len(round_trips) == 1  # its socket had something to read: the round trip was made, and failed


def test_the_pool_replaces_a_cut_connection_instead_of_handing_it_out(round_trips):
    pool = ConnectionPool(conninfo(), min_size=1, max_size=1, check=check_unless_quiet, open=True,
                          kwargs={"autocommit": True})
    try:
        with pool.connection(timeout=10) as conn:
            first = conn.info.backend_pid
        with pool.connection(timeout=10) as conn:  # resting, quiet: the same one, no round trip
            assert conn.info.backend_pid == first
        assert round_trips == []
        with pool.connection(timeout=10) as conn:
            cut(conn)
        with pool.connection(timeout=10) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
            assert conn.info.backend_pid != first
    finally:
        pool.close()
