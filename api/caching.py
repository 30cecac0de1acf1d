"""A cache for standings: computing them reads every finished match of the tournament, but they change only when a
match finishes, a result is corrected, or the field or the rounds change. The cache key is a fingerprint of those
(a few aggregate queries), so a cached table is never stale; the timeout only bounds memory.

Under many readers at once (a tournament's last round, every player refreshing) two costs multiply: the
fingerprint (its match count scans the tournament's matches: some milliseconds at 10,000 of them) and, after a
match finishes, the cold computation (seconds). So within a process both are shared by the readers waiting for
them (`Flights`): readers of one tournament share one fingerprint query, but only one begun after they arrived, so
what each is answered with is never older than its request; and readers that miss the same key wait for the one
computation of it under way instead of each starting their own.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q

from league.models import Match, MatchStatus, ResultCorrection, Tournament, TournamentEntry, TournamentRound

STANDINGS_TIMEOUT = 300


class _Flight:
    """One key's shared work: the last result and which run of the work it came from."""

    def __init__(self):
        self.started = 0  # runs begun
        self.done = 0  # the run `value` came from (one run at a time, so runs end in the order they begin)
        self.running = False
        self.users = 0  # callers inside fresh() for this key: the flight is dropped when the last one leaves
        self.value: Any = None


class Flights:
    """Work shared by the threads of a process that ask for the same key at the same time (gunicorn's threads)."""

    def __init__(self):
        self._cond = threading.Condition()
        self._flights: dict = {}

    def fresh(self, key, work: Callable[[], Any], *, join_running: bool = False) -> Any:
        """The result of a run of `work` begun after this call: the caller's own, or that of a run another caller
        began after this one arrived. A run already under way may have read the database before this call, and
        answering with it would answer with the past; with `join_running` (work whose every run gives the same
        result) it will do. One run per key at a time; if a run fails, a waiter runs it again for itself."""
        with self._cond:
            flight = self._flights.setdefault(key, _Flight())
            flight.users += 1
            wanted = flight.started if join_running and flight.running else flight.started + 1
            try:
                while flight.done < wanted:
                    if not flight.running:
                        flight.running = True
                        flight.started += 1
                        mine = flight.started
                        break
                    self._cond.wait()
                else:
                    return flight.value
            finally:
                if flight.done >= wanted:
                    self._leave(key, flight)
        try:
            value = work()
        except BaseException:
            with self._cond:
                flight.running = False
                self._leave(key, flight)
                self._cond.notify_all()
            raise
        with self._cond:
            flight.value, flight.done, flight.running = value, mine, False
            self._leave(key, flight)
            self._cond.notify_all()
        return value

    def _leave(self, key, flight: _Flight) -> None:
        flight.users -= 1
        if not flight.users:
            self._flights.pop(key, None)


_FINGERPRINTS = Flights()
_COMPUTATIONS = Flights()


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
    # The tournament row's own settings are part of the fingerprint, so readers share a run only if they read the
    # same settings.
    shared = (tournament.pk, tournament.match_points, tournament.tiebreaks, tournament.format)
    fingerprint = _FINGERPRINTS.fresh(repr(shared), lambda: standings_fingerprint(tournament))
    key = f"standings:{tournament.pk}:{fingerprint}"
    rows = cache.get(key)
    if rows is None:
        # Every run for this key computes the same table (the key fingerprints its inputs): any run will do.
        rows = _COMPUTATIONS.fresh(key, lambda: _compute_and_keep(key, compute), join_running=True)
    return rows


def _compute_and_keep(key: str, compute: Callable[[], list]) -> list:
    rows = cache.get(key)  # kept by a run that ended between this caller's miss and its turn
    if rows is None:
        rows = compute()
        cache.set(key, rows, STANDINGS_TIMEOUT)
    return rows
