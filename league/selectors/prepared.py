"""ORM queries of live play's hot path, compiled to SQL once per process instead of on every request.

A decision POST and a legal/ read each run one or two fixed queries (the match row locked, its seats with their
players; the caller's seats with their match), and the ORM spent more CPU compiling them, every time, than the
database spent answering them. `PreparedQuery` compiles its queryset once (per database connection), with marker values
where the arguments go, then runs that SQL with the call's arguments and builds the very model instances the ORM
would (select_related relations included, through Django's own populators and the backend's value converters).
The statements sent are the ORM's own, so what the database does, and the query counts, are unchanged.

On PostgreSQL these queries, and the few statements every bot match and live decision sends (league.services.play,
progress, locks), also go through `prepared_cursor`: each connection has PostgreSQL parse and plan them once, as
prepared statements, and then only binds and runs them. Planning was most of what the database spent on a quick
bot match: its statements are few and each touches a row or four.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import psycopg
from django.conf import settings
from django.db import NotSupportedError, connections, router
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]  # private: not in the stubs

# Marker arguments: values no real id takes (ids are positive), told apart by position.
_MARKERS = (-7_318_406_811, -7_318_406_812, -7_318_406_813)
# The ORM answers a lookup by a value outside a 64-bit integer column's range with no rows rather than sending it
# (the database would refuse it: a URL's <int:pk> takes any digits); so does a prepared query.
_ID_RANGE = range(-(2 ** 63), 2 ** 63)


@contextmanager
def prepared_cursor(connection) -> Iterator:
    """A cursor on `connection` whose statements PostgreSQL prepares, the first time each is run on the connection
    (psycopg's server-side binding with `prepare_threshold` 0): later runs skip parsing and planning. Elsewhere, or
    with DIAMONDS_PREPARED_STATEMENTS off (a transaction-mode connection pooler would need it off), the connection's
    ordinary cursor. Django's own cursors are untouched: they bind on the client and never prepare.

    The cursor is wrapped as Django wraps its own, so the statements are logged and counted as any other."""
    if connection.vendor != "postgresql" or not settings.DIAMONDS_PREPARED_STATEMENTS:
        with connection.cursor() as cursor:
            yield cursor
        return
    # What Django's own cursor() does first: a connection whose health check fails (the database restarted since the
    # last request or task) is replaced, not used and found dead by the statement; and one thread's connection is
    # not used by another.
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    raw = connection.connection
    if raw.prepare_threshold != 0:  # a new connection: Django opens them with preparing off
        raw.prepare_threshold = 0
    cursor = psycopg.Cursor(raw)
    wrapped = (_LoggedCursor if connection.queries_logged else _PreparedCursor)(cursor, connection)
    try:
        yield wrapped
    finally:
        cursor.close()


# What PostgreSQL answers when a prepared statement's result columns changed type since it was prepared (a
# migration altered a column under a running process). It answers so on every later run on that connection.
_STALE_PLAN = "cached plan must not change result type"


def _execute_prepared(wrapper: CursorWrapper, sql: str, params):
    """Run the statement; if a migration made its prepared plan stale, drop this connection's prepared statements
    and run it once more. Inside a transaction the error stands: the transaction is aborted anyway, and rolling it
    back drops the prepared statements (psycopg), so its next run prepares afresh."""
    try:
        return CursorWrapper.execute(wrapper, sql, params)
    except NotSupportedError as e:
        if _STALE_PLAN not in str(e) or wrapper.db.in_atomic_block:
            raise
        wrapper.cursor.execute("DEALLOCATE ALL")  # psycopg forgets its own record of them with it
        return CursorWrapper.execute(wrapper, sql, params)


class _PreparedCursor(CursorWrapper):
    def execute(self, sql, params=None):
        return _execute_prepared(self, sql, params)


class _LoggedCursor(CursorDebugWrapper):
    """Django's debug wrapper (DEBUG, or a test capturing queries) for a prepared cursor: it logs the statement with
    its values in, as for Django's own cursors (which read it back from the client-side cursor; a prepared one never
    holds it)."""

    def execute(self, sql, params=None):
        shown = self.db.ops.compose_sql(sql, params) if params is not None else sql
        with self.debug_sql(shown, None, use_last_executed_query=False):
            return _execute_prepared(self, sql, params)


class _Prepared:
    """What PreparedQuery and PreparedValues share: the queryset compiled once per process and database alias, run
    with the call's arguments in a prepared cursor, its rows converted as the ORM converts them."""

    def __init__(self, build: Callable[..., QuerySet], arity: int, *, for_write: bool = False):
        if arity > len(_MARKERS):
            raise ValueError("too many arguments")
        self._build = build
        self._arity = arity
        self._for_write = for_write  # the database a select_for_update queryset would use
        # By database alias, once per process. Not by connection: under ASGI every request runs in a thread made for
        # it, with a connection object of its own, and would compile again. The compiled converters are the
        # backend's and the fields' methods; each is called with the connection of the call (`convert(value,
        # expression, connection)`), and the backends' own use none of their first connection's state but its
        # settings (the time zone), the same for every connection to the alias.
        self._compiled: dict[str, tuple] = {}
        self._model = build(*_MARKERS[:arity]).model
        self._lock = threading.Lock()

    def _compile(self, alias: str) -> tuple:
        """(sql, slots, compiler, converters). A slot says where each parameter comes from: an argument (its index)
        or the queryset itself (a constant)."""
        queryset = self._build(*_MARKERS[:self._arity]).using(alias)
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        slots = [("arg", _MARKERS.index(v)) if v in _MARKERS else ("const", v) for v in params]
        if sum(1 for kind, _ in slots if kind == "arg") < self._arity:
            raise ValueError("an argument does not reach the SQL as a parameter of its own")
        return sql, slots, compiler, compiler.get_converters([s[0] for s in compiler.select])

    def _run(self, args: tuple) -> tuple[list, str, tuple]:
        """The rows for the arguments (converted), the database alias, and what `_compile` made for it."""
        model = self._model
        alias = router.db_for_write(model) if self._for_write else router.db_for_read(model)
        connection = connections[alias]
        compiled = self._compiled.get(alias)
        if compiled is None:
            compiled = self._compile(alias)
            with self._lock:
                self._compiled[alias] = compiled
        sql, slots, _, converters = compiled[:4]
        with prepared_cursor(connection) as cursor:
            cursor.execute(sql, [args[v] if kind == "arg" else v for kind, v in slots])
            rows = cursor.fetchall()
        if converters:
            converted = []
            for row in rows:
                row = list(row)
                for pos, (convs, expression) in converters.items():
                    value = row[pos]
                    for convert in convs:
                        value = convert(value, expression, connection)
                    row[pos] = value
                converted.append(tuple(row))
            rows = converted
        return rows, alias, compiled


