"""Two ladders ticking at the same moment on PostgreSQL (issue 27, "caps under concurrency": a per-player limit
held under simultaneous requests). A player sits at one match at a time: two ticks that both read the same bots as
free seated each of them twice."""

from __future__ import annotations

from collections import Counter

import pytest

from league.models import MatchSeat
from league.services.ladders import create_ladder, join_ladder, seat_ladder_tables
from tests.races import race, skip_unless_postgres

from .tournament_support import bot_field

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    skip_unless_postgres()


@pytest.mark.parametrize("attempt", range(3))
def test_two_ladders_ticking_at_once_seat_a_bot_once(monkeypatch, attempt):
    """Finding (audit of per-player limits): one bot in two ladders was seated at both ladders' tables at once."""
    monkeypatch.setattr("league.services.outbox.record", lambda **kw: None)  # seated, not played
    bots = bot_field(4)
    ladders = [create_ladder(name=f"ladder-{i}", table_size=2) for i in range(3)]
    for ladder in ladders:
        join_ladder(ladder=ladder, players=bots)
    results = race(*(lambda ladder=ladder: seat_ladder_tables(ladder=ladder, seed="x") for ladder in ladders))
    assert not any(isinstance(r, Exception) for r in results), results
    seated = Counter(MatchSeat.objects.values_list("player_id", flat=True))
    assert seated and max(seated.values()) == 1, seated
