"""Store a match of a game kept as its ordered choices (Diamoniak, the ring race; see league.selectors.games).

league.services.progress.store_progress hands such matches here. One call is one atomic step: the choices made
since the last store (`ChoiceMarks` says how many are stored, so nothing is read back or written twice; the unique
(match, index) constraint would refuse a second copy anyway) go in with one bulk insert, in the same transaction as
the match row's new move number, so the stored choices and the move number always agree (GAME_CACHE relies on it).

When the game is over the match gets the engine's result JSON (engine.common.referee.result_json, the record's
"result") and every seat its score, tie-break, placement and winner flag from `GameType.standing` in the game's own
terms. A seat that forfeited is placed last (league.standings.forfeit_places) as in Diamonds; the result JSON stays
the game's own.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from engine.common.referee import result_json
from engine.games import game_type

from ..events import emit
from ..models import Match, MatchChoice, MatchSeat, MatchStatus
from ..models.match import IN_PLAY
from ..selectors.games import ChoiceMarks
from ..standings import forfeit_places
from .stopping import PlayStopped, status_of


def store_choices(*, match: Match, game: Any, marks: ChoiceMarks, extra: dict | None = None,
                  forfeited: Collection[int] = (), awaiting: Collection[int] | None = None) -> int:
    """Write the choices `game` holds beyond `marks` (and move `marks` on), the match row's move number and `extra`
    fields, the result once the game is over and, with `awaiting`, the seats' awaited flags (exactly those seats),
    atomically. Returns the number of choices written. Only while the match is in play: PlayStopped, nothing
    written, once it was cancelled or failed (league.services.stopping)."""
    new = game.choices[marks.choices:]
    now = timezone.now()
    fields = {"move_number": game.move_number, "updated_at": now, **(extra or {})}
    seat_results = None
    if game.result is not None:
        fields.update(status=MatchStatus.FINISHED, result=result_json(game.result), finished_at=now)
        seat_results = seat_results_of(match.game, game, forfeited)
    with transaction.atomic():
        # The match row first: its status decides whether anything is written, and every writer locks it first.
        if not Match.objects.filter(pk=match.pk, status__in=IN_PLAY).update(**fields):
            raise PlayStopped(match.pk, status_of(match.pk))
        if new:
            MatchChoice.objects.bulk_create(
                MatchChoice(match_id=match.pk, index=marks.choices + k, seat=seat, decision=decision.to_json())
                for k, (seat, decision) in enumerate(new)
            )
        if seat_results is not None:
            rows = list(MatchSeat.objects.filter(match_id=match.pk))
            for row in rows:
                for name, value in seat_results[row.seat].items():
                    setattr(row, name, value)
            MatchSeat.objects.bulk_update(rows, ["score", "tiebreak", "placement", "is_winner"])
        if awaiting is not None:
            set_awaiting(match.pk, awaiting)
        if game.result is not None:  # once: the status filter above lets only one writer finish it
            emit("match.finished", match_id=match.pk)
    marks.choices += len(new)
    # The caller's row now describes what is stored (load_match_game's cache hook reads these).
    for name, value in fields.items():
        setattr(match, name, value)
    return len(new)


def set_awaiting(match_id: int, awaiting: Collection[int]) -> None:
    """Flag exactly the `awaiting` seats of the match as awaited in the caller's transaction. Both stores use it: the
    choices store always, the Diamonds store where it cannot write its one statement (SQLite)."""
    MatchSeat.objects.filter(match_id=match_id).update(
        awaiting=Case(When(seat__in=sorted(awaiting), then=Value(True)), default=Value(False))
    )


def seat_results_of(game_name: str, game: Any, forfeited: Collection[int] = ()) -> dict[int, dict]:
    """Per seat: score, tiebreak, placement and is_winner of a finished game of `game_name` (no teams in these
    games: each seat is its own competitor). A seat that forfeited goes last, those who played on keep the engine's
    order (its places, which for Diamoniak put the first complete castle first whatever the others hold)."""
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
