"""Throw-away PostgreSQL databases for the benchmarks (`python -m tools.bench.workers`, `python -m tools.bench.api`).

A benchmark fills a database of its own next to the one DATABASE_URL names, and drops it when it is done, so
measuring never touches real data.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def create_scratch_database(base_url: str, suffix: str) -> str:
    """Create (afresh) `<database>_<suffix>` on the server of `base_url`; returns its URL."""
    import psycopg

    parts = urlsplit(base_url)
    name = f"{parts.path.lstrip('/')}_{suffix}"
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path="/" + name))


def drop_scratch_database(scratch_url: str) -> None:
    import psycopg

    parts = urlsplit(scratch_url)
    name = parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
