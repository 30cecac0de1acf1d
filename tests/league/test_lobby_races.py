"""Lobby races on PostgreSQL (threads need connections of their own): people taking the last seat at once get it
one at a time, so one sits and the others are told the table has started; a double submit seats once; a full
table starts exactly one match, also when the host's start with bots races the last join."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.models import LobbySeat, LobbyStatus, LobbyTable, Match
from league.services.lobby import LobbyRefused, create_table, join_table, start_with_bots
from tests.races import race, skip_unless_postgres

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgres_only():
    skip_unless_postgres()


@pytest.fixture
def people():
    User = get_user_model()
    return [User.objects.create_user(f"racer-{i}") for i in range(5)]


def test_four_people_race_for_the_last_seat_one_gets_it(people):
    table = create_table(user=people[0], game="diamonds", seats=2, options={"rounds": 1})
    results = race(*(lambda u=u: join_table(user=u, table_id=table.pk) for u in people[1:]))
    won = [r for r in results if not isinstance(r, Exception)]
    lost = [r for r in results if isinstance(r, Exception)]
    assert len(won) == 1, results
    assert all(isinstance(r, LobbyRefused) and r.status == 409 for r in lost), results
    assert LobbySeat.objects.filter(table=table).count() == 2
    table.refresh_from_db()
    assert table.status == LobbyStatus.STARTED
    assert Match.objects.count() == 1


def test_a_double_submit_seats_once(people):
    table = create_table(user=people[0], game="diamonds", seats=4)
    join = lambda: join_table(user=people[1], table_id=table.pk)  # noqa: E731
    results = race(join, join)
    assert sum(not isinstance(r, Exception) for r in results) == 1, results
    assert LobbySeat.objects.filter(table=table, player__user=people[1]).count() == 1


def test_start_with_bots_racing_the_last_join_starts_one_match(people):
    table = create_table(user=people[0], game="diamonds", seats=2, bot_kind="greedy", options={"rounds": 1})
    results = race(lambda: join_table(user=people[1], table_id=table.pk),
                   lambda: start_with_bots(user=people[0], table_id=table.pk))
    assert sum(not isinstance(r, Exception) for r in results) == 1, results
    assert LobbyTable.objects.get(pk=table.pk).status == LobbyStatus.STARTED
    assert Match.objects.count() == 1
