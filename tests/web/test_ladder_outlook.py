"""A ladder page without matches says what will happen or why nothing happens (league.selectors.ladders), instead
of a bare "No matches yet."."""

from __future__ import annotations

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from league.models import Player
from league.services.ladders import create_ladder, join_ladder, update_ladder
from league.services.players import create_external_bot

from ..league.tournament_support import bot_field

pytestmark = pytest.mark.django_db


def page(client, ladder) -> str:
    return " ".join(client.get(reverse("web:ladder", args=[ladder.pk])).content.decode().split())


def test_too_few_players_says_how_many_a_table_needs(client):
    ladder = create_ladder(name="Quiet Ladder", table_size=4)
    join_ladder(ladder=ladder, players=bot_field(3))
    assert "A table needs 4 players and 3 have joined" in page(client, ladder)


def test_a_full_pool_names_the_next_tick_and_its_interval(client):
    ladder = create_ladder(name="Busy Ladder", table_size=4)
    join_ladder(ladder=ladder, players=bot_field(9))
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True, DIAMONDS_EMBEDDED_BEAT=True):
        html = page(client, ladder)
    assert "The next ladder tick (every " in html and "seats 2 tables of 4 from its 9 free players" in html


def test_no_beat_and_the_embedded_one_off_says_nothing_seats_it(client):
    ladder = create_ladder(name="Stuck Ladder", table_size=2)
    join_ladder(ladder=ladder, players=bot_field(2))
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True, DIAMONDS_EMBEDDED_BEAT=False):
        assert "Nothing seats tables of this ladder here" in page(client, ladder)


def test_a_paused_ladder_says_so(client):
    ladder = create_ladder(name="Paused Ladder", table_size=2)
    join_ladder(ladder=ladder, players=bot_field(2))
    update_ladder(ladder=ladder, active=False)
    assert "This ladder is paused" in page(client, ladder)


def test_an_absent_external_bot_is_not_counted_as_a_free_player(client):
    """Issue 27: an external bot that is not polling is not seated, so the outlook says so rather than promising a
    table at the next tick."""
    ladder = create_ladder(name="Absent Ladder", table_size=4)
    bot = create_external_bot(name="gone-bot")
    join_ladder(ladder=ladder, players=[*bot_field(3), bot])
    with override_settings(CELERY_TASK_ALWAYS_EAGER=True, DIAMONDS_EMBEDDED_BEAT=True):
        html = page(client, ladder)
        assert "1 external bot of this ladder is absent" in html and "seats 1 table" not in html
        Player.objects.filter(pk=bot.pk).update(last_seen_at=timezone.now())  # it polls
        assert "seats 1 table of 4 from its 4 free players" in page(client, ladder)
