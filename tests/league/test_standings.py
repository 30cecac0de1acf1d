"""Standings, pure Python: R-WIN-1 places at a table, match points with ties, each tie-break level, shared places.

Diamonds entries here (E: score and vault, R-SCORE-1's showroom derived); the other games' entries carry no
showroom, their tie-break (Diamoniak's diamond cards, the ring race's set rings) and often their own placement."""

from __future__ import annotations

from fractions import Fraction

import pytest

from league.standings import (
    DEFAULT_PRECEDENCE,
    Entry,
    MatchResult,
    StandingsConfig,
    compute_standings,
    match_points,
    shown_metrics,
    table_places,
)


def E(competitor, score, vault, **kw) -> Entry:
    return Entry(competitor, score, vault, score - 2 * vault, **kw)


def match(*entries, **kw) -> MatchResult:
    return MatchResult(list(entries), **kw)


def ranks(standings) -> dict:
    return {s.competitor: s.rank for s in standings}


# ---- places and points at one table -----------------------------------------------------------------------


def test_r_win_1_places_by_score_then_vault_and_equal_score_and_vault_share():
    entries = [E("a", 10, 3), E("b", 10, 4), E("c", 10, 3), E("d", 12, 1), E("e", 8, 4)]
    assert table_places(entries) == [3, 2, 3, 1, 5]


def test_a_given_placement_is_used_as_given():
    # a forfeit: the service puts "a" last although it scored most
    entries = [E("a", 20, 5, placement=2), E("b", 3, 1, placement=1)]
    assert table_places(entries) == [2, 1]
    with pytest.raises(ValueError):
        table_places([E("a", 20, 5, placement=2), E("b", 3, 1)])


def test_default_points_are_competitors_minus_place():
    assert match_points([1, 2, 3, 4]) == [3, 2, 1, 0]
    assert match_points([2, 1]) == [0, 1]


def test_tied_places_average_the_points_they_cover():
    assert match_points([1, 2, 2, 4]) == [3, Fraction(3, 2), Fraction(3, 2), 0]
    assert match_points([1, 1, 1, 4]) == [2, 2, 2, 0]
    assert match_points([1, 2, 2, 2]) == [3, 1, 1, 1]
    five = match_points([1, 2, 2, 2, 5])  # (3 + 2 + 1) / 3 exactly, not 1.9999
    assert five[1] == 2 and sum(five) == 4 + 3 + 2 + 1


def test_tied_places_can_all_take_the_higher_points():
    config = StandingsConfig(ties="higher")
    assert match_points([1, 2, 2, 4], config) == [3, 2, 2, 0]
    with pytest.raises(ValueError):
        StandingsConfig(ties="lower")


def test_a_configured_points_table_is_used_for_its_table_size():
    config = StandingsConfig(points={4: {1: 5, 2: 3, 3: 1, 4: 0}})
    assert match_points([1, 2, 3, 4], config) == [5, 3, 1, 0]
    assert match_points([1, 1, 3, 4], config) == [4, 4, 1, 0]
    assert match_points([1, 2, 3], config) == [2, 1, 0]  # no table for 3: the default
    with pytest.raises(ValueError):
        match_points([1, 2, 3, 4], StandingsConfig(points={4: {1: 5, 2: 3}}))


def test_r_score_1_a_stored_score_must_match_vault_and_showroom():
    with pytest.raises(ValueError, match="R-SCORE-1"):
        compute_standings([match(Entry("a", 20, 5, 9), E("b", 3, 1))])


# ---- each level of the precedence -------------------------------------------------------------------------


def test_match_points_come_first():
    results = [match(E("a", 10, 3), E("b", 40, 1), E("c", 30, 2), E("d", 5, 1)),
               match(E("a", 1, 0), E("c", 2, 1))]
    # a: 1 + 0 = 1 ; b: 3 ; c: 2 + 1 = 3 ; d: 0  (b and c tie on points; b scored more)
    st = compute_standings(results)
    assert [s.competitor for s in st] == ["b", "c", "a", "d"]
    assert st[0].metrics["points"] == 3 and st[2].metrics["points"] == 1


def test_total_game_score_breaks_a_points_tie():
    results = [match(E("a", 20, 5), E("x", 10, 3)), match(E("b", 18, 8), E("y", 10, 3))]
    st = compute_standings(results)
    assert ranks(st)["a"] == 1 and ranks(st)["b"] == 2
    assert st[0].metrics["score"] == 20


