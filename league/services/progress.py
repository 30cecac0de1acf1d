"""Store what an engine game has done since the last store: its new choices, and once it ends, its result.

Every game is stored the same way (league.selectors.games): its ordered choices, compactly encoded
(engine.common.compact). A match in play appends a MatchStep row per store (the choices made since the last one,
which `ChoiceMarks` counts, so nothing is read back or written twice; the unique (match, first) constraint would
refuse a second copy anyway): a person's decision is one small row, never a rewrite of what is stored. When the
game ends the match row gets its whole play (`moves`), its result and its status, its steps are deleted and every
seat gets its score, tie-break, placement and winner flag, all in one step: a finished match is one row and its
seats'.

Each call is one atomic step. On PostgreSQL it is a single statement (data-modifying CTEs joined to the match row's
conditional update), so a decision costs one round trip; that holds inside a caller's transaction too (a person's
decision, under the match's row lock): one statement is atomic on its own and needs no savepoint, and an error in it
fails the caller's transaction as a whole, which is what the caller rolls back anyway. Elsewhere (SQLite) the ORM
writes the same rows in a transaction (a savepoint inside the caller's).

A seat's `tiebreak` is the game's (engine.games: Diamonds' vault, its team's with partnerships). A seat that
forfeited (league.services.decisions) is placed last, its team with it; the result JSON stays the game's own.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from contextlib import nullcontext
from typing import Any

from django.db import connection, transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from engine.common.referee import result_json
from engine.games import game_type

from ..events import emit
from ..models import Match, MatchSeat, MatchStatus, MatchStep
from ..models.match import IN_PLAY
from ..selectors.comparisons import is_comparison_match
from ..selectors.games import ChoiceMarks
from ..selectors.prepared import prepared_cursor
from ..standings import forfeit_places
from .stopping import PlayStopped, status_of


def store_progress(*, match: Match, game: Any, marks: ChoiceMarks, extra: dict | None = None,
                   forfeited: Collection[int] = (), awaiting: Collection[int] | None = None) -> int:
    """Write the choices `game` holds beyond `marks` (and move `marks` on), the match row's move number and `extra`
    fields (a lease renewal, a deadline), and once the game is over its whole play, result and seats' results,
    atomically. With `awaiting`, the seats' `awaiting` flags are set in the same write (true for exactly those
    seats). Returns the number of choices written. Only while the match is in play: once it was cancelled or failed
    this raises PlayStopped having written nothing (league.services.stopping), and `marks` must be thrown away."""
    kind = game_type(match.game)
    new = game.choices[marks.choices:]
    now = timezone.now()
    fields = {"move_number": game.move_number, "updated_at": now, **(extra or {})}
    step = None
    seats = None
    clear_steps = False
    if game.result is not None:
        # An ended match needs no lease (league.services.locks then gives its claim back without writing the row).
        fields.update(status=MatchStatus.FINISHED, result=_result_of(match.game, game), finished_at=now,
                      moves=kind.codec.encode(game.choices), lease_expires_at=None)
        seats = seat_results_of(match.game, game, forfeited)
        clear_steps = marks.choices > 0  # a match played in one go has no steps to delete
    elif new:
        step = {"first": marks.choices, "choices": kind.codec.encode(new)}
    flags = None if awaiting is None else sorted(awaiting)
    # The finishing write and its event are one transaction, so the event is stored before anyone can see the match
    # finished (and close its round, and announce that, before it).
    with transaction.atomic() if game.result is not None else nullcontext():
        if connection.vendor == "postgresql":
            _write_in_one_statement(match.pk, step, clear_steps, seats, fields, flags)
        else:
            _write_with_orm(match.pk, step, clear_steps, seats, fields, flags)
        # Once: the status filter of the write lets only one writer finish the match. A comparison's game is
        # announced with its twin when their pair has ended (league.services.comparisons.close_pair): its result is
        # withheld until then (league.selectors.deals.result_withheld).
        # The open pages of the match are told it moved (web.push): the move number only, each reads its own view.
        # Before "match.finished", which stays the last word of a match.
        if new or game.result is not None:
            emit("match.moved", match_id=match.pk, move_number=game.move_number)
        if game.result is not None and not is_comparison_match(match.pk):
            emit("match.finished", match_id=match.pk, round_id=match.tournament_round_id,
                 ladder_id=match.ladder_id)
    marks.choices = len(game.choices)
    # The caller's row now describes what is stored (load_match_game's cache hook reads these).
    for name, value in fields.items():
        setattr(match, name, value)
    return len(new)


def _result_of(game_name: str, game: Any) -> dict:
    """The record's "result" of a finished game, as the match row keeps it."""
    if game_name == "diamonds":
        return {k: list(v) for k, v in game.result._asdict().items()}
    return result_json(game.result)