class PreparedQuery(_Prepared):
    """`build(*args)` returns the queryset for the arguments (ints, in the queryset's filters); calling the prepared
    query with real arguments returns the list the queryset would."""

    def _compile(self, alias: str) -> tuple:
        compiled = super()._compile(alias)
        compiler = compiled[2]
        klass_info, select = compiler.klass_info, compiler.select
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        init_list = [f[0].target.attname for f in select[start:end]]
        return (*compiled, klass_info, select, start, end, init_list)

    def __call__(self, *args) -> list:
        if any(a not in _ID_RANGE for a in args):
            return []
        rows, alias, compiled = self._run(args)
        klass_info, select, start, end, init_list = compiled[4:]
        model = self._model
        populators = get_related_populators(klass_info, select, alias)
        out = []
        for row in rows:
            obj = model.from_db(alias, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, obj)
            out.append(obj)
        return out


class PreparedValues(_Prepared):
    """Like PreparedQuery, for a `values_list()` queryset (annotations included): calling it with real arguments
    returns the tuples the queryset would, compiled once per process and database alias."""

    def __init__(self, build: Callable[..., QuerySet], arity: int):
        super().__init__(build, arity)

    def __call__(self, *args) -> list[tuple]:
        if any(a not in _ID_RANGE for a in args):
            return []
        return self._run(args)[0]
