"""A club evening: check-in, late entries and drops (a changing field), seated round by round by the organiser,
with the results stored by hand (tournament_support.store_result) so every standing is known."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from league.models import CheckIn, Match, MatchSeat, RoundStatus, TournamentEntry, TournamentRound
from league.scheduling import TableShape, table_sizes
from league.selectors.standings import tournament_standings
from league.services.advancing import advance_tournament, start_round
from league.services.competition import TournamentError
from league.services.evening import CheckInError, check_in, check_out, next_round_index
from league.services.match_finished import on_match_finished
from league.services.registration import register_players, register_team, withdraw_player
from league.services.rounds import seat_round
from league.services.tournament_setup import create_tournament, update_tournament

from .tournament_support import bot_field, store_result

pytestmark = pytest.mark.django_db


def finish_round(rnd: TournamentRound, score=lambda pid: 10) -> None:
    """Every table of the round finished, seat s of a table scoring score(player id), then the round closed."""
    for match in Match.objects.filter(tournament_round=rnd):
        seats = dict(MatchSeat.objects.filter(match=match).values_list("seat", "player_id"))
        store_result(match, {seat: (score(pid), 0) for seat, pid in seats.items()})
    for match in Match.objects.filter(tournament_round=rnd):
        on_match_finished(match_id=match.pk)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED


def seated(rnd: TournamentRound) -> Counter:
    return Counter(pid for t in rnd.tables for pid in t["seats"])


def evening(n=6, prefix="bot", **settings):
    settings = {"name": "evening", "rounds": 3, "table_size": 2, "auto_advance": False, "seed": "ev", **settings}
    t = create_tournament(**settings)
    players = bot_field(n, prefix=prefix)
    register_players(tournament=t, players=players)
    return t, players


# ---- check-in --------------------------------------------------------------------------------------------

def test_only_checked_in_players_are_seated_and_seating_closes_the_rounds_check_in():
    t, players = evening(6, check_in_required=True)
    for p in players[:4]:
        check_in(tournament=t, player=p)
    check_in(tournament=t, player=players[0])  # a double tap: still one check-in
    assert CheckIn.objects.filter(round_index=1).count() == 4
    rnd = seat_round(tournament=t)
    assert seated(rnd) == {p.pk: 1 for p in players[:4]}  # the two absent players are not seated
    # Round 1 is seated: its check-in is closed, a check-in now is for round 2.
    assert next_round_index(t) == 2
    check_in(tournament=t, player=players[5])
    assert CheckIn.objects.get(entry__player=players[5]).round_index == 2
    start_round(tournament_round=rnd)
    finish_round(rnd)
    check_in(tournament=t, player=players[4])
    check_out(tournament=t, player=players[4])  # a mistaken tap undone
    check_in(tournament=t, player=players[1])
    rnd2 = advance_tournament(tournament=t)
    assert seated(rnd2) == {players[5].pk: 1, players[1].pk: 1}


def test_too_few_checked_in_seats_nothing_and_check_in_needs_the_setting():
    t, players = evening(4, check_in_required=True)
    check_in(tournament=t, player=players[0])
    with pytest.raises(TournamentError, match="checked-in"):
        seat_round(tournament=t)
    assert not TournamentRound.objects.filter(tournament=t).exists()
    plain, others = evening(4, prefix="other")
    with pytest.raises(CheckInError):
        check_in(tournament=plain, player=others[0])
    with pytest.raises(TournamentEntry.DoesNotExist):
        check_in(tournament=t, player=others[0])  # not entered in this one


def test_a_dropped_player_cannot_check_in():
    t, players = evening(4, check_in_required=True)
    withdraw_player(tournament=t, player=players[0])
    with pytest.raises(CheckInError, match="dropped"):
        check_in(tournament=t, player=players[0])


def test_partners_are_seated_only_when_both_are_checked_in():
    t = create_tournament(name="pairs", rounds=2, table_size=4, ruleset={"partnerships": True}, auto_advance=False,
                          seed="p", check_in_required=True)
    field = bot_field(6)
    for a, b in ((0, 1), (2, 3), (4, 5)):
        register_team(tournament=t, players=[field[a], field[b]])
    for p in field[:5]:  # the third team's second partner is missing
        check_in(tournament=t, player=p)
    rnd = seat_round(tournament=t)
    assert set(seated(rnd)) == {p.pk for p in field[:4]}


# ---- late entries and drops ----------------------------------------------------------------------------

@pytest.mark.parametrize("mode,expected", [("zero", Fraction(0)), ("bye", Fraction(2))])
def test_a_late_entry_joins_at_the_next_round_with_the_points_the_setting_gives(mode, expected):
    t, players = evening(4, late_entry_points=mode, match_points={"bye": 2})
    rnd = seat_round(tournament=t)
    start_round(tournament_round=rnd)
    (late,) = register_players(tournament=t, players=bot_field(1, prefix="late"))
    assert late.joined_round == 2
    assert late.player_id not in seated(TournamentRound.objects.get(pk=rnd.pk))  # not the current round
    row = {r.competitor: r for r in tournament_standings(tournament=t)}[late.player_id]
    assert row.metrics["points"] == expected and row.games == 0
    finish_round(rnd)
    rnd2 = advance_tournament(tournament=t)
    present = seated(rnd2) + Counter(rnd2.byes)
    assert present[late.player_id] == 1  # seated (or given the round's bye) from round 2


def test_no_late_entry_once_every_qualifying_round_is_seated():
    t, players = evening(4, rounds=1)
    start_round(tournament_round=seat_round(tournament=t))
    with pytest.raises(TournamentError, match="too late"):
        register_players(tournament=t, players=bot_field(1, prefix="late"))


def test_a_dropped_player_is_not_seated_later_and_keeps_their_results_marked_dropped():
    t, players = evening(4)
    rnd = seat_round(tournament=t)
    start_round(tournament_round=rnd)
    finish_round(rnd, score=lambda pid: 50 if pid == players[0].pk else 10)
    withdraw_player(tournament=t, player=players[0])
    rnd2 = advance_tournament(tournament=t)
    assert players[0].pk not in seated(rnd2) and players[0].pk not in rnd2.byes
    row = {r.competitor: r for r in tournament_standings(tournament=t)}[players[0].pk]
    assert row.dropped and row.games == 1 and row.metrics["points"] == 1


def test_seating_keeps_its_guarantees_while_the_field_changes_round_after_round():
    """Six rounds of a check-in evening: players come and go, some join late, some drop. Every present player is
    seated exactly once (at a table or with the round's bye), nobody absent is, and tables are of 4 or 3."""
    rng = random.Random(18)
    t, players = evening(11, rounds=6, table_size=4, check_in_required=True)
    shape = TableShape.for_table_size(4)
    for number in range(1, 7):
        if number in (2, 4):
            players += [e.player for e in register_players(tournament=t, players=bot_field(2, prefix=f"late{number}"))]
        if number == 3:
            withdraw_player(tournament=t, player=players[0])
        active = {e.player_id for e in TournamentEntry.objects.filter(tournament=t, active=True)}
        present = {p.pk for p in players if p.pk in active and rng.random() < 0.8}
        for p in players:
            if p.pk in present:
                check_in(tournament=t, player=p)
        rnd = advance_tournament(tournament=t)
        assert rnd.index == number
        at_tables = seated(rnd)
        assert set(at_tables) | set(rnd.byes) == present  # nobody absent, nobody dropped
        assert all(n == 1 for n in at_tables.values()) and not set(at_tables) & set(rnd.byes)
        sizes, byes = table_sizes(len(present), shape)
        assert sorted((len(table["seats"]) for table in rnd.tables), reverse=True) == sizes
        assert len(rnd.byes) == byes and all(len(table["seats"]) in (3, 4) for table in rnd.tables)
        finish_round(rnd, score=lambda pid: pid % 7)
    t.refresh_from_db()
    assert t.status == "finished"


def test_check_in_settings_may_change_while_the_evening_runs():
    t, players = evening(4)
    start_round(tournament_round=seat_round(tournament=t))
    update_tournament(tournament=t, check_in_required=True, self_check_in=True)
    t.refresh_from_db()
    assert t.check_in_required and t.self_check_in
    with pytest.raises(TournamentError):
        update_tournament(tournament=t, late_entry_points="bye")  # would rescore played rounds


def test_duplicate_play_seats_the_changing_field_too():
    t, players = evening(9, prefix="dup", format="duplicate", table_size=4, check_in_required=True)
    for p in players[:7]:
        check_in(tournament=t, player=p)
    rnd = advance_tournament(tournament=t)
    assert set(seated(rnd)) | set(rnd.byes) == {p.pk for p in players[:7]}
    assert all(n == 1 for n in seated(rnd).values())
    finish_round(rnd)
    late = [e.player for e in register_players(tournament=t, players=bot_field(2, prefix="duplate"))]
    for p in players[3:] + late:
        check_in(tournament=t, player=p)
    rnd2 = advance_tournament(tournament=t)
    assert set(seated(rnd2)) | set(rnd2.byes) == {p.pk for p in players[3:] + late}
    assert sorted(len(table["seats"]) for table in rnd2.tables) == [4, 4]
