"""A fixed tournament seated by the service (league.services.rounds.seat_round) round after round gets the exact
constructions of league.scheduling: 32 players at tables of 4 for 10 rounds (the social golfer instance 8-4-10)
meet nobody twice, each misses exactly one other player, and the tournament's seed decides who sits where."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from league.models import Match, MatchSeat, RoundStatus, TournamentRound
from league.services.advancing import start_round
from league.services.match_finished import on_match_finished
from league.services.registration import register_players
from league.services.rounds import seat_round
from league.services.tournament_setup import create_tournament

from .tournament_support import bot_field, store_result

pytestmark = pytest.mark.django_db


def play_round(rnd: TournamentRound) -> None:
    start_round(tournament_round=rnd)
    for match in Match.objects.filter(tournament_round=rnd):
        seats = dict(MatchSeat.objects.filter(match=match).values_list("seat", "player_id"))
        store_result(match, {seat: (10 + seat, 0) for seat in seats})
        on_match_finished(match_id=match.pk)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED


def first_round_tables(rnd: TournamentRound) -> list[tuple[int, ...]]:
    return sorted(tuple(sorted(table["seats"])) for table in rnd.tables)


def test_32_players_in_fours_for_10_rounds_meet_nobody_twice_and_the_seed_decides_the_tables():
    players = bot_field(32)
    t = create_tournament(name="golf", rounds=10, table_size=4, seed="spring", auto_advance=False)
    register_players(tournament=t, players=players)
    met: Counter = Counter()
    for number in range(1, 11):
        rnd = seat_round(tournament=t)
        assert rnd.index == number and rnd.byes == []
        tables = [table["seats"] for table in rnd.tables]
        assert sorted(len(seats) for seats in tables) == [4] * 8
        assert sorted(pid for seats in tables for pid in seats) == sorted(p.pk for p in players)
        met.update(frozenset(pair) for seats in tables for pair in itertools.combinations(seats, 2))
        play_round(rnd)
    assert max(met.values()) == 1 and len(met) == 480  # nobody twice; 480 of the 496 pairs met
    unmet = Counter(p for pair in itertools.combinations(sorted(p.pk for p in players), 2)
                    if frozenset(pair) not in met for p in pair)
    assert unmet == {p.pk: 1 for p in players}  # each player misses exactly one other

    # the same field under another seed: the same construction, its points taken by other players
    other = create_tournament(name="golf again", rounds=10, table_size=4, seed="autumn", auto_advance=False)
    register_players(tournament=other, players=players)
    first = TournamentRound.objects.get(tournament=t, index=1)
    assert first_round_tables(seat_round(tournament=other)) != first_round_tables(first)


def test_schedule_tournament_of_diamoniak_seats_no_table_past_four(capsys):
    """Diamoniak seats 2 to 4 (engine.games): the management command's --game caps the tables."""
    from django.core.management import CommandError, call_command

    call_command("schedule_tournament", game="diamoniak", players=13, rounds=3, table_size=4)
    assert "3: 9, 4: 3" in capsys.readouterr().out  # 13 players: one table of 4 and three of 3 each round
    with pytest.raises(CommandError):
        call_command("schedule_tournament", game="diamoniak", players=13, rounds=3, table_size=5)
    assert "a table seats 2 to 4 players, not 5" in capsys.readouterr().out
