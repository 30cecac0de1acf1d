"""Tournaments through the league services: seating with league.scheduling, matches played by the run_match task
in this process (eager), rounds closing and the next one seated when the last match of a round ends, standings
from the stored MatchSeat rows."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from league import scheduling
from league.models import (
    Match,
    MatchSeat,
    MatchStatus,
    RatingHistory,
    RoundStatus,
    TournamentRound,
    TournamentStatus,
)
from league.scheduling import History
from league.selectors import match_record
from league.selectors.standings import tournament_standings
from league.services.advancing import advance_tournament, start_round, start_tournament
from league.services.competition import TournamentError
from league.services.match_finished import on_match_finished
from league.services.registration import register_players, register_team
from league.services.rounds import _stored_round, _swiss_order, seat_round
from league.services.tournament_setup import create_tournament

from .tournament_support import bot_field, store_result

pytestmark = pytest.mark.django_db


def test_a_fixed_tournament_runs_to_the_end_when_its_first_round_starts(run_on_commit):
    players = bot_field(9)
    t = create_tournament(name="cup", rounds=3, table_size=4, seed="cup")
    register_players(tournament=t, players=players)
    run_on_commit(start_tournament, tournament=t)

    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.finished_at is not None
    rounds = list(t.tournament_rounds.order_by("index"))
    assert [(r.index, r.status) for r in rounds] == [(1, "closed"), (2, "closed"), (3, "closed")]
    matches = Match.objects.filter(tournament_round__tournament=t)
    assert matches.count() == 9 and all(m.status == MatchStatus.FINISHED for m in matches)  # 3 tables of 3 a round
    tables = {(m.tournament_round.index, m.table_number) for m in matches}
    assert tables == {(r, n) for r in (1, 2, 3) for n in (1, 2, 3)}
    assert Counter(MatchSeat.objects.filter(match__in=matches).values_list("player", flat=True)) == {
        p.pk: 3 for p in players}
    # each stored table is what the scheduler planned, seat for seat
    for r in rounds:
        for table in r.tables:
            m = Match.objects.get(pk=table["match"])
            assert list(m.match_seats.order_by("seat").values_list("player", flat=True)) == table["seats"]
            assert m.seed == table["seed"]
    standings = tournament_standings(tournament=t)
    assert len(standings) == 9 and all(row.games == 3 for row in standings)
    assert [row.rank for row in standings] == sorted(row.rank for row in standings)
    assert sum(row.metrics["points"] for row in standings) == 9 * (2 + 1 + 0)  # 3-player tables hand out 3 points
    assert RatingHistory.objects.filter(match__in=matches).count() == 27


def test_repeated_match_ends_close_a_round_once(run_on_commit):
    t = create_tournament(name="once", rounds=2, table_size=3, auto_advance=False, seed="once")
    register_players(tournament=t, players=bot_field(6))
    rnd = run_on_commit(start_tournament, tournament=t)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED
    closed_at = rnd.closed_at
    history = RatingHistory.objects.count()
    for m in rnd.matches.all():
        run_on_commit(on_match_finished, match_id=m.pk)
    rnd.refresh_from_db()
    assert rnd.closed_at == closed_at and RatingHistory.objects.count() == history == 6
    assert TournamentRound.objects.filter(tournament=t).count() == 1  # auto_advance off: the organiser moves on

    nxt = run_on_commit(advance_tournament, tournament=t)
    t.refresh_from_db()
    assert nxt.index == 2 and t.status == TournamentStatus.FINISHED
    assert run_on_commit(advance_tournament, tournament=t) is None
    with pytest.raises(TournamentError):
        seat_round(tournament=t)


def test_a_round_is_seated_only_after_the_previous_one_closed():
    t = create_tournament(name="wait", rounds=2, table_size=2, auto_advance=False, seed="wait")
    register_players(tournament=t, players=bot_field(4))
    seat_round(tournament=t)
    with pytest.raises(TournamentError):
        seat_round(tournament=t)
    # A late entry (league.services.evening): joins at the next round not seated, here round 2.
    (late,) = register_players(tournament=t, players=bot_field(1, prefix="late"))
    start_round(tournament_round=t.tournament_rounds.get())
    assert late.joined_round == 2


def test_swiss_rounds_seat_by_the_standings(run_on_commit):
    t = create_tournament(name="swiss", rounds=2, table_size=2, format="swiss", auto_advance=False, seed="sw")
    register_players(tournament=t, players=bot_field(8))
    run_on_commit(start_tournament, tournament=t)
    order = _swiss_order(t, [e.player_id for e in t.entries.all()], 2)
    points = {row.competitor: row.metrics["points"] for row in tournament_standings(tournament=t)}
    assert [points[u] for u in order] == sorted(points.values(), reverse=True)

    round2 = run_on_commit(advance_tournament, tournament=t)
    first = TournamentRound.objects.get(tournament=t, index=1)
    history = History.from_rounds([_stored_round(first)])
    expected = scheduling.swiss_round(order, number=2, table_size=2, history=history, seed="sw")
    round2.refresh_from_db()
    assert [tuple(table["units"]) for table in round2.tables] == [tuple(tb.units) for tb in expected.tables]
    # the leader meets the best-placed player it has not met yet
    met = {frozenset(table["units"]) for table in first.tables}
    leader_table = next(tb for tb in round2.tables if order[0] in tb["units"])
    best_new = next(u for u in order[1:] if frozenset((order[0], u)) not in met)
    assert best_new in leader_table["units"]


def test_duplicate_tables_of_a_deal_group_hold_the_same_cards(run_on_commit):
    players = bot_field(8)
    t = create_tournament(name="dup", rounds=1, table_size=4, format="duplicate", seed="dup")
    register_players(tournament=t, players=players)
    run_on_commit(start_tournament, tournament=t)
    rnd = t.tournament_rounds.get()
    tables = sorted(rnd.tables, key=lambda tb: tb["rotation"])
    assert [tb["rotation"] for tb in tables] == [0, 1] and len({tb["deal_id"] for tb in tables}) == 1
    a, b = (Match.objects.get(pk=tb["match"]) for tb in tables)
    assert a.seed == b.seed and (b.first_dealer - a.first_dealer) % 4 == 3  # the dealer moves back by the rotation
    hands_a = [r["hands"] for r in match_record(a)["rounds"]]
    hands_b = [r["hands"] for r in match_record(b)["rounds"]]
    assert hands_a == hands_b and len(hands_a) == 4  # every round's deal, seat for seat
    # the player scheduled at seat s of the rotated table holds hand s - 1 (league.scheduling.duplicate)
    seats_b = list(b.match_seats.order_by("seat").values_list("player", flat=True))
    for s, pid in enumerate(tables[1]["seats"]):
        assert seats_b[scheduling.hand_of_seat(s, 1, 4)] == pid

    # duplicate standings compare the two players who held each hand
    by_hand = {}
    for m in (a, b):
        for ms in m.match_seats.all():
            by_hand.setdefault(ms.seat, []).append((ms.player_id, ms.score))
    dup = {row.competitor: row.metrics["duplicate"] for row in tournament_standings(tournament=t)}
    for (p, sp), (q, sq) in by_hand.values():
        assert dup[p] == Fraction(sp - sq) and dup[q] == -dup[p]
    assert [row.rank for row in tournament_standings(tournament=t)] == sorted(
        row.rank for row in tournament_standings(tournament=t))


def test_a_partnership_tournament_seats_and_ranks_teams(run_on_commit):
    players = bot_field(8)
    t = create_tournament(name="pairs", rounds=2, table_size=4, ruleset={"partnerships": True}, seed="pairs")
    for i in range(0, 8, 2):
        register_team(tournament=t, players=players[i:i + 2])
    run_on_commit(start_tournament, tournament=t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    for m in Match.objects.filter(tournament_round__tournament=t):
        seats = list(m.match_seats.order_by("seat"))
        # R-TEAM-1: partners sit opposite, seats j and j + 2
        teams = {ms.player_id: ms.player.tournament_entries.get(tournament=t).team for ms in seats}
        assert teams[seats[0].player_id] == teams[seats[2].player_id] != teams[seats[1].player_id]
    standings = tournament_standings(tournament=t)
    assert len(standings) == 4 and all(len(row.player_ids) == 2 and " & " in row.name for row in standings)
    assert all(row.games == 2 for row in standings)


def test_standings_share_places_and_break_ties_level_by_level_from_stored_matches():
    players = bot_field(12)
    t = create_tournament(name="ties", rounds=1, table_size=2, seed="ties", rated=False)
    register_players(tournament=t, players=players)
    rnd = seat_round(tournament=t)
    # (score, vault) per table, seat 0 then seat 1; R-SCORE-1 gives the showroom
    results = [((30, 10), (20, 5)), ((25, 10), (20, 5)), ((25, 12), (10, 5)), ((25, 10), (15, 5)), ((20, 8), (20, 8)),
               ((12, 4), (14, 5))]
    who = {}
    for table, (r0, r1) in zip(sorted(rnd.tables, key=lambda tb: tb["number"]), results):
        store_result(Match.objects.get(pk=table["match"]), {0: r0, 1: r1})
        who[(table["number"], 0)], who[(table["number"], 1)] = table["seats"]
    rows = {row.competitor: row for row in tournament_standings(tournament=t)}

    def place(table, seat):
        row = rows[who[(table, seat)]]
        return row.rank, row.shared

    assert place(1, 0) == (1, False)  # 1 point, best score
    assert place(3, 0) == (2, False)  # 1 point, score 25 as tables 2 and 4, more in the vault
    assert place(2, 0) == place(4, 0) == (3, True)  # equal on points, score, vault, wins, opponents: shared
    assert place(6, 1) == (5, False)  # 1 point, score 14
    assert place(5, 0) == place(5, 1) == (6, True)  # a tie at the table: half a point each, shared place
    assert rows[who[(5, 0)]].metrics["points"] == Fraction(1, 2)
    assert place(1, 1) == place(2, 1) == (8, True)  # 0 points, score 20, vault 5, opponents with 1 point each
    assert place(4, 1) == (10, False) and place(6, 0) == (11, False) and place(3, 1) == (12, False)


def test_byes_recorded_on_a_round_are_worth_the_bye_points():
    # league.scheduling gives byes only when no mix of table sizes seats everyone, so this round's is written here
    players = bot_field(3)
    t = create_tournament(name="byes", rounds=1, table_size=2, seed="byes", match_points={"bye": "3/2"}, rated=False)
    register_players(tournament=t, players=players)
    rnd = seat_round(tournament=t)
    TournamentRound.objects.filter(pk=rnd.pk).update(byes=[players[0].pk])
    rows = {row.competitor: row for row in tournament_standings(tournament=t)}
    assert rows[players[0].pk].metrics["points"] == Fraction(3, 2) and rows[players[0].pk].games == 0


def test_a_season_adds_up_its_tournaments(run_on_commit):
    from league.models import League, Season
    from league.selectors.standings import season_standings
    from league.services import create_club

    club = create_club(name="club")
    season = Season.objects.create(league=League.objects.create(club=club, name="league"), name="2026")
    players = bot_field(4)
    by_tournament = []
    for i in range(2):
        t = create_tournament(name=f"leg {i}", rounds=1, table_size=2, season=season, club=club, seed=f"leg{i}")
        register_players(tournament=t, players=players)
        run_on_commit(start_tournament, tournament=t)
        by_tournament.append({row.competitor: row.metrics for row in tournament_standings(tournament=t)})
    rows = season_standings(season=season)
    assert {row.competitor for row in rows} == {p.pk for p in players} and all(row.games == 2 for row in rows)
    for row in rows:
        assert row.metrics["points"] == sum(s[row.competitor]["points"] for s in by_tournament)
        assert row.metrics["score"] == sum(s[row.competitor]["score"] for s in by_tournament)


@pytest.mark.django_db(transaction=True)
def test_an_eager_tournament_of_many_rounds_keeps_the_stack_flat(monkeypatch):
    # Committed for real (no test transaction): each round starts from the previous round's last match, as in a
    # plain `manage.py` run; without the queue in start_round every round would nest inside the previous one.
    import traceback

    import workers.tasks

    depths = []
    real = workers.tasks.on_match_finished

    def recording(*, match_id):
        depths.append(len(traceback.extract_stack()))
        real(match_id=match_id)

    monkeypatch.setattr(workers.tasks, "on_match_finished", recording)
    t = create_tournament(name="long", rounds=12, table_size=2, seed="long", rated=False,
                          ruleset={"rounds": 1, "hand_size": 4})
    register_players(tournament=t, players=bot_field(4))
    start_tournament(tournament=t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and len(depths) == 24
    assert max(depths[2:]) == min(depths[2:])  # round 1 runs from start_round itself, every later round alike


def test_a_lost_follow_up_is_caught_up_by_the_sweep():
    from league.services.match_finished import catch_up_finished_matches
    from workers.tasks import catch_up_finished_matches_task

    t = create_tournament(name="lost", rounds=2, table_size=2, seed="lost")
    register_players(tournament=t, players=bot_field(4))
    rnd = seat_round(tournament=t)
    start_round(tournament_round=rnd)  # its tasks are never sent: the test's transaction does not commit
    for m in rnd.matches.all():
        store_result(m, {0: (30, 10), 1: (20, 5)})  # finished, but no one called on_match_finished
    assert catch_up_finished_matches_task.apply().get() == 2  # two matches to rate; the second closes the round
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED and RatingHistory.objects.count() == 4
    assert t.tournament_rounds.filter(index=2).exists()  # auto_advance seated the next round
    assert catch_up_finished_matches() == 0


def test_a_fixed_field_of_sixteen_meets_no_one_twice_in_five_rounds(run_on_commit):
    # Seated from the whole schedule (an affine plane of order 4 exists), not round by round.
    from itertools import combinations

    t = create_tournament(name="plane", rounds=5, table_size=4, seed="plane", auto_advance=False, rated=False)
    register_players(tournament=t, players=bot_field(16))
    rnd = seat_round(tournament=t)
    pairs = Counter()
    for index in range(1, 6):
        for table in rnd.tables:
            pairs.update(frozenset(p) for p in combinations(table["units"], 2))
        if index < 5:
            for m in rnd.matches.all():
                store_result(m, {0: (30, 10), 1: (20, 5), 2: (10, 2), 3: (4, 1)})
            run_on_commit(start_round, tournament_round=rnd)
            rnd = seat_round(tournament=t)
    assert len(pairs) == 5 * 4 * 6 and max(pairs.values()) == 1


def test_a_withdrawn_player_is_not_seated_again_and_keeps_their_results(run_on_commit):
    from league.services.registration import withdraw_player

    players = bot_field(9)
    t = create_tournament(name="withdraw", rounds=2, table_size=3, seed="wd", auto_advance=False, rated=False)
    register_players(tournament=t, players=players)
    run_on_commit(start_tournament, tournament=t)
    withdraw_player(tournament=t, player=players[0])
    run_on_commit(advance_tournament, tournament=t)
    t.refresh_from_db()
    second = t.tournament_rounds.get(index=2)
    assert t.status == TournamentStatus.FINISHED
    assert players[0].pk not in {u for table in second.tables for u in table["units"]}
    assert sorted(len(table["units"]) for table in second.tables) == [2, 3, 3]
    rows = {row.competitor: row for row in tournament_standings(tournament=t)}
    assert rows[players[0].pk].games == 1 and rows[players[1].pk].games == 2
