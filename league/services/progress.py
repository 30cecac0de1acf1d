"""Store what an engine game has done since the last store: new rounds, tricks, Suit Actions, the result.

Each call is one atomic step: a trick with its plays and the Suit Actions it caused, or one person's decision.
On PostgreSQL the common step of a bot match is a single statement (one round trip); anything else runs in a
transaction (a savepoint inside the caller's). What is already stored is known from `StoredMarks`
(league.selectors.games), so nothing is read back and nothing is written twice; the unique constraints on
(match, round, trick) and (match, round, sequence) would refuse a second copy anyway.
"""

from __future__ import annotations

import json

from django.db import connection, transaction
from django.utils import timezone

from engine import PASS_CARDS, SUITS, Game, card_str

from ..models import Match, MatchRound, MatchSeat, MatchStatus, SuitAction, Trick
from ..selectors.games import RoundMark, StoredMarks


def _cards(cards) -> list[str]:
    return [card_str(c) for c in cards]


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


def store_progress(*, match: Match, game: Game, marks: StoredMarks, extra: dict | None = None) -> int:
    """Write everything `game` holds beyond `marks` (and update `marks`), atomically. Returns the number of tricks
    completed by this write. `extra` adds fields to the match row's update (a lease renewal)."""
    new_rounds: list[MatchRound] = []
    new_tricks: list[Trick] = []
    new_actions: list[SuitAction] = []
    round_updates: list[tuple] = []
    trick_updates: list[tuple] = []
    completed = 0
    # Rounds before the last stored one were complete when a later round was stored: they cannot change.
    for index in range(max(len(marks.rounds) - 1, 0), len(game.rounds)):
        log = game.rounds[index]
        passes = _passes(game, index)
        if index == len(marks.rounds):
            mark = RoundMark()
            marks.rounds.append(mark)
            new_rounds.append(MatchRound(
                match=match, index=index, dealer=log.dealer, hands=[_cards(h) for h in log.hands],
                pass_count=log.pass_count, passes=passes, clubs_targets=list(log.clubs_targets),
            ))
        else:
            mark = marks.rounds[index]
            if (log.pass_count, passes, len(log.clubs_targets)) != (mark.pass_count, mark.passes, mark.clubs_targets):
                round_updates.append((index, log.pass_count, passes, list(log.clubs_targets)))
        mark.pass_count, mark.passes, mark.clubs_targets = log.pass_count, passes, len(log.clubs_targets)

        tricks = log.tricks
        if mark.tricks:
            last = tricks[mark.tricks - 1]
            if len(last.plays) != mark.last_plays or (last.winner is not None) != mark.last_has_winner:
                # Only a trick stored unfinished (a person's play at a time) is ever written again.
                plays = [{"seat": p.seat, "card": card_str(p.card)} for p in last.plays]
                trick_updates.append((index, mark.tricks - 1, plays, last.winner))
                completed += last.winner is not None
                mark.last_plays, mark.last_has_winner = len(last.plays), last.winner is not None
        for j in range(mark.tricks, len(tricks)):
            t = tricks[j]
            if not t.plays:
                break  # a trick just begun has nothing to store yet (it is always the last)
            new_tricks.append(Trick(
                match=match, round=index, index=j, leader=t.leader, winner=t.winner,
                plays=[{"seat": p.seat, "card": card_str(p.card)} for p in t.plays],
            ))
            completed += t.winner is not None
            mark.tricks, mark.last_plays, mark.last_has_winner = j + 1, len(t.plays), t.winner is not None

        actions = log.actions
        for k in range(mark.actions, len(actions)):
            a = actions[k]
            new_actions.append(SuitAction(
                match=match, round=index, sequence=k, trick=a.trick, seat=a.seat, suit=SUITS[a.suit],
                cause=a.cause, target=a.target, moved=a.moved,
            ))
        mark.actions = len(actions)

    now = timezone.now()
    fields = {"move_number": game.move_number, "updated_at": now, **(extra or {})}
    simple = game.result is None and not trick_updates
    if simple and connection.vendor == "postgresql" and not connection.in_atomic_block:
        # The common step of a bot match (a trick, its actions, perhaps the next round's deal): one statement,
        # one round trip to the server, atomic as every statement is.
        _write_in_one_statement(match, new_rounds, round_updates, new_tricks, new_actions, fields)
    else:
        with transaction.atomic():
            for index, pass_count, passes, targets in round_updates:
                MatchRound.objects.filter(match=match, index=index).update(
                    pass_count=pass_count, passes=passes, clubs_targets=targets
                )
            for index, j, plays, winner in trick_updates:
                Trick.objects.filter(match=match, round=index, index=j).update(plays=plays, winner=winner)
            if new_rounds:
                MatchRound.objects.bulk_create(new_rounds)
            if new_tricks:
                Trick.objects.bulk_create(new_tricks)
            if new_actions:
                SuitAction.objects.bulk_create(new_actions)
            if game.result is not None:
                fields.update(status=MatchStatus.FINISHED, result=game.result._asdict(), finished_at=now)
                _store_seat_results(match, game)
            Match.objects.filter(pk=match.pk).update(**fields)
    for name, value in fields.items():
        setattr(match, name, value)
    return completed


