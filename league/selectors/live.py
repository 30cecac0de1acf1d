"""Reads for live play: what one seat (or a spectator) may see of a match, its legal decisions, a player's turns,
the public part of an unfinished match's record, and the matches whose deadline has passed.

Everything a seat sees comes from the engine's SeatView of the match's game (engine.games: `view`), built on the
game loaded back from the stored rows; a spectator gets that view with every seat's secrets taken out. Stored passes
are never read here directly. The newer games' views hide what no seat may see (Diamoniak's draw pile order, the
ring race's loose and fixed positions and its deck) from every seat alike, so a spectator's view of them is a
seat's view without the seat's own options.
"""

from __future__ import annotations

import copy
import logging
import random
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import QuerySet
from django.utils import timezone

from engine import CLUBS_TARGET, PASS_CARDS, PASS_COUNT, PLAY, card_str
from engine.games import type_of

from .. import turn_signals
from ..aio import let_thread_go, run_sync
from ..models import Match, MatchSeat, MatchStatus
from ..models.match import IN_PLAY
from .clocks import seat_remaining_ms
from .deals import deal_revealed
from .games import GAME_CACHE, StoredPlayError, load_match_game
from .prepared import PreparedQuery
from .records import match_record, with_attestation

log = logging.getLogger(__name__)

# The SeatView fields that belong to the seat alone (its hand, vault, passes and options).
PRIVATE_FIELDS = ("hand", "vault", "passed", "received", "legal", "my_turn")


def seats_of_user(match: Match, user) -> list[MatchSeat]:
    """The seats at this match whose player is the user's account (a person's or an external bot's)."""
    if user is None or not user.is_authenticated:
        return []
    return list(MatchSeat.objects.filter(match=match, player__user=user).select_related("player").order_by("seat"))


# A player's client asks legal/ before most decisions: its one query is compiled once per process.
# (match__pk, not match_id: an id out of the column's range is then no match rather than a database error.)
_CALLER_SEATS = PreparedQuery(lambda pk, user_id: MatchSeat.objects.filter(match__pk=pk, player__user=user_id)
                              .select_related("match", "player").order_by("seat"), 2)


def caller_seats_with_match(match_id: int, user_id: int) -> list[MatchSeat]:
    """The account's seats at the match, in seat order, each with the match and its player: one read."""
    return _CALLER_SEATS(match_id, user_id)


def match_game(match: Match, *, just_read: bool = False) -> Any:
    """The match's game as stored, read from one snapshot of its rows.

    The rows are read by several queries while decisions are being stored; without one snapshot a read could see
    a trick from before a write and its Suit Actions from after it. SQLite's transaction is one snapshot; on
    PostgreSQL that takes REPEATABLE READ (the default READ COMMITTED snapshots each statement).

    A running match's game may already be in this process's GAME_CACHE at its current move number: then the only
    read is that of the row's status and move number (one statement), not of its play. `match` may be a row read a
    while ago, so the move number is always read afresh: the game returned is the one stored now. With `just_read`
    the caller read `match` in this very request (a moment ago, as the fresh read would be), so the cache is asked
    with it as it is: a query fewer."""
    if GAME_CACHE.size:
        hit = GAME_CACHE.get(match if just_read else _as_stored_now(match))
        if hit is not None:
            return hit[0]
    outermost = not connection.in_atomic_block
    for attempt in range(3):
        try:
            with transaction.atomic():
                if connection.vendor == "postgresql" and outermost:
                    with connection.cursor() as cursor:
                        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                # Read in the snapshot, the move number names the rows read next, so the game may be cached by it.
                current = _as_stored_now(match) if GAME_CACHE.size else match
                game, _ = load_match_game(current, cached=True)
            return game
        except StoredPlayError:
            if attempt == 2:
                raise
            match.refresh_from_db()  # a write landed between reads (inside a caller's transaction): read again
    raise AssertionError("unreachable")


def _as_stored_now(match: Match) -> Match:
    """A copy of `match` with the status, move number and finished play its row holds now (the caller's object is
    left as is)."""
    row = Match.objects.filter(pk=match.pk).values_list("status", "move_number", "moves").first()
    current = copy.copy(match)
    if row is not None:
        current.status, current.move_number, current.moves = row
    return current


