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
import json, random, sys
from engine import _loader, to_record
from engine.common.instances import new_slots, new_tuple
from engine.diamonds.bots import make_bot, play_game
from engine.diamonds.game import Decision, Game, Play
from engine.errors import IllegalDecision
from engine.fastrandom import (below, new_random, random_float, reset_random, sample, seeded_below, seeded_sample,
                               seeded_shuffle, shuffle)
from engine.games import game_type
from engine.diamonds.ruleset import Ruleset
from engine.diamonds.view import SeatView

out = []
rulesets = [Ruleset(2), Ruleset(2, perfect=True), Ruleset(3, perfect=True), Ruleset(4), Ruleset(4, perfect=True),
            Ruleset(4, partnerships=True), Ruleset(4, clubs="choose"), Ruleset(5, clubs="choose", rounds=2),
            Ruleset(5, perfect=True, rounds=1), Ruleset(6), Ruleset(6, partnerships=True, rounds=2)]
diamonds = game_type("diamonds")
for bot in ("random", "greedy", "search"):
    for i, rs in enumerate(rulesets):
        for seed in range(2 if bot == "search" else 4):
            g = Game(rs, f"compiled/{bot}/{i}/{seed}", auto_clubs=seed % 2 == 0)
            settings = {"playouts": 12, "selection": ("halving", "ucb")[seed % 2]} if bot == "search" else {}
            play_game(g, [make_bot(bot, seed=f"{seed}/{s}", **settings) for s in range(rs.players)])
            out.append({"record": to_record(g), "choices": [(s, d.to_json()) for s, d in g.choices],
                        "stored": diamonds.codec.encode(g.choices).hex(), "view": SeatView(g, 1).to_dict()})

# Games stopped midway: the state a copy and a determinization for search hold, and what every seat sees.
for i, rs in enumerate(rulesets[:8]):
    g = Game(rs, f"compiled/midway/{i}", auto_clubs=False)
    bots = [make_bot("greedy", seed=f"m/{s}") for s in range(rs.players)]
    for _ in range(17 + 3 * i):
        pending = g.pending
        if pending is None:
            break
        seat = pending.seats[0]
        g.apply(seat, bots[seat].decide(SeatView(g, seat)))
    for copy in (g.clone(), g.clone(logging=False)):
        state = {name: repr(getattr(copy, name)) for name in ("hands", "vault", "showroom", "supply", "thief",
                 "phase", "round", "dealer", "pass_count", "move_number", "_suit_count", "_won", "_tricks_won",
                 "_passes", "_order", "_pos", "_led", "_trick_index", "_trick_cards", "_plays", "events",
                 "choices", "pending")}
        out.append({"copy": state, "legal": [copy.legal(s) for s in range(rs.players)]})
    if g.pending is not None:
        view = SeatView(g, g.pending.seats[0])
        world = view.determinize([sorted(h) for h in g.hands], seed="compiled/world")
        out.append({"views": [SeatView(g, s).to_dict() for s in range(rs.players)],
                     "world": repr((world.hands, world._passes, world.pending, world._trick_cards))})

# Refusals: illegal decisions of every kind, refused alike (rule and message) and changing nothing.
for i, rs in enumerate(rulesets[:7]):
    g = Game(rs, f"compiled/refusals/{i}")
    bots = [make_bot("random", seed=f"r/{s}") for s in range(rs.players)]
    refused = []
    while g.pending is not None and len(refused) < 60:
        pending = g.pending
        seat = pending.seats[0]
        other = (seat + 1) % rs.players
        attempts = [(other, Decision.play(g.hands[other][0] if g.hands[other] else 1)), (seat, Decision.play(99)),
                    (seat, Decision.pass_count(4)), (seat, Decision.pass_count(True)), (seat, Decision("nope", 1)),
                    (seat, Decision.pass_cards(g.hands[seat][:1] * 2)), (seat, Decision.clubs_target(seat)),
                    (seat, Decision.play("H7")), (seat, Decision.pass_cards(["x"])), (seat, Decision.play(True))]
        for who, decision in attempts:
            before = (g.move_number, repr(g.hands), g.phase)
            try:
                g.apply(who, decision)
            except IllegalDecision as refusal:
                refused.append([refusal.rule, str(refusal), before == (g.move_number, repr(g.hands), g.phase)])
            except (TypeError, ValueError) as error:
                refused.append([type(error).__name__])
            else:
                refused.append(["applied", repr(decision)])
        if g.pending is not None:
            seat = g.pending.seats[0]
            g.apply(seat, bots[seat].decide(SeatView(g, seat)))
    out.append({"refused": refused, "record": to_record(g)})