def _write_in_one_statement(
    match: Match, rounds: list, round_updates: list, tricks: list, actions: list, fields: dict
) -> None:
    """INSERT the new rows, UPDATE changed rounds and the match row: one PostgreSQL statement (data-modifying
    CTEs). No row is modified twice, which PostgreSQL forbids within one statement."""
    ctes: list[str] = []
    params: list = []

    def insert(model, columns: list[str], rows: list[list], casts: dict[str, str]) -> None:
        table = connection.ops.quote_name(model._meta.db_table)
        cols = ", ".join(connection.ops.quote_name(c) for c in columns)
        one = "(" + ", ".join("%s" + casts.get(c, "") for c in columns) + ")"
        ctes.append(f"c{len(ctes)} AS (INSERT INTO {table} ({cols}) VALUES {', '.join([one] * len(rows))})")
        for row in rows:
            params.extend(row)

    if rounds:
        insert(MatchRound, ["match_id", "index", "dealer", "hands", "pass_count", "passes", "clubs_targets"], [
            [match.pk, r.index, r.dealer, json.dumps(r.hands), r.pass_count,
             None if r.passes is None else json.dumps(r.passes), json.dumps(r.clubs_targets)]
            for r in rounds
        ], {"hands": "::jsonb", "passes": "::jsonb", "clubs_targets": "::jsonb"})
    round_table = connection.ops.quote_name(MatchRound._meta.db_table)
    for index, pass_count, passes, targets in round_updates:
        ctes.append(
            f"c{len(ctes)} AS (UPDATE {round_table} SET pass_count = %s, passes = %s::jsonb, "
            f'clubs_targets = %s::jsonb WHERE match_id = %s AND "index" = %s)'
        )
        passes_json = None if passes is None else json.dumps(passes)
        params.extend([pass_count, passes_json, json.dumps(targets), match.pk, index])
    if tricks:
        insert(Trick, ["match_id", "round", "index", "leader", "plays", "winner"], [
            [match.pk, t.round, t.index, t.leader, json.dumps(t.plays), t.winner] for t in tricks
        ], {"plays": "::jsonb"})
    if actions:
        insert(SuitAction, ["match_id", "round", "sequence", "trick", "seat", "suit", "cause", "target", "moved"], [
            [match.pk, a.round, a.sequence, a.trick, a.seat, a.suit, a.cause, a.target, a.moved] for a in actions
        ], {})
    sets = ", ".join(f"{connection.ops.quote_name(name)} = %s" for name in fields)
    params.extend(fields.values())
    params.append(match.pk)
    table = connection.ops.quote_name(Match._meta.db_table)
    sql = (f"WITH {', '.join(ctes)} " if ctes else "") + f"UPDATE {table} SET {sets} WHERE id = %s"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _store_seat_results(match: Match, game: Game) -> None:
    result = game.result
    teams = len(result.score)
    # Competition ranking by (score, vault), the order R-WIN-1 decides by: tied teams share a placement.
    key = [(result.score[t], result.vault[t]) for t in range(teams)]
    placement = [1 + sum(1 for u in range(teams) if key[u] > key[t]) for t in range(teams)]
    seats = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    for ms in seats:
        t = game.team_of(ms.seat)
        ms.team = t
        ms.score, ms.vault, ms.showroom = result.score[t], result.vault[t], result.showroom[t]
        ms.placement = placement[t]
        ms.is_winner = t in result.winners
    MatchSeat.objects.bulk_update(seats, ["team", "score", "vault", "showroom", "placement", "is_winner"])