def seat_state(game: Any, seat: int) -> dict[str, Any]:
    """The seat's view of the game (any game of engine.games) as JSON: only what that seat may see."""
    return type_of(game).view(game, seat).to_dict()


def public_state(game: Any) -> dict[str, Any]:
    """What anyone watching may see: the table without any seat's hand, vault or passes (all of it once the game
    is over, as every seat then sees it); in the newer games a seat's view without its options."""
    data = type_of(game).view(game, 0).to_dict()
    data["seat"] = None
    for name in PRIVATE_FIELDS:
        data.pop(name, None)
    data["my_turn"] = False
    return data


def legal_decisions(game: Any, seat: int) -> dict[str, Any]:
    """The decisions `seat` may make now, as the decision JSON the decisions endpoint takes (the game's
    `Decision.to_json`). Diamonds' passing lists the cards to choose `count` of (the combinations are left to the
    client); the newer games list complete decisions."""
    pending = game.pending
    mine = pending is not None and seat in pending.seats
    out: dict[str, Any] = {
        "seat": seat, "move_number": game.move_number, "my_turn": mine,
        "pending": None if pending is None else {"kind": pending.kind, "seats": list(pending.seats),
                                                 "count": pending.count},
        "decisions": [], "pass_cards": None,
    }
    if not mine:
        return out
    options = game.legal(seat)
    if type_of(game).legal_is_complete:
        out["decisions"] = [d.to_json() for d in options]
    elif pending.kind == PLAY:
        out["decisions"] = [{"kind": PLAY, "card": card_str(c)} for c in options]
    elif pending.kind == PASS_COUNT:
        out["decisions"] = [{"kind": PASS_COUNT, "count": c} for c in options]
    elif pending.kind == CLUBS_TARGET:
        out["decisions"] = [{"kind": CLUBS_TARGET, "target": t} for t in options]
    elif pending.kind == PASS_CARDS:
        out["pass_cards"] = {"count": pending.count, "from": [card_str(c) for c in options]}
    return out


@dataclass(frozen=True)
class Turn:
    match_id: int
    seat: int
    player_id: int
    move_number: int
    deadline_at: Any
    match: Match = field(repr=False, compare=False)  # the row as read with the turn, for the game it names
    clock_remaining_ms: int | None = None  # the seat's chess clock now (None: the match has none)


def turns_of_user(user) -> list[Turn]:
    """The decisions the user's players owe, oldest match first."""
    rows = (
        MatchSeat.objects.filter(player__user=user, awaiting=True, match__status__in=IN_PLAY)
        .select_related("match").order_by("match_id", "seat")
    )
    now = timezone.now()
    return [Turn(ms.match_id, ms.seat, ms.player_id, ms.match.move_number, ms.match.deadline_at, ms.match,
                 seat_remaining_ms(ms.match, ms, now))
            for ms in rows]


def record_is_public(match: Match) -> bool:
    return match.status == MatchStatus.FINISHED and deal_revealed(match)


def owes_turns(user_id: int) -> bool:
    """Whether some match in play awaits one of the account's players (one cheap query)."""
    return MatchSeat.objects.filter(player__user=user_id, awaiting=True, match__status__in=IN_PLAY).exists()


