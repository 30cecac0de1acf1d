"""`python -m engine.arena`: how strong is one bot against a field of another? A table of seeded games.

Example: `python -m engine.arena --games 200 --players 4 --seat search --field greedy` plays 200 Diamonds games,
the `search` bot in one seat (its team's seats with partnerships), rotating that seat from game to game, the
`field` bot everywhere else. `--game diamoniak` or `--game ringrace` plays another game of engine.games the same
way, every seat for itself (default `--seat heuristic --field random`); the Diamonds variants (`--partnerships`,
`--perfect`, `--clubs`) and another game's bots are refused there.

Each competitor (a seat; a team with partnerships) counts once per game: a win counts 1 and a shared win its
fraction, so the win shares add up to the number of games; the win rate carries a 95% Wilson interval; the margin
is the competitor's score minus the best other competitor's. Every game is fixed by `--seed` and its index, so a
table can be reproduced exactly.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

try:
    import rich.console
    import rich.table
except ImportError:  # rich is a declared dependency, but the engine must not need it
    HAVE_RICH = False
else:
    HAVE_RICH = True

from .common.bot import Bot
from .comparison import Contestant, PairSpec, play_pair
from .diamonds.bots import make_bot, play_game
from .diamonds.game import Game
from .diamonds.ruleset import Ruleset
from .errors import InvalidRuleset
from .games import GAMES, GameType, game_type
from .sprt import Hypotheses, Sprt, placement_score

DIAMONDS = "diamonds"

# (--seat, --field) when not given: each game's strongest bot against a weaker one.
DEFAULT_BOTS: dict[str, tuple[str, str]] = {
    "diamonds": ("search", "greedy"),
    "diamoniak": ("heuristic", "random"),
    "ringrace": ("heuristic", "random"),
}

# One competitor's game: (is it the bot under test?, score, win share, margin).
Outcome = tuple[bool, int, float, int]


@dataclass
class Tally:
    """Per bot kind: one entry per seat (per team with partnerships) and game."""

    games: int = 0
    wins: float = 0.0
    scores: list[int] = field(default_factory=list)
    margins: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Matchup:
    """What an arena plays: a game of engine.games and its ruleset, the bot under test, the field, the seed."""

    game: str
    ruleset: Any
    seat_kind: str
    field_kind: str
    seat_settings: dict[str, object] = field(default_factory=dict)
    field_settings: dict[str, object] = field(default_factory=dict)
    seed: str = "arena"

    @property
    def competitors(self) -> int:
        """Teams in Diamonds (each seat its own team without partnerships); seats in the newer games."""
        count: int = self.ruleset.team_count if self.game == DIAMONDS else self.ruleset.players
        return count


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


def play_one(task: tuple[Matchup, int]) -> list[Outcome]:
    """Play game `index` of the matchup; one outcome per competitor, in seat (team) order."""
    matchup, index = task
    if matchup.game == DIAMONDS:
        return _play_diamonds(matchup, index)
    return _play_every_seat_for_itself(matchup, index)


def _play_diamonds(matchup: Matchup, index: int) -> list[Outcome]:
    ruleset = matchup.ruleset
    hero_team = index % ruleset.team_count  # rotate the hero's seat (its team's, with partners)
    team_of = {s: t for t, members in enumerate(ruleset.teams) for s in members}
    under_test = [team_of[s] == hero_team for s in range(ruleset.players)]
    bots = [_bot(matchup, hero, f"bot-{s}", index, make_bot) for s, hero in enumerate(under_test)]
    game = Game(ruleset, f"{matchup.seed}/{index}", seats=_seat_names(matchup, under_test))
    play_game(game, bots)
    result = game.result
    assert result is not None
    share = 1.0 / len(result.winners)
    return [(t == hero_team, result.score[t], share if t in result.winners else 0.0,
             result.score[t] - max(x for u, x in enumerate(result.score) if u != t))
            for t in range(ruleset.team_count)]


def _play_every_seat_for_itself(matchup: Matchup, index: int) -> list[Outcome]:
    kind = game_type(matchup.game)
    players = matchup.ruleset.players
    hero_seat = index % players
    under_test = [s == hero_seat for s in range(players)]
    bots = [_bot(matchup, hero, f"bot-{s}", index, kind.make_bot) for s, hero in enumerate(under_test)]
    game = kind.new_game(matchup.ruleset, f"{matchup.seed}/{index}", seats=_seat_names(matchup, under_test))
    kind.play_game(game, bots)
    standing = kind.standing(game)
    score, winners = standing["score"], standing["winners"]
    share = 1.0 / len(winners)
    return [(hero, score[s], share if s in winners else 0.0, score[s] - max(x for u, x in enumerate(score) if u != s))
            for s, hero in enumerate(under_test)]


def _bot(matchup: Matchup, under_test: bool, name: str, index: int, make: Callable[..., Bot]) -> Bot:
    if under_test:
        return make(matchup.seat_kind, seed=f"{matchup.seed}/{index}/{name}", **matchup.seat_settings)
    return make(matchup.field_kind, seed=f"{matchup.seed}/{index}/{name}", **matchup.field_settings)


def _seat_names(matchup: Matchup, under_test: list[bool]) -> list[str]:
    return [f"{matchup.seat_kind if hero else matchup.field_kind}-{s}" for s, hero in enumerate(under_test)]


def run(matchup: Matchup, games: int, jobs: int = 1) -> Iterator[list[Outcome]]:
    """The outcomes of games 0 .. games-1, in order."""
    tasks = [(matchup, i) for i in range(games)]
    if jobs <= 1:
        yield from map(play_one, tasks)
        return

    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap(play_one, tasks, chunksize=1)


def tally(matchup: Matchup, games: int, jobs: int = 1,
          progress: Callable[[int, int], object] | None = None) -> dict[str, Tally]:
    """Per bot (label): its seat-games, win shares, scores and margins over `games` seeded games. `progress`, if
    given, is called with (games done, games) after each game."""
    if matchup.seat_kind == matchup.field_kind:
        labels = (f"{matchup.seat_kind} (seat)", f"{matchup.field_kind} (field)")
    else:
        labels = (matchup.seat_kind, matchup.field_kind)
    tallies = {label: Tally() for label in labels}
    for done, outcomes in enumerate(run(matchup, games, jobs), 1):
        for under_test, score, win, margin in outcomes:
            entry = tallies[labels[0] if under_test else labels[1]]
            entry.games += 1
            entry.wins += win
            entry.scores.append(score)
            entry.margins.append(margin)
        if progress:
            progress(done, games)
    return tallies


class Progress:
    """Games done, time taken and an estimate of the time left, on stderr: redrawn in place on a terminal, else a
    line at every tenth of the games (a log or a pipe must not sit silent for minutes either)."""

    def __init__(self, stream: TextIO | None = None, tty: bool | None = None):
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty() if tty is None else tty
        self.start = time.perf_counter()
        self.last_tenth = 0

    def __call__(self, done: int, games: int) -> None:
        elapsed = time.perf_counter() - self.start
        left = elapsed / done * (games - done)
        line = f"{done}/{games} games, {elapsed:.0f} s, about {left:.0f} s left"
        if self.tty:
            print(f"\r{line}   ", end="" if done < games else "\n", file=self.stream, flush=True)
        elif done * 10 // games > self.last_tenth or done == games:
            self.last_tenth = done * 10 // games
            print(line, file=self.stream, flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.arena", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default=DIAMONDS, choices=list(GAMES))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--partnerships", action="store_true", help="Diamonds only")
    parser.add_argument("--perfect", action="store_true", help="Diamonds only")
    parser.add_argument("--clubs", choices=["thief", "choose"], help="Diamonds only")
    bots_per_game = "; ".join(f"{name}: {', '.join(kind.bots)}" for name, kind in GAMES.items())
    seat_defaults = ", ".join(f"{name} {seat}" for name, (seat, _) in DEFAULT_BOTS.items())
    field_defaults = ", ".join(f"{name} {field_kind}" for name, (_, field_kind) in DEFAULT_BOTS.items())
    parser.add_argument("--seat", help=f"the bot under test (default: {seat_defaults}; known: {bots_per_game})")
    parser.add_argument("--field", help=f"the bot in every other seat (default: {field_defaults})")
    parser.add_argument("--seat-settings", default="", help="e.g. playouts=400,seconds=0")
    parser.add_argument("--field-settings", default="")
    parser.add_argument("--seed", default="arena")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (the machine is shared: keep 1)")
    sprt = parser.add_argument_group(
        "a sequential test (--sprt): is --seat (the candidate) stronger than --baseline? Pairs of duplicate deals "
        "against --field until the test decides (engine.sprt, engine.comparison)")
    sprt.add_argument("--sprt", action="store_true", help="play duplicate pairs until the SPRT decides")
    sprt.add_argument("--baseline", help="the bot the candidate (--seat) is compared with")
    sprt.add_argument("--baseline-settings", default="")
    sprt.add_argument("--elo0", type=float, default=0.0, help="H0: the candidate's edge is at most this (default 0)")
    sprt.add_argument("--elo1", type=float, default=20.0, help="H1: its edge is at least this (default 20)")
    sprt.add_argument("--alpha", type=float, default=0.05)
    sprt.add_argument("--beta", type=float, default=0.05)
    sprt.add_argument("--max-pairs", type=int, default=2000)
    args = parser.parse_args(argv)
    kind = game_type(args.game)
    if args.sprt:
        return _main_sprt(parser, args, kind)
    matchup = Matchup(args.game, _ruleset(parser, args, kind), *_seat_and_field(parser, args, kind),
                      parse_settings(args.seat_settings), parse_settings(args.field_settings), args.seed)
    start = time.perf_counter()
    print(f"{args.games} {kind.title} games, {matchup.seat_kind} against {matchup.field_kind}; progress below",
          file=sys.stderr, flush=True)
    tallies = tally(matchup, args.games, args.jobs, progress=Progress())
    _print_table(tallies, matchup, kind, args.games, time.perf_counter() - start)
    return 0


def _main_sprt(parser: argparse.ArgumentParser, args: argparse.Namespace, kind: GameType) -> int:
    """--sprt: pairs until the test decides, a line per pair on stderr, the verdict and estimate on stdout."""
    candidate_kind, field_kind = _seat_and_field(parser, args, kind)
    if not args.baseline or args.baseline not in kind.bots:
        parser.error(f"--sprt needs --baseline, one of {kind.title}'s bots: {', '.join(kind.bots)}")
    if not 1 <= args.max_pairs <= 100_000:
        parser.error("--max-pairs must lie within 1 .. 100000")
    try:
        hypotheses = Hypotheses(args.elo0, args.elo1, args.alpha, args.beta)
    except ValueError as refusal:
        parser.error(str(refusal))
    spec = PairSpec(args.game, _ruleset(parser, args, kind),
                    Contestant(candidate_kind, parse_settings(args.seat_settings)),
                    Contestant(args.baseline, parse_settings(args.baseline_settings)),
                    Contestant(field_kind, parse_settings(args.field_settings)), args.seed)
    test = Sprt(hypotheses, spec.competitors(), max_pairs=args.max_pairs)
    lower, upper = hypotheses.bounds
    print(f"SPRT {spec.candidate.label()} (candidate) against {spec.baseline.label()} (baseline), field "
          f"{spec.field.label()}, {kind.title} {args.players} players; H0 elo {args.elo0:g}, H1 elo {args.elo1:g}, "
          f"alpha {args.alpha:g}, beta {args.beta:g}; bounds {lower:.2f} .. {upper:.2f}", file=sys.stderr, flush=True)
    start = time.perf_counter()
    singles: tuple[list[float], list[float]] = ([], [])
    index = 0
    while test.decision is None:
        pair = play_pair(spec, index)
        test.add(pair.outcome)
        singles[0].append(placement_score(pair.candidate_places, pair.tested_competitor))
        singles[1].append(placement_score(pair.baseline_places, pair.tested_competitor))
        index += 1
        print(f"pair {test.pairs}: duplicate score {pair.outcome:.3f}, LLR {test.llr:+.2f} "
              f"({lower:.2f} .. {upper:.2f})", file=sys.stderr, flush=True)
    _print_sprt(test, singles, time.perf_counter() - start)
    return 0


def _print_sprt(test: Sprt, singles: tuple[list[float], list[float]], elapsed: float) -> None:
    state = test.state()
    decision = test.decision
    assert decision is not None  # called once the test has decided (_main_sprt)
    verdict = {"H1": "H1 accepted: the candidate is stronger", "H0": "H0 accepted: the candidate is not stronger",
               "max": "no decision within --max-pairs"}[decision]
    print(f"{verdict} after {test.pairs} pairs ({2 * test.pairs} games, {elapsed:.1f} s); "
          f"LLR {state['llr']:+.2f} (bounds {state['lower']:.2f} .. {state['upper']:.2f})")
    print(f"mean placement-score difference {state['mean_difference']:+.3f} (95% CI {state['difference_low']:+.3f} "
          f".. {state['difference_high']:+.3f}); Elo-like {state['elo']:+.1f} "
          f"({state['elo_low']:+.1f} .. {state['elo_high']:+.1f})")
    unpaired = games_for_same_precision(test.outcomes, *singles)
    if unpaired is None and test.pairs >= 2:
        print("every pair's two games placed the tested seat alike: the two bots decided identically")
    elif unpaired is not None:
        print(f"the same precision from games that are not paired (each bot in its own games against the field): "
              f"about {unpaired} games, against {2 * test.pairs} here")


def games_for_same_precision(outcomes: list[float], candidate: list[float], baseline: list[float]) -> int | None:
    """How many unpaired games (half with each bot) would estimate the difference of the two bots' mean placement
    scores as precisely as these pairs do: the pairs' variance of the difference against the two bots' own."""
    n = len(outcomes)
    if n < 2:
        return None
    diffs = [2 * w - 1 for w in outcomes]

    def variance(xs: list[float]) -> float:
        m = sum(xs) / len(xs)
        return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)

    paired = variance(diffs)
    if paired <= 0:
        return None
    # Unpaired: var(mean_c - mean_b) = (var_c + var_b) / k with k games each; paired: var(d) / n.
    per_bot = (variance(candidate) + variance(baseline)) * n / paired
    return 2 * math.ceil(per_bot)


def _ruleset(parser: argparse.ArgumentParser, args: argparse.Namespace, kind: GameType) -> Any:
    """The game's ruleset from the options, or a parser error naming what does not fit the game."""
    if args.game != DIAMONDS:
        diamonds_only = [flag for flag, given in (("--partnerships", args.partnerships), ("--perfect", args.perfect),
                                                  ("--clubs", args.clubs is not None)) if given]
        if diamonds_only:
            parser.error(f"{', '.join(diamonds_only)}: Diamonds only, not for {kind.title} (--game {args.game})")
    if not kind.min_players <= args.players <= kind.max_players:
        parser.error(f"{kind.title} is for {kind.min_players}-{kind.max_players} players, not {args.players}")
    try:
        if args.game == DIAMONDS:
            return Ruleset(args.players, partnerships=args.partnerships, perfect=args.perfect, clubs=args.clubs)
        return kind.make_ruleset(args.players)
    except InvalidRuleset as refusal:
        parser.error(str(refusal))


