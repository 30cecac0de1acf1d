"""The optional compiled build (setup.py) and the pure-Python path run the same source and record alike.

`DIAMONDS_PURE_PYTHON=1` must make every engine module load from its .py file, and a game played on either path
must give byte-identical records, choices and views for the same seeds, with every bot kind and every game. Each
path runs in its own process, since the choice is made when `engine` is first imported (engine/_loader.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Plays seeded games of every game and variant with every bot kind; prints the engine's path, then one JSON
# line per game with everything it recorded.
PLAY = r"""
import json, sys
from engine import _loader, to_record
from engine.diamonds.bots import make_bot, play_game
from engine.diamonds.game import Game
from engine.games import game_type
from engine.diamonds.ruleset import Ruleset
from engine.diamonds.view import SeatView

out = []
rulesets = [Ruleset(2), Ruleset(3, perfect=True), Ruleset(4), Ruleset(4, partnerships=True),
            Ruleset(5, clubs="choose", rounds=2), Ruleset(6), Ruleset(6, partnerships=True)]
for bot in ("random", "greedy", "search"):
    for i, rs in enumerate(rulesets):
        for seed in range(2 if bot == "search" else 4):
            g = Game(rs, f"compiled/{bot}/{i}/{seed}", auto_clubs=seed % 2 == 0)
            settings = {"playouts": 12} if bot == "search" else {}
            play_game(g, [make_bot(bot, seed=f"{seed}/{s}", **settings) for s in range(rs.players)])
            out.append({"record": to_record(g), "choices": [(s, d.to_json()) for s, d in g.choices],
                        "view": SeatView(g, 1).to_dict()})
for name in ("diamoniak", "ringrace"):
    kind = game_type(name)
    for players in range(kind.min_players, kind.max_players + 1):
        for seed in range(3):
            g = kind.new_game(players, f"compiled/{name}/{players}/{seed}")
            names = sorted(kind.bots)  # every bot of the game, in turn
            kind.play_game(g, [kind.make_bot(names[(seed + s) % len(names)], seed=f"{seed}/{s}")
                               for s in range(players)])
            out.append({"record": kind.to_record(g), "stored": kind.codec.encode(g.choices).hex(),
                        "view": kind.view(g, 1).to_dict()})
print(_loader.describe())
for item in out:
    print(json.dumps(item, sort_keys=True))
"""


def _run(script: str, pure: bool) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DIAMONDS_PURE_PYTHON", None)
    if pure:
        env["DIAMONDS_PURE_PYTHON"] = "1"
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True).stdout


def test_pure_python_variable_loads_every_engine_module_from_source():
    script = ("import json, sys, engine, engine.diamonds.bots, engine.diamonds.bots.search, engine.diamonds.view, "
              "engine.diamonds.record, engine.games\n"
              "print(json.dumps({n: m.__file__ for n, m in sys.modules.items() if n.startswith('engine.')}))")
    files = json.loads(_run(script, pure=True))
    assert "engine.diamonds.game" in files and "engine.diamonds.bots.random_bot" in files
    assert "engine.diamoniak.game" in files and "engine.ringrace.game" in files and "engine.common.compact" in files
    assert all(f.endswith(".py") for f in files.values()), files


def test_compiled_modules_are_used_when_built():
    built = list((ROOT / "engine").rglob("game.*.so")) + list((ROOT / "engine").rglob("game.*.pyd"))
    if not built:
        pytest.skip("the engine is not compiled here (pure-Python install)")
    out = _run("from engine import games, _loader; from engine.diamonds import game; print(game.__file__); "
               "print(_loader.describe())", pure=False)
    assert not out.splitlines()[0].endswith(".py")
    assert "engine: compiled" in out
    # the newer games and the choice codec are compiled too (setup.py's COMPILED)
    assert all(name in out for name in ("diamoniak.game", "ringrace.game", "common.compact", "common.referee"))


@pytest.mark.slow
def test_both_paths_record_every_game_byte_for_byte_alike():
    pure = _run(PLAY, pure=True).splitlines()
    default = _run(PLAY, pure=False).splitlines()
    assert pure[0].startswith("engine: pure Python")
    assert len(pure) > 90  # every game played
    assert pure[1:] == default[1:]


def test_a_source_edited_since_it_was_compiled_is_found(tmp_path, monkeypatch):
    from engine import _loader

    (tmp_path / "diamonds" / "bots").mkdir(parents=True)
    (tmp_path / "diamonds" / "game.py").write_bytes(b"# as compiled\n")
    (tmp_path / "diamonds" / "bots" / "search.py").write_bytes(b"# as compiled\n")
    recorded = {"engine.diamonds.game": hashlib.sha256(b"# as compiled\n").hexdigest(),
                "engine.diamonds.bots.search": hashlib.sha256(b"# as compiled\n").hexdigest()}
    (tmp_path / "_compiled_sources.json").write_text(json.dumps(recorded))
    monkeypatch.setattr(_loader, "PACKAGE_DIR", tmp_path)
    assert _loader.stale_modules() == []
    (tmp_path / "diamonds" / "bots" / "search.py").write_bytes(b"# edited\n")
    assert _loader.stale_modules() == ["engine.diamonds.bots.search"]
    (tmp_path / "_compiled_sources.json").unlink()
    assert _loader.stale_modules() == []  # nothing compiled, nothing stale
