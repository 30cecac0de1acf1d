"""The engine's benchmark entry point runs every game of engine.games (its figures are printed, never asserted)."""

from pathlib import Path

import pytest

from tools.bench import engine as bench


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


def test_bench_compares_an_older_checkout_with_this_one(capsys, tmp_path):
    this_checkout = Path(bench.__file__).resolve().parents[2]
    args = ["--seconds", "0.05", "--players", "2", "--no-search", "--turns", "1"]
    assert bench.main([*args, "--compare", str(this_checkout)]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("random bots, 2 players"))
    old, new, ratio = line.split()[4:7]
    assert float(old) > 0 and float(new) > 0 and ratio.endswith("x")
    with pytest.raises(SystemExit, match="not a checkout"):
        bench.main([*args, "--compare", str(tmp_path)])


def test_bench_finds_itself_in_checkouts_from_before_tools(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "bench.py").touch()
    assert bench._bench_module(tmp_path) == "engine.bench"
    assert bench._bench_module(Path(bench.__file__).resolve().parents[2]) == "tools.bench.engine"
