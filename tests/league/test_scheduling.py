"""Seating algorithms, pure Python: invariants of every round, repeat meetings, seat balance, Swiss, duplicate."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Ruleset
from league.scheduling import (
    DealTableResult,
    HandResult,
    History,
    duplicate_round,
    duplicate_schedule,
    duplicate_scores,
    fixed_schedule,
    hand_of_seat,
    measure,
    rotated_deals,
    seat_round,
    swiss_round,
    table_sizes,
)
from league.scheduling.algebraic import affine_plane_rounds, round_robin_pairs
from league.scheduling.duplicate import group_sizes
from league.scheduling.sizes import TableShape

pytestmark = pytest.mark.backend_free  # plain computation: no database, no broker


def allowed_sizes(table_size: int) -> set[int]:
    return {s for s in (table_size - 1, table_size, table_size + 1) if 2 <= s <= 6}


def expressible(m: int, sizes: set[int]) -> bool:
    """Can exactly m players be seated at tables of these sizes? (brute force, for small m)"""
    ok = [True] + [False] * m
    for i in range(1, m + 1):
        ok[i] = any(i >= s and ok[i - s] for s in sizes)
    return ok[m]


def check_round_invariants(schedule, table_size: int, partnership: bool = False) -> None:
    """Everyone once per round (at a table or on a bye), sizes allowed, seats match units, byes spread."""
    units = list(schedule.units)
    shape = TableShape.for_table_size(table_size, partnership=partnership)
    byes = Counter()
    for rnd in schedule.rounds:
        seen = rnd.units() + list(rnd.byes)
        assert sorted(map(repr, seen)) == sorted(map(repr, units)), f"round {rnd.number} seats everyone once"
        expected_sizes, expected_byes = table_sizes(len(units), shape)
        assert len(rnd.byes) == expected_byes
        assert sorted(len(t.units) for t in rnd.tables) == sorted(expected_sizes)
        assert [t.number for t in rnd.tables] == list(range(1, len(rnd.tables) + 1))
        for t in rnd.tables:
            assert shape.min_units <= len(t.units) <= shape.max_units
            assert abs(len(t.units) - shape.target) <= 1
            if partnership:
                k = len(t.units)
                for j, team in enumerate(t.units):
                    assert {t.seats[j], t.seats[j + k]} == set(team), "R-TEAM-1: partners sit opposite"
            else:
                assert t.seats == t.units
        for u in rnd.byes:
            byes[u] += 1
        # never a second bye while someone has had none (nor a third while someone has had one...)
        counts = [byes[u] for u in units]
        assert max(counts) - min(counts) <= 1


# ---- table sizes ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("table_size", [2, 3, 4, 5, 6])
def test_table_sizes_mix_neighbouring_sizes_and_give_byes_only_when_nothing_fits(table_size):
    shape = TableShape.for_table_size(table_size)
    allowed = allowed_sizes(table_size)
    for n in range(0, 80):
        sizes, byes = table_sizes(n, shape)
        assert sum(sizes) + byes == n
        assert set(sizes) <= allowed
        assert not ({table_size - 1, table_size + 1} <= set(sizes)), "one kind of odd size at a time"
        for fewer in range(byes):
            assert not expressible(n - fewer, allowed), f"{n} at {table_size}: {fewer} byes would have done"
        # one size smaller is preferred to one larger whenever it can be used
        if table_size + 1 in sizes and table_size - 1 >= 2:
            k = -(-n // table_size)
            assert k * table_size - n > k


def test_table_sizes_examples():
    four = TableShape.for_table_size(4)
    assert table_sizes(1000, four) == ([4] * 250, 0)
    assert table_sizes(13, four) == ([4, 3, 3, 3], 0)
    assert table_sizes(5, four) == ([5], 0)  # one table of 4 and a bye would leave a player out
    assert table_sizes(1, four) == ([], 1)
    assert table_sizes(7, TableShape.for_table_size(6)) == ([6], 1)  # 7 would be a table the engine cannot seat
    assert table_sizes(7, TableShape.for_table_size(2)) == ([3, 2, 2], 0)


def test_a_games_max_players_caps_every_table():
    """Diamoniak seats at most 4 (OTHER-GAMES.md, engine.games): where Diamonds would open a table of 5 for a field of
    5, a game of at most 4 seats 4 and gives a bye; tables one smaller still mix in below the target."""
    capped = TableShape.for_table_size(4, max_players=4)
    assert table_sizes(5, capped) == ([4], 1)
    assert table_sizes(13, capped) == ([4, 3, 3, 3], 0)
    with pytest.raises(ValueError, match="a table seats 2 to 4 players, not 5"):
        TableShape.for_table_size(5, max_players=4)
    for players in (5, 9, 10, 21):
        units = list(range(players))
        schedule = fixed_schedule(units, rounds=3, table_size=4, seed="cap", max_players=4)
        assert max(t.size for r in schedule.rounds for t in r.tables) <= 4
        swiss = swiss_round(units, number=1, table_size=4, seed="cap", max_players=4)
        assert max(t.size for t in swiss.tables) <= 4
        one = seat_round(units, number=1, table_size=4, seed="cap", max_players=4)
        assert max(t.size for t in one.tables) <= 4 and sorted([*one.units(), *one.byes]) == units


def test_partnership_tables_seat_teams_as_units():
    four = TableShape.for_table_size(4, partnership=True)
    six = TableShape.for_table_size(6, partnership=True)
    assert (four.target, four.players_per_unit) == (2, 2)
    assert table_sizes(5, four) == ([3, 2], 0)  # one table of 6 (3 teams) and one of 4 (2 teams)
    assert table_sizes(4, six) == ([2, 2], 0)
    assert table_sizes(1, six) == ([], 1)
    with pytest.raises(ValueError):
        TableShape.for_table_size(5, partnership=True)
    with pytest.raises(ValueError):
        TableShape.for_table_size(7)


# ---- fixed schedules: invariants --------------------------------------------------------------------------


@pytest.mark.parametrize("table_size", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("players", [1, 2, 3, 5, 7, 8, 11, 13, 20, 31])
def test_fixed_schedule_invariants(players, table_size):
    rounds = 5
    schedule = fixed_schedule([f"p{i}" for i in range(players)], rounds=rounds, table_size=table_size, seed="inv")
    assert len(schedule.rounds) == rounds
    check_round_invariants(schedule, table_size)
    q = measure(schedule)
    assert q.max_meetings >= q.meeting_bound
    if len(q.table_sizes) == 1:
        assert q.max_seat_spread <= 2


@settings(max_examples=25, deadline=None)
@given(players=st.integers(1, 60), table_size=st.integers(2, 6), rounds=st.integers(1, 6), seed=st.integers())
def test_fixed_schedule_invariants_property(players, table_size, rounds, seed):
    schedule = fixed_schedule(list(range(players)), rounds=rounds, table_size=table_size, seed=seed)
    check_round_invariants(schedule, table_size)


def test_byes_go_round_before_anyone_gets_a_second():
    # 7 players at tables of 6: one bye each round, every player gets exactly one in 7 rounds
    schedule = fixed_schedule(list("abcdefg"), rounds=7, table_size=6, seed=1)
    assert Counter(u for r in schedule.rounds for u in r.byes) == Counter("abcdefg")


def test_a_lone_player_sits_out_every_round():
    schedule = fixed_schedule(["solo"], rounds=3, table_size=4, seed=1)
    assert [r.byes for r in schedule.rounds] == [("solo",)] * 3
    assert all(not r.tables for r in schedule.rounds)


def test_same_seed_same_schedule_other_seed_other_schedule():
    units = list(range(40))
    a = fixed_schedule(units, rounds=4, table_size=4, seed="s")
    b = fixed_schedule(units, rounds=4, table_size=4, seed="s")
    c = fixed_schedule(units, rounds=4, table_size=4, seed="t")
    assert a.rounds == b.rounds
    assert a.rounds != c.rounds


def test_every_table_has_its_own_seed_and_deal_in_the_fixed_format():
    schedule = fixed_schedule(list(range(24)), rounds=3, table_size=4, seed="cup")
    seeds = [t.seed for r in schedule.rounds for t in r.tables]
    assert len(set(seeds)) == len(seeds)
    assert schedule.rounds[0].tables[0].seed == "cup/round-1/table-1"


# ---- repeat meetings --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,table_size,rounds",
    [
        (4, 2, 3),  # round robin: every pair once
        (10, 2, 9),
        (9, 3, 4),  # affine plane of order 3: the most rounds 9 players can play without a repeat
        (16, 4, 5),  # order 4 (over GF(4))
        (25, 5, 6),
        (13, 4, 4),
        (40, 4, 5),
        (60, 3, 8),
        (90, 6, 6),
        (100, 5, 6),
        (1000, 4, 8),  # the benchmark field: no pair may meet twice
    ],
)
def test_no_pair_meets_twice_while_it_can_be_avoided(players, table_size, rounds):
    schedule = fixed_schedule(list(range(players)), rounds=rounds, table_size=table_size, seed="no-repeat")
    q = measure(schedule)
    assert q.max_meetings == 1
    assert q.repeated_pairs == 0


@pytest.mark.parametrize(
    "players,table_size,rounds",
    [(4, 4, 3), (8, 4, 5), (6, 3, 6), (5, 4, 4), (10, 5, 5)],
)
def test_when_repeats_are_unavoidable_the_most_meetings_is_the_least_possible(players, table_size, rounds):
    # Each player meets rounds*(size-1) opponents among players-1: some pair meets at least
    # ceil(that / (players-1)) times; the schedule reaches that bound.
    schedule = fixed_schedule(list(range(players)), rounds=rounds, table_size=table_size, seed=3)
    q = measure(schedule)
    assert q.max_meetings == q.meeting_bound


def test_exact_constructions_meet_every_pair_exactly_once():
    for q in (2, 3, 4, 5):
        met = Counter()
        for rnd in affine_plane_rounds(q):
            assert sorted(u for t in rnd for u in t) == list(range(q * q))
            for t in rnd:
                met.update(frozenset(p) for p in itertools.combinations(t, 2))
        assert len(met) == q * q * (q * q - 1) // 2 and set(met.values()) == {1}
    met = Counter(frozenset(t) for rnd in round_robin_pairs(8) for t in rnd)
    assert len(met) == 28 and set(met.values()) == {1}


def test_history_carries_over_when_rounds_are_seated_one_at_a_time():
    units = list(range(24))
    history = History()
    for number in range(1, 6):
        rnd = seat_round(units, number=number, table_size=4, history=history, seed="live")
        for t in rnd.tables:
            for a, b in itertools.combinations(t.units, 2):
                assert history.met(a, b) == 0
        history.record(rnd)


# ---- seat positions ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,table_size,rounds", [(1000, 4, 8), (24, 4, 8), (30, 3, 6), (60, 6, 6), (5, 5, 5)])
def test_seat_positions_are_spread(players, table_size, rounds):
    schedule = fixed_schedule(list(range(players)), rounds=rounds, table_size=table_size, seed="seats")
    q = measure(schedule)
    assert q.max_seat_spread <= 2
    assert q.mean_seat_spread <= 1.2
    # nobody sits left of the same player more often than the field forces
    assert q.max_left_repeats <= max(1, -(-rounds // (players - 1)) + 1)


@pytest.mark.parametrize("players,table_size,rounds", [(1000, 4, 8), (200, 5, 7), (120, 3, 6), (150, 6, 6)])
def test_in_a_large_field_seat_counts_stay_within_one(players, table_size, rounds):
    # no pair meets again, so nothing competes with seat balance: each player takes every seat
    # rounds // size or one more times (at 1000 players, 4 seats and 8 rounds: each seat exactly twice)
    schedule = fixed_schedule(list(range(players)), rounds=rounds, table_size=table_size, seed="even")
    q = measure(schedule)
    assert q.max_seat_spread == (0 if rounds % table_size == 0 else 1)


def test_one_table_of_five_for_five_rounds_gives_everyone_every_seat():
    schedule = fixed_schedule(list("abcde"), rounds=5, table_size=5, seed=2)
    for p in "abcde":
        assert sorted(t.seats.index(p) for r in schedule.rounds for t in r.tables) == [0, 1, 2, 3, 4]


# ---- partnerships -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("table_size", [4, 6])
@pytest.mark.parametrize("teams", [1, 2, 3, 5, 8, 13])
def test_partnership_schedule_seats_teams_as_units(teams, table_size):
    units = [(f"a{i}", f"b{i}") for i in range(teams)]
    schedule = fixed_schedule(units, rounds=4, table_size=table_size, seed="teams", partnership=True)
    check_round_invariants(schedule, table_size, partnership=True)


def test_partners_alternate_the_lower_seat():
    teams = {"red": ("r1", "r2"), "blue": ("b1", "b2")}
    schedule = fixed_schedule(list(teams), rounds=4, table_size=4, seed=0, partnership=True, teams=teams)
    low_seats = Counter()
    for rnd in schedule.rounds:
        (t,) = rnd.tables
        low_seats.update(t.seats[:2])
    assert all(low_seats[p] == 2 for p in ("r1", "r2", "b1", "b2"))


@pytest.mark.parametrize("table_size", [4, 6])
def test_partnership_seats_are_balanced_player_by_player(table_size):
    # each team's position and which partner takes the lower seat are chosen so each player's seats even out
    units = [(f"a{i}", f"b{i}") for i in range(60)]
    schedule = fixed_schedule(units, rounds=6, table_size=table_size, seed="pairs", partnership=True)
    q = measure(schedule)
    assert q.max_meetings == 1
    assert q.max_seat_spread == (0 if 6 % table_size == 0 else 1)


def test_a_partnership_team_must_be_two_players():
    with pytest.raises(ValueError):
        fixed_schedule(["solo-team"], rounds=1, table_size=4, partnership=True)


# ---- Swiss ------------------------------------------------------------------------------------------------


def test_swiss_first_round_seats_neighbours_in_the_standings_together():
    standings = [f"p{i}" for i in range(16)]
    rnd = swiss_round(standings, number=1, table_size=4, seed=0)
    assert [sorted(t.units, key=standings.index) for t in rnd.tables] == [standings[i:i + 4] for i in (0, 4, 8, 12)]


def test_swiss_avoids_a_rematch_at_the_top_table():
    standings = [f"p{i}" for i in range(16)]
    history = History()
    history.record_table(standings[:4])  # the top four met last round
    rnd = swiss_round(standings, number=2, table_size=4, history=history, seed=0)
    for t in rnd.tables:
        assert len(set(t.units) & set(standings[:4])) == 1  # four tables, four who met: one at each
    top = min(rnd.tables, key=lambda t: min(standings.index(u) for u in t.units))
    assert set(top.units) == {"p0", "p4", "p5", "p6"}  # the leader with the best three it has not met


def simulate_swiss(players: int, table_size: int, rounds: int, seed: int):
    rng = random.Random(seed)
    points = {u: 0 for u in range(players)}
    history = History()
    spans = []
    for number in range(1, rounds + 1):
        standings = sorted(points, key=lambda u: (-points[u], u))
        rnd = swiss_round(standings, number=number, table_size=table_size, history=history, seed=seed)
        for t in rnd.tables:
            for a, b in itertools.combinations(t.units, 2):
                assert history.met(a, b) == 0, "a Swiss round avoids rematches while it can"
            ranks = [standings.index(u) for u in t.units]
            spans.append(max(ranks) - min(ranks))
            for u in t.units:
                points[u] += rng.randrange(4)
        history.record(rnd)
    return spans


@pytest.mark.parametrize("players,table_size,rounds", [(32, 4, 5), (17, 3, 5), (200, 4, 7), (60, 5, 4)])
def test_swiss_rounds_avoid_rematches_and_keep_tables_close_in_rank(players, table_size, rounds):
    spans = simulate_swiss(players, table_size, rounds, seed=5)
    assert sum(spans) / len(spans) <= 4 * table_size  # on average a table spans a few tables' worth of ranks


def test_swiss_bye_goes_to_the_lowest_ranked_without_a_bye():
    standings = list("abcdefg")  # 7 at tables of 6: one bye
    history = History()
    first = swiss_round(standings, number=1, table_size=6, history=history, seed=0)
    assert first.byes == ("g",)
    history.record(first)
    second = swiss_round(standings, number=2, table_size=6, history=history, seed=0)
    assert second.byes == ("f",)


def test_swiss_seats_partnership_teams_as_units():
    teams = {f"t{i}": (f"a{i}", f"b{i}") for i in range(10)}
    standings = list(teams)
    history = History()
    for number in range(1, 4):
        rnd = swiss_round(standings, number=number, table_size=6, history=history, seed=1, partnership=True,
                          teams=teams)
        for t in rnd.tables:
            k = len(t.units)
            assert k in (2, 3)
            for j, team in enumerate(t.units):
                assert {t.seats[j], t.seats[j + k]} == set(teams[team])
            for a, b in itertools.combinations(t.units, 2):
                assert history.met(a, b) == 0
        history.record(rnd)
        standings = standings[1:] + standings[:1]


def test_swiss_max_shift_accepts_a_rematch_rather_than_a_far_move():
    standings = [f"p{i}" for i in range(16)]
    history = History()
    history.record_table(standings[:4])
    strict = swiss_round(standings, number=2, table_size=4, history=history, seed=0)
    loose = swiss_round(standings, number=2, table_size=4, history=history, seed=0, max_shift=0)
    top = [sorted(t.units, key=standings.index) for t in loose.tables]
    assert top[0] == standings[:4]  # with no room to move, the top four meet again
    assert all(len(set(t.units) & set(standings[:4])) == 1 for t in strict.tables)


# ---- duplicate --------------------------------------------------------------------------------------------


def test_group_sizes_are_even_and_leave_no_table_alone():
    assert group_sizes(250, 4) == [4] * 61 + [3] * 2
    assert group_sizes(5, 4) == [3, 2]
    assert group_sizes(1, 4) == [1]
    assert group_sizes(3, 2) == [3]  # two seats, three tables: one group rather than a lone table
    for tables in range(1, 60):
        for n in range(2, 7):
            sizes = group_sizes(tables, n)
            assert sum(sizes) == tables and max(sizes) - min(sizes) <= 1
            assert max(sizes) <= n or (n == 2 and max(sizes) == 3)
            if tables >= 2:
                assert min(sizes) >= 2


@pytest.mark.parametrize("players,table_size", [(64, 4), (13, 4), (45, 5), (30, 3), (24, 6)])
def test_duplicate_tables_of_a_group_share_the_deal_and_rotate_the_seats(players, table_size):
    schedule = duplicate_schedule(list(range(players)), rounds=3, table_size=table_size, seed="dup")
    check_round_invariants(schedule, table_size)
    for rnd in schedule.rounds:
        groups: dict[int, list] = {}
        for t in rnd.tables:
            groups.setdefault(t.group, []).append(t)
        deal_ids = set()
        for tables in groups.values():
            assert len({t.deal_id for t in tables}) == 1 and len({t.seed for t in tables}) == 1
            assert len({t.size for t in tables}) == 1
            n = tables[0].size
            assert [t.rotation for t in tables] == [i % n for i in range(len(tables))]
            deal_ids.add(tables[0].deal_id)
            if len(tables) == n:
                # a full group: each hand is held once at each seat
                held = Counter((hand_of_seat(s, t.rotation, n), s) for t in tables for s in range(n))
                assert len(held) == n * n and set(held.values()) == {1}
        assert len(deal_ids) == len(groups), "groups do not share deals"


def test_duplicate_round_by_round_spreads_opponents():
    units = list(range(32))
    history = History()
    for number in range(1, 5):
        rnd = duplicate_round(units, number=number, table_size=4, history=history, seed="d")
        assert {t.group for t in rnd.tables} == set(range(1, 3))
        history.record(rnd)
    assert max(c for m in history.meetings.values() for c in m.values()) == 1


@pytest.mark.parametrize("players,partnerships", [(4, False), (3, False), (5, False), (4, True), (6, True)])
def test_rotated_deals_give_each_seat_the_hand_of_the_rotation(players, partnerships):
    ruleset = Ruleset(players=players, partnerships=partnerships)
    plain = rotated_deals(ruleset, "deal-7", 0)
    assert Game(ruleset, "deal-7").hands == plain[0], "rotation 0 is the engine's own deal"
    for rotation in range(players):
        deals = rotated_deals(ruleset, "deal-7", rotation)
        assert len(deals) == ruleset.rounds
        for r in range(ruleset.rounds):
            for seat in range(players):
                assert deals[r][seat] == plain[r][hand_of_seat(seat, rotation, players)]
        game = Game(ruleset, "deal-7", deals=deals)
        assert game.first_dealer == Game(ruleset, "deal-7").first_dealer, "the dealer does not rotate"


def test_duplicate_score_compares_the_holders_of_the_same_hand():
    # three tables of 3 share a deal; rotation r gives hand (s - r) % 3 to seat s
    tables = [
        DealTableResult(0, 3, [HandResult("a", (0,), 20), HandResult("b", (1,), 10), HandResult("c", (2,), 5)]),
        DealTableResult(1, 3, [HandResult("d", (0,), 8), HandResult("e", (1,), 14), HandResult("f", (2,), 9)]),
        DealTableResult(2, 3, [HandResult("g", (0,), 12), HandResult("h", (1,), 11), HandResult("i", (2,), 16)]),
    ]
    scores = duplicate_scores(tables)
    # hand 0: a (20, rot 0 seat 0), e (14, rot 1 seat 1), i (16, rot 2 seat 2)
    assert scores["a"] == 20 - Fraction(14 + 16, 2)
    assert scores["e"] == 14 - Fraction(20 + 16, 2)
    assert scores["i"] == 16 - Fraction(20 + 14, 2)
    assert sum(scores.values()) == 0  # relative to the others holding the same cards, it sums to zero


def test_duplicate_score_of_partnerships_compares_teams_holding_the_same_pair_of_hands():
    tables = [
        DealTableResult(0, 4, [HandResult("ns1", (0, 2), 30), HandResult("ew1", (1, 3), 20)]),
        DealTableResult(1, 4, [HandResult("ns2", (0, 2), 18), HandResult("ew2", (1, 3), 26)]),
    ]
    scores = duplicate_scores(tables)
    # rotation 1: seats 1+3 hold hands 0+2, so ew2 held ns1's cards
    assert scores == {"ns1": 4, "ew2": -4, "ew1": 2, "ns2": -2}


def test_a_table_playing_a_deal_alone_scores_zero():
    scores = duplicate_scores([DealTableResult(0, 2, [HandResult("a", (0,), 9), HandResult("b", (1,), 3)])])
    assert scores == {"a": 0, "b": 0}


# ---- command and benchmark --------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["fixed", "swiss", "duplicate"])
def test_command_prints_quality_figures(fmt, capsys):
    from league.scheduling.cli import main

    assert main(["--players", "30", "--table-size", "4", "--rounds", "3", "--format", fmt, "--seed", "x"]) == 0
    out = capsys.readouterr().out
    assert "max meetings" in out and "seat spread" in out


def test_command_refuses_an_impossible_table(capsys):
    from league.scheduling.cli import main

    assert main(["--players", "30", "--table-size", "5", "--rounds", "3", "--partnership"]) == 2
    assert "R-TEAM-1" in capsys.readouterr().out


def test_benchmark_runs_and_reports_no_repeats(capsys):
    from tools.bench.seating import main

    assert main(["--players", "200", "--rounds", "4"]) == 0
    assert "no pair met twice" in capsys.readouterr().out
