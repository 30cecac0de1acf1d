"""Issue 28: a club league's seasons split into divisions, with promotion and relegation between seasons. Each
division is ranked on its own (the season's standings, vault tie-break and all); closing a season moves the top N of
each division up and the bottom N down, ties at a zone's edge settled by the standings' order; the next season's
divisions are put together from those moves (or by rating, or by hand). One division is the season as it was."""

from __future__ import annotations

import pytest
from django.db import IntegrityError

from league.divisions import DOWN, STAYS, UP, live_zones, movements, regrouped, reshuffled, split, zone_problems
from league.models import (
    Division,
    DivisionMember,
    Match,
    MatchSeat,
    Movement,
    Rating,
    Season,
    Tournament,
    TournamentStatus,
)
from league.selectors.divisions import current_season, moves_of, season_divisions
from league.selectors.standings import season_division_standings, season_standings
from league.services import create_bot_player, create_club, create_tournament, register_players, seat_round
from league.services.divisions import (
    DivisionError,
    Placing,
    close_season,
    place_players,
    rename_divisions,
    reopen_season,
    set_divisions,
)
from league.services.leagues import create_league, create_season, update_league
from league.services.roster import RosterError, add_guests, merge_guests
from league.standings import Entry, MatchResult, compute_standings

from .tournament_support import store_result

pytestmark = pytest.mark.django_db


# ---- the pure rules ------------------------------------------------------------------------------------------------

def test_zones_are_the_top_and_bottom_n_and_none_above_the_top_or_below_the_bottom():
    order = ["a", "b", "c", "d", "e"]
    assert movements(order, 0, 3, 2, 1) == {"a": STAYS, "b": STAYS, "c": STAYS, "d": STAYS, "e": DOWN}
    assert movements(order, 1, 3, 2, 1) == {"a": UP, "b": UP, "c": STAYS, "d": STAYS, "e": DOWN}
    assert movements(order, 2, 3, 2, 1) == {"a": UP, "b": UP, "c": STAYS, "d": STAYS, "e": STAYS}
    assert movements(order, 0, 1, 2, 2) == dict.fromkeys(order, STAYS)  # one division: nobody moves
    with pytest.raises(ValueError):
        movements(["a", "b", "c"], 1, 3, 2, 2)  # a middle division of 3 cannot send 2 up and 2 down
    assert live_zones(["a", "b", "c"], 1, 3, 2, 2) == {"a": UP, "b": UP, "c": DOWN}  # shown, never refused


def test_zone_problems_name_the_division_that_is_too_small():
    assert zone_problems([4, 4, 4], 2, 2) == []
    problems = zone_problems([4, 3, 4], 2, 2)
    assert [(p.index, p.size, p.up, p.down) for p in problems] == [(1, 3, 2, 2)]
    assert zone_problems([4, 0, 4], 2, 2, skip_empty=True) == []
    assert zone_problems([1, 1], 1, 1) == []  # the top sends one down, the bottom one up


def test_reshuffle_moves_players_one_division_and_split_fills_the_top_first():
    old = [[("a", STAYS), ("b", DOWN)], [("c", UP), ("d", STAYS), ("e", DOWN)], [("f", UP), ("g", STAYS)]]
    assert reshuffled(old) == [["a", "c"], ["b", "d", "f"], ["e", "g"]]
    assert split(list("abcdefghij"), 3) == [list("abcd"), list("efg"), list("hij")]
    assert regrouped([["a", "c"], ["b", "d", "f"]], 2) == [["a", "c"], ["b", "d", "f"]]
    assert regrouped([["a", "c"], ["b", "d", "f"]], 1) == [["a", "c", "b", "d", "f"]]


def test_ranking_among_a_division_counts_every_match_but_ranks_only_its_players():
    results = [MatchResult([Entry("a", 10, 2), Entry("x", 8, 1)]), MatchResult([Entry("b", 12, 3), Entry("a", 6, 1)]),
               MatchResult([Entry("x", 20, 5), Entry("b", 4, 1)])]
    division = compute_standings(results, among=["a", "b"])
    assert [s.competitor for s in division] == ["b", "a"]  # 1 point each; b's score is higher
    assert [s.rank for s in division] == [1, 2] and all(s.games == 2 for s in division)
    assert compute_standings(results, among=["a", "q"])[-1].competitor == "q"  # not played: ranked with nothing


