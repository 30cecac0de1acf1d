"""Helpers for tournament, ladder and rating tests: bot fields, and stored results written by hand."""

from __future__ import annotations

from django.utils import timezone

from league.models import Match, MatchSeat, MatchStatus, Player
from league.services import create_bot_player


def bot_field(count: int, prefix: str = "bot", kind: str = "random") -> list[Player]:
    return [create_bot_player(name=f"{prefix}-{i}", kind=kind) for i in range(count)]


def store_result(match: Match, results: dict[int, tuple[int, int]]) -> None:
    """Finish `match` with {seat: (score, vault)} as the store would: showroom from R-SCORE-1, R-WIN-1 placements
    (score, then vault; equal ones share), is_winner for first places. Partners must be given equal results."""
    rows = list(MatchSeat.objects.filter(match=match).order_by("seat"))
    keys = {row.seat: results[row.seat] for row in rows}
    for row in rows:
        row.score, row.vault = keys[row.seat]
        row.showroom = row.score - 2 * row.vault
        row.placement = 1 + len({row2.team for row2 in rows if keys[row2.seat] > keys[row.seat]})
        row.is_winner = row.placement == 1
    MatchSeat.objects.bulk_update(rows, ["score", "vault", "showroom", "placement", "is_winner"])
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, finished_at=timezone.now())
