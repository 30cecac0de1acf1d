"""A tournament of Diamoniak and one of the ring race played to the end by real `celery -A workers worker` processes
on PostgreSQL and Redis: the workers play each game's matches, the worker that ends a round's last match seats and
sends the next round, and the standings rank by the game's result and tie-break. The embedded equivalent is
tests/league/test_tournaments_games.py."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.cache import cache

from engine.games import game_type
from league.models import Match, MatchSeat, MatchStatus, Rating, RatingHistory, TournamentStatus
from league.selectors import standings_cache
from league.selectors.standings import tournament_standings
from league.selectors.standings_cache import cached_tournament_standings, standings_fingerprint
from league.services.advancing import start_tournament
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

from ..league.tournament_support import bot_field
from .conftest import wait_for

pytestmark = [pytest.mark.workers, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("game,table_size,field,rounds", [("diamoniak", 4, 10, 3), ("ringrace", 5, 11, 2)])
def test_workers_play_a_tournament_of_the_game_to_its_standings(worker_pool, settings, monkeypatch, game, table_size,
                                                                field, rounds):
    """K-WIN-1 (Diamoniak: the game's own places, the first complete castle first) and G-SCORE-1 (the ring race:
    dollars, then set rings) as stored by the workers are what the standings rank."""
    kind = game_type(game)
    queue = worker_pool.queue  # this run's own queue: the first round from here, the later ones from the workers
    settings.DIAMONDS_PLAY_QUEUE = queue  # the outbox relay sends to this run's own workers
    worker_pool.start(f"{game}1", DIAMONDS_PLAY_QUEUE=queue)
    worker_pool.start(f"{game}2", DIAMONDS_PLAY_QUEUE=queue)
    players = bot_field(field // 2, prefix=f"{game}-h", kind="heuristic") + bot_field(field - field // 2,
                                                                                      prefix=f"{game}-r")
    t = create_tournament(name=f"{game} on workers", rounds=rounds, game=game, table_size=table_size,
                          format="swiss", seed=f"{game}-workers")
    register_players(tournament=t, players=players)
    assert len(cached_tournament_standings(t)) == field  # somebody reads its standings: it is watched
    start_tournament(tournament=t)

    def over():
        t.refresh_from_db()
        return t.status == TournamentStatus.FINISHED

    wait_for(over, timeout=240, what=f"the {game} tournament to finish")
    # The worker that ended the last match computed the final table into the cache every process shares (Redis):
    # this process reads it without computing anything.
    wait_for(lambda: cache.get(f"standings:{t.pk}:{standings_fingerprint(t)}") is not None, timeout=60,
             what="the final standings in the shared cache")
    computed = []
    monkeypatch.setattr(standings_cache, "tournament_standings", lambda **kw: computed.append(kw) or [])
    shared = cached_tournament_standings(t)
    assert computed == [] and shared == tournament_standings(tournament=t)
    rounds_done = list(t.tournament_rounds.order_by("index"))
    assert [r.status for r in rounds_done] == ["closed"] * rounds
    matches = Match.objects.filter(tournament_round__tournament=t)
    assert {m.game for m in matches} == {game} and set(matches.values_list("status", flat=True)) == {
        MatchStatus.FINISHED}
    assert all(kind.min_players <= len(m.seats) <= kind.max_players for m in matches)
    seats = MatchSeat.objects.filter(match__in=matches)
    assert Counter(seats.values_list("player", flat=True)) == {p.pk: rounds for p in players}
    for m in matches:  # each table's places follow the game's order of (score, tie-break); winners are placed 1
        rows = list(m.match_seats.all())
        for a in rows:
            assert a.placement == 1 + sum(1 for b in rows if (b.score, b.tiebreak) > (a.score, a.tiebreak))
            assert a.is_winner == (a.placement == 1)

    standings = tournament_standings(tournament=t)
    assert len(standings) == field and {row.games for row in standings} == {rounds}
    assert sum(row.metrics[kind.tiebreak_label] for row in standings) == sum(s.tiebreak for s in seats)
    keys = [(row.metrics["points"], row.metrics[kind.score_label], row.metrics[kind.tiebreak_label])
            for row in standings]
    assert keys == sorted(keys, reverse=True)  # ranked by points, then the game's score, then its tie-break
    assert RatingHistory.objects.filter(match__in=matches).count() == field * rounds
    assert set(Rating.objects.filter(ladder=None).values_list("game", flat=True)) == {game}
