"""The `diamonds` command: `diamonds replay FILE` checks a record; `diamonds play` runs one game between bots."""

from __future__ import annotations

import argparse
import json
import sys

from .bots import BOTS, make_bot, play_game
from .errors import InvalidRuleset
from .game import Game
from .record import ReplayError, replay, to_record
from .ruleset import Ruleset


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="diamonds", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p_replay = sub.add_parser("replay", help="check a diamonds-record/1 file and print the whole record")
    p_replay.add_argument("file", help="a record holding at least the choices ('-' for standard input)")

    p_play = sub.add_parser("play", help="play one game between bots and print its record")
    p_play.add_argument("--players", type=int, default=4)
    p_play.add_argument("--seed", default="diamonds")
    p_play.add_argument("--bots", default="", help=f"comma-separated, one per seat (known: {', '.join(BOTS)})")
    p_play.add_argument("--partnerships", action="store_true")
    p_play.add_argument("--perfect", action="store_true")
    p_play.add_argument("--clubs", choices=["thief", "choose"])
    p_play.add_argument("--rounds", type=int)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file)
    return _play(args)


def _replay(path: str) -> int:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        record = json.loads(text)
    except (OSError, json.JSONDecodeError) as e:
        print(f"diamonds replay: cannot read {path}: {e}", file=sys.stderr)
        return 2
    try:
        _, derived, disagreements = replay(record)
    except ReplayError as e:
        print(f"diamonds replay: illegal choice: {e}", file=sys.stderr)
        return 1
    print(json.dumps(derived, indent=1))
    if disagreements:
        count = len(disagreements)
        print(f"diamonds replay: the record disagrees with the rules in {count} place(s):", file=sys.stderr)
        for line in disagreements:
            print(f"  {line}", file=sys.stderr)
        return 1
    return 0


def _play(args) -> int:
    try:
        ruleset = Ruleset(args.players, partnerships=args.partnerships, perfect=args.perfect,
                          clubs=args.clubs, rounds=args.rounds)
    except InvalidRuleset as e:
        print(f"diamonds play: {e}", file=sys.stderr)
        return 2
    names = [b.strip() for b in args.bots.split(",") if b.strip()] or ["random"]
    if len(names) == 1:
        names *= ruleset.players
    if len(names) != ruleset.players:
        n = ruleset.players
        print(f"diamonds play: {n} players need {n} bots, got {len(names)}", file=sys.stderr)
        return 2
    try:
        bots = [make_bot(name, seed=f"{args.seed}/bot-{seat}") for seat, name in enumerate(names)]
    except ValueError as e:
        print(f"diamonds play: {e}", file=sys.stderr)
        return 2
    game = Game(ruleset, args.seed, seats=[f"{name}-{seat}" for seat, name in enumerate(names)])
    play_game(game, bots)
    print(json.dumps(to_record(game), indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
