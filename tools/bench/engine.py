"""`python -m tools.bench.engine`: how fast the engine plays, measured the way the league uses it.

`--game diamoniak` or `--game ringrace` measures another game of engine.games the same way (random bots through
its own `play_game`; player counts outside the game's range are skipped). Against 7c126e8 (4 players, `--compare`,
best of 3 turns of 3 s): Diamoniak 585 -> 1034 games/s compiled (1.77x), 556 -> 926 pure Python (1.67x); the ring
race 1180 -> 3783 compiled (3.21x), 1148 -> 3440 pure Python (3.00x).

Random-bot games go through the public bots API (`play_game` with `RandomBot`, one `SeatView` per seat) on
an ordinary logging `Game`, so every event is recorded exactly as for a real game. The search bot's figure
is playouts per second while it plays 4-player games against greedy bots.

The engine runs compiled when the install could build it (setup.py, Cython) and as pure Python otherwise or
with `DIAMONDS_PURE_PYTHON=1`; the last line says which (engine/_loader.py). Against 3039b49, best of 3 turns
of 3 s on a shared 2-core machine: pure Python 1.29x / 1.37x / 1.34x (2 / 4 / 6 players) and 1.19x playouts/s;
compiled 1.98x / 2.09x / 2.09x and 2.01x (4 players: 516 -> 1077 games/s; search: 3925 -> 7903 playouts/s).

Times are the process's CPU time (`time.process_time`), so that a machine shared with other work still
gives the figure for one core; on an idle machine it matches the wall clock.

`--compare OLD_CHECKOUT` measures an older checkout of the project and this one back to back on the same
machine, in turns (old, new, old, new...) so that a change in the machine's load touches both alike, and
prints the best figure of each and their ratio. The figure the engine was sped up from (issue 19) is that of
commit 3039b49, measured so:

    git worktree add --detach /tmp/engine-before 3039b49
    python -m tools.bench.engine --compare /tmp/engine-before          # old and new (compiled), side by side
    DIAMONDS_PURE_PYTHON=1 python -m tools.bench.engine --compare /tmp/engine-before   # old and new pure Python
    (cd /tmp/engine-before && python -m engine.bench)                  # the old figures alone (its place then)
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from engine import _loader
from engine.diamonds.bots import RandomBot, make_bot, play_game
from engine.diamonds.game import Game
from engine.diamonds.ruleset import Ruleset
from engine.games import game_type

try:  # the anchor: OpenSpiel's C++ game loop, when the optional `bench` extra (open-spiel) is installed
    import pyspiel
except ImportError:  # the comparison with OpenSpiel is skipped (the engine never imports it)
    pyspiel = None


def random_games_per_second(players: int, seconds: float, seed: str = "bench") -> tuple[float, int, float]:
    """Complete random-bot games per second (bot construction and the deal included), games played, and
    decisions per second (every choice a seat made, as recorded)."""
    ruleset = Ruleset(players)
    games = decisions = 0
    start = time.process_time()
    while True:
        game = Game(ruleset, f"{seed}/{players}/{games}")
        play_game(game, [RandomBot(seed=f"{seed}/{games}/{s}") for s in range(players)])
        decisions += len(game.choices)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed, games, decisions / elapsed


def other_game_per_second(name: str, players: int, seconds: float, seed: str = "bench") -> tuple[float, int, float]:
    """Complete random-bot games per second of another game of engine.games, measured as for Diamonds."""
    kind = game_type(name)
    games = decisions = 0
    start = time.process_time()
    while True:
        game = kind.new_game(players, f"{seed}/{name}/{players}/{games}")
        kind.play_game(game, [kind.make_bot("random", seed=f"{seed}/{games}/{s}") for s in range(players)])
        decisions += len(game.choices)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return games / elapsed, games, decisions / elapsed


def diamonds_decisions_per_second(seconds: float, seed: str = "anchor") -> tuple[float, float]:
    """4-player Diamonds with random bots: decisions per second (every choice a seat made, as recorded; games
    built and bots seeded inside the clock, as random_games_per_second), and decisions per game."""
    ruleset = Ruleset(4)
    games = decisions = 0
    start = time.process_time()
    while True:
        game = Game(ruleset, f"{seed}/{games}")
        play_game(game, [RandomBot(seed=f"{seed}/{games}/{s}") for s in range(4)])
        decisions += len(game.choices)
        games += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return decisions / elapsed, decisions / games


def openspiel_decisions_per_second(seconds: float, seed: int = 0) -> tuple[float, float]:
    """OpenSpiel's Hearts with uniform random bots, the game loop in C++ (`pyspiel.evaluate_bots`): decisions per
    second (the players' moves, chance outcomes left out) and decisions per game. The states are kept and their
    moves counted after the clock stops."""
    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    states = []
    start = time.process_time()
    while True:
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed + len(states))
        states.append(state)
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            break
    decisions = sum(1 for state in states for move in state.full_history() if move.player >= 0)
    return decisions / elapsed, decisions / len(states)


def anchor(seconds: float, turns: int = 3) -> int:
    """This engine's 4-player Diamonds against OpenSpiel's Hearts, both with random bots, in turns (Diamonds,
    Hearts, Diamonds, ...): the median and range of each one's decisions per second, and their ratio."""
    if pyspiel is None:
        print("OpenSpiel is not installed (pip install -e '.[bench]'): no anchor to compare with")
        return 0
    engines: dict[str, Callable[[float], tuple[float, float]]] = {
        "Diamonds, this engine, 4 random bots": diamonds_decisions_per_second,
        "Hearts, OpenSpiel (C++ loop), 4 random bots": openspiel_decisions_per_second,
    }
    rates: dict[str, list[float]] = {name: [] for name in engines}
    per_game: dict[str, float] = {}
    for _ in range(turns):
        for name, measure in engines.items():
            rate, per_game[name] = measure(seconds)
            rates[name].append(rate)
    print(f"anchor: {turns} turns of {seconds:g} s each, in turns, CPU time of one process")
    for name, values in rates.items():
        print(f"{name + ':':46s} {statistics.median(values):10,.0f} decisions/s  (range {min(values):,.0f}"
              f"-{max(values):,.0f}; {per_game[name]:.1f} decisions a game)")
    ours, theirs = (statistics.median(values) for values in rates.values())
    print(f"ratio, Diamonds / Hearts (medians): {ours / theirs:.3f}  (OpenSpiel is {theirs / ours:.2f}x faster "
          "per decision)")
    return 0


def search_playouts_per_second(seconds: float, seed: str = "bench") -> tuple[float, int]:
    """Playouts per second of the search bot (seat 0) in 4-player games against greedy bots."""
    done = 0
    spent = 0.0
    index = 0
    while spent < seconds:
        bots = [make_bot("search", seed=f"{seed}/{index}")]  # default settings
        bots += [make_bot("greedy", seed=f"{seed}/{index}/{s}") for s in range(1, 4)]
        game = Game(Ruleset(4), f"{seed}/search/{index}")
        start = time.process_time()
        play_game(game, bots)
        spent += time.process_time() - start
        done += bots[0].playouts_done
        index += 1
    return done / spent, done


_PATH = re.compile(r"^engine: .*$", re.M)
_FIGURE = re.compile(r"^(?P<label>[^:\n]+):\s+(?P<rate>[0-9.]+) (?P<unit>complete games/s|playouts/s)", re.M)


# Where a checkout keeps this benchmark: tools/ now, engine/bench.py in checkouts from before tools/ existed (the
# figures of issue 19 were measured against such a checkout).
_BENCH_MODULES = {"tools/bench/engine.py": "tools.bench.engine", "engine/bench.py": "engine.bench"}


def _bench_module(checkout: Path) -> str:
    """The module that runs this benchmark in `checkout`; SystemExit when it is not a checkout of this project."""
    for path, module in _BENCH_MODULES.items():
        if (checkout / path).is_file():
            return module
    raise SystemExit(f"{checkout} is not a checkout of this project (no tools/bench/engine.py nor engine/bench.py)")


def _figures(checkout: Path, args: list[str]) -> tuple[dict[str, float], str]:
    """Run this benchmark with ARGS from `checkout` (its own engine package): its figures, and the path it ran
    (compiled or pure Python; older checkouts, from before the compiled build, do not say)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    out = subprocess.run([sys.executable, "-m", _bench_module(checkout), *args], cwd=checkout, env=env,
                         capture_output=True, text=True, check=True).stdout
    path = _PATH.search(out)
    figures = {m["label"].strip(): float(m["rate"]) for m in _FIGURE.finditer(out)}
    return figures, path[0] if path else "engine: pure Python (before the compiled build)"


def compare(old: Path, args: list[str], turns: int) -> int:
    """Old checkout and this one measured in turns; the best of each figure, and new / old."""
    new = Path(__file__).resolve().parents[2]
    _bench_module(old)
    best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
    paths: dict[str, str] = {}
    for turn in range(turns):
        for name, tree in (("old", old), ("new", new)):
            figures, paths[name] = _figures(tree, args)
            for label, rate in figures.items():
                best[name][label] = max(rate, best[name].get(label, 0.0))
        print(f"turn {turn + 1}/{turns} done", file=sys.stderr)
    print(f"Python {sys.version.split()[0]}, one process each; best of {turns} turns, old = {old}")
    print(f"old: {paths['old']}\nnew: {paths['new']}")
    print(f"{'':42s} {'old':>9s} {'new':>9s}  new/old")
    for label, new_rate in best["new"].items():
        old_rate = best["old"].get(label)
        unit = "playouts/s" if label.startswith("search") else "games/s"
        if old_rate:
            print(f"{label:42s} {old_rate:9.0f} {new_rate:9.0f}  {new_rate / old_rate:5.2f}x  {unit}")
        else:
            print(f"{label:42s} {'-':>9s} {new_rate:9.0f}         {unit}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.engine", description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--players", default="2,4,6", help="player counts for the random-bot games")
    parser.add_argument("--no-search", action="store_true", help="skip the search bot's playouts")
    parser.add_argument("--game", default="diamonds", help="diamonds, diamoniak or ringrace")
    parser.add_argument("--compare", metavar="OLD_CHECKOUT", type=Path,
                        help="measure an older checkout and this one in turns, and print both (see above)")
    parser.add_argument("--turns", type=int, default=3,
                        help="with --compare or --anchor: measurements of each, in turns")
    parser.add_argument("--anchor", action="store_true",
                        help="only the anchor: 4-player Diamonds against OpenSpiel's Hearts in C++, in turns "
                             "(needs the `bench` extra, open-spiel)")
    parser.add_argument("--no-anchor", action="store_true", help="skip the anchor even with OpenSpiel installed")
    args = parser.parse_args(argv)
    if args.anchor:
        code = anchor(args.seconds, args.turns)
        print(_loader.describe())
        return code
    if args.compare is not None:
        passed = ["--seconds", str(args.seconds), "--players", args.players, "--game", args.game]
        return compare(args.compare.resolve(), passed + (["--no-search"] if args.no_search else []), args.turns)
    print(f"Python {sys.version.split()[0]}, one process")
    if args.game != "diamonds":
        kind = game_type(args.game)
        for players in (int(p) for p in args.players.split(",")):
            if not kind.min_players <= players <= kind.max_players:
                print(f"{kind.title} is for {kind.min_players}-{kind.max_players} players: {players} skipped")
                continue
            rate, games, decisions = other_game_per_second(args.game, players, args.seconds)
            print(f"{kind.title}, random bots, {players} players: {rate:8.0f} complete games/s  ({games} games, "
                  f"{decisions:,.0f} decisions/s)")
        print(_loader.describe())
        return 0
    for players in (int(p) for p in args.players.split(",")):
        rate, games, decisions = random_games_per_second(players, args.seconds)
        print(f"random bots, {players} players: {rate:8.0f} complete games/s  ({games} games, events recorded, "
              f"{decisions:,.0f} decisions/s)")
    if not args.no_search:
        rate, done = search_playouts_per_second(args.seconds)
        print(f"search bot, 4 players:  {rate:8.0f} playouts/s        ({done} playouts, vs 3 greedy bots)")
    if pyspiel is not None and not args.no_anchor:
        anchor(args.seconds, args.turns)
    print(_loader.describe())  # last: it names the modules that ran, compiled or not
    return 0


if __name__ == "__main__":
    sys.exit(main())
