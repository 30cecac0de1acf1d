"""Ladders (league.services.ladders): a tick seats free players of similar rating at full tables and sends their
matches to the workers (here, eager: played in this process), and the ratings follow each match."""

from __future__ import annotations

import pytest

from league.models import LadderEntry, Match, MatchStatus, Rating, RatingHistory
from league.services.ladders import create_ladder, join_ladder, leave_ladder, seat_ladder_tables
from league.services.ratings import context_model
from workers.tasks import ladder_tick

from .tournament_support import bot_field

pytestmark = pytest.mark.django_db


def rate(ladder, player, mu, sigma=2.0):
    Rating.objects.create(player=player, ladder=ladder, mu=mu, sigma=sigma,
                          ordinal=context_model(ladder).rating(mu=mu, sigma=sigma).ordinal())


def test_a_tick_seats_similar_ratings_together_and_the_matches_update_them(django_capture_on_commit_callbacks):
    ladder = create_ladder(name="ladder", table_size=4)
    players = bot_field(10)
    join_ladder(ladder=ladder, players=players)
    strong, weak = players[:4], players[4:8]
    for i, p in enumerate(strong):
        rate(ladder, p, 40 + i)
    for i, p in enumerate(weak):
        rate(ladder, p, 1 + i)  # ordinals below a new player's 0
    # players[8] and [9] are new: between the two groups; two full tables leave the two weakest waiting
    with django_capture_on_commit_callbacks(execute=True):
        matches = seat_ladder_tables(ladder=ladder, seed="t1")
    assert len(matches) == 2
    tables = [set(m.match_seats.values_list("player", flat=True)) for m in matches]
    assert {p.pk for p in strong} in tables
    assert {players[8].pk, players[9].pk} | {p.pk for p in weak[2:]} in tables
    for m in matches:
        m.refresh_from_db()
        assert m.status == MatchStatus.FINISHED and m.ladder_id == ladder.pk and m.ratings_applied
    assert RatingHistory.objects.filter(ladder=ladder).count() == 8
    assert Rating.objects.filter(ladder=ladder, matches=1).count() == 8
    assert Rating.objects.filter(ladder=ladder, matches=0).count() == 2  # weak[0] and weak[1] waited


def test_players_at_a_table_are_not_seated_again_until_it_ends():
    ladder = create_ladder(name="busy", table_size=3)
    join_ladder(ladder=ladder, players=bot_field(7))
    first = seat_ladder_tables(ladder=ladder, seed="a")  # not played: the test's transaction never commits
    assert len(first) == 2
    assert seat_ladder_tables(ladder=ladder, seed="b") == []  # one free player is not a table
    Match.objects.filter(pk=first[0].pk).update(status=MatchStatus.FINISHED)
    assert len(seat_ladder_tables(ladder=ladder, seed="c")) == 1


def test_inactive_entries_and_ladders_are_not_seated():
    ladder = create_ladder(name="quiet", table_size=2)
    players = bot_field(3)
    join_ladder(ladder=ladder, players=players)
    leave_ladder(ladder=ladder, player=players[0])
    assert not LadderEntry.objects.get(ladder=ladder, player=players[0]).active
    seated = seat_ladder_tables(ladder=ladder, seed="q")
    assert len(seated) == 1 and players[0].pk not in seated[0].match_seats.values_list("player", flat=True)
    ladder.active = False
    ladder.save()
    Match.objects.update(status=MatchStatus.FINISHED)
    assert seat_ladder_tables(ladder=ladder) == []


def test_the_beat_task_ticks_every_active_ladder(django_capture_on_commit_callbacks):
    a, b = create_ladder(name="a", table_size=2), create_ladder(name="b", table_size=3)
    join_ladder(ladder=a, players=bot_field(4, prefix="a"))
    join_ladder(ladder=b, players=bot_field(3, prefix="b"))
    with django_capture_on_commit_callbacks(execute=True):
        assert ladder_tick.apply().get() == {"a": 2, "b": 1}
    assert Match.objects.filter(status=MatchStatus.FINISHED).count() == 3
    assert RatingHistory.objects.count() == 7


def test_a_newcomer_below_everyone_is_seated_at_the_next_tick_and_the_last_to_play_waits(
        django_capture_on_commit_callbacks):
    """Those left over by whole tables are the ones who played here last, not the lowest rated: a new bot joining a
    ladder of players who have won a little would otherwise wait at every tick."""
    ladder = create_ladder(name="newcomer", table_size=4)
    regulars = bot_field(4, prefix="regular")
    join_ladder(ladder=ladder, players=regulars)
    with django_capture_on_commit_callbacks(execute=True):
        assert len(seat_ladder_tables(ladder=ladder, seed="1")) == 1
    for i, p in enumerate(regulars):
        Rating.objects.filter(ladder=ladder, player=p).update(ordinal=30 + i)  # well above a newcomer's
    newcomer = bot_field(1, prefix="newcomer")[0]
    join_ladder(ladder=ladder, players=[newcomer])
    rate(ladder, newcomer, 0.0)  # the lowest of all
    with django_capture_on_commit_callbacks(execute=True):
        (match,) = seat_ladder_tables(ladder=ladder, seed="2")
    assert newcomer.pk in set(match.match_seats.values_list("player", flat=True))