def test_the_vault_breaks_a_points_and_score_tie():
    results = [match(E("a", 20, 5), E("x", 10, 3)), match(E("b", 20, 8), E("y", 10, 3))]
    st = compute_standings(results)
    assert ranks(st)["b"] == 1 and ranks(st)["a"] == 2
    assert st[0].metrics["tiebreak"] == 8


def test_wins_break_a_tie_on_points_score_and_vault():
    results = [
        match(E("a", 30, 10), E("f1", 20, 5), E("f2", 10, 3), E("f3", 8, 2)),  # a first: 3
        match(E("a", 5, 1), E("f4", 40, 9), E("f5", 30, 9), E("f6", 20, 9)),  # a fourth: 0
        match(E("b", 20, 6), E("f7", 25, 9), E("f8", 10, 2), E("f9", 5, 1)),  # b second: 2
        match(E("b", 15, 5), E("g1", 30, 9), E("g2", 20, 9), E("g3", 2, 1)),  # b third: 1
    ]
    st = {s.competitor: s for s in compute_standings(results)}
    a, b = st["a"], st["b"]
    assert (a.metrics["points"], a.metrics["score"], a.metrics["tiebreak"]) == (3, 35, 11)
    assert (b.metrics["points"], b.metrics["score"], b.metrics["tiebreak"]) == (3, 35, 11)
    assert a.metrics["wins"] == 1 and b.metrics["wins"] == 0
    assert a.rank < b.rank


def head_to_head_results():
    return [
        match(E("f1", 30, 10), E("a", 20, 6), E("b", 15, 4), E("f2", 5, 1)),  # a above b where they met
        match(E("g1", 30, 10), E("b", 20, 6), E("a", 15, 4), E("g2", 5, 1)),  # ... and b above a here
        match(E("h1", 30, 10), E("a", 20, 6), E("h2", 10, 3), E("h3", 5, 1)),
        match(E("k1", 30, 10), E("b", 20, 6), E("k2", 10, 3), E("k3", 5, 1)),
    ]


def test_head_to_head_looks_only_at_matches_between_the_tied():
    results = head_to_head_results()
    # a and b: 2 + 1 + 2 = 5 points, 55 score, 16 vault, no wins; they met twice and each finished above once
    st = {s.competitor: s for s in compute_standings(results)}
    assert st["a"].metrics["points"] == st["b"].metrics["points"] == 5
    assert st["a"].metrics["head_to_head"] == st["b"].metrics["head_to_head"] == 0
    # one more meeting that a wins, with equal points and totals elsewhere, decides it
    more = results + [
        match(E("a", 12, 4), E("b", 11, 4), E("m1", 40, 1), E("m2", 30, 1)),  # a 1 point, b 0
        match(E("b", 12, 4), E("n1", 40, 1), E("n2", 30, 1), E("n3", 1, 0)),  # b 1 point
        match(E("a", 11, 4), E("p1", 40, 1), E("p2", 30, 1), E("p3", 20, 0)),  # a 0 points
    ]
    st = {s.competitor: s for s in compute_standings(more)}
    assert st["a"].metrics["points"] == st["b"].metrics["points"]
    assert st["a"].metrics["score"] == st["b"].metrics["score"]
    assert st["a"].metrics["tiebreak"] == st["b"].metrics["tiebreak"]
    assert st["a"].metrics["head_to_head"] == 1 and st["b"].metrics["head_to_head"] == -1
    assert st["a"].rank < st["b"].rank


def test_opponent_match_points_break_a_tie_when_configured_before_head_to_head():
    results = [
        match(E("a", 20, 6), E("x", 10, 3)),
        match(E("b", 20, 6), E("y", 10, 3)),
        match(E("x", 20, 6), E("z", 10, 3)),  # x, a's opponent, did better elsewhere
    ]
    config = StandingsConfig(precedence=("points", "score", "vault", "opponent_points"))
    st = {s.competitor: s for s in compute_standings(results, config=config)}
    assert st["a"].metrics["opponent_points"] == 1 and st["b"].metrics["opponent_points"] == 0
    assert st["a"].rank + 1 == st["b"].rank  # (x, with more score, is first)


