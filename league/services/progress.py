"""Store what an engine game has done since the last store: new rounds, tricks, Suit Actions, the result.

A match of a game stored as its choices (not Diamonds: league.selectors.games.stored_as_choices) is handed to
league.services.choices_store; what follows is the Diamonds store, tuned for bot play. A seat's `tiebreak` is
Diamonds' vault (its team's with partnerships).

Each call is one atomic step: a trick with its plays and the Suit Actions it caused, or one person's decision.
What is already stored is known from `StoredMarks` (league.selectors.games), so nothing is read back and nothing
is written twice; the unique constraints on (match, round, trick) and (match, round, sequence) would refuse a
second copy anyway.

On PostgreSQL a step is a single statement: its new and changed rows travel as JSON documents unpacked by
`jsonb_to_recordset` in data-modifying CTEs, so a trick (or one person's play, which rewrites the unfinished trick's
row) costs one round trip to the server and next to no Python. That holds inside a caller's transaction too (a
person's decision, under the match's row lock): one statement is atomic on its own and needs no savepoint, and an
error in it fails the caller's transaction as a whole, which is what the caller rolls back anyway. Elsewhere
(SQLite) the ORM writes the same rows in a transaction (a savepoint inside the caller's).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from contextlib import nullcontext

from django.db import connection, transaction
from django.utils import timezone

from engine import PASS_CARDS, SUITS, Game, card_str

from ..events import emit
from ..models import Match, MatchRound, MatchSeat, MatchStatus, SuitAction, Trick
from ..models.match import IN_PLAY
from ..selectors.games import ChoiceMarks, RoundMark, StoredMarks, stored_as_choices
from ..standings import forfeit_places
from .choices_store import set_awaiting, store_choices
from .stopping import PlayStopped, status_of


def _cards(cards) -> list[str]:
    return [card_str(c) for c in cards]


def _plays(trick) -> list[dict]:
    return [{"seat": p.seat, "card": card_str(p.card)} for p in trick.plays]


def _passes(game: Game, index: int) -> list | None:
    """The round's passes as stored: every seat's cards after the exchange; before it, who has chosen what."""
    log = game.rounds[index]
    if log.passes is not None:
        return [_cards(p) for p in log.passes]
    pending = game.pending
    if index == game.round and pending is not None and pending.kind == PASS_CARDS:
        chosen = [game.passed_by(s) for s in range(game.n)]
        if any(c is not None for c in chosen):
            return [None if c is None else _cards(c) for c in chosen]
    return None


def store_progress(*, match: Match, game: Game, marks: StoredMarks | ChoiceMarks, extra: dict | None = None,
                   forfeited: Collection[int] = (), awaiting: Collection[int] | None = None) -> int:
    """Write everything `game` holds beyond `marks` (and update `marks`), atomically. Returns the number of tricks
    completed by this write (for a game stored as its choices: the number of choices written). `extra` adds fields
    to the match row's update (a lease renewal). `forfeited` are the seats that forfeited
    (league.services.decisions): when the game ends their teams are placed last. With `awaiting`, the seats'
    `awaiting` flags are set in the same write (true for exactly those seats), so live play's step is still one
    statement on PostgreSQL. A step is written only while the match is in play: once it was cancelled or failed
    this raises PlayStopped having written nothing (league.services.stopping), and `marks` must be thrown away."""
    if stored_as_choices(match.game):
        return store_choices(match=match, game=game, marks=marks, extra=extra, forfeited=forfeited,
                             awaiting=awaiting)
    new_rounds: list[dict] = []
    round_updates: list[dict] = []
    new_tricks: list[dict] = []
    trick_updates: list[dict] = []
    new_actions: list[dict] = []
    completed = 0
    # Rounds before the last stored one were complete when a later round was stored: they cannot change.
    for index in range(max(len(marks.rounds) - 1, 0), len(game.rounds)):
        log = game.rounds[index]
        passes = _passes(game, index)
        targets = list(log.clubs_targets)
        if index == len(marks.rounds):
            mark = RoundMark()
            marks.rounds.append(mark)
            new_rounds.append({"index": index, "dealer": log.dealer, "hands": [_cards(h) for h in log.hands],
                               "pass_count": log.pass_count, "passes": passes, "clubs_targets": targets})
        else:
            mark = marks.rounds[index]
            if (log.pass_count, passes, len(targets)) != (mark.pass_count, mark.passes, mark.clubs_targets):
                round_updates.append(
                    {"index": index, "pass_count": log.pass_count, "passes": passes, "clubs_targets": targets}
                )
        mark.pass_count, mark.passes, mark.clubs_targets = log.pass_count, passes, len(targets)

        tricks = log.tricks
        if mark.tricks:
            last = tricks[mark.tricks - 1]
            if len(last.plays) != mark.last_plays or (last.winner is not None) != mark.last_has_winner:
                # Only a trick stored unfinished (a person's play at a time) is ever written again.
                trick_updates.append({"round": index, "index": mark.tricks - 1, "plays": _plays(last),
                                      "winner": last.winner})
                completed += last.winner is not None
                mark.last_plays, mark.last_has_winner = len(last.plays), last.winner is not None
        for j in range(mark.tricks, len(tricks)):
            t = tricks[j]
            if not t.plays:
                break  # a trick just begun has nothing to store yet (it is always the last)
            new_tricks.append({"round": index, "index": j, "leader": t.leader, "plays": _plays(t),
                               "winner": t.winner})
            completed += t.winner is not None
            mark.tricks, mark.last_plays, mark.last_has_winner = j + 1, len(t.plays), t.winner is not None

        actions = log.actions
        for k in range(mark.actions, len(actions)):
            a = actions[k]
            new_actions.append({"round": index, "sequence": k, "trick": a.trick, "seat": a.seat,
                                "suit": SUITS[a.suit], "cause": a.cause, "target": a.target, "moved": a.moved})
        mark.actions = len(actions)

    now = timezone.now()
    fields = {"move_number": game.move_number, "updated_at": now, **(extra or {})}
    seats = None
    if game.result is not None:
        fields.update(status=MatchStatus.FINISHED, result=game.result._asdict(), finished_at=now)
        seats = _seat_results(game, forfeited)
    flags = None if awaiting is None else sorted(awaiting)
    if connection.vendor == "postgresql":
        _write_in_one_statement(match.pk, new_rounds, round_updates, new_tricks, trick_updates, new_actions, seats,
                                fields, flags)
    else:
        _write_with_orm(match, new_rounds, round_updates, new_tricks, trick_updates, new_actions, seats, fields,
                        flags)
    if game.result is not None:  # once: the status filter of the write lets only one writer finish the match
        emit("match.finished", match_id=match.pk)
    for name, value in fields.items():
        setattr(match, name, value)
    return completed


def _seat_results(game: Game, forfeited: Collection[int] = ()) -> list[dict]:
    result = game.result
    teams = len(result.score)
    # Competition ranking by (score, vault), the order R-WIN-1 decides by: tied teams share a placement. A team
    # with a forfeited seat goes last; the record's result (and its winners) stays the game's own.
    key = [(result.score[t], result.vault[t]) for t in range(teams)]
    lost = {game.team_of(s) for s in forfeited}
    placement = forfeit_places(key, [t in lost for t in range(teams)])
    out = []
    for seat in range(game.n):
        t = game.team_of(seat)
        winner = t in result.winners if not lost else placement[t] == 1
        out.append({"seat": seat, "team": t, "score": result.score[t], "tiebreak": result.vault[t],
                    "showroom": result.showroom[t], "placement": placement[t], "is_winner": winner})
    return out


@transaction.atomic
def _write_with_orm(match, new_rounds, round_updates, new_tricks, trick_updates, new_actions, seats, fields,
                    awaiting=None):
    # The match row first: its status decides whether anything is written, and every writer locks it first.
    if not Match.objects.filter(pk=match.pk, status__in=IN_PLAY).update(**fields):
        raise PlayStopped(match.pk, status_of(match.pk))
    for u in round_updates:
        MatchRound.objects.filter(match=match, index=u["index"]).update(
            pass_count=u["pass_count"], passes=u["passes"], clubs_targets=u["clubs_targets"]
        )
    for u in trick_updates:
        Trick.objects.filter(match=match, round=u["round"], index=u["index"]).update(
            plays=u["plays"], winner=u["winner"]
        )
    if new_rounds:
        MatchRound.objects.bulk_create(MatchRound(match=match, **r) for r in new_rounds)
    if new_tricks:
        Trick.objects.bulk_create(Trick(match=match, **t) for t in new_tricks)
    if new_actions:
        SuitAction.objects.bulk_create(SuitAction(match=match, **a) for a in new_actions)
    if seats:
        by_seat = {s["seat"]: s for s in seats}
        rows = list(MatchSeat.objects.filter(match=match))
        for row in rows:
            for name, value in by_seat[row.seat].items():
                setattr(row, name, value)
        MatchSeat.objects.bulk_update(rows, ["team", "score", "tiebreak", "showroom", "placement", "is_winner"])
    if awaiting is not None:
        set_awaiting(match.pk, awaiting)


# The parts of the one-statement write. Each unpacks a JSON array of objects into rows, joined with `live`: the match
# row's update, which returns the match only while it is in play, so a stopped match gets no row at all.
_SQL_NEW_ROUNDS = f"""INSERT INTO {MatchRound._meta.db_table}
    (match_id, "index", dealer, hands, pass_count, passes, clubs_targets)
    SELECT %(match)s, x."index", x.dealer, x.hands, x.pass_count, x.passes, x.clubs_targets
    FROM live, jsonb_to_recordset(%(rounds)s::jsonb)
    AS x("index" int, dealer int, hands jsonb, pass_count int, passes jsonb, clubs_targets jsonb)"""
_SQL_ROUND_UPDATES = f"""UPDATE {MatchRound._meta.db_table} AS r
    SET pass_count = x.pass_count, passes = x.passes, clubs_targets = x.clubs_targets
    FROM live, jsonb_to_recordset(%(round_updates)s::jsonb)
    AS x("index" int, pass_count int, passes jsonb, clubs_targets jsonb)
    WHERE r.match_id = %(match)s AND r."index" = x."index" """
_SQL_NEW_TRICKS = f"""INSERT INTO {Trick._meta.db_table} (match_id, round, "index", leader, plays, winner)
    SELECT %(match)s, x.round, x."index", x.leader, x.plays, x.winner
    FROM live, jsonb_to_recordset(%(tricks)s::jsonb)
    AS x(round int, "index" int, leader int, plays jsonb, winner int)"""
_SQL_TRICK_UPDATES = f"""UPDATE {Trick._meta.db_table} AS t SET plays = x.plays, winner = x.winner
    FROM live, jsonb_to_recordset(%(trick_updates)s::jsonb) AS x(round int, "index" int, plays jsonb, winner int)
    WHERE t.match_id = %(match)s AND t.round = x.round AND t."index" = x."index" """
_SQL_NEW_ACTIONS = f"""INSERT INTO {SuitAction._meta.db_table}
    (match_id, round, sequence, trick, seat, suit, cause, target, moved)
    SELECT %(match)s, x.round, x.sequence, x.trick, x.seat, x.suit, x.cause, x.target, x.moved
    FROM live, jsonb_to_recordset(%(actions)s::jsonb) AS x(round int, sequence int, trick int, seat int, suit text,
                                                    cause text, target int, moved int)"""
_SQL_SEATS = f"""UPDATE {MatchSeat._meta.db_table} AS s
    SET team = x.team, score = x.score, tiebreak = x.tiebreak, showroom = x.showroom, placement = x.placement,
        is_winner = x.is_winner
    FROM live, jsonb_to_recordset(%(seats)s::jsonb) AS x(seat int, team int, score int, tiebreak int, showroom int,
                                                  placement int, is_winner boolean)
    WHERE s.match_id = %(match)s AND s.seat = x.seat"""
# Only the rows whose flag changes are written (most steps change one or two seats, or none).
_SQL_AWAITING = f"""UPDATE {MatchSeat._meta.db_table} AS s SET awaiting = %(awaiting)s::jsonb @> to_jsonb(s.seat)
    WHERE s.match_id = %(match)s AND s.awaiting IS DISTINCT FROM (%(awaiting)s::jsonb @> to_jsonb(s.seat))"""
_LIVE_STATUSES = ", ".join(f"'{status}'" for status in IN_PLAY)  # our own constants, not input


def _write_in_one_statement(match_id, new_rounds, round_updates, new_tricks, trick_updates, new_actions, seats,
                            fields, awaiting=None) -> None:
    """The whole step as one PostgreSQL statement. No row is modified twice, as one statement requires: new and
    updated rounds and tricks are different rows, and the seats' results (written once, as the game ends) and their
    awaiting flags are then two statements."""
    params: dict = {"match": match_id}
    ctes = []
    for sql, name, rows in ((_SQL_NEW_ROUNDS, "rounds", new_rounds), (_SQL_ROUND_UPDATES, "round_updates",
                            round_updates), (_SQL_NEW_TRICKS, "tricks", new_tricks),
                            (_SQL_TRICK_UPDATES, "trick_updates", trick_updates),
                            (_SQL_NEW_ACTIONS, "actions", new_actions), (_SQL_SEATS, "seats", seats)):
        if rows:
            ctes.append(f"{name} AS ({sql})")
            params[name] = json.dumps(rows)
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
    with transaction.atomic(savepoint=False) if flags_apart else nullcontext(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        if not cursor.fetchone()[0]:
            raise PlayStopped(match_id, status_of(match_id))
        if flags_apart:
            cursor.execute(_SQL_AWAITING, {"match": match_id, "awaiting": json.dumps(awaiting)})
