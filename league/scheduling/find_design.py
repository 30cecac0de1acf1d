"""`python -m league.scheduling.find_design`: search a base parallel class for a developed design (see `designs`).

    python -m league.scheduling.find_design --finite 14 --infinities 1 --table-size 3 --step 2 --rounds 7

prints the base class found (or "none found", exit 1) and checks its development has no pair twice.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from .designs import DevelopedDesign, covered_twice, search_base_class


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m league.scheduling.find_design",
                                     description="search a base parallel class for a developed resolvable design")
    parser.add_argument("--finite", type=int, required=True)
    parser.add_argument("--infinities", type=int, default=0)
    parser.add_argument("--table-size", type=int, required=True)
    parser.add_argument("--step", type=int, default=1)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--node-limit", type=int, default=200_000)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    base = search_base_class(args.finite, args.infinities, args.table_size, args.step, args.rounds,
                             seed=args.seed, node_limit=args.node_limit)
    print(f"{time.perf_counter() - started:.1f} s")
    if base is None:
        print("none found")
        return 1
    print(base)
    design = DevelopedDesign("found", args.finite, args.infinities, args.step, args.rounds, base)
    print("pairs covered twice:", covered_twice(design.develop()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
