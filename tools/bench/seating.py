"""`python -m tools.bench.seating`: time seating a fixed schedule and print its quality.

    python -m tools.bench.seating                                          # 1,000 players, fours, 8 rounds
    python -m tools.bench.seating --players 15 --table-size 3 --rounds 7   # one field
    python -m tools.bench.seating --all                                    # the table of classic small fields

The figures asked for are under 5 seconds with no pair meeting twice wherever that is possible; the tests check
the second part only (they never assert on wall time), this prints both.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from rich.console import Console
from rich.table import Table as RichTable

from league.scheduling.cli import figures_table
from league.scheduling.quality import measure
from league.scheduling.seating import exact_construction, fixed_schedule
from league.scheduling.sizes import TableShape

# (players, table size, rounds): the classic small fields with a repeat-free schedule (resolvable designs and
# the social golfer instances a club night meets), and a few that do not divide into full tables.
CLASSIC = (
    (9, 3, 4), (15, 3, 7), (21, 3, 10), (27, 3, 13), (16, 4, 5), (28, 4, 9), (32, 4, 9), (64, 4, 21),
    (25, 5, 6), (12, 2, 11), (14, 3, 7), (20, 3, 10), (27, 4, 9), (30, 4, 9), (31, 4, 9), (24, 5, 6),
    (32, 4, 10), (31, 4, 10), (30, 4, 10), (18, 3, 8),
)


def run(players: int, table_size: int, rounds: int, seed: str) -> dict[str, object]:
    """Seat one field and return its figures: method, quality, seconds (wall) and cpu seconds (this process's:
    on a busy machine the fairer figure)."""
    units = [f"p{i + 1}" for i in range(players)]
    started, cpu = time.perf_counter(), time.process_time()
    schedule = fixed_schedule(units, rounds=rounds, table_size=table_size, seed=seed)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    quality = measure(schedule)
    name, exact = exact_construction(players, TableShape.for_table_size(table_size), rounds)
    if not exact:
        method = "local search"
    elif len(exact) < rounds:
        method = f"{name} ({len(exact)} rounds) + local search"
    else:
        method = name
    return {"method": method, "quality": quality, "seconds": elapsed, "cpu": cpu}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.seating", description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--all", action="store_true", help="seat every classic small field and print a table")
    args = parser.parse_args(argv)
    console = Console(width=max(Console().width, 132))  # the --all table is wide; never squeeze it into columns
    if args.all:
        table = RichTable(title=f"classic fields, seed {args.seed!r}", show_header=True)
        for col in ("players", "table size", "rounds", "method", "repeated pairs", "max meetings",
                    "max seat spread", "mean seat spread", "seconds", "cpu s"):
            table.add_column(col, justify="left" if col == "method" else "right", no_wrap=col == "method")
        for players, size, rounds in CLASSIC:
            got = run(players, size, rounds, args.seed)
            q = got["quality"]
            table.add_row(str(players), str(size), str(rounds), str(got["method"]), str(q.repeated_pairs),
                          str(q.max_meetings), str(q.max_seat_spread), f"{q.mean_seat_spread:.2f}",
                          f"{got['seconds']:.2f}", f"{got['cpu']:.2f}")
        console.print(table)
        return 0
    got = run(args.players, args.table_size, args.rounds, args.seed)
    quality = got["quality"]
    console.print(f"fixed schedule: {args.players} players, tables of {args.table_size}, {args.rounds} rounds, "
                  f"seed {args.seed!r}: {got['method']}")
    console.print(figures_table([("seconds to seat", round(got["seconds"], 3)), ("cpu seconds", round(got["cpu"], 3)),
                                 *quality.as_rows()]))
    ok = quality.max_meetings <= 1
    console.print("no pair met twice" if ok else f"[red]{quality.repeated_pairs} pairs met more than once[/red]")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
