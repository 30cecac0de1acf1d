"""`python -m engine.arena`: how strong is one bot against a field of another? A table of seeded games.

Example: `python -m engine.arena --games 200 --players 4 --seat search --field greedy` plays 200 games, the
`search` bot in one seat (its team's seats with partnerships), rotating that seat from game to game, the
`field` bot everywhere else. Shared wins count as fractions; the win rate carries a 95% Wilson interval.
Every game is fixed by `--seed` and its index, so a table can be reproduced exactly.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from .bots import BOTS, make_bot, play_game
from .game import Game
from .ruleset import Ruleset


@dataclass
class Tally:
    """Per bot kind: one entry per seat (per team with partnerships) and game."""

    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (wins may be fractional)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def parse_settings(text: str) -> dict[str, object]:
    """`playouts=200,seconds=0.1` -> {'playouts': 200, 'seconds': 0.1}."""
    out: dict[str, object] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, value = part.partition("=")
        for convert in (int, float):
            try:
                out[key] = convert(value)
                break
            except ValueError:
                continue
        else:
            out[key] = value
    return out


def play_one(args: tuple) -> list[tuple[str, int, float, int]]:
    """Play game `index`; returns per team (kind, score, win share, margin)."""
    index, ruleset, seat_kind, field_kind, seat_settings, field_settings, seed = args
    n = ruleset.players
    hero_team = index % ruleset.team_count  # rotate the hero's seat (its team's, with partners)
    team_of = {s: t for t, members in enumerate(ruleset.teams) for s in members}
    kinds = [seat_kind if team_of[s] == hero_team else field_kind for s in range(n)]
    bots = [
        make_bot(kind, seed=f"{seed}/{index}/bot-{s}",
                 **(seat_settings if kind == seat_kind and team_of[s] == hero_team else field_settings))
        for s, kind in enumerate(kinds)
    ]
    game = Game(ruleset, f"{seed}/{index}", seats=[f"{k}-{s}" for s, k in enumerate(kinds)])
    play_game(game, bots)
    result = game.result
    assert result is not None
    share = 1.0 / len(result.winners)
    out = []
    for t, members in enumerate(ruleset.teams):
        best_other = max(x for u, x in enumerate(result.score) if u != t)
        out.append((kinds[members[0]], result.score[t], share if t in result.winners else 0.0,
                    result.score[t] - best_other))
    return out


def run(ruleset: Ruleset, games: int, seat_kind: str, field_kind: str, seat_settings: dict, field_settings: dict,
        seed: str, jobs: int) -> Iterator[list[tuple[str, int, float, int]]]:
    tasks = [(i, ruleset, seat_kind, field_kind, seat_settings, field_settings, seed) for i in range(games)]
    if jobs <= 1:
        yield from map(play_one, tasks)
        return
    import multiprocessing

    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(play_one, tasks, chunksize=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--partnerships", action="store_true")
    parser.add_argument("--perfect", action="store_true")
    parser.add_argument("--clubs", choices=["thief", "choose"])
    parser.add_argument("--seat", default="search", help=f"the bot under test (known: {', '.join(BOTS)})")
    parser.add_argument("--field", default="greedy", help="the bot in every other seat")
    parser.add_argument("--seat-settings", default="", help="e.g. playouts=400,seconds=0")
    parser.add_argument("--field-settings", default="")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the machine is shared: keep 1)")
    args = parser.parse_args(argv)
    for kind in (args.seat, args.field):
        if kind not in BOTS:
            parser.error(f"unknown bot {kind!r}; known bots: {', '.join(sorted(BOTS))}")
    ruleset = Ruleset(args.players, partnerships=args.partnerships, perfect=args.perfect, clubs=args.clubs)
    seat_settings, field_settings = parse_settings(args.seat_settings), parse_settings(args.field_settings)
    labels = (f"{args.seat} (seat)", f"{args.field} (field)") if args.seat == args.field else (args.seat, args.field)
    tallies = {label: Tally() for label in labels}
    start = time.perf_counter()
    for done, teams in enumerate(run(ruleset, args.games, args.seat, args.field, seat_settings, field_settings,
                                     args.seed, args.jobs), 1):
        hero_team = (done - 1) % ruleset.team_count
        for t, (_, score, win, margin) in enumerate(teams):
            tally = tallies[labels[0] if t == hero_team else labels[1]]
            tally.games += 1
            tally.wins += win
            tally.scores.append(score)
            tally.margins.append(margin)
        if sys.stderr.isatty():
            print(f"\r{done}/{args.games} games", end="", file=sys.stderr, flush=True)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    elapsed = time.perf_counter() - start
    _print_table(tallies, ruleset, args, elapsed)
    return 0


def _print_table(tallies: dict[str, Tally], ruleset: Ruleset, args, elapsed: float) -> None:
    fair = 1.0 / ruleset.team_count
    variant = f"{ruleset.players} players" + (", partnerships" if ruleset.partnerships else "") + (
        ", perfect" if ruleset.perfect else "") + f", clubs {ruleset.clubs}"
    title = f"{args.games} games, {variant}; seed {args.seed!r}; fair share {fair:.1%}; {elapsed:.1f}s"
    rows = []
    for label, t in tallies.items():
        low, high = wilson(t.wins, t.games)
        rate = t.wins / t.games if t.games else 0.0
        rows.append((label, str(t.games), f"{t.wins:g}", f"{rate:.1%}", f"{low:.1%} - {high:.1%}",
                     f"{_mean(t.scores):.2f}", f"{_mean(t.margins):+.2f}"))
    headers = ("bot", "seat-games", "wins", "win rate", "95% CI (Wilson)", "mean score", "mean margin")
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # rich is a declared dependency, but the engine must not need it
        print(title)
        print(" | ".join(headers))
        for row in rows:
            print(" | ".join(row))
        return
    table = Table(title=title)
    for h in headers:
        table.add_column(h, justify="left" if h == "bot" else "right")
    for row in rows:
        table.add_row(*row)
    Console(width=140).print(table)


def _mean(xs: list[int]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


if __name__ == "__main__":
    sys.exit(main())
