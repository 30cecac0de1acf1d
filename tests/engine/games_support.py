"""Helpers shared by the tests of the newer games (test_diamoniak.py, test_ringrace.py), which drive a game
through the games registry (`engine.games`): decisions in a row, refusals that change nothing, bots playing
with checks after every move, records that replay, the heuristic's share of wins, the CLI's play and replay.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from engine.errors import IllegalDecision
from engine.games import game_type

# HYPOTHESIS_PROFILE=thorough (tests/engine/conftest.py) plays many more random games, for a nightly run
THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"


def random_games_settings(max_examples: int) -> settings:
    """Hypothesis settings for properties over whole random games: reproducible, no deadline."""
    return settings(max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)


def do(game: Any, *decisions: Any) -> None:
    """Apply `decisions` in order, each for the seat whose turn it is."""
    for d in decisions:
        game.apply(game.seat, d)


def refusal_checker(snapshot: Callable[[Any], str]) -> Callable[[Any, str, int, object], None]:
    """`refused(game, rule, seat, decision)`: applying `decision` raises IllegalDecision naming `rule`, and
    `snapshot(game)` is what it was before."""

    def refused(game: Any, rule: str, seat: int, decision: object) -> None:
        before = snapshot(game)
        with pytest.raises(IllegalDecision) as e:
            game.apply(seat, decision)
        assert e.value.rule == rule, e.value
        assert snapshot(game) == before

    return refused


def random_bots(game_name: str, players: int, seed: object = None) -> list:
    """Random bots seeded by seat (`f"{seed}/{seat}"`, or the seat alone without a seed)."""
    kind = game_type(game_name)
    return [kind.make_bot("random", seed=s if seed is None else f"{seed}/{s}") for s in range(players)]


def advance(game_name: str, game: Any, bots: Sequence, moves: int) -> None:
    """Let `bots` make the next `moves` decisions of `game`."""
    view = game_type(game_name).view
    for _ in range(moves):
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(view(game, seat)))


def play_checking_every_move(game_name: str, game: Any, bots: Sequence, check: Callable[[Any], None]) -> None:
    """Let `bots` play `game` to its end; each decision must be legal, and `check(game)` holds after each."""
    view = game_type(game_name).view
    while game.pending is not None:
        seat = game.pending.seats[0]
        decision = bots[seat].decide(view(game, seat))
        assert decision in game.legal(seat)
        game.apply(seat, decision)
        check(game)


def assert_replays_to_the_same_game(game_name: str, game: Any, snapshot: Callable[[Any], str]) -> None:
    """The record of `game`, through JSON, replays with no disagreement into a game with the same snapshot."""
    kind = game_type(game_name)
    record = json.loads(json.dumps(kind.to_record(game)))
    again, derived, diffs = kind.replay(record)
    assert diffs == [] and derived == record and snapshot(again) == snapshot(game)


def assert_heuristic_beats_random(game_name: str, players: int, share: float, games: int = 120) -> None:
    """The heuristic bot in one seat (rotating) against random bots wins more than `share` of `games`; a
    shared win counts its share."""
    kind = game_type(game_name)
    wins = 0.0
    for i in range(games):
        kinds = ["random"] * players
        kinds[i % players] = "heuristic"
        bots = [kind.make_bot(k, seed=f"duel-{i}/{s}") for s, k in enumerate(kinds)]
        game = kind.play_game(kind.new_game(players, f"duel-{i}"), bots)
        if i % players in game.result.winners:
            wins += 1 / len(game.result.winners)
    assert wins > share * games, wins


def check_what_legal_leaves_out_is_refused(game_name: str, seed: int, players: int, universe: Sequence,
                                           state: Callable[[Any], tuple], *, rule_prefix: str,
                                           probe_share: float) -> None:
    """Play a random game; before a `probe_share` of its moves (and once it is over) try decisions of
    `universe` that `legal` leaves out, and a legal one by the wrong seat: each is refused with a rule id
    starting with `rule_prefix`, and `state(game)` is unchanged."""
    kind = game_type(game_name)
    game = kind.new_game(players, f"illegal-{seed}")
    rng = random.Random(seed)
    bots = random_bots(game_name, players, seed)
    while True:
        seat = game.pending.seats[0] if game.pending else 0
        legal = game.legal(seat)
        if rng.random() < probe_share or game.over:
            attempts = [(seat, d) for d in rng.sample(universe, 8) if d not in legal]
            attempts.append(((seat + 1) % players, rng.choice(legal or universe)))
            for s, d in attempts:
                before = state(game)
                with pytest.raises(IllegalDecision) as e:
                    game.apply(s, d)
                assert e.value.rule[:2] == rule_prefix and state(game) == before
        if game.over:
            break
        game.apply(seat, bots[seat].decide(kind.view(game, seat)))


def cli_play_then_replay(tmp_path, capsys, play_args: list[str]) -> dict:
    """`diamonds play ...` prints a record; `diamonds replay` of it prints the same record. Returns it."""
    from engine.cli import main

    assert main(["play", *play_args]) == 0
    out = capsys.readouterr().out
    path = tmp_path / "r.json"
    path.write_text(out, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    record = json.loads(out)
    assert json.loads(capsys.readouterr().out) == record
    return record


def check_the_first_player_drawn_from_the_seed(game_name: str, rule: str, tmp_path, capsys) -> None:
    """`diamonds replay` refuses (exit 1, naming `rule`) a record carrying a seed whose first player the seed
    never drew; a record of a game given its first player says so (`first_player_given`) and replays."""
    from engine.cli import main

    kind = game_type(game_name)

    def cli_replay(record: dict) -> tuple[int, str]:
        path = tmp_path / "record.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        code = main(["replay", str(path)])
        return code, capsys.readouterr().err

    seed = f"first-player/{game_name}"
    drawn = kind.new_game(3, seed)
    kind.play_game(drawn, [kind.make_bot("random", seed=s) for s in range(3)])
    record = kind.to_record(drawn)
    assert "first_player_given" not in record and cli_replay(record) == (0, "")
    for other in sorted({0, 1, 2} - {drawn.first_player}):
        forged = {**record, "first_player": other}
        code, err = cli_replay(forged)
        assert code == 1 and f"refused: [{rule}]" in err and f"the seed draws seat {drawn.first_player}" in err, err
    for hostile in (True, "1", -1, 3, 1.0):
        code, err = cli_replay({**record, "first_player": hostile})
        assert code == 1 and f"[{rule}]" in err, (hostile, err)

    given = kind.new_game(3, seed, first_seat=(drawn.first_player + 1) % 3)
    kind.play_game(given, [kind.make_bot("random", seed=s) for s in range(3)])
    record = kind.to_record(given)
    assert record["first_player_given"] is True and cli_replay(record) == (0, "")
    unmarked = {k: v for k, v in record.items() if k != "first_player_given"}
    for mark in (None, "yes", 1, False):  # only a true mark says the first player was given
        code, err = cli_replay(unmarked if mark is None else {**unmarked, "first_player_given": mark})
        assert code == 1 and f"[{rule}]" in err, mark