def seat_results_of(game_name: str, game: Any, forfeited: Collection[int] = ()) -> dict[int, dict]:
    """Per seat of a finished game: the MatchSeat fields its result sets.

    Diamonds: competition ranking by (score, vault), the order R-WIN-1 decides by, per team (a seat's score, vault
    and showroom are its team's); tied teams share a placement. The newer games: the engine's places (which for
    Diamoniak put the first complete castle first whatever the others hold), each seat its own competitor. Either
    way a seat that forfeited goes last (its team with it), and those who played on keep their order."""
    if game_name == "diamonds":
        return _diamonds_seat_results(game, forfeited)
    standing = game_type(game_name).standing(game)
    lost = set(forfeited)
    # forfeit_places ranks by "greater is better" keys: the engine's place, negated, keeps its order and its ties.
    keys = [(-place, 0) for place in standing["places"]]
    placement = forfeit_places(keys, [s in lost for s in range(game.n)]) if lost else list(standing["places"])
    return {
        s: {"score": standing["score"][s], "tiebreak": standing["tiebreak"][s], "placement": placement[s],
            "is_winner": placement[s] == 1 if lost else s in standing["winners"]}
        for s in range(game.n)
    }


def _diamonds_seat_results(game: Any, forfeited: Collection[int]) -> dict[int, dict]:
    result = game.result
    teams = len(result.score)
    key = [(result.score[t], result.vault[t]) for t in range(teams)]
    lost = {game.team_of(s) for s in forfeited}
    placement = forfeit_places(key, [t in lost for t in range(teams)])
    out = {}
    for seat in range(game.n):
        t = game.team_of(seat)
        winner = t in result.winners if not lost else placement[t] == 1
        out[seat] = {"team": t, "score": result.score[t], "tiebreak": result.vault[t],
                     "showroom": result.showroom[t], "placement": placement[t], "is_winner": winner}
    return out


def set_awaiting(match_id: int, awaiting: Collection[int]) -> None:
    """Flag exactly the `awaiting` seats of the match as awaited in the caller's transaction."""
    MatchSeat.objects.filter(match_id=match_id).update(
        awaiting=Case(When(seat__in=sorted(awaiting), then=Value(True)), default=Value(False))
    )


@transaction.atomic
def _write_with_orm(match_id: int, step: dict | None, clear_steps: bool, seats: dict[int, dict] | None,
                    fields: dict, awaiting: list[int] | None) -> None:
    # The match row first: its status decides whether anything is written, and every writer locks it first.
    if not Match.objects.filter(pk=match_id, status__in=IN_PLAY).update(**fields):
        raise PlayStopped(match_id, status_of(match_id))
    if step is not None:
        MatchStep.objects.create(match_id=match_id, **step)
    if clear_steps:
        MatchStep.objects.filter(match_id=match_id).delete()
    if seats:
        rows = list(MatchSeat.objects.filter(match_id=match_id))
        for row in rows:
            for name, value in seats[row.seat].items():
                setattr(row, name, value)
        MatchSeat.objects.bulk_update(rows, list(next(iter(seats.values()))))
    if awaiting is not None:
        set_awaiting(match_id, awaiting)


