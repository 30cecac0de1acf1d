"""Tournaments of each game (Tournament.game: Diamonds, Diamoniak, the ring race): what create_tournament and
registration refuse, whole tournaments played by the run_match task in this process (eager), standings ranked by
each game's own result and tie-break (rules of docs/spec/OTHER-GAMES.md), seasons per game, global ratings
per game."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games import game_type
from league.models import League, Match, MatchSeat, MatchStatus, Rating, Season, TournamentStatus
from league.selectors.standings import metric_columns, season_games, season_standings, tournament_standings
from league.services import create_club
from league.services.advancing import start_tournament
from league.services.competition import TournamentError
from league.services.registration import register_players, register_team
from league.services.rounds import seat_round
from league.services.tournament_setup import create_tournament

from .tournament_support import bot_field, store_result

pytestmark = pytest.mark.django_db

NEWER_GAMES = ("diamoniak", "ringrace")


# ---- what is refused ---------------------------------------------------------------------------------------


def test_an_unknown_game_is_refused_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown game 'chess'.*diamonds, diamoniak, ringrace"):
        create_tournament(name="x", rounds=1, game="chess")


def test_k_setup_diamoniak_tables_seat_two_to_four():
    """Diamoniak is for 2 to 4 players (engine.games: max_players 4): a table of 5 is refused, 2 and 4 are not."""
    with pytest.raises(ValueError, match="Diamoniak seats 2 to 4 players at a table, not 5"):
        create_tournament(name="x", rounds=1, game="diamoniak", table_size=5)
    for size in (2, 4):
        assert create_tournament(name=f"ok{size}", rounds=1, game="diamoniak", table_size=size).game == "diamoniak"


def test_g_setup_1_the_ring_race_seats_two_to_six():
    """G-SETUP-1: 2 to 6 players."""
    with pytest.raises(ValueError, match="seats 2 to 6 players at a table, not 7"):
        create_tournament(name="x", rounds=1, game="ringrace", table_size=7)
    assert create_tournament(name="six", rounds=1, game="ringrace", table_size=6).table_size == 6


@pytest.mark.parametrize("game", NEWER_GAMES)
def test_the_duplicate_format_is_for_diamonds_only(game):
    with pytest.raises(ValueError, match="duplicate format deals the same Diamonds hands.*fixed or Swiss"):
        create_tournament(name="x", rounds=1, game=game, format="duplicate")


@pytest.mark.parametrize("game", NEWER_GAMES)
def test_the_ruleset_is_checked_by_the_games_own_ruleset(game):
    # Diamonds' partnerships are no field of the newer games' rulesets
    with pytest.raises(ValueError, match="unknown ruleset fields: \\['partnerships'\\]"):
        create_tournament(name="x", rounds=1, game=game, ruleset={"partnerships": True})


def test_the_games_own_ruleset_fields_are_kept():
    t = create_tournament(name="debts", rounds=1, game="ringrace", table_size=3, ruleset={"debts": True})
    register_players(tournament=t, players=bot_field(3))
    rnd = seat_round(tournament=t)
    match = Match.objects.get(pk=rnd.tables[0]["match"])
    assert match.game == "ringrace" and match.ruleset["debts"] is True and match.ruleset["players"] == 3


@pytest.mark.parametrize("game", NEWER_GAMES)
def test_an_engine_bot_the_game_has_not_is_refused_naming_the_games_bots(game):
    t = create_tournament(name="x", rounds=1, game=game, table_size=2)
    searcher = bot_field(1, prefix="deep", kind="search")
    with pytest.raises(TournamentError, match=r"has no bot for deep-0 \(search\); its bots are heuristic, random"):
        register_players(tournament=t, players=bot_field(1, prefix="ok") + searcher)
    assert not t.entries.exists()  # nothing registered from a refused list


def test_a_diamonds_tournament_refuses_the_newer_games_bots_too():
    t = create_tournament(name="x", rounds=1, table_size=4, ruleset={"partnerships": True})
    with pytest.raises(TournamentError, match=r"Diamonds has no bot for h-0 \(heuristic\); its bots are greedy, "):
        register_team(tournament=t, players=bot_field(1, prefix="h", kind="heuristic") + bot_field(1))


def test_a_stored_tie_break_order_naming_the_vault_still_reads():
    """Tournament.tiebreaks stored before other games said "vault": the standings take it as the tie-break."""
    t = create_tournament(name="old order", rounds=1, table_size=2, tiebreaks=["vault", "points"], rated=False)
    assert t.tiebreaks == ["tiebreak", "points"]  # a new one is stored under the metric's name
    t.tiebreaks = ["vault", "points"]  # as an old row holds it
    t.save(update_fields=["tiebreaks"])
    players = bot_field(2)
    register_players(tournament=t, players=players)
    rnd = seat_round(tournament=t)
    seats = rnd.tables[0]["seats"]
    store_result(Match.objects.get(pk=rnd.tables[0]["match"]), {0: (30, 2), 1: (20, 9)})  # seat 1: more in vault
    rows = tournament_standings(tournament=t)
    assert [row.competitor for row in rows] == [seats[1], seats[0]]  # the vault first, as ordered
    assert list(rows[0].metrics) == ["vault", "points"]  # Diamonds' tie-break column is its vault


# ---- whole tournaments -------------------------------------------------------------------------------------


@pytest.mark.parametrize("game,size,field", [("diamoniak", 4, 9), ("ringrace", 5, 12)])
def test_a_tournament_of_each_newer_game_runs_to_the_end(run_on_commit, game, size, field):
    """A fixed tournament of the game played to the end in this process: every table a match of the game within
    its players, places and winners as the game gives them, standings under the game's labels, global ratings of
    the game."""
    kind = game_type(game)
    players = bot_field(field // 2, prefix="h", kind="heuristic") + bot_field(field - field // 2, prefix="r")
    t = create_tournament(name=f"{game} cup", rounds=2, game=game, table_size=size, seed=f"{game}-cup")
    register_players(tournament=t, players=players)
    run_on_commit(start_tournament, tournament=t)

    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    matches = Match.objects.filter(tournament_round__tournament=t)
    assert {m.game for m in matches} == {game} and {m.status for m in matches} == {MatchStatus.FINISHED}
    assert all(kind.min_players <= len(m.seats) <= kind.max_players for m in matches)
    assert Counter(MatchSeat.objects.filter(match__in=matches).values_list("player", flat=True)) == {
        p.pk: 2 for p in players}
    for m in matches:
        seats = list(m.match_seats.order_by("seat"))
        assert all(s.score is not None and s.tiebreak is not None and s.showroom is None for s in seats)
        assert {s.seat for s in seats if s.is_winner} == {s.seat for s in seats if s.placement == 1} != set()

    rows = tournament_standings(tournament=t)
    assert len(rows) == field and all(row.games == 2 for row in rows)
    columns = metric_columns(game)
    assert list(rows[0].metrics)[:3] == ["points", columns["score"], columns["tiebreak"]]
    assert (columns["score"], columns["tiebreak"]) == (kind.score_label, kind.tiebreak_label)
    seat_scores = MatchSeat.objects.filter(match__in=matches)
    assert sum(row.metrics[kind.tiebreak_label] for row in rows) == sum(s.tiebreak for s in seat_scores)
    assert sum(row.metrics[kind.score_label] for row in rows) == sum(s.score for s in seat_scores)

    rated = Rating.objects.filter(ladder=None)
    assert set(rated.values_list("game", flat=True)) == {game} and rated.count() == field


def test_a_swiss_diamoniak_tournament_with_an_odd_field_never_seats_five(run_on_commit):
    """Diamoniak's most is 4: a field that does not divide into fours gets smaller tables (or a bye), never one
    larger, as a Diamonds field would."""
    players = bot_field(5, prefix="h", kind="heuristic")
    t = create_tournament(name="swiss", rounds=2, game="diamoniak", table_size=4, format="swiss", seed="odd",
                          rated=False)
    register_players(tournament=t, players=players)
    run_on_commit(start_tournament, tournament=t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    sizes = [len(table["seats"]) for rnd in t.tournament_rounds.all() for table in rnd.tables]
    assert sizes and max(sizes) <= 4


# ---- standings: each game's result and tie-break -----------------------------------------------------------


def _one_round_of_pairs(game: str, count: int):
    players = bot_field(count, kind="random")
    t = create_tournament(name=f"{game} ties", rounds=1, game=game, table_size=2, seed="ties", rated=False)
    register_players(tournament=t, players=players)
    rnd = seat_round(tournament=t)
    tables = sorted(rnd.tables, key=lambda tb: tb["number"])
    return t, [(Match.objects.get(pk=tb["match"]), tb["seats"]) for tb in tables]


def test_k_win_1_the_first_complete_castle_wins_and_diamond_cards_break_ties():
    """K-WIN-1: the first player with 6 castle cards wins at once, whatever the others hold: the stored placement
    (the game's own) ranks, not the diamond cards. Over the event, players equal on points and castle cards are
    separated by their diamond cards (the K-WIN-1 Decision's order after 200 turns)."""
    t, tables = _one_round_of_pairs("diamoniak", 6)
    (m1, s1), (m2, s2), (m3, s3) = tables
    store_result(m1, {0: (6, 0), 1: (5, 14)}, placements={0: 1, 1: 2})  # castle first, however poor
    store_result(m2, {0: (6, 3), 1: (4, 2)}, placements={0: 1, 1: 2})  # castle first, 3 diamond cards
    store_result(m3, {0: (3, 1), 1: (3, 1)}, placements={0: 1, 1: 1})  # cut short by turns: equal, shared
    rows = {row.competitor: row for row in tournament_standings(tournament=t)}

    def rank(pid):
        return rows[pid].rank, rows[pid].shared

    # both castle finishers have 1 point and 6 castle cards: 3 diamond cards beat 0
    assert rank(s2[0]) == (1, False) and rank(s1[0]) == (2, False)
    assert rows[s1[1]].metrics["diamond cards"] == 14 and rows[s1[1]].metrics["points"] == 0  # rich, but second
    assert rank(s3[0]) == rank(s3[1]) == (3, True)  # half a point each
    assert rank(s1[1]) == (5, False) and rank(s2[1]) == (6, False)  # 0 points: castle 5 before castle 4


def test_g_score_1_dollars_then_set_rings_rank_the_ring_race():
    """G-SCORE-1: the highest total of set rings' values wins; ties are broken by the number of set rings, then
    shared. At a table and over the event."""
    t, tables = _one_round_of_pairs("ringrace", 6)
    (m1, s1), (m2, s2), (m3, s3) = tables
    store_result(m1, {0: (12000, 3), 1: (12000, 4)})  # equal dollars at the table: 4 set rings win it
    store_result(m2, {0: (12000, 5), 1: (7000, 2)})
    store_result(m3, {0: (9000, 3), 1: (9000, 3)})  # equal on both: shared
    places = {s.player_id: s.placement for s in MatchSeat.objects.filter(match=m1)}
    assert places == {s1[1]: 1, s1[0]: 2}
    rows = {row.competitor: row for row in tournament_standings(tournament=t)}
    # s1[1] and s2[0]: 1 point and 12,000 dollars each; 5 set rings beat 4
    assert (rows[s2[0]].rank, rows[s1[1]].rank) == (1, 2)
    assert rows[s2[0]].metrics["dollars"] == rows[s1[1]].metrics["dollars"] == 12000
    assert (rows[s2[0]].metrics["set rings"], rows[s1[1]].metrics["set rings"]) == (5, 4)
    assert rows[s3[0]].rank == rows[s3[1]].rank == 3 and rows[s3[0]].shared


def test_r_win_1_the_vault_breaks_a_diamonds_tie_and_is_its_column():
    """R-WIN-1: equal scores are separated by the vault; the Diamonds standings' column is "vault"."""
    t, tables = _one_round_of_pairs("diamonds", 4)
    (m1, s1), (m2, s2) = tables
    store_result(m1, {0: (30, 8), 1: (20, 5)})
    store_result(m2, {0: (30, 11), 1: (20, 5)})
    rows = tournament_standings(tournament=t)
    assert [row.competitor for row in rows[:2]] == [s2[0], s1[0]]
    assert list(rows[0].metrics)[:3] == ["points", "score", "vault"] and rows[0].metrics["vault"] == 11


# ---- seasons -----------------------------------------------------------------------------------------------


def test_a_season_of_two_games_is_ranked_one_game_at_a_time(run_on_commit):
    club = create_club(name="club")
    season = Season.objects.create(league=League.objects.create(club=club, name="league"), name="2026")
    diamonds_field = bot_field(4, prefix="d")
    ring_field = bot_field(2, prefix="g") + diamonds_field[:2]  # two players play both games
    for game, field in (("ringrace", ring_field), ("diamonds", diamonds_field)):
        t = create_tournament(name=f"{game} leg", rounds=1, game=game, table_size=2, season=season, seed=game)
        register_players(tournament=t, players=field)
        run_on_commit(start_tournament, tournament=t)
    assert season_games(season) == ["diamonds", "ringrace"]

    ring = season_standings(season=season, game="ringrace")
    assert {row.competitor for row in ring} == {p.pk for p in ring_field} and all(row.games == 1 for row in ring)
    assert "dollars" in ring[0].metrics and "set rings" in ring[0].metrics
    diamonds = season_standings(season=season)  # the first game of the season's, Diamonds
    assert {row.competitor for row in diamonds} == {p.pk for p in diamonds_field}
    assert all(row.games == 1 for row in diamonds) and "vault" in diamonds[0].metrics
    with pytest.raises(ValueError, match="unknown game"):
        season_standings(season=season, game="chess")


# ---- ratings -----------------------------------------------------------------------------------------------


def test_global_ratings_are_kept_per_game(run_on_commit):
    """A rated tournament updates its players' global rating of its game only: one Rating row per player and game."""
    players = bot_field(4)
    for game in ("diamonds", "ringrace"):
        t = create_tournament(name=f"{game} rated", rounds=1, game=game, table_size=2, seed=game)
        register_players(tournament=t, players=players)
        run_on_commit(start_tournament, tournament=t)
    rows = Rating.objects.filter(ladder=None)
    assert Counter(rows.values_list("game", flat=True)) == {"diamonds": 4, "ringrace": 4}
    assert all(r.matches == 1 for r in rows)


def test_the_standings_csv_header_names_the_games_score_and_tie_break(run_on_commit, client):
    """The API's CSV of a ring race's standings: one column per metric, G-SCORE-1's dollars and set rings by name."""
    t = create_tournament(name="csv", rounds=1, game="ringrace", table_size=2, seed="csv", rated=False)
    register_players(tournament=t, players=bot_field(4))
    run_on_commit(start_tournament, tournament=t)
    response = client.get(f"/api/v1/tournaments/{t.pk}/standings/?format=csv")
    assert response.status_code == 200
    header = response.content.decode().splitlines()[0].split(",")
    assert header[:8] == ["rank", "shared", "name", "players", "games", "points", "dollars", "set rings"]