async def await_turns(user_id: int, *, wait: float) -> float:
    """Wait until the account owes a decision or `wait` seconds have passed; the seconds waited.

    A coroutine, so waiting holds no thread and no database connection: it is woken through league.turn_signals
    (at once in this process, through Redis from others) and re-reads the database when woken, and besides about
    every DIAMONDS_TURNS_RECHECK_SECONDS while the Redis listener is subscribed (a safety net: the listener wakes
    every waiter when it loses or regains Redis), else every DIAMONDS_TURNS_POLL_SECONDS (no Redis, or Redis
    lost)."""
    started = time.monotonic()
    async with turn_signals.waiting_for(user_id) as waiter:  # before the first read: no announcement is missed
        while True:
            try:
                if await run_sync(owes_turns, user_id):
                    break
            except OperationalError as e:  # busy or briefly gone: a missed re-read only delays the answer
                log.warning("turns long-poll: could not re-read the database (%s)", e)
            left = wait - (time.monotonic() - started)
            if left <= 0:
                break
            # Spread over time: a thousand polls opened together must not all re-read the database together.
            pause = (settings.DIAMONDS_TURNS_RECHECK_SECONDS * random.uniform(0.75, 1.25)
                     if turn_signals.listener_ready() else settings.DIAMONDS_TURNS_POLL_SECONDS)
            if pause >= 1:
                let_thread_go()  # not for the short pauses of polling: a thread each time would cost more
            await waiter.wait(min(left, pause))
    return time.monotonic() - started


# What of an unfinished match's choices record the table saw: not the seed (it decides the deck and, in the ring
# race, the board) nor a given set-up (deck_top, fixed), nor a result.
PUBLIC_CHOICES_RECORD_FIELDS = ("format", "ruleset", "seats", "first_player", "choices", "events")


def public_record(match: Match) -> dict[str, Any]:
    """A match's record in its game's format: whole once the match is finished; before that only what the table
    saw (no hands, no passes, no seed, no result; for the newer games the choices and events, which every seat
    sees), marked `"complete": false`."""
    record = with_attestation(match, match_record(match))
    if record_is_public(match):
        return record
    if deal_revealed(match):  # a failed match: its seed is out, so its hands would be too
        return record
    if match.game != "diamonds":  # a choices record: every seat saw the choices and events
        partial = {name: record[name] for name in PUBLIC_CHOICES_RECORD_FIELDS if name in record}
        partial.update({name: record[name] for name in ("commitment",) if name in record})
        return {**partial, "seed": None, "complete": False}
    record.pop("reveal", None)
    for r in record["rounds"]:
        r["hands"] = None
        r["passes"] = None
    record.pop("result", None)
    record["seed"] = None  # the seed decides every deal: with it, anyone could compute the hands
    record["complete"] = False
    return record


def overdue_match_ids(*, now=None) -> list[int]:
    now = now or timezone.now()
    return list(
        Match.objects.filter(status__in=IN_PLAY, deadline_at__lte=now).order_by("deadline_at")
        .values_list("pk", flat=True)
    )


def stalled_live_match_ids(*, idle_seconds: int) -> list[int]:
    """Live matches (someone at the table decides through the API) that wait on nobody and have not moved for
    `idle_seconds`: an engine bot's turn whose advance_match was lost."""
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    return list(
        Match.objects.filter(status__in=IN_PLAY, updated_at__lt=cutoff, match_seats__player__user__isnull=False,
                             offline=False)  # a table of real cards is played at the club, not here
        .exclude(match_seats__awaiting=True)
        .distinct().order_by("pk").values_list("pk", flat=True)
    )


def undated_live_match_ids() -> list[int]:
    """Matches in play here (not with real cards) with a person or an external bot at the table that have no turn
    deadline, or await a decision without a deadline for it: rows the rule "no match waits for ever" (league.services.
    matches.turn_deadline_for) did not make, for league.services.decisions.give_deadlines."""
    live = Match.objects.filter(status__in=IN_PLAY, offline=False, match_seats__player__user__isnull=False)
    undated = live.filter(turn_deadline_seconds__isnull=True)
    unclocked = live.filter(deadline_at__isnull=True, match_seats__awaiting=True)
    return sorted(set(undated.values_list("pk", flat=True)) | set(unclocked.values_list("pk", flat=True)))


def matches_of_player(queryset: QuerySet[Match], player_id: int) -> QuerySet[Match]:
    return queryset.filter(match_seats__player_id=player_id).distinct()


__all__ = [
    "Turn", "legal_decisions", "match_game", "matches_of_player", "overdue_match_ids",
    "await_turns", "owes_turns", "public_record", "public_state", "record_is_public", "seat_state",
    "seats_of_user", "stalled_live_match_ids", "turns_of_user", "caller_seats_with_match", "undated_live_match_ids",
]