# The parts of the one-statement write, each joined with `live`: the match row's update, which returns the match
# only while it is in play, so a stopped match gets no row at all.
_SQL_STEP = f"""INSERT INTO {MatchStep._meta.db_table} (match_id, "first", choices)
    SELECT id, %(first)s, %(choices)s FROM live"""
_SQL_CLEAR_STEPS = f"""DELETE FROM {MatchStep._meta.db_table}
    WHERE match_id = %(match)s AND EXISTS (SELECT 1 FROM live)"""
# Only the rows whose flag changes are written (most steps change one or two seats, or none).
_SQL_AWAITING = f"""UPDATE {MatchSeat._meta.db_table} AS s SET awaiting = %(awaiting)s::jsonb @> to_jsonb(s.seat)
    WHERE s.match_id = %(match)s AND s.awaiting IS DISTINCT FROM (%(awaiting)s::jsonb @> to_jsonb(s.seat))"""
# The SQL types of the seat result columns, for unpacking them from JSON.
_SEAT_TYPES = {"team": "int", "score": "int", "tiebreak": "int", "showroom": "int", "placement": "int",
               "is_winner": "boolean"}
_LIVE_STATUSES = ", ".join(f"'{status}'" for status in IN_PLAY)  # our own constants, not input


def _sql_seats(columns: list[str]) -> str:
    sets = ", ".join(f"{c} = x.{c}" for c in columns)
    types = ", ".join(f"{c} {_SEAT_TYPES[c]}" for c in columns)
    return (f"UPDATE {MatchSeat._meta.db_table} AS s SET {sets} "
            f"FROM live, jsonb_to_recordset(%(seats)s::jsonb) AS x(seat int, {types}) "
            f"WHERE s.match_id = %(match)s AND s.seat = x.seat")


def _write_in_one_statement(match_id: int, step: dict | None, clear_steps: bool, seats: dict[int, dict] | None,
                            fields: dict, awaiting: list[int] | None) -> None:
    """The whole step as one PostgreSQL statement. No row is modified twice, as one statement requires: the seats'
    results (written once, as the game ends) and their awaiting flags are then two statements."""
    params: dict = {"match": match_id}
    ctes = []
    if step is not None:
        ctes.append(f"step AS ({_SQL_STEP})")
        params.update(step)
    if clear_steps:
        ctes.append(f"cleared AS ({_SQL_CLEAR_STEPS})")
    if seats:
        columns = list(next(iter(seats.values())))
        ctes.append(f"seats AS ({_sql_seats(columns)})")
        params["seats"] = json.dumps([{"seat": s, **values} for s, values in seats.items()])
    flags_apart = awaiting is not None and bool(seats)
    if awaiting is not None and not flags_apart:
        ctes.append(f"awaiting AS ({_SQL_AWAITING} AND EXISTS (SELECT 1 FROM live))")
        params["awaiting"] = json.dumps(awaiting)
    sets = []
    for name, value in fields.items():
        if name == "result":
            sets.append("result = %(f_result)s::jsonb")
            value = json.dumps(value)
        else:
            sets.append(f"{name} = %(f_{name})s")
        params[f"f_{name}"] = value
    # The match row's update comes first (the others join its RETURNING): one statement still, and nothing written
    # for a match that left play. PostgreSQL runs every data-modifying CTE whether or not the last SELECT reads it.
    live = (f"live AS (UPDATE {Match._meta.db_table} SET {', '.join(sets)} WHERE id = %(match)s "
            f"AND status IN ({_LIVE_STATUSES}) RETURNING id)")
    sql = f"WITH {', '.join([live, *ctes])} SELECT count(*) FROM live"
    # The second statement (once a match, as it ends) needs a transaction of its own outside a caller's.
    with transaction.atomic(savepoint=False) if flags_apart else nullcontext(), prepared_cursor(connection) as cursor:
        cursor.execute(sql, params)
        if not cursor.fetchone()[0]:
            raise PlayStopped(match_id, status_of(match_id))
        if flags_apart:
            cursor.execute(_SQL_AWAITING, {"match": match_id, "awaiting": json.dumps(awaiting)})
