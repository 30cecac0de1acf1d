"""The `diamonds` command: `diamonds replay FILE` checks a record; `diamonds verify FILE` checks a revealed record's
commitment and deal as well (engine.fairness); `diamonds play` runs one game between bots.

Both speak every game of `engine.games`: `replay` picks the game by the record's `format` field
(diamonds-record/1, diamoniak-record/1, ringrace-record/1); `play --game diamoniak` plays another game.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

from .common.bot import Bot
from .common.records import ReplayError
from .diamonds.bots import BOTS, make_bot, play_game
from .diamonds.game import Game
from .diamonds.record import replay, to_record
from .diamonds.ruleset import Ruleset
from .errors import InvalidRuleset
from .fairness import verify_record
from .games import GAMES, by_format


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="diamonds", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p_replay = sub.add_parser("replay", help="check a record (any game, by its format) and print the whole record")
    p_replay.add_argument("file", help="a record holding at least the choices ('-' for standard input)")
    p_replay.add_argument("--verify", action="store_true", help="also check the commitment and the deal (as verify)")

    p_verify = sub.add_parser("verify", help="check a revealed record: its commitment matches the revealed seed and "
                              "nonce, its deal follows from that seed, and every choice replays")
    p_verify.add_argument("file", help="a record with commitment and reveal ('-' for standard input)")

    p_play = sub.add_parser("play", help="play one game between bots and print its record")
    p_play.add_argument("--game", choices=sorted(GAMES), default="diamonds")
    p_play.add_argument("--players", type=int, default=4)
    p_play.add_argument("--seed", default="diamonds")
    p_play.add_argument("--bots", default="", help=f"comma-separated, one per seat (known: {', '.join(BOTS)})")
    p_play.add_argument("--partnerships", action="store_true")
    p_play.add_argument("--perfect", action="store_true")
    p_play.add_argument("--clubs", choices=["thief", "choose"])
    p_play.add_argument("--rounds", type=int)
    p_play.add_argument("--max-turns", type=int, help="diamoniak: turns before the game ends without a castle")
    p_play.add_argument("--debts", action="store_true", help="ringrace: an empty ring scores minus its value")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return _replay(args.file, verify=args.verify)
    if args.command == "verify":
        return _verify(args.file)
    return _play(args)


def _read_record(path: str, command: str) -> Any:
    """The JSON value in `path` (standard input for "-"), whatever it is: the commands check it, and a replay
    refuses one that is not an object (ReplayError). None, said on standard error, when it cannot be read."""
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
        return json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        print(f"diamonds {command}: cannot read {path}: {e}", file=sys.stderr)
        return None


def _verify(path: str) -> int:
    """Exit 0 when the record's commitment, reveal, deal and choices all check out; 1 saying what differs."""
    record = _read_record(path, "verify")
    if record is None:
        return 2
    if not isinstance(record, dict):
        print("diamonds verify: a record is a JSON object", file=sys.stderr)
        return 2
    try:
        kind = by_format(record.get("format"))
    except ValueError as e:
        print(f"diamonds verify: {e}", file=sys.stderr)
        return 2
    try:
        problems, notes = verify_record(record)
    except (KeyError, TypeError, ValueError, InvalidRuleset) as e:
        problems, notes = [f"the record cannot be read: {e!r}"], []
    try:
        _, _, disagreements = kind.replay(record) if kind.name != "diamonds" else replay(record)
        problems += [f"replay: {line}" for line in disagreements]
    except ReplayError as e:
        problems.append(f"replay: illegal choice: {e}")
    if problems:
        print(f"diamonds verify: NOT verified, {len(problems)} problem(s):", file=sys.stderr)
        for line in problems:
            print(f"  {line}", file=sys.stderr)
        return 1
    for line in notes:
        print(f"ok: {line}")
    print("ok: every choice replays under the rules")
    print(f"verified: the deal of this {kind.title} record was fixed before play and follows from its revealed seed")
    return 0