def test_competitors_tied_on_everything_share_the_place_competition_style():
    results = [
        match(E("a", 20, 6), E("x", 10, 3)),
        match(E("b", 20, 6), E("y", 10, 3)),
        match(E("c", 15, 6), E("z", 10, 3)),
    ]
    st = compute_standings(results)
    r = ranks(st)
    assert r["a"] == r["b"] == 1 and r["c"] == 3
    assert r["x"] == r["y"] == r["z"] == 4
    assert [s.rank for s in st] == [1, 1, 3, 4, 4, 4]
    shared = {s.competitor: s.shared for s in st}
    assert shared["a"] and shared["b"] and not shared["c"]


def test_vault_separates_at_the_table_and_full_ties_share_in_one_field():
    # s and t share a table's first place (equal score and vault: R-WIN-1), u is third on the vault alone;
    # a and b are tied on every metric of the default precedence and share their place
    results = head_to_head_results() + [
        match(E("s", 20, 6), E("t", 20, 6), E("u", 20, 5), E("v", 18, 9)),  # s, t share first; u third on vault
    ]
    st = compute_standings(results)
    r = ranks(st)
    assert r["s"] == r["t"] and r["u"] == r["s"] + 2
    assert r["a"] == r["b"]  # equal on points, score, vault, wins, head-to-head and opponents' points
    assert len({s.rank for s in st}) < len(st)
    assert [s.rank for s in st] == sorted(s.rank for s in st)


def test_a_custom_precedence_and_a_custom_metric():
    results = [match(E("a", 20, 1), E("b", 10, 5))]
    # vault first: b ranks above a although a won the match
    st = compute_standings(results, config=StandingsConfig(precedence=("vault",)))
    assert [s.competitor for s in st] == ["b", "a"]

    def fewest_games(tally, group):
        return {c: -len(tally.by_competitor[c]) for c in group}

    st = compute_standings(results + [match(E("a", 1, 0), E("c", 2, 0))],
                           config=StandingsConfig(precedence=(fewest_games, "points")))
    assert st[-1].competitor == "a"
    assert "fewest_games" in st[0].metrics
    with pytest.raises(ValueError):
        StandingsConfig(precedence=("luck",))


def test_extra_metrics_are_shown_not_used():
    st = compute_standings([match(E("a", 20, 1), E("b", 10, 5))],
                           config=StandingsConfig(precedence=("points",), extra=("games", "vault")))
    assert st[0].competitor == "a" and st[0].metrics == {"points": 1, "games": 1, "tiebreak": 1}


def test_entrants_without_games_and_byes():
    results = [match(E("a", 20, 6), E("b", 10, 3))]
    st = compute_standings(results, competitors=["c"], byes={"d": 1},
                           config=StandingsConfig(bye_points=1))
    r = ranks(st)
    # d's bye is worth a win's point; a ties with it on points and is ahead on score
    assert (r["a"], r["d"], r["b"], r["c"]) == (1, 2, 3, 4)
    assert {s.competitor: s.metrics["points"] for s in st} == {"a": 1, "d": 1, "b": 0, "c": 0}


def test_default_precedence_is_points_score_tiebreak_then_further_tie_breaks():
    assert DEFAULT_PRECEDENCE[:3] == ("points", "score", "tiebreak")


def test_vault_is_an_alias_of_the_tiebreak_metric():
    """A tie-break order stored before other games named the tie-break "vault": it still ranks, under one name."""
    results = [match(E("a", 20, 1), E("b", 10, 5))]
    old = compute_standings(results, config=StandingsConfig(precedence=("vault", "points")))
    new = compute_standings(results, config=StandingsConfig(precedence=("tiebreak", "points")))
    assert [(s.competitor, s.metrics) for s in old] == [(s.competitor, s.metrics) for s in new]
    assert [s.competitor for s in old] == ["b", "a"] and set(old[0].metrics) == {"tiebreak", "points"}


def test_k_win_1_a_given_placement_outranks_score_and_tiebreak():
    """K-WIN-1: Diamoniak's first complete castle wins at once; the stored placement says so and is used as given,
    with no showroom check (only Diamonds entries carry one)."""
    finished = Entry("ann", 6, 0, placement=1)
    rich = Entry("bob", 5, 9, placement=2)
    assert table_places([finished, rich]) == [1, 2]
    st = compute_standings([match(finished, rich)])
    assert [s.competitor for s in st] == ["ann", "bob"] and st[1].metrics["tiebreak"] == 9


