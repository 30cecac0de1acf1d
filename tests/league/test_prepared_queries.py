"""league.selectors.prepared: a query (or a values_list) compiled once answers as the ORM does (same rows, fields
and related objects, on every call with new arguments), and a value out of a 64-bit id's range finds nothing, as
the ORM's lookup does."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.models import Exists, OuterRef

from league.models import Match, MatchSeat
from league.selectors.prepared import PreparedQuery, PreparedValues
from league.services import create_match
from league.services.players import create_external_bot

pytestmark = pytest.mark.django_db

SEATS = PreparedQuery(lambda m, u: MatchSeat.objects.filter(match__pk=m, player__user=u)
                      .select_related("match", "player").order_by("seat"), 2)
LOCKED = PreparedQuery(lambda pk: Match.objects.select_for_update().filter(pk=pk).order_by("pk")[:1], 1,
                       for_write=True)


def fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def test_a_prepared_query_answers_as_the_orm_does_call_after_call():
    bots = [create_external_bot(name=f"prep-{i}") for i in range(4)]
    matches = [create_match(players=bots, ruleset={"players": 4}, seed=f"prep/{k}") for k in range(2)]
    for match in matches:
        for bot in bots:
            orm = list(MatchSeat.objects.filter(match__pk=match.pk, player__user=bot.user)
                       .select_related("match", "player").order_by("seat"))
            got = SEATS(match.pk, bot.user.pk)
            assert [fields(ms) for ms in got] == [fields(ms) for ms in orm] and len(got) == 1
            assert fields(got[0].match) == fields(orm[0].match)
            assert fields(got[0].player) == fields(orm[0].player)
        with transaction.atomic():
            (locked,) = LOCKED(match.pk)
            assert fields(locked) == fields(Match.objects.get(pk=match.pk))
    assert SEATS(matches[0].pk, 10 ** 9) == []


def test_an_id_out_of_range_finds_nothing():
    assert SEATS(2 ** 63, 1) == []
    with transaction.atomic():
        assert LOCKED(10 ** 30) == []


VALUES = PreparedValues(lambda pk: MatchSeat.objects.filter(match_id=pk).values_list(
    "seat", "player_id", "player__name", "forfeited", Exists(Match.objects.filter(pk=OuterRef("match_id")))), 1)


def test_prepared_values_answer_as_the_orm_does():
    bots = [create_external_bot(name=f"prepv-{i}") for i in range(4)]
    matches = [create_match(players=bots, ruleset={"players": 4}, seed=f"prepv/{k}") for k in range(2)]
    MatchSeat.objects.filter(match=matches[1], seat=2).update(forfeited=True)
    for match in matches:
        orm = list(MatchSeat.objects.filter(match_id=match.pk).values_list(
            "seat", "player_id", "player__name", "forfeited", Exists(Match.objects.filter(pk=OuterRef("match_id")))))
        got = VALUES(match.pk)
        assert got == orm and len(got) == 4 and all(row[4] is True for row in got)
    assert [row[3] for row in VALUES(matches[1].pk)] == [False, False, True, False]
    assert VALUES(10 ** 9) == [] and VALUES(2 ** 63) == []


# ---- prepared statements on PostgreSQL (league.selectors.prepared.prepared_cursor) -------------------------------

def _prepared_on_this_connection() -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.django_db(transaction=True)
def test_a_bot_match_is_played_with_prepared_statements_and_they_are_logged_with_their_values(settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league.services import play_bot_match
    from league.services.match_finished import on_match_finished

    from .matches_support import VARIANTS, bot_match, reference_record

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    settings.DIAMONDS_PREPARED_STATEMENTS = True
    match = bot_match(VARIANTS["4p-thief"], seed="prepared")
    with CaptureQueriesContext(connection) as queries:
        assert play_bot_match(match_id=match.pk).status == "finished"
        on_match_finished(match_id=match.pk)
    prepared = _prepared_on_this_connection()
    # the claim, the match and its seats, the finishing write, the follow-up's facts: parsed and planned once
    assert any("pg_try_advisory_lock" in sql for sql in prepared)
    assert any("league_matchseat" in sql and "INNER JOIN" in sql for sql in prepared)
    assert any(sql.startswith("WITH live AS (UPDATE league_match") for sql in prepared)
    logged = [q["sql"] for q in queries.captured_queries]
    assert any(f"pg_try_advisory_lock(4483405, {match.pk})" in sql for sql in logged)  # values in, as Django logs
    match.refresh_from_db()
    from league.selectors import match_record

    assert match_record(match) == reference_record(match)


@pytest.mark.django_db(transaction=True)
def test_with_prepared_statements_off_nothing_is_prepared_and_play_is_the_same(settings):
    from django.db import connection

    from league.selectors import match_record
    from league.services import play_bot_match

    from .matches_support import VARIANTS, bot_match, reference_record

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    settings.DIAMONDS_PREPARED_STATEMENTS = False  # behind a transaction-mode pooler
    connection.close()  # a fresh session: nothing prepared by earlier tests
    match = bot_match(VARIANTS["3p-choose"], seed="not-prepared")
    assert play_bot_match(match_id=match.pk).status == "finished"
    assert SEATS(match.pk, -1) == []
    assert _prepared_on_this_connection() == []
    match.refresh_from_db()
    assert match_record(match) == reference_record(match)


@pytest.mark.django_db(transaction=True)
def test_a_prepared_read_whose_plan_a_migration_made_stale_is_prepared_afresh():
    # A migration alters a column's type while a worker plays: PostgreSQL then refuses that worker connection's
    # prepared statements of the table ("cached plan must not change result type"), on every run. Outside a
    # transaction the cursor drops the connection's prepared statements and runs the statement again.
    import threading

    from django.db import connection
    from django.db import connection as this_threads

    from league.selectors.prepared import prepared_cursor

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE prepared_probe (id int, v int)")
        cursor.execute("INSERT INTO prepared_probe VALUES (1, 2)")

    def read() -> list:
        with prepared_cursor(connection) as cursor:
            cursor.execute("SELECT id, v FROM prepared_probe WHERE id = %s", [1])
            return cursor.fetchall()

    def migrate() -> None:  # another session, as the migrating process is
        with this_threads.cursor() as cursor:
            cursor.execute("ALTER TABLE prepared_probe ALTER COLUMN v TYPE bigint")
        this_threads.close()

    try:
        assert read() == [(1, 2)]
        assert any("prepared_probe" in sql for sql in _prepared_on_this_connection())
        other = threading.Thread(target=migrate)
        other.start()
        other.join()
        assert read() == [(1, 2)]
        assert read() == [(1, 2)]  # and it stays prepared afresh
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE prepared_probe")


@pytest.mark.django_db(transaction=True)
def test_a_prepared_query_on_a_connection_the_database_dropped_opens_a_fresh_one():
    # The database restarted (or cut the connection) between two requests: at the next request Django checks the
    # connection's health before its first query; a prepared query is that first query too, and must not answer
    # with the dead connection's error.
    import threading

    from django.db import close_old_connections, connection
    from django.db import connection as this_threads

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    if not connection.settings_dict.get("CONN_HEALTH_CHECKS"):
        pytest.skip("without health checks Django itself would fail here")
    bots = [create_external_bot(name=f"cut-{i}") for i in range(4)]
    match = create_match(players=bots, ruleset={"players": 4}, seed="cut")
    assert len(SEATS(match.pk, bots[0].user.pk)) == 1
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]

    def cut() -> None:
        with this_threads.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        this_threads.close()

    other = threading.Thread(target=cut)
    other.start()
    other.join()
    close_old_connections()  # what the start of a request (or of a worker's task) does
    assert len(SEATS(match.pk, bots[0].user.pk)) == 1
