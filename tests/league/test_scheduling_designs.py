"""Repeat-free schedules for small fields: the exact constructions, their use by fixed_schedule, seat balance,
determinism, fields that do not divide, and seating one round at a time as the field changes."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from league.scheduling import History, fixed_schedule, measure, seat_round, table_sizes
from league.scheduling.algebraic import (
    RGDD_2_16_UNMET,
    affine_space_rounds,
    binary_plane_rounds,
    binary_rgdd_rounds,
)
from league.scheduling.designs import BASE_CLASSES, DevelopedDesign, covered_twice, search_base_class
from league.scheduling.seating import exact_construction
from league.scheduling.sizes import TableShape

pytestmark = pytest.mark.backend_free  # plain computation: no database, no broker


def pair_counts(rounds) -> Counter:
    met = Counter()
    for rnd in rounds:
        for table in rnd:
            met.update(frozenset(p) for p in itertools.combinations(table, 2))
    return met


def assert_partitions(rounds, n: int) -> None:
    for rnd in rounds:
        assert sorted(p for table in rnd for p in table) == list(range(n))


# ---- the constructions themselves --------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(BASE_CLASSES))
def test_every_stored_base_class_develops_into_a_repeat_free_resolvable_design(key):
    design = BASE_CLASSES[key]
    rounds = design.develop()
    assert len(rounds) == design.total_rounds
    assert_partitions(rounds, design.players)
    assert all(len(t) == design.table_size for rnd in rounds for t in rnd)
    met = pair_counts(rounds)
    assert set(met.values()) == {1}
    # these three are exact: every pair meets exactly once (a Kirkman system / RBIBD covers all pairs)
    assert len(met) == design.players * (design.players - 1) // 2


@pytest.mark.parametrize("q,d,rounds", [(3, 3, 13), (4, 3, 21), (2, 4, 15), (5, 2, 6)])
def test_affine_spaces_meet_every_pair_exactly_once(q, d, rounds):
    design = affine_space_rounds(q, d)
    assert len(design) == rounds
    assert_partitions(design, q**d)
    met = pair_counts(design)
    assert set(met.values()) == {1} and len(met) == q**d * (q**d - 1) // 2


@pytest.mark.parametrize("d,rounds", [(4, 5), (5, 9), (6, 21)])
def test_disjoint_binary_planes_give_repeat_free_rounds_of_four(d, rounds):
    design = binary_plane_rounds(d)
    assert len(design) == rounds
    assert_partitions(design, 2**d)
    assert all(len(t) == 4 for rnd in design for t in rnd)
    assert covered_twice(design) == 0


def test_32_in_fours_get_10_rounds_in_which_everyone_meets_everyone_but_one_partner_exactly_once():
    design = binary_rgdd_rounds()
    assert len(design) == 10
    assert_partitions(design, 32)  # every round seats each of the 32 exactly once ...
    assert all(len(t) == 4 for rnd in design for t in rnd) and all(len(rnd) == 8 for rnd in design)  # ... in fours
    met = pair_counts(design)
    assert set(met.values()) == {1}  # no pair twice
    unmet = {frozenset(p) for p in itertools.combinations(range(32), 2)} - set(met)
    # each unit misses exactly one other, its group partner x ^ 6: a resolvable 4-GDD of type 2^16
    assert unmet == {frozenset((x, x ^ RGDD_2_16_UNMET)) for x in range(32)}
    assert len(met) == 480
    # its first 5 rounds are cosets of planes of GF(2)^5, as the 9-round construction's are; 10 such cannot exist
    for rnd in design[:5]:
        diffs = {a ^ b for t in rnd for a, b in itertools.combinations(t, 2)}
        assert len(diffs) == 3


def test_the_base_class_search_finds_kirkmans_schoolgirls_and_refuses_a_bad_field():
    base = search_base_class(14, 1, 3, 2, 7, seed=3)
    assert base is not None
    rounds = DevelopedDesign("found", 14, 1, 2, 7, base).develop()
    assert_partitions(rounds, 15)
    assert covered_twice(rounds) == 0
    with pytest.raises(ValueError):
        search_base_class(14, 0, 3, 2, 7)  # 14 points do not fill tables of 3


def test_covered_twice_counts_a_repeat():
    assert covered_twice([[[0, 1, 2]], [[0, 1, 3]]]) == 1


# ---- fixed_schedule on the fields ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,table_size,rounds",
    [
        (15, 3, 7),  # Kirkman's schoolgirls: 6 pairs met twice before
        (32, 4, 9),  # 13 before
        (32, 4, 10),  # the social golfer 8-4-10: 16 before
        (28, 4, 9),  # 28 before
        (21, 3, 10),  # 10 before
        (9, 3, 4), (16, 4, 5), (25, 5, 6), (27, 3, 13),
    ],
)
def test_small_classic_fields_get_a_schedule_with_no_repeated_pair(players, table_size, rounds):
    units = [f"p{i}" for i in range(players)]
    schedule = fixed_schedule(units, rounds=rounds, table_size=table_size, seed="club-night")
    q = measure(schedule)
    assert q.repeated_pairs == 0 and q.max_meetings == 1
    assert q.byes == 0 and q.table_sizes == {table_size: rounds * players // table_size}
    for rnd in schedule.rounds:
        assert sorted(rnd.units()) == sorted(units)  # everyone exactly once per round
        for t in rnd.tables:
            assert t.units == t.seats
    # seats: every player within one of even on every seat index (rounds not divisible by the size allow 1)
    assert q.max_seat_spread <= 1
    assert q.max_left_repeats <= 1


def test_each_player_takes_every_seat_as_evenly_as_the_rounds_allow():
    schedule = fixed_schedule(list(range(28)), rounds=9, table_size=4, seed=7)
    for p in range(28):
        counts = Counter(t.seats.index(p) for rnd in schedule.rounds for t in rnd.tables if p in t.seats)
        assert sorted(counts[s] for s in range(4)) == [2, 2, 2, 3]  # 9 rounds at 4 seats


def test_32_in_fours_for_10_rounds_are_shuffled_by_the_seed_and_still_meet_no_one_twice():
    units = [f"p{i}" for i in range(32)]

    def tables(schedule):
        return [sorted(tuple(sorted(t.units)) for t in r.tables) for r in schedule.rounds]

    a = fixed_schedule(units, rounds=10, table_size=4, seed="cup")
    b = fixed_schedule(units, rounds=10, table_size=4, seed="league")
    assert tables(a) == tables(fixed_schedule(units, rounds=10, table_size=4, seed="cup"))
    assert tables(a) != tables(b)  # the construction's points are the players in the seed's order
    for schedule in (a, b):
        q = measure(schedule)
        assert q.rounds == 10 and q.repeated_pairs == 0 and q.pairs_met == 480 and q.table_sizes == {4: 80}


def test_the_schedule_is_the_seeds_and_another_seed_gives_another():
    units = [f"p{i}" for i in range(15)]
    a = fixed_schedule(units, rounds=7, table_size=3, seed="cup")
    b = fixed_schedule(units, rounds=7, table_size=3, seed="cup")
    c = fixed_schedule(units, rounds=7, table_size=3, seed="other")
    assert [[t.seats for t in r.tables] for r in a.rounds] == [[t.seats for t in r.tables] for r in b.rounds]
    assert [[t.seats for t in r.tables] for r in a.rounds] != [[t.seats for t in r.tables] for r in c.rounds]
    assert measure(c).repeated_pairs == 0


def test_fewer_rounds_than_the_design_take_its_first_rounds_and_more_rounds_still_seat_everyone():
    units = list(range(15))
    assert measure(fixed_schedule(units, rounds=4, table_size=3, seed=1)).repeated_pairs == 0
    longer = fixed_schedule(units, rounds=8, table_size=3, seed=1)  # past 7 rounds someone must meet again
    q = measure(longer)
    assert q.rounds == 8 and q.max_meetings == 2
    assert all(sorted(r.units()) == units for r in longer.rounds)


# ---- fields that do not divide ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,table_size,rounds,sizes",
    [
        (14, 3, 7, {3: 28, 2: 7}),  # KTS(15) with one player left out: a table of 2 each round
        (20, 3, 10, {3: 60, 2: 10}),
        (27, 4, 9, {4: 54, 3: 9}),
        (31, 4, 9, {4: 63, 3: 9}),
        (30, 4, 9, {4: 54, 3: 18}),  # two players who never meet in the design left out
        (24, 5, 6, {5: 24, 4: 6}),
        (31, 4, 10, {4: 70, 3: 10}),  # 15 repeats before
        (30, 4, 10, {4: 60, 3: 20}),  # group partners (never met) left out: 14 repeats before
    ],
)
def test_a_field_just_short_of_a_design_still_meets_no_one_twice(players, table_size, rounds, sizes):
    schedule = fixed_schedule(list(range(players)), rounds=rounds, table_size=table_size, seed="short")
    q = measure(schedule)
    assert q.repeated_pairs == 0
    assert q.table_sizes == sizes and q.byes == 0
    assert q.max_seat_spread <= 2 and q.mean_seat_spread <= 1.25
    for rnd in schedule.rounds:
        assert sorted(rnd.units()) == list(range(players))


def test_an_odd_field_at_tables_of_two_and_a_field_with_no_design_keep_working():
    # 13 at tables of 2: the circle method for 14 less one would leave someone alone, so it is not used
    q = measure(fixed_schedule(list(range(13)), rounds=6, table_size=2, seed=1))
    assert q.table_sizes == {2: 30, 3: 6} and q.byes == 0 and q.repeated_pairs == 0
    q = measure(fixed_schedule(list(range(18)), rounds=4, table_size=3, seed=1))  # no construction: local search
    assert q.repeated_pairs == 0
    assert exact_construction(18, TableShape.for_table_size(3), 4) == ("", [])


def test_the_construction_chosen_names_itself():
    shape = TableShape.for_table_size(4)
    name, rounds = exact_construction(32, shape, 9)
    assert name.startswith("planes of GF(2)") and len(rounds) == 9
    name, rounds = exact_construction(32, shape, 10)
    assert name == "RGDD(2^16) on GF(2)^5" and len(rounds) == 10
    name, rounds = exact_construction(32, shape, 12)
    assert name == "RGDD(2^16) on GF(2)^5" and len(rounds) == 10  # past 10 rounds someone must meet again
    name, rounds = exact_construction(31, shape, 10)
    assert name == "RGDD(2^16) on GF(2)^5 less 1" and len(rounds) == 10
    name, rounds = exact_construction(28, shape, 20)
    assert name == "RBIBD(28,4,1)" and len(rounds) == 9  # never more rounds than the design has


# ---- one round at a time, with a field that changes ---------------------------------------------------------


def fewest_repeats(field, sizes, history) -> int:
    """The fewest earlier meetings any split of `field` into tables of `sizes` repeats (exhaustive, small only)."""
    best = [sum(1 for _ in itertools.combinations(field, 2)) * 9]

    def split(free, cost, left):
        if cost >= best[0]:
            return
        if not free:
            best[0] = cost
            return
        for size in sorted(set(left)):
            rest_sizes = list(left)
            rest_sizes.remove(size)
            for mates in itertools.combinations(free[1:], size - 1):
                table = (free[0], *mates)
                c = sum(history.met(a, b) for a, b in itertools.combinations(table, 2))
                split([u for u in free[1:] if u not in mates], cost + c, rest_sizes)

    split(list(field), 0, list(sizes))
    return best[0]


def test_seat_round_seats_a_changing_field_with_the_fewest_repeats_the_history_allows():
    history = History()
    field = [f"p{i}" for i in range(16)]
    changes = {3: (["late1", "late2"], ["p0"]), 5: ([], ["p1", "p2"])}  # round -> (checked in late, dropped)
    counts: dict[str, Counter] = {}
    for number in range(1, 7):
        joined, dropped = changes.get(number, ([], []))
        field = [p for p in field if p not in dropped] + joined
        rnd = seat_round(field, number=number, table_size=4, history=history, seed="evening")
        assert sorted(rnd.units() + list(rnd.byes)) == sorted(field)  # everyone present, once; nobody dropped
        sizes = [len(t.units) for t in rnd.tables]
        assert sorted(sizes) == sorted(table_sizes(len(field), TableShape.for_table_size(4))[0])
        repeats = sum(history.met(a, b) for t in rnd.tables for a, b in itertools.combinations(t.units, 2))
        if number <= 4:
            assert repeats == 0, f"round {number} need not repeat anyone"
        else:  # 15 left after the drops: no repeat-free round exists any more, and none repeats fewer
            assert repeats == fewest_repeats(field, sizes, history)
        history.record(rnd)
        for t in rnd.tables:
            for s, p in enumerate(t.seats):
                counts.setdefault(p, Counter())[s] += 1
    # seats stay spread as the field changes: nobody on one seat more than twice in 6 rounds at tables of 3-4
    assert all(max(c.values()) <= 2 for c in counts.values())


def test_seat_round_is_deterministic_and_minimises_repeats_when_they_are_forced():
    units = list(range(8))
    history = History()
    for number in range(1, 4):
        rnd = seat_round(units, number=number, table_size=4, history=history, seed="x")
        again = seat_round(units, number=number, table_size=4, history=history, seed="x")
        assert [t.seats for t in rnd.tables] == [t.seats for t in again.tables]
        history.record(rnd)
    # 8 players at two tables of 4 have met everyone by now: round 4 repeats, but as few meetings as can be
    rnd = seat_round(units, number=4, table_size=4, history=history, seed="x")
    repeats = sum(history.met(a, b) for t in rnd.tables for a, b in itertools.combinations(t.units, 2))
    assert repeats == fewest_repeats(units, [4, 4], history)


# ---- the commands ---------------------------------------------------------------------------------------------


def test_find_design_command_prints_a_checked_base_class(capsys):
    from league.scheduling.find_design import main

    assert main(["--finite", "14", "--infinities", "1", "--table-size", "3", "--step", "2", "--rounds", "7"]) == 0
    assert "pairs covered twice: 0" in capsys.readouterr().out


def test_bench_names_the_method_and_reports_no_repeats_for_kirkmans_schoolgirls(capsys):
    from tools.bench.seating import main

    assert main(["--players", "15", "--table-size", "3", "--rounds", "7"]) == 0
    out = capsys.readouterr().out
    assert "KTS(15)" in out and "no pair met twice" in out


@pytest.mark.parametrize("table_size", [2, 3, 4, 5, 6])
def test_an_empty_or_tiny_field_still_seats(table_size):
    for players in range(0, 2 * table_size + 1):
        schedule = fixed_schedule(list(range(players)), rounds=2, table_size=table_size, seed=1)
        assert all(sorted(r.units() + list(r.byes)) == list(range(players)) for r in schedule.rounds)


def test_partnership_teams_are_seated_by_the_constructions_too():
    # 15 teams of partners at tables of 6 players (3 teams): Kirkman's schoolgirls on teams
    teams = [(f"a{i}", f"b{i}") for i in range(15)]
    schedule = fixed_schedule(teams, rounds=7, table_size=6, seed=1, partnership=True)
    q = measure(schedule)
    assert q.repeated_pairs == 0 and q.table_sizes == {6: 35}
    for rnd in schedule.rounds:
        for t in rnd.tables:
            for j, team in enumerate(t.units):  # R-TEAM-1: partners opposite, seats j and j + 3
                assert {t.seats[j], t.seats[j + 3]} == set(team)
