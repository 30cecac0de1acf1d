"""A whole tournament played by real `celery -A workers worker` processes on PostgreSQL and Redis: the workers
play the matches, and the worker that ends a round's last match seats and sends the next round (auto_advance).
The embedded equivalent is tests/league/test_tournaments.py."""

from __future__ import annotations

from collections import Counter

import pytest

from league.models import Match, MatchSeat, MatchStatus, RatingHistory, TournamentStatus
from league.selectors.standings import tournament_standings
from league.services.advancing import start_tournament
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament

from ..league.tournament_support import bot_field
from .conftest import wait_for

pytestmark = [pytest.mark.workers, pytest.mark.django_db(transaction=True)]


def test_workers_play_a_tournament_round_after_round(worker_pool, settings):
    # This process sends the first round, the workers the later ones: all to this run's own queue.
    queue = worker_pool.queue
    settings.DIAMONDS_PLAY_QUEUE = queue  # the outbox relay sends to this run's own workers
    worker_pool.start("t1", DIAMONDS_PLAY_QUEUE=worker_pool.queue)
    worker_pool.start("t2", DIAMONDS_PLAY_QUEUE=worker_pool.queue)
    players = bot_field(10, prefix="w")  # tables of 3, 3, 2 and 2 each round
    t = create_tournament(name="workers", rounds=3, table_size=3, format="swiss", seed="workers")
    register_players(tournament=t, players=players)
    start_tournament(tournament=t)

    def over():
        t.refresh_from_db()
        return t.status == TournamentStatus.FINISHED

    wait_for(over, timeout=180, what="the tournament to finish")
    rounds = list(t.tournament_rounds.order_by("index"))
    assert [r.status for r in rounds] == ["closed"] * 3 and all(r.closed_at for r in rounds)
    matches = Match.objects.filter(tournament_round__tournament=t)
    assert matches.count() == 12 and set(matches.values_list("status", flat=True)) == {MatchStatus.FINISHED}
    assert Counter(MatchSeat.objects.filter(match__in=matches).values_list("player", flat=True)) == {
        p.pk: 3 for p in players}
    # The last round closes when its last table ends, while another worker may still be rating the table before it:
    # every table is rated, a moment later at most.
    wait_for(lambda: RatingHistory.objects.filter(match__in=matches).count() == 30, timeout=30,
             what="every table's ratings")
    assert {row.games for row in tournament_standings(tournament=t)} == {3}
