"""The final stage: the cut by qualifying standings, seating by rank, the stages, and the final ranking."""

from __future__ import annotations

import pytest

from league.finals import StageTable, cut_order, final_decides_ranking, plan_stages, seat_by_rank
from league.models import Match, MatchSeat, TournamentRound
from league.selectors.ranking import tournament_ranking
from league.services.advancing import advance_tournament
from league.services.competition import TournamentError
from league.services.registration import register_players, register_team, withdraw_player
from league.services.rounds import seat_round
from league.services.tournament_setup import create_tournament, update_tournament

from .test_club_evening import finish_round
from .tournament_support import bot_field

pytestmark = pytest.mark.django_db


# ---- the pure rules (league.finals) ----------------------------------------------------------------------

def test_stages_plan_tables_of_the_size_or_one_smaller_down_to_one_final_table():
    assert plan_stages(4, 1, 1, 4, min_players=2, max_players=6) == [[4]]
    assert plan_stages(8, 2, 2, 4, min_players=2, max_players=6) == [[4, 4], [4]]
    assert plan_stages(12, 3, 2, 4, min_players=2, max_players=6) == [[4, 4, 4], [3, 3], [4]]
    with pytest.raises(ValueError, match="one table"):
        plan_stages(8, 1, 1, 4, min_players=2, max_players=6)
    with pytest.raises(ValueError, match="go on"):
        plan_stages(8, 2, 4, 4, min_players=2, max_players=6)
    with pytest.raises(ValueError, match="already one table"):
        plan_stages(4, 2, 2, 4, min_players=2, max_players=6)


def test_seating_by_rank_is_snake_order_with_the_best_in_the_first_seat():
    assert seat_by_rank([1, 2, 3, 4, 5, 6, 7, 8], [4, 4]) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    tables = seat_by_rank(list(range(1, 8)), [4, 3])
    assert [len(t) for t in tables] == [4, 3] and all(t == sorted(t) for t in tables)


def test_a_tie_for_the_last_final_place_is_drawn_from_the_seed_the_same_way_every_time():
    standings = [("a", 1), ("b", 2), ("c", 2), ("d", 4)]
    first = cut_order(standings, "seed-1")
    assert first[0] == "a" and first[3] == "d" and set(first[1:3]) == {"b", "c"}
    assert cut_order(list(reversed(standings)), "seed-1") == first  # not the order it was given in
    draws = {tuple(cut_order(standings, f"seed-{i}")) for i in range(20)}
    assert len(draws) == 2  # both orders of the tied pair happen, depending on the seed


def test_the_final_decides_places_one_to_n_and_the_rest_keep_qualifying_order():
    qualifying = ["q1", "q2", "q3", "q4", "q5", "q6"]
    final = StageTable(stage=1, places={"q1": 3, "q2": 1, "q3": 2, "q4": 3})
    ranked = final_decides_ranking(qualifying, [final])
    assert [(r.rank, r.competitor, r.shared) for r in ranked] == [
        (1, "q2", False), (2, "q3", False), (3, "q1", True), (3, "q4", True), (5, "q5", False), (6, "q6", False)]


def test_with_two_stages_those_out_after_the_first_follow_the_final_table():
    qualifying = [f"q{i}" for i in range(1, 9)]
    stage1 = [StageTable(1, {"q1": 1, "q4": 2, "q5": 3, "q8": 4}), StageTable(1, {"q2": 3, "q3": 4, "q6": 1, "q7": 2})]
    final = StageTable(2, {"q1": 4, "q4": 3, "q6": 2, "q7": 1})
    ranked = [r.competitor for r in final_decides_ranking(qualifying, [*stage1, final])]
    assert ranked == ["q7", "q6", "q4", "q1", "q2", "q5", "q3", "q8"]


# ---- through the services ---------------------------------------------------------------------------------

def qualify(n=6, **settings):
    """A tournament of `n` after 2 qualifying rounds where lower player ids score more (so the standings follow ids)."""
    settings = {"name": "night", "rounds": 2, "table_size": 3, "auto_advance": False, "seed": "night",
                "final_size": 3, **settings}
    t = create_tournament(**settings)
    players = bot_field(n, prefix="fin")
    register_players(tournament=t, players=players)
    for _ in range(2):
        rnd = advance_tournament(tournament=t)
        finish_round(rnd, score=lambda pid: 1000 - pid)
    return t, players


def final_seats(rnd: TournamentRound) -> list[list[int]]:
    return [list(MatchSeat.objects.filter(match_id=t["match"]).order_by("seat").values_list("player_id", flat=True))
            for t in rnd.tables]


def test_the_top_n_go_on_to_a_final_table_seated_by_rank_and_it_decides_the_places(run_on_commit):
    t, players = qualify(6)
    qualifying = [r.competitor for r in tournament_ranking(tournament=t).qualifying]
    assert tournament_ranking(tournament=t).provisional
    final = advance_tournament(tournament=t)
    assert final.stage == 1 and final.index == 3
    assert final_seats(final) == [qualifying[:3]]  # rank 1 in the first seat
    assert Match.objects.get(pk=final.tables[0]["match"]).first_dealer == 0  # ... who deals first
    with pytest.raises(TournamentError):
        seat_round(tournament=t)  # no qualifying round after the final began
    finish_round(final, score=lambda pid: pid)  # the final turns the qualifying order round
    t.refresh_from_db()
    assert t.status == "finished"
    ranking = tournament_ranking(tournament=t)
    assert not ranking.provisional
    assert [r.competitor for r in ranking.rows] == [*reversed(qualifying[:3]), *qualifying[3:]]
    assert [r.rank for r in ranking.rows] == [1, 2, 3, 4, 5, 6]
    assert [r.stage for r in ranking.rows] == [1, 1, 1, 0, 0, 0]
    # The qualifying standings themselves leave the final out.
    assert [r.competitor for r in ranking.qualifying] == qualifying


