"""The engine's benchmark entry point runs every game of engine.games (its figures are printed, never asserted)."""

import pytest

from engine import bench


def test_bench_measures_each_game_and_skips_player_counts_outside_its_range(capsys):
    for game in ("diamonds", "diamoniak", "ringrace"):
        assert bench.main(["--seconds", "0.05", "--players", "2,6", "--no-search", "--game", game]) == 0
    out = capsys.readouterr().out
    assert "random bots, 2 players" in out
    assert "Diamoniak is for 2-4 players: 6 skipped" in out
    assert "The ring-card diamond race, random bots, 6 players" in out


def test_bench_refuses_an_unknown_game():
    with pytest.raises(ValueError, match="unknown game"):
        bench.main(["--seconds", "0.01", "--game", "chess"])
