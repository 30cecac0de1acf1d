"""The check a pooled PostgreSQL connection passes as the pool hands it out (config.settings, under ASGI).

psycopg_pool's own check (ConnectionPool.check_connection) sends an empty query and waits for the answer: a round
trip to the database for every request and every socket read, all of them in a web process's threads. A connection
resting in the pool has nothing to read from the server unless the server closed it or spoke first (a restart's or
pg_terminate_backend's FATAL message, then the end of the stream): so the socket is polled, without waiting, and the
round trip is made only for a connection with something to read, which it then rejects or clears.
"""

from __future__ import annotations

import select

from psycopg import Connection, OperationalError
from psycopg_pool import ConnectionPool


def check_unless_quiet(conn: Connection) -> None:
    """Return quietly if the connection can be used; raise (the pool then opens another) if not."""
    if conn.closed or conn.broken:
        raise OperationalError("the connection is closed")
    poller = select.poll()  # not select.select: a web process holds more than 1,024 descriptors (its sockets)
    try:
        poller.register(conn.fileno(), select.POLLIN | select.POLLPRI)
        quiet = not poller.poll(0)
    except (OSError, ValueError):
        quiet = False
    if not quiet:
        ConnectionPool.check_connection(conn)