for name in ("diamoniak", "ringrace"):
    kind = game_type(name)
    variants = ([{"players": n, "buy_pays": pays} for n in (2, 3, 4) for pays in ("seller", "discard")]
                + [{"players": 3, "max_turns": 12}] if name == "diamoniak" else
                [{"players": n, "debts": debts} for n in range(2, 7) for debts in (False, True)])
    for v, ruleset in enumerate(variants):
        for seed in range(3):
            g = kind.new_game(ruleset, f"compiled/{name}/{v}/{seed}")
            names = sorted(kind.bots)  # every bot of the game, in turn
            kind.play_game(g, [kind.make_bot(names[(seed + s) % len(names)], seed=f"{seed}/{s}")
                               for s in range(ruleset["players"])])
            copy = g.clone()
            out.append({"record": kind.to_record(g), "stored": kind.codec.encode(g.choices).hex(),
                        "view": kind.view(g, 1).to_dict(), "copy": kind.to_record(copy) == kind.to_record(g)})
        g = kind.new_game(ruleset, f"compiled/{name}/{v}/refusals")
        refused = []
        for step in range(40):
            pending = g.pending
            if pending is None:
                break
            seat = pending.seats[0]
            made = type(g.legal(seat)[0])  # the game's Decision
            for who, decision in [((seat + 1) % ruleset["players"], g.legal(seat)[0]), (seat, "nonsense"),
                                  (seat, made("try", 99)), (seat, made("steal", (0, 1)))]:
                try:
                    g.apply(who, decision)
                except IllegalDecision as refusal:
                    refused.append([refusal.rule, str(refusal)])
                else:
                    refused.append(["applied"])
            options = g.legal(seat)
            g.apply(seat, options[step % len(options)])
        out.append({"refused": refused, "record": kind.to_record(g)})

# The draws: the standard library's, whichever path draws them.
draws = []
for seed in ["", "a", "\u00e9t\u00e9", "x" * 150, "y" * 300, 0, -3, 1 << 40, (1 << 64) - 1, 1 << 70, 2.5, b"bytes"]:
    rng = new_random(seed)
    seeded_alike = rng.getstate() == random.Random(seed).getstate()
    xs = list(range(30))
    shuffle(rng, xs)
    twin = new_random(1)
    reset_random(twin, rng)
    draws.append([seeded_alike,
                  [below(rng, n) for n in (1, 2, 7, 60, 1 << 20, 1 << 32)], random_float(rng), xs,
                  sample(rng, list(range(12)), 3), sample(rng, list(range(40)), 9), below(twin, 1000),
                  seeded_below(seed, 9), seeded_sample(seed, range(42), 16), seeded_sample(seed, range(300), 40)])
    ys = list(range(52))
    seeded_shuffle(seed, ys)
    draws[-1].append(ys)
out.append({"draws": repr(draws)})
out.append({"instances": repr([new_tuple(Play, (1, 2, 3, 4)), new_slots(Decision, ("play", 5)),
                                new_slots(Decision, ("play", 5)) == Decision("play", 5)])})
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
    assert len(pure) > 200  # every game played
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