# ---- a club league -------------------------------------------------------------------------------------------------

@pytest.fixture
def club_league():
    club = create_club(name="Diamond Club")
    players = [create_bot_player(name=f"p{i}", kind="random", clubs=[club]) for i in range(12)]
    league = create_league(club=club, name="Thursday league", division_count=3, promoted=1, relegated=1)
    return club, league, players


def _table(season: Season, players, results: list[tuple[int, int]], name: str | None = None) -> Tournament:
    """A one-table tournament of the season, finished with {player: (score, vault)} as given, player by player."""
    number = Tournament.objects.count()
    t = create_tournament(name=name or f"table {number}", rounds=1, table_size=len(players), club=season.league.club,
                          season=season, seed=f"t{number}", rated=False)
    register_players(tournament=t, players=players)
    rnd = seat_round(tournament=t)
    match = Match.objects.get(tournament_round=rnd)
    by_player = {p.pk: r for p, r in zip(players, results)}
    store_result(match, {s.seat: by_player[s.player_id] for s in MatchSeat.objects.filter(match=match)})
    Tournament.objects.filter(pk=t.pk).update(status=TournamentStatus.FINISHED)
    return t


def _names(season: Season) -> list[list[str]]:
    return [[m.player.name for m in d.members.select_related("player").order_by("id")]
            for d in Division.objects.filter(season=season).order_by("number")]


def test_a_season_starts_with_the_leagues_divisions_and_players_placed_by_rating(club_league):
    club, league, players = club_league
    for i, p in enumerate(players):
        if i % 4:  # every fourth has no rating: after the rated, by name
            Rating.objects.create(player=p, game="diamonds", mu=25 + i, sigma=1, ordinal=22 + i)
    season = create_season(league=league, name="Spring", placing=Placing.RATING)
    assert [d.name for d in season.divisions.order_by("number")] == ["Division 1", "Division 2", "Division 3"]
    assert (season.promoted, season.relegated) == (1, 1)
    assert _names(season) == [["p11", "p10", "p9", "p7"], ["p6", "p5", "p3", "p2"], ["p1", "p0", "p4", "p8"]]


def test_one_division_is_the_season_as_before(club_league):
    club, league, players = club_league
    update_league(league=league, division_count=1)
    season = create_season(league=league, name="Spring", placing=Placing.RATING)
    assert not Division.objects.filter(season=season).exists()
    _table(season, players[:4], [(20, 5), (14, 4), (10, 3), (4, 1)])
    assert not season_divisions(season).divided
    before = [r.competitor for r in season_standings(season=season)]
    assert before == [p.pk for p in players[:4]]
    close_season(season=season)  # nothing moves
    assert not DivisionMember.objects.exists() and moves_of(Season.objects.get(pk=season.pk)) == []


def test_closing_promotes_and_relegates_by_each_divisions_standings(club_league):
    club, league, players = club_league
    season = create_season(league=league, name="Spring", division_count=2, promoted=1, relegated=2)
    top, bottom = players[:4], players[4:8]
    place_players(season=season, placing={**{p.pk: 1 for p in top}, **{p.pk: 2 for p in bottom}})
    _table(season, top, [(4, 1), (20, 5), (10, 3), (14, 4)])  # order: p1, p3, p2, p0
    _table(season, bottom, [(30, 10), (8, 2), (12, 4), (6, 2)])  # order: p4, p6, p5, p7
    view = season_divisions(season)
    assert [[r.name for r in t.rows] for t in view.tables] == [["p1", "p3", "p2", "p0"], ["p4", "p6", "p5", "p7"]]
    assert view.tables[0].zones == {players[2].pk: "down", players[0].pk: "down"}  # live: the bottom 2
    assert view.tables[1].zones == {players[4].pk: "up"}
    close_season(season=season)
    season.refresh_from_db()
    moved = {m.player.name: (m.movement, m.final_rank) for m in DivisionMember.objects.select_related("player")}
    assert moved == {"p1": ("stays", 1), "p3": ("stays", 2), "p2": ("down", 3), "p0": ("down", 4),
                     "p4": ("up", 1), "p6": ("stays", 2), "p5": ("stays", 3), "p7": ("stays", 4)}
    [boundary] = moves_of(season)
    assert [p.name for p in boundary.up] == ["p4"] and [p.name for p in boundary.down] == ["p2", "p0"]
    # A result corrected after closing changes the table, never what was decided.
    _table(season, [players[0], players[1]], [(99, 40), (0, 0)])
    assert season_divisions(season).tables[0].zones == {players[2].pk: "down", players[0].pk: "down"}

    nxt = create_season(league=league, name="Autumn", division_count=2, promoted=1, relegated=1,
                        placing=Placing.PREVIOUS)
    assert _names(nxt) == [["p1", "p3", "p4"], ["p2", "p0", "p6", "p5", "p7"]]


