"""A cache for a tournament's standings, which the API and the website read: computing them reads every finished match
of the tournament, but they change only when a match finishes, a result is corrected, or the field or the rounds
change. The cache key is a fingerprint of those (one statement of a few aggregates), so a cached table is never
stale; the timeout only bounds memory.

A tournament somebody reads the standings of is "watched" for a while, and when one of its matches finishes the
worker computes the new table at once (`warm_tournament_standings`), so readers do not wait for it; nobody pays for
the tables of tournaments nobody reads (a tournament played by engine bots alone).

Under many readers at once (a tournament's last round, every player refreshing) two costs multiply: the fingerprint
(a few index lookups, and the finished matches of the rounds still open) and, after a match finishes, the cold
computation (seconds). So within a process both are shared by the readers waiting for them (`Flights`): readers of
one tournament share one fingerprint query, but only one begun after they arrived, so what each is answered with is
never older than its request; and readers that miss the same key wait for the one computation of it under way
instead of each starting their own.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db import connection

from ..models import (
    Match,
    MatchStatus,
    ResultCorrection,
    RoundStatus,
    Season,
    Tournament,
    TournamentEntry,
    TournamentRound,
)
from .standings import (
    StandingRow,
    season_division_standings,
    season_game,
    season_standings,
    tournament_standings,
)

STANDINGS_TIMEOUT = 300
# How long a tournament counts as watched after a reader had its table computed.
WATCHED_TIMEOUT = 1800


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


def _fingerprint_sql() -> str:
    match, rnd = Match._meta.db_table, TournamentRound._meta.db_table
    correction, entry = ResultCorrection._meta.db_table, TournamentEntry._meta.db_table
    # A round closes once every match of it is finished or failed, and neither ever changes again (a correction has
    # its own part below), so closed rounds count by how many there are, and only the open rounds' matches are read
    # (from the partial index match_finished_by_round): a reader of a finished tournament of 10,000 matches reads
    # none of them.
    # The sum of the entries' player ids changes when an entry changes hands (two guests merged, a guest's history
    # claimed by an account: league.services.roster), which no count or last id would show.
    return f"""SELECT f.n, f.last, c.last, e.n, e.active, e.last, e.players, r.n, r.closed, r.last FROM
        (SELECT COUNT(*) AS n, MAX(m.finished_at) AS last FROM {match} m JOIN {rnd} tr ON tr.id = m.tournament_round_id
          WHERE tr.tournament_id = %s AND tr.status <> '{RoundStatus.CLOSED}'
            AND m.status = '{MatchStatus.FINISHED}') f,
        (SELECT MAX(rc.id) AS last FROM {correction} rc JOIN {match} m ON m.id = rc.match_id
          JOIN {rnd} tr ON tr.id = m.tournament_round_id WHERE tr.tournament_id = %s) c,
        (SELECT COUNT(*) AS n, SUM(CASE WHEN active THEN 1 ELSE 0 END) AS active, MAX(id) AS last,
          SUM(player_id) AS players FROM {entry} WHERE tournament_id = %s) e,
        (SELECT COUNT(*) AS n, SUM(CASE WHEN status = '{RoundStatus.CLOSED}' THEN 1 ELSE 0 END) AS closed,
          MAX(id) AS last FROM {rnd} WHERE tournament_id = %s) r"""


def standings_fingerprint(tournament: Tournament) -> str:
    """What the standings are computed from, in one statement: the finished matches of the open rounds (how many, the
    last to finish), the last result correction, the entries (how many, how many active, the last, whose) and the rounds
    (how many, how many closed, the last), with the tournament's own settings."""
    with connection.cursor() as cursor:
        cursor.execute(_fingerprint_sql(), [tournament.pk] * 4)
        inputs = cursor.fetchone()
    # created_at as well as the id: SQLite reuses the id of a deleted last row, and a new tournament with the same
    # shape of field must not find the old one's table.
    parts = (tournament.pk, tournament.created_at, tournament.match_points, tournament.tiebreaks, tournament.format,
             tournament.late_entry_points, inputs)
    return hashlib.sha1(repr(parts).encode()).hexdigest()


def cached_standings(tournament: Tournament, compute: Callable[[], list]) -> list:
    # The tournament row's own settings are part of the fingerprint, so readers share a run only if they read the
    # same settings.
    shared = (tournament.pk, tournament.created_at, tournament.match_points, tournament.tiebreaks, tournament.format,
              tournament.late_entry_points)
    fingerprint = _FINGERPRINTS.fresh(repr(shared), lambda: standings_fingerprint(tournament))
    return _cached(f"standings:{tournament.pk}:{fingerprint}", compute)


def _cached(key: str, compute: Callable[[], list]) -> list:
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


def _watched_key(tournament_id: int) -> str:
    return f"standings-watched:{tournament_id}"


def cached_tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """league.selectors.tournament_standings, from the cache when its inputs have not changed since."""
    def compute() -> list[StandingRow]:
        cache.set(_watched_key(tournament.pk), True, WATCHED_TIMEOUT)
        return tournament_standings(tournament=tournament)

    return cached_standings(tournament, compute)


def cached_season_standings(season: Season, game: str | None = None) -> list[StandingRow]:
    """league.selectors.season_standings (default points), from the cache while none of the season's tournaments of
    the game has changed: their fingerprints, one statement each, are the season table's."""
    game = season_game(season, game)
    prints = [standings_fingerprint(t) for t in Tournament.objects.filter(season=season, game=game).order_by("pk")]
    fingerprint = hashlib.sha1(repr((season.pk, game, prints)).encode()).hexdigest()
    return _cached(f"season-standings:{season.pk}:{game}:{fingerprint}",
                   lambda: season_standings(season=season, game=game))


def cached_season_division_standings(season: Season, divisions: list[list[int]],
                                     game: str | None = None) -> list[list[StandingRow]]:
    """league.selectors.season_division_standings (default points), from the cache while neither the season's
    tournaments of the game (as cached_season_standings) nor who is in which division has changed."""
    game = season_game(season, game)
    prints = [standings_fingerprint(t) for t in Tournament.objects.filter(season=season, game=game).order_by("pk")]
    fingerprint = hashlib.sha1(repr((season.pk, game, prints, divisions)).encode()).hexdigest()
    return _cached(f"division-standings:{season.pk}:{game}:{fingerprint}",
                   lambda: season_division_standings(season=season, divisions=divisions, game=game))


def warm_tournament_standings(*, tournament_id: int) -> bool:
    """Compute a watched tournament's standings now (after one of its matches finished), so that its readers find
    them in the cache; returns whether it did."""
    if not cache.get(_watched_key(tournament_id)):
        return False
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return False
    cached_standings(tournament, lambda: tournament_standings(tournament=tournament))
    return True
