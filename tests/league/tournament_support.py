"""Helpers for tournament, ladder and rating tests: bot fields, and stored results written by hand."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils import timezone

from league.models import Match, MatchSeat, MatchStatus, Player
from league.services import create_bot_player


def bot_field(count: int, prefix: str = "bot", kind: str = "random") -> list[Player]:
    return [create_bot_player(name=f"{prefix}-{i}", kind=kind) for i in range(count)]


def store_result(match: Match, results: dict[int, tuple[int, int]],
                 placements: Mapping[int, int] | None = None) -> None:
    """Finish `match` with {seat: (score, tiebreak)} as the store would. Diamonds (tie-break: the vault): showroom
    from R-SCORE-1. Placements by score then tie-break (R-WIN-1 for Diamonds; equal ones share) unless
    `placements` gives each seat's, as a game with its own order does (K-WIN-1: the first complete castle is first);
    is_winner for first places. Partners must be given equal results."""
    rows = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    keys = {row.seat: results[row.seat] for row in rows}
    for row in rows:
        row.score, row.tiebreak = keys[row.seat]
        row.showroom = row.score - 2 * row.tiebreak if match.game == "diamonds" else None
        if placements is not None:
            row.placement = placements[row.seat]
        else:
            row.placement = 1 + len({row2.team for row2 in rows if keys[row2.seat] > keys[row.seat]})
        row.is_winner = row.placement == 1
    MatchSeat.objects.bulk_update(rows, ["score", "tiebreak", "showroom", "placement", "is_winner"])
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, finished_at=timezone.now())