def _replay(path: str, *, verify: bool = False) -> int:
    if verify:
        return _verify(path)
    record = _read_record(path, "replay")
    if record is None:
        return 2
    try:
        kind = by_format(record.get("format") if isinstance(record, dict) else None)
    except ValueError as e:
        print(f"diamonds replay: {e}", file=sys.stderr)
        return 2
    try:
        _, derived, disagreements = kind.replay(record) if kind.name != "diamonds" else replay(record)
    except ReplayError as e:
        # a refused set-up (a ruleset, a first player the seed never drew) is not a choice: say which it is
        what = "illegal choice" if e.seat is not None or e.round is not None else "refused"
        print(f"diamonds replay: {what}: {e}", file=sys.stderr)
        return 1
    print(json.dumps(derived, indent=1))
    if disagreements:
        count = len(disagreements)
        print(f"diamonds replay: the record disagrees with the rules in {count} place(s):", file=sys.stderr)
        for line in disagreements:
            print(f"  {line}", file=sys.stderr)
        return 1
    return 0


def _play(args: argparse.Namespace) -> int:
    if args.game != "diamonds":
        return _play_other(args)
    try:
        ruleset = Ruleset(args.players, partnerships=args.partnerships, perfect=args.perfect,
                          clubs=args.clubs, rounds=args.rounds)
    except InvalidRuleset as e:
        print(f"diamonds play: {e}", file=sys.stderr)
        return 2
    seated = _seated_bots(args, ruleset.players, make_bot)
    if seated is None:
        return 2
    names, bots = seated
    game = Game(ruleset, args.seed, seats=[f"{name}-{seat}" for seat, name in enumerate(names)])
    play_game(game, bots)
    print(json.dumps(to_record(game), indent=1))
    return 0


def _play_other(args: argparse.Namespace) -> int:
    kind = GAMES[args.game]
    diamonds_only = [flag for flag, used in (("--partnerships", args.partnerships), ("--perfect", args.perfect),
                                             ("--clubs", args.clubs), ("--rounds", args.rounds)) if used]
    other = {"diamoniak": ("--debts", args.debts), "ringrace": ("--max-turns", args.max_turns)}[args.game]
    if diamonds_only or other[1]:
        flags = ", ".join(diamonds_only + ([other[0]] if other[1] else []))
        print(f"diamonds play: {flags} do(es) not apply to {args.game}", file=sys.stderr)
        return 2
    params: dict[str, Any] = {"players": args.players}
    if args.max_turns is not None:
        params["max_turns"] = args.max_turns
    if args.debts:
        params["debts"] = True
    try:
        ruleset = kind.make_ruleset(params)
    except InvalidRuleset as e:
        print(f"diamonds play: {e}", file=sys.stderr)
        return 2
    seated = _seated_bots(args, ruleset.players, kind.make_bot)
    if seated is None:
        return 2
    names, bots = seated
    game = kind.new_game(ruleset, args.seed, seats=[f"{name}-{seat}" for seat, name in enumerate(names)])
    kind.play_game(game, bots)
    print(json.dumps(kind.to_record(game), indent=1))
    return 0


def _seated_bots(args: argparse.Namespace, players: int,
                 make_bot: Callable[..., Bot]) -> tuple[list[str], list[Bot]] | None:
    """The bot names of `--bots` (one name serves every seat; none means random) and one bot per seat, seeded
    by the game's seed and the seat; None, after saying why on standard error, when they do not fit."""
    names = [b.strip() for b in args.bots.split(",") if b.strip()] or ["random"]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        print(f"diamonds play: {players} players need {players} bots, got {len(names)}", file=sys.stderr)
        return None
    try:
        return names, [make_bot(name, seed=f"{args.seed}/bot-{seat}") for seat, name in enumerate(names)]
    except ValueError as e:
        print(f"diamonds play: {e}", file=sys.stderr)
        return None


if __name__ == "__main__":
    sys.exit(main())
