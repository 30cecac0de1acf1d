"""The scheduling command: seat N players for R rounds in a format, without playing, and print the quality.

    python -m league.scheduling --players 240 --table-size 4 --rounds 5 --format fixed --seed x

Swiss needs standings between rounds; since nothing is played, each table's places are drawn from the seed
and standings follow the points (3-2-1-0 style: players at the table minus place), ties broken by the seed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping, Sequence

from rich.console import Console
from rich.table import Table as RichTable

from .duplicate import deal_quality, duplicate_schedule
from .model import FORMATS, History, Schedule
from .quality import measure
from .seating import fixed_schedule
from .sizes import MAX_PLAYERS, TableShape
from .swiss import swiss_round


def simulate_swiss(
    units: Sequence, *, rounds: int, table_size: int, seed: str, partnership: bool = False,
    max_players: int = MAX_PLAYERS,
) -> tuple[Schedule, dict[str, float]]:
    """Seat `rounds` Swiss rounds with made-up results; also returns how far apart in rank tables were."""
    rng = random.Random(f"{seed}/made-up-results")
    points = {u: 0 for u in units}
    tiebreak = {u: rng.random() for u in units}
    history = History()
    schedule = Schedule(format="swiss", table_size=table_size, partnership=partnership, units=tuple(units),
                        seed=seed)
    spans = []
    for number in range(1, rounds + 1):
        standings = sorted(units, key=lambda u: (-points[u], tiebreak[u]))
        rank = {u: i for i, u in enumerate(standings)}
        rnd = swiss_round(standings, number=number, table_size=table_size, history=history, seed=seed,
                          partnership=partnership, max_players=max_players)
        for table in rnd.tables:
            spans.append(max(rank[u] for u in table.units) - min(rank[u] for u in table.units))
            places = list(table.units)
            rng.shuffle(places)
            for place, u in enumerate(places):
                points[u] += len(places) - 1 - place
        history.record(rnd)
        schedule.rounds.append(rnd)
    figures = {
        "mean rank span at a table": sum(spans) / len(spans) if spans else 0.0,
        "max rank span at a table": max(spans, default=0),
    }
    return schedule, figures


def build(
    fmt: str, players: int, table_size: int, rounds: int, seed: str, partnership: bool = False,
    max_players: int = MAX_PLAYERS,
) -> tuple[Schedule, Mapping[str, float]]:
    """The schedule for the command's arguments, with figures particular to the format; no table seats more than
    `max_players` (the game's most; duplicate play is Diamonds', which seats up to 6)."""
    if partnership:
        if players % 2:
            raise ValueError("partnership play needs an even number of players")
        units: list = [(f"p{2 * i + 1}", f"p{2 * i + 2}") for i in range(players // 2)]
    else:
        units = [f"p{i + 1}" for i in range(players)]
    if fmt == "fixed":
        return fixed_schedule(units, rounds=rounds, table_size=table_size, seed=seed, partnership=partnership,
                              max_players=max_players), {}
    if fmt == "swiss":
        return simulate_swiss(units, rounds=rounds, table_size=table_size, seed=seed, partnership=partnership,
                              max_players=max_players)
    if fmt == "duplicate":
        schedule = duplicate_schedule(units, rounds=rounds, table_size=table_size, seed=seed,
                                      partnership=partnership)
        return schedule, deal_quality(schedule)
    raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")


def figures_table(rows: Sequence[tuple[str, object]]) -> RichTable:
    table = RichTable(show_header=True)
    table.add_column("figure")
    table.add_column("value", justify="right")
    for name, value in rows:
        table.add_row(name, f"{value:.2f}" if isinstance(value, float) else str(value))
    return table


def rounds_table(schedule: Schedule) -> RichTable:
    table = RichTable(title="Seating", show_header=True)
    for col in ("round", "table", "deal", "rot", "seats (0, 1, ...)"):
        table.add_column(col)
    for rnd in schedule.rounds:
        for t in rnd.tables:
            table.add_row(str(rnd.number), str(t.number), t.deal_id, str(t.rotation), " ".join(map(str, t.seats)))
        if rnd.byes:
            table.add_row(str(rnd.number), "bye", "", "", " ".join(map(str, rnd.byes)))
    return table


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m league.scheduling", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, required=True, help="registered players")
    parser.add_argument("--table-size", type=int, default=4, help="players per table (2-6; 4 or 6 with partners)")
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--format", choices=FORMATS, default="fixed")
    parser.add_argument("--seed", default="0")
    parser.add_argument("--partnership", action="store_true", help="fixed pairs of partners (p1+p2, p3+p4, ...)")
    parser.add_argument("--show", action="store_true", help="also print every table of every round")
    parser.add_argument("--max-players", type=int, default=MAX_PLAYERS,
                        help="the most a table of the game seats (Diamoniak 4; default 6)")
    args = parser.parse_args(argv)
    console = Console()
    try:
        TableShape.for_table_size(args.table_size, partnership=args.partnership, max_players=args.max_players)
        if args.players < 1 or args.rounds < 1:
            raise ValueError("players and rounds must be at least 1")
        started = time.perf_counter()
        schedule, extra = build(args.format, args.players, args.table_size, args.rounds, args.seed,
                                args.partnership, args.max_players)
        elapsed = time.perf_counter() - started
    except ValueError as exc:
        console.print(f"[red]error:[/red] {exc}")
        return 2
    if args.show:
        console.print(rounds_table(schedule))
    quality = measure(schedule)
    title = (f"{args.format}: {args.players} players, tables of {args.table_size}"
             f"{' (partners)' if args.partnership else ''}, {args.rounds} rounds, seed {args.seed!r}")
    rows: list[tuple[str, object]] = [("seconds to seat", round(elapsed, 3)), *quality.as_rows(), *extra.items()]
    console.print(title)
    console.print(figures_table(rows))
    return 0