def test_g_score_1_set_rings_break_a_tie_on_dollars():
    """G-SCORE-1: the ring race's highest total wins, ties broken by the number of set rings; over an event the
    total of set rings separates players equal on points and dollars."""
    results = [
        match(Entry("ann", 9000, 3), Entry("x", 4000, 2)),  # ann wins on dollars
        match(Entry("bob", 9000, 4), Entry("y", 4000, 1)),  # bob too, with one more set ring
    ]
    st = compute_standings(results)
    assert [s.competitor for s in st][:2] == ["bob", "ann"]
    assert (st[0].metrics["points"], st[0].metrics["score"]) == (st[1].metrics["points"], st[1].metrics["score"])
    # at one table, equal dollars are separated by set rings and equal both share the place
    assert table_places([Entry("p", 5000, 2), Entry("q", 5000, 3), Entry("r", 5000, 2)]) == [2, 1, 2]


# ---- partnerships ------------------------------------------------------------------------------------------


def test_partnership_standings_rank_teams():
    team_of = {"ann": "red", "bob": "red", "cy": "blue", "di": "blue", "ed": "green", "fay": "green"}
    results = [
        # per-player entries of a 4-player partnership table merge into one entry per team (R-TEAM-5)
        match(E("ann", 30, 10, seat=0), E("cy", 20, 7, seat=1), E("bob", 30, 10, seat=2), E("di", 20, 7, seat=3)),
        # team entries may also be given directly; a 6-player table has three teams
        match(E("red", 10, 2), E("blue", 25, 8), E("green", 25, 8)),
    ]
    st = compute_standings(results, team_of=team_of)
    assert {s.competitor for s in st} == {"red", "blue", "green"}
    by = {s.competitor: s for s in st}
    # table 1: red 1 point of 1 (two teams: 1-0); table 2: blue and green share first of three: (2 + 1) / 2
    assert by["red"].metrics["points"] == 1
    assert by["blue"].metrics["points"] == Fraction(3, 2) and by["green"].metrics["points"] == Fraction(3, 2)
    # blue and green tie on points; blue's 20 + 25 beats green's 25 on total score
    assert by["blue"].rank == 1 and by["green"].rank == 2 and by["red"].rank == 3
    assert by["red"].games == 2


def test_partners_must_agree_on_their_team_result():
    team_of = {"ann": "red", "bob": "red", "cy": "blue", "di": "blue"}
    with pytest.raises(ValueError):
        compute_standings([match(E("ann", 30, 10), E("bob", 28, 10), E("cy", 1, 0), E("di", 1, 0))], team_of=team_of)


# ---- duplicate ----------------------------------------------------------------------------------------------


def test_duplicate_metric_compares_holders_of_the_same_cards():
    # two tables of 2 play deal "r1-d1"; rotation 1 swaps the hands, so a held what d held
    results = [
        match(E("a", 20, 5, seat=0), E("b", 10, 3, seat=1), deal_id="r1-d1", rotation=0),
        match(E("c", 16, 5, seat=0), E("d", 12, 3, seat=1), deal_id="r1-d1", rotation=1),
    ]
    st = compute_standings(results, config=StandingsConfig(precedence=("duplicate", "points")))
    by = {s.competitor: s for s in st}
    # hand 0: a (20) and d (12): a +8, d -8 ; hand 1: b (10) and c (16): c +6, b -6
    assert by["a"].metrics["duplicate"] == 8 and by["d"].metrics["duplicate"] == -8
    assert by["c"].metrics["duplicate"] == 6 and by["b"].metrics["duplicate"] == -6
    assert [s.competitor for s in st] == ["a", "c", "b", "d"]


def test_duplicate_metric_needs_seats():
    results = [match(E("a", 20, 5), E("b", 10, 3), deal_id="r1-d1")]
    with pytest.raises(ValueError):
        compute_standings(results, config=StandingsConfig(precedence=("duplicate",)))


def test_the_head_to_head_column_is_shown_only_where_a_tie_needed_it():
    """Issue 28: the head_to_head column was empty on every line of a table no tie reached. It is left out then, and
    shown (with its values) once a tie was broken by it."""
    untied = compute_standings([match(E("a", 20, 6), E("x", 10, 3)), match(E("b", 30, 6), E("y", 8, 2))])
    assert "head_to_head" in untied[0].metrics  # computed as part of the precedence...
    assert "head_to_head" not in shown_metrics(untied)  # ...but no column for it
    assert shown_metrics(untied)[:3] == ["points", "score", "tiebreak"]
    tied = compute_standings(head_to_head_results())
    assert "head_to_head" in shown_metrics(tied)
    assert shown_metrics([]) == []