def test_ties_at_the_edge_are_settled_by_the_standings_order(club_league):
    club, league, players = club_league
    season = create_season(league=league, name="Spring", division_count=2, promoted=1, relegated=1)
    a, b, c, d = players[4:8]
    place_players(season=season, placing={**{p.pk: 1 for p in players[:2]}, a.pk: 2, b.pk: 2, c.pk: 2, d.pk: 2})
    _table(season, players[:2], [(10, 3), (4, 1)])
    # a and c win their tables with the same score (1 point, 10 each): c's vault (5) beats a's (4).
    _table(season, [a, b], [(10, 4), (2, 1)])
    _table(season, [c, d], [(10, 5), (2, 1)])
    rows = season_division_standings(season=season, divisions=[[players[0].pk, players[1].pk],
                                                                [a.pk, b.pk, c.pk, d.pk]])[1]
    assert [r.competitor for r in rows[:2]] == [c.pk, a.pk] and rows[0].rank == 1 and rows[1].rank == 2
    close_season(season=season)
    assert DivisionMember.objects.get(player=c).movement == Movement.UP
    assert DivisionMember.objects.get(player=a).movement == Movement.STAYS


def test_a_tie_on_every_tiebreak_is_settled_by_the_standings_listed_order(club_league):
    club, league, players = club_league
    season = create_season(league=league, name="Spring", division_count=2, promoted=1, relegated=1)
    a, b, c, d = players[4:8]
    place_players(season=season, placing={**{p.pk: 1 for p in players[:2]}, a.pk: 2, b.pk: 2, c.pk: 2, d.pk: 2})
    _table(season, players[:2], [(10, 3), (4, 1)])
    _table(season, [a, b], [(10, 4), (2, 1)])
    _table(season, [c, d], [(10, 4), (2, 1)])  # a and c: the same in everything
    rows = season_divisions(season).tables[1].rows
    assert rows[0].shared and rows[1].shared and {rows[0].competitor, rows[1].competitor} == {a.pk, c.pk}
    close_season(season=season)
    assert DivisionMember.objects.get(player_id=rows[0].competitor).movement == Movement.UP
    assert DivisionMember.objects.get(player_id=rows[1].competitor).movement == Movement.STAYS


def test_zones_too_large_for_the_divisions_are_refused(club_league):
    club, league, players = club_league
    season = create_season(league=league, name="Spring", division_count=3, promoted=1, relegated=1,
                           placing=Placing.RATING)  # 4 + 4 + 4
    with pytest.raises(DivisionError, match="Division 2 has 4 players: 3 going up and 2 going down"):
        set_divisions(season=season, count=3, promoted=3, relegated=2)
    season.refresh_from_db()
    assert (season.promoted, season.relegated) == (1, 1)  # unchanged
    set_divisions(season=season, count=3, promoted=2, relegated=2)
    # Moving players out is allowed (the page says what does not fit) but the season does not close so.
    place_players(season=season, placing={pid: None for pid in
                                          DivisionMember.objects.filter(division__number=2)
                                          .values_list("player_id", flat=True)[:1]})
    with pytest.raises(DivisionError, match="Division 2 has 3 players"):
        close_season(season=season)
    assert Season.objects.get(pk=season.pk).closed_at is None
    assert not DivisionMember.objects.exclude(movement="").exists()
    with pytest.raises(DivisionError):
        set_divisions(season=season, count=0, promoted=1, relegated=1)
    with pytest.raises(DivisionError):
        set_divisions(season=season, count=3, promoted=-1, relegated=1)


