"""A cache for standings: computing them reads every finished match of the tournament, but they change only when a
match finishes, a result is corrected, or the field or the rounds change. The cache key is a fingerprint of those
(a few aggregate queries), so a cached table is never stale; the timeout only bounds memory."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.core.cache import cache
from django.db.models import Count, Max, Q

from league.models import Match, MatchStatus, ResultCorrection, Tournament, TournamentEntry, TournamentRound

STANDINGS_TIMEOUT = 300


def standings_fingerprint(tournament: Tournament) -> str:
    matches = Match.objects.filter(tournament_round__tournament=tournament).aggregate(
        finished=Count("pk", filter=Q(status=MatchStatus.FINISHED)), last=Max("finished_at"))
    corrected = ResultCorrection.objects.filter(match__tournament_round__tournament=tournament).aggregate(
        last=Max("pk"))
    entries = TournamentEntry.objects.filter(tournament=tournament).aggregate(
        n=Count("pk"), active=Count("pk", filter=Q(active=True)), last=Max("pk"))
    rounds = TournamentRound.objects.filter(tournament=tournament).aggregate(n=Count("pk"), last=Max("pk"))
    parts = (tournament.pk, tournament.match_points, tournament.tiebreaks, tournament.format, matches, corrected,
             entries, rounds)
    return hashlib.sha1(repr(parts).encode()).hexdigest()


def cached_standings(tournament: Tournament, compute: Callable[[], list]) -> list:
    key = f"standings:{tournament.pk}:{standings_fingerprint(tournament)}"
    rows = cache.get(key)
    if rows is None:
        rows = compute()
        cache.set(key, rows, STANDINGS_TIMEOUT)
    return rows
