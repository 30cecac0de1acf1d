"""Ladders of each game (Ladder.game): what create_ladder and join_ladder refuse, and ticks that seat tables of the
ladder's game, played here (eager), rated in the ladder's own ratings; the beat task ticks ladders of every game."""

from __future__ import annotations

import pytest

from engine.games import game_type
from league.models import Match, MatchStatus, Rating, RatingHistory
from league.services.ladders import create_ladder, join_ladder, seat_ladder_tables
from workers.tasks import ladder_tick

from .tournament_support import bot_field

pytestmark = pytest.mark.django_db


def test_a_ladder_checks_its_game_table_size_and_ruleset():
    with pytest.raises(ValueError, match="unknown game 'go'"):
        create_ladder(name="x", game="go")
    with pytest.raises(ValueError, match="Diamoniak seats 2 to 4 players at a table, not 6"):
        create_ladder(name="x", game="diamoniak", table_size=6)
    with pytest.raises(ValueError, match="unknown ruleset fields"):
        create_ladder(name="x", game="ringrace", ruleset={"clubs": "thief"})  # a Diamonds variant
    assert create_ladder(name="debts", game="ringrace", ruleset={"debts": True}).game == "ringrace"


def test_an_engine_bot_joins_only_a_ladder_of_a_game_it_plays():
    ladder = create_ladder(name="castles", game="diamoniak", table_size=3)
    with pytest.raises(ValueError, match=r"Diamoniak has no bot for g-0 \(greedy\); its bots are heuristic, random"):
        join_ladder(ladder=ladder, players=bot_field(1, prefix="g", kind="greedy"))
    assert not ladder.entries.exists()


@pytest.mark.parametrize("game,size", [("diamoniak", 4), ("ringrace", 3)])
def test_a_tick_seats_tables_of_the_ladders_game_and_rates_them_in_the_ladder(
        django_capture_on_commit_callbacks, game, size):
    ladder = create_ladder(name=f"{game} ladder", game=game, table_size=size)
    players = bot_field(2 * size, prefix="h", kind="heuristic") + bot_field(1, prefix="r")
    join_ladder(ladder=ladder, players=players)
    with django_capture_on_commit_callbacks(execute=True):
        matches = seat_ladder_tables(ladder=ladder, seed="tick")
    assert len(matches) == 2  # two full tables; one player waits
    for m in matches:
        m.refresh_from_db()
        assert m.game == game and len(m.seats) == size and m.ruleset["players"] == size
        assert m.status == MatchStatus.FINISHED and m.ladder_id == ladder.pk and m.ratings_applied
        assert m.match_seats.filter(placement=1, is_winner=True).exists()
    assert RatingHistory.objects.filter(ladder=ladder).count() == 2 * size
    rated = Rating.objects.filter(ladder=ladder)
    assert rated.count() == 2 * size and set(rated.values_list("game", flat=True)) == {game}
    assert not Rating.objects.filter(ladder=None).exists()  # ladder play leaves the global ratings alone
    assert game_type(game).min_players <= size <= game_type(game).max_players


def test_the_beat_task_ticks_ladders_of_every_game(django_capture_on_commit_callbacks):
    for game in ("diamonds", "diamoniak", "ringrace"):
        ladder = create_ladder(name=game, game=game, table_size=2)
        join_ladder(ladder=ladder, players=bot_field(2, prefix=game))
    with django_capture_on_commit_callbacks(execute=True):
        assert ladder_tick.apply().get() == {"diamonds": 1, "diamoniak": 1, "ringrace": 1}
    finished = Match.objects.filter(status=MatchStatus.FINISHED)
    assert sorted(finished.values_list("game", flat=True)) == ["diamonds", "diamoniak", "ringrace"]
    assert all(m.game == m.ladder.game for m in finished.select_related("ladder"))