def test_divisions_change_in_number_only_when_those_removed_are_empty(club_league):
    club, league, players = club_league
    season = create_season(league=league, name="Spring", placing=Placing.RATING)
    with pytest.raises(DivisionError, match="Division 3 still has players"):
        set_divisions(season=season, count=2, promoted=1, relegated=1)
    place_players(season=season, placing={m.player_id: 2 for m in DivisionMember.objects.filter(division__number=3)})
    set_divisions(season=season, count=2, promoted=1, relegated=1)
    assert Division.objects.filter(season=season).count() == 2
    set_divisions(season=season, count=4, promoted=1, relegated=1)
    assert [d.name for d in season.divisions.order_by("number")][2:] == ["Division 3", "Division 4"]
    rename_divisions(season=season, names={1: "Premier", 2: "Division 1"})  # may take a name another gives up
    assert [d.name for d in season.divisions.order_by("number")][:2] == ["Premier", "Division 1"]
    with pytest.raises(DivisionError, match="same name"):
        rename_divisions(season=season, names={3: "Premier"})
    with pytest.raises(DivisionError):
        rename_divisions(season=season, names={9: "Nine"})


def test_only_the_clubs_members_are_placed_and_a_player_in_one_division_at_a_time(club_league):
    club, league, players = club_league
    outsider = create_bot_player(name="outsider", kind="random")
    season = create_season(league=league, name="Spring", division_count=2)
    with pytest.raises(DivisionError, match="outsider"):
        place_players(season=season, placing={players[0].pk: 1, outsider.pk: 1})
    assert not DivisionMember.objects.exists()  # nothing placed
    with pytest.raises(DivisionError):
        place_players(season=season, placing={players[0].pk: 3})
    place_players(season=season, placing={players[0].pk: 1})
    assert place_players(season=season, placing={players[0].pk: 2}) == 1
    assert DivisionMember.objects.get(player=players[0]).division.number == 2
    with pytest.raises(IntegrityError):
        DivisionMember.objects.create(season=season, division=season.divisions.get(number=1), player=players[0])


def test_a_closed_season_changes_no_more_until_reopened(club_league):
    club, league, players = club_league
    season = create_season(league=league, name="Spring", division_count=2, promoted=1, relegated=1,
                           placing=Placing.RATING)
    running = _table(season, players[:2], [(10, 3), (4, 1)])
    Tournament.objects.filter(pk=running.pk).update(status=TournamentStatus.RUNNING)
    with pytest.raises(DivisionError, match="still running"):
        close_season(season=season)
    Tournament.objects.filter(pk=running.pk).update(status=TournamentStatus.FINISHED)
    close_season(season=season)
    with pytest.raises(DivisionError, match="closed"):
        place_players(season=season, placing={players[0].pk: 2})
    with pytest.raises(DivisionError, match="closed"):
        set_divisions(season=season, count=2, promoted=2, relegated=2)
    with pytest.raises(DivisionError, match="closed already"):
        close_season(season=season)
    reopen_season(season=season)
    assert not DivisionMember.objects.exclude(movement="").exists()
    place_players(season=season, placing={players[0].pk: 2})


def test_the_next_season_from_an_open_or_undivided_season_follows_its_standings(club_league):
    club, league, players = club_league
    update_league(league=league, division_count=1)
    first = create_season(league=league, name="Spring")
    _table(first, players[:4], [(4, 1), (20, 5), (10, 3), (14, 4)])  # p1, p3, p2, p0
    second = create_season(league=league, name="Autumn", division_count=2, placing=Placing.PREVIOUS)
    assert _names(second) == [["p1", "p3"], ["p2", "p0"]]
    assert current_season(league) == second
    with pytest.raises(DivisionError, match="no season before"):
        create_season(league=create_league(club=club, name="New league"), name="One", division_count=2,
                      placing=Placing.PREVIOUS)
    assert not Season.objects.filter(name="One").exists()  # refused: nothing created


def test_merging_two_guests_moves_a_division_place_and_refuses_two_in_one_season(club_league):
    club, league, players = club_league
    ann, ann2, bob = add_guests(club=club, names=["Ann", "Ann B", "Bob"])
    season = create_season(league=league, name="Spring", division_count=2)
    place_players(season=season, placing={ann2.pk: 2, bob.pk: 1})
    merge_guests(club=club, source=ann2, target=ann)
    assert DivisionMember.objects.get(division__number=2).player_id == ann.pk
    with pytest.raises(RosterError, match="same season"):
        merge_guests(club=club, source=bob, target=ann)