def test_final_results_added_to_the_standings():
    t, players = qualify(6, final_ranking="added")
    final = advance_tournament(tournament=t)
    finish_round(final, score=lambda pid: pid)
    ranking = tournament_ranking(tournament=t)
    qualifying = {r.competitor: r for r in ranking.qualifying}
    # finalists earned the final's match points on top of their qualifying points (2-1-0 at a table of 3)
    for row in ranking.rows:
        extra = row.metrics["points"] - qualifying[row.competitor].metrics["points"]
        assert extra == ({1: 0, 2: 1, 3: 2}.get(qualifying[row.competitor].rank, 0)
                         if row.stage else 0)


def test_a_two_stage_final_sends_the_best_of_each_table_on():
    t, players = qualify(8, table_size=4, final_size=8, final_stages=2, final_advance=2)
    qualifying = [r.competitor for r in tournament_ranking(tournament=t).qualifying]
    stage1 = advance_tournament(tournament=t)
    q = qualifying
    assert final_seats(stage1) == [[q[0], q[3], q[4], q[7]], [q[1], q[2], q[5], q[6]]]
    position = {pid: i for i, pid in enumerate(q)}
    finish_round(stage1, score=lambda pid: position[pid])  # the lower seeds win each table
    stage2 = advance_tournament(tournament=t)
    assert stage2.stage == 2
    # Table 1's best two: q[7] (1st), q[4] (2nd); table 2's: q[6], q[5]. Seated by stage place, then qualifying rank.
    assert final_seats(stage2) == [[q[6], q[7], q[4], q[5]]]
    finish_round(stage2, score=lambda pid: 1000 - position[pid])
    rows = tournament_ranking(tournament=t).rows
    assert [r.competitor for r in rows[:4]] == [q[4], q[5], q[6], q[7]]
    assert [r.competitor for r in rows[4:]] == [q[2], q[3], q[0], q[1]]  # out in stage 1: by place, then rank
    assert [r.rank for r in rows] == list(range(1, 9))


def test_a_finalist_who_drops_between_stages_is_replaced_by_the_next_at_their_table():
    t, players = qualify(8, table_size=4, final_size=8, final_stages=2, final_advance=2)
    q = [r.competitor for r in tournament_ranking(tournament=t).qualifying]
    stage1 = advance_tournament(tournament=t)
    position = {pid: i for i, pid in enumerate(q)}
    finish_round(stage1, score=lambda pid: 1000 - position[pid])  # the seeds win: q0, q3 | q1, q2 go on
    withdraw_player(tournament=t, player=next(p for p in players if p.pk == q[0]))
    stage2 = advance_tournament(tournament=t)
    assert sorted(final_seats(stage2)[0]) == sorted([q[3], q[4], q[1], q[2]])  # q4 was third at q0's table


def test_a_dropped_qualifier_is_passed_over_for_the_next_by_rank():
    t, players = qualify(6)
    qualifying = [r.competitor for r in tournament_ranking(tournament=t).qualifying]
    dropped = next(p for p in players if p.pk == qualifying[0])
    withdraw_player(tournament=t, player=dropped)
    final = advance_tournament(tournament=t)
    assert final_seats(final) == [qualifying[1:4]]


def test_auto_advance_plays_into_the_final(run_on_commit):
    t = create_tournament(name="auto", rounds=1, table_size=2, seed="auto", final_size=2)
    register_players(tournament=t, players=bot_field(4, prefix="auto"))
    run_on_commit(advance_tournament, tournament=t)
    t.refresh_from_db()
    assert t.status == "finished"
    assert list(t.tournament_rounds.order_by("index").values_list("stage", flat=True)) == [0, 1]


def test_final_settings_are_checked():
    with pytest.raises(ValueError, match="one table"):
        create_tournament(name="x", rounds=1, table_size=4, final_size=9)
    with pytest.raises(ValueError, match="partnership"):
        create_tournament(name="x", rounds=1, table_size=4, ruleset={"partnerships": True}, final_size=4)
    with pytest.raises(ValueError, match="final_ranking"):
        create_tournament(name="x", rounds=1, table_size=4, final_size=4, final_ranking="best")
    t, _ = qualify(6)
    update_tournament(tournament=t, final_size=2)  # still open: the final has not begun
    advance_tournament(tournament=t)
    with pytest.raises(TournamentError):
        update_tournament(tournament=t, final_size=3)


def test_a_tournament_without_a_final_ranks_by_its_standings():
    t, _ = qualify(4, final_size=0)
    t.refresh_from_db()
    ranking = tournament_ranking(tournament=t)
    assert not ranking.final and not ranking.provisional
    assert [r.competitor for r in ranking.rows] == [r.competitor for r in ranking.qualifying]


def test_register_team_stays_refused_for_finals():
    t = create_tournament(name="pairs", rounds=1, table_size=4, ruleset={"partnerships": True})
    register_team(tournament=t, players=bot_field(2, prefix="pair"))
    with pytest.raises(ValueError, match="partnership"):
        update_tournament(tournament=t, final_size=4)
