"""The `diamonds` command: `diamonds replay FILE` and `diamonds play` (GAME-RECORD.md)."""

from __future__ import annotations

import json

import pytest

from engine import Game, Ruleset, replay, to_record
from engine.cli import main
from engine.common.records import differences
from engine.diamonds.bots import play_game

from .support import bots_for, example_names, examples_dir, game_after_pass, load, play


@pytest.mark.parametrize("name", example_names())
def test_replay_prints_the_whole_record_of_each_example(name, capsys):
    _, full = load(name)
    assert main(["replay", str(examples_dir() / f"{name}.choices.json")]) == 0
    out, err = capsys.readouterr()
    printed = json.loads(out)
    assert differences(full, printed) == []
    assert printed["result"] == full["result"]
    assert err == ""


def write(tmp_path, record: dict, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def test_replay_names_round_trick_seat_and_rule_of_an_illegal_play(tmp_path, capsys):
    game = game_after_pass(
        Ruleset(4, hand_size=3, rounds=1),
        [["C1", "H5", "S7"], ["C2", "H9", "D1"], ["C3", "S2", "D15"], ["C4", "H3", "H12"]],
        first_dealer=3,
    )
    play(game, "H5", "H9", "D15", "H3", "D1", "C3", "H12", "S7", "C2", "S2", "C4", "C1")
    assert game.over
    record = to_record(game)
    record["rounds"][0]["tricks"][0]["plays"][1]["card"] = "D1"  # seat 1 holds H9: it must follow hearts
    assert main(["replay", write(tmp_path, record)]) != 0
    out, err = capsys.readouterr()
    assert out == ""
    for part in ("R-FOLLOW-1", "round 0", "trick 0", "seat 1"):
        assert part in err, err


def test_replay_names_where_a_later_illegal_play_is(tmp_path, capsys):
    """A random game's record with one play, deep in round 2, changed to a card that does not follow suit."""
    game = Game(Ruleset(4), "cli-later")
    play_game(game, bots_for(4, "cli-later"))
    record = to_record(game)
    r = record["rounds"][2]
    hands = [list(h) for h in r["hands"]]
    for giver, cards in enumerate(r["passes"]):
        for c in cards:
            hands[giver].remove(c)
            hands[(giver + 1) % 4].append(c)
    found = None
    for t, trick in enumerate(r["tricks"]):
        led = trick["plays"][0]["card"][0]
        for i, p in enumerate(trick["plays"]):
            hand = hands[p["seat"]]
            off = [c for c in hand if c[0] != led]
            if t >= 3 and i > 0 and p["card"][0] == led and off and found is None:
                found = (t, i, p["seat"], off[0])
            hand.remove(p["card"])
    assert found is not None
    t, i, seat, card = found
    r["tricks"][t]["plays"][i]["card"] = card
    assert main(["replay", write(tmp_path, record)]) == 1
    err = capsys.readouterr().err
    for part in ("R-FOLLOW-1", "round 2", f"trick {t}", f"seat {seat}"):
        assert part in err, err


def test_replay_refuses_a_bad_pass_count_naming_round_seat_and_rule(tmp_path, capsys):
    game = Game(Ruleset(3), "cli-pass")
    play_game(game, bots_for(3, "cli-pass"))
    record = to_record(game)
    record["rounds"][1]["pass_count"] = 4
    assert main(["replay", write(tmp_path, record)]) == 1
    err = capsys.readouterr().err
    dealer = record["rounds"][1]["dealer"]
    for part in ("R-PASS-1", "round 1", f"seat {dealer}"):
        assert part in err, err


def test_replay_reports_a_record_that_disagrees_with_the_rules(tmp_path, capsys):
    game = Game(Ruleset(5), "cli-disagree")
    play_game(game, bots_for(5, "cli-disagree"))
    record = to_record(game)
    record["result"]["winners"] = [w + 1 for w in record["result"]["winners"]]
    assert main(["replay", write(tmp_path, record)]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out) == to_record(game)  # the whole record, as the rules give it
    assert "/result/winners" in err


def test_replay_of_an_unreadable_file(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "nothing.json")]) == 2
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    assert main(["replay", str(tmp_path / "bad.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


@pytest.mark.parametrize("args", [
    ["--players", "4", "--seed", "S", "--bots", "random,random,random,random"],
    ["--players", "2", "--seed", "two", "--bots", "random,random", "--perfect"],
    ["--players", "6", "--seed", "six", "--partnerships"],
    ["--players", "3", "--seed", "three", "--clubs", "choose", "--rounds", "2"],
])
def test_play_prints_a_record_that_replays(args, capsys):
    assert main(["play", *args]) == 0
    printed = json.loads(capsys.readouterr().out)
    game, derived, disagreements = replay(printed)
    assert disagreements == []
    assert derived == printed
    assert game.over and "result" in printed
    seed = args[args.index("--seed") + 1]
    assert printed["seed"] == seed
    # the same command prints the same game
    assert main(["play", *args]) == 0
    assert json.loads(capsys.readouterr().out) == printed


def test_play_refuses_a_bad_table(capsys):
    assert main(["play", "--players", "7"]) == 2
    assert main(["play", "--players", "4", "--bots", "random,random"]) == 2
    assert main(["play", "--players", "5", "--partnerships"]) == 2
    assert main(["play", "--players", "4", "--bots", "nobody"]) == 2
    assert capsys.readouterr().out == ""


def test_replay_reads_standard_input(monkeypatch, capsys):
    import io

    choices, full = load("2p")
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(choices)))
    assert main(["replay", "-"]) == 0
    assert differences(full, json.loads(capsys.readouterr().out)) == []
