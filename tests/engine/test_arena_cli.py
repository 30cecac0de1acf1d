"""`python -m engine.arena` for every game of engine.games: seeded tables that add up, refusals as parser errors."""

from __future__ import annotations

import pickle

import pytest

from engine import arena
from engine.arena import DEFAULT_BOTS, Matchup, tally
from engine.games import GAMES, game_type

NEWER_GAMES = [name for name in GAMES if name != "diamonds"]


@pytest.mark.parametrize("game", NEWER_GAMES)
def test_a_seeded_arena_of_a_newer_game_is_reproducible_and_adds_up(game):
    matchup = Matchup(game, game_type(game).make_ruleset(3), "heuristic", "random", seed="arena-test")
    tallies = tally(matchup, games=7)
    assert tally(matchup, games=7) == tallies
    hero, field = tallies["heuristic"], tallies["random"]
    assert (hero.games, field.games) == (7, 14)  # every seat its own competitor: one hero seat, two field seats
    assert hero.wins + field.wins == pytest.approx(7)  # shared wins count as fractions
    assert len(hero.scores) == len(hero.margins) == 7
    assert tally(Matchup(game, matchup.ruleset, "heuristic", "random", seed="other"), games=7) != tallies


@pytest.mark.parametrize("game", NEWER_GAMES)
def test_the_same_bot_in_seat_and_field_is_told_apart_and_margins_cancel_with_two_players(game):
    matchup = Matchup(game, game_type(game).make_ruleset(2), "random", "random", seed="mirror")
    seat, field = tally(matchup, games=6).values()
    assert seat.games == field.games == 6
    assert seat.wins + field.wins == pytest.approx(6)
    assert sum(seat.margins) == -sum(field.margins)


def test_diamonds_with_partnerships_counts_each_team_once_per_game():
    from engine.diamonds.ruleset import Ruleset

    matchup = Matchup("diamonds", Ruleset(4, partnerships=True), "greedy", "random", seed="teams")
    tallies = tally(matchup, games=4)
    assert (tallies["greedy"].games, tallies["random"].games) == (4, 4)
    assert tallies["greedy"].wins + tallies["random"].wins == pytest.approx(4)


def test_every_game_has_default_bots_it_knows():
    assert set(DEFAULT_BOTS) == set(GAMES)
    for name, bots in DEFAULT_BOTS.items():
        assert set(bots) <= set(game_type(name).bots)


def test_a_matchup_can_be_sent_to_worker_processes():
    for game in NEWER_GAMES:
        matchup = Matchup(game, game_type(game).make_ruleset(2), "heuristic", "random")
        assert pickle.loads(pickle.dumps(matchup)) == matchup


@pytest.mark.parametrize("game, players, score_label", [("diamoniak", 2, "castle cards"), ("ringrace", 4, "dollars")])
def test_the_table_names_the_game_and_its_score(game, players, score_label, capsys):
    assert arena.main(["--game", game, "--games", "4", "--players", str(players)]) == 0
    out = capsys.readouterr().out
    assert f"{game_type(game).title}: 4 games, {players} players" in out
    assert f"mean {score_label}" in out
    assert "heuristic" in out and "random" in out  # the game's default bots


def test_diamonds_stays_the_default_game(capsys):
    assert arena.main(["--games", "2", "--players", "3", "--seat", "greedy", "--field", "random"]) == 0
    out = capsys.readouterr().out
    assert "Diamonds: 2 games, 3 players, clubs thief" in out
    assert "mean score" in out


@pytest.mark.parametrize("argv, message", [
    (["--game", "diamoniak", "--seat", "search"], "--seat: Diamoniak has no bot 'search'; its bots: random, heuristic"),
    (["--game", "ringrace", "--field", "greedy"], "has no bot 'greedy'; its bots: random, heuristic"),
    (["--seat", "heuristic"], "--seat: Diamonds has no bot 'heuristic'; its bots: random, greedy, search"),
    (["--game", "diamoniak", "--partnerships"], "--partnerships: Diamonds only, not for Diamoniak"),
    (["--game", "ringrace", "--perfect", "--clubs", "thief"], "--perfect, --clubs: Diamonds only"),
    (["--game", "diamoniak", "--players", "5"], "Diamoniak is for 2-4 players, not 5"),
    (["--game", "ringrace", "--players", "7"], "is for 2-6 players, not 7"),
    (["--game", "ringrace", "--players", "1"], "is for 2-6 players, not 1"),
    (["--players", "3", "--partnerships"], "R-TEAM-1"),  # Diamonds' own ruleset refusal, as a parser error
    (["--game", "chess"], "invalid choice: 'chess'"),
])
def test_options_that_do_not_fit_the_game_are_parser_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exit_info:
        arena.main([*argv, "--games", "1"])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_long_arena_shows_its_progress_even_into_a_pipe(capsys):
    """Not a silent run of minutes: stderr says what runs, then games done and time left at every tenth."""
    assert arena.main(["--game", "ringrace", "--games", "20", "--players", "3"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("20 Ring race games") or err[0].startswith("20 ")
    progress = [line for line in err if " games, " in line and "left" in line]
    assert [line.split("/")[0] for line in progress] == [str(n) for n in range(2, 21, 2)]


def test_on_a_terminal_the_progress_line_is_redrawn_in_place():
    import io

    stream = io.StringIO()
    show = arena.Progress(stream=stream, tty=True)
    for done in range(1, 4):
        show(done, 3)
    text = stream.getvalue()
    assert text.count("\r") == 3 and text.endswith("\n") and "3/3 games" in text
