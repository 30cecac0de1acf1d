"""Reads about matches: one match, its seats, and the bot matches a worker should pick up again."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from ..models import Match, MatchSeat, MatchStatus


def get_match(*, match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def match_seats(match: Match) -> QuerySet[MatchSeat]:
    return MatchSeat.objects.filter(match=match).select_related("player").order_by("seat")


def stalled_bot_match_ids(*, idle_seconds: int) -> list[int]:
    """Running matches with only bots at the table whose stored play has not moved for `idle_seconds`:
    their worker died without its task being delivered again."""
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    return list(
        Match.objects.filter(status=MatchStatus.RUNNING, updated_at__lt=cutoff)
        .exclude(match_seats__player__user__isnull=False)
        .order_by("updated_at")
        .values_list("pk", flat=True)
    )