def _seat_and_field(parser: argparse.ArgumentParser, args: argparse.Namespace, kind: GameType) -> tuple[str, str]:
    """--seat and --field (each game's defaults when not given), or a parser error naming the game's bots."""
    default_seat, default_field = DEFAULT_BOTS[args.game]
    seat_kind, field_kind = args.seat or default_seat, args.field or default_field
    for option, name in (("--seat", seat_kind), ("--field", field_kind)):
        if name not in kind.bots:
            parser.error(f"{option}: {kind.title} has no bot {name!r}; its bots: {', '.join(kind.bots)}")
    return seat_kind, field_kind


def _print_table(tallies: dict[str, Tally], matchup: Matchup, kind: GameType, games: int, elapsed: float) -> None:
    fair = 1.0 / matchup.competitors
    ruleset = matchup.ruleset
    variant = f"{ruleset.players} players"
    if matchup.game == DIAMONDS:
        variant += (", partnerships" if ruleset.partnerships else "") + (
            ", perfect" if ruleset.perfect else "") + f", clubs {ruleset.clubs}"
    title = f"{kind.title}: {games} games, {variant}; seed {matchup.seed!r}; fair share {fair:.1%}; {elapsed:.1f}s"
    rows = []
    for label, t in tallies.items():
        low, high = wilson(t.wins, t.games)
        rate = t.wins / t.games if t.games else 0.0
        rows.append((label, str(t.games), f"{t.wins:g}", f"{rate:.1%}", f"{low:.1%} - {high:.1%}",
                     f"{_mean(t.scores):.2f}", f"{_mean(t.margins):+.2f}"))
    headers = ("bot", "seat-games", "wins", "win rate", "95% CI (Wilson)", f"mean {kind.score_label}", "mean margin")
    if not HAVE_RICH:
        print(title)
        print(" | ".join(headers))
        for row in rows:
            print(" | ".join(row))
        return
    table = rich.table.Table(title=title, min_width=len(title))  # the title on one line, even over a narrow table
    for h in headers:
        table.add_column(h, justify="left" if h == "bot" else "right")
    for row in rows:
        table.add_row(*row)
    rich.console.Console(width=140).print(table)


def _mean(xs: list[int]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


if __name__ == "__main__":
    sys.exit(main())
