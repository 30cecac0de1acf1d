"""diamonds-record/1: export, import and replay of finished and unfinished games (GAME-RECORD.md)."""

from __future__ import annotations

import json

import pytest

from engine import Game, ReplayError, Ruleset, SeatView, from_record, replay, to_record
from engine.diamonds.bots import play_game

from .support import bots_for, game_after_pass, play, snapshot


def three_choose() -> Game:
    return game_after_pass(Ruleset(3, clubs="choose", hand_size=2, rounds=1),
                           [["H1", "H2"], ["C5", "D1"], ["H9", "S1"]], first_dealer=2)


def test_an_unfinished_game_waiting_for_a_clubs_target_exports_and_imports():
    """R-ACT-C: the record of a game paused on a clubs choice replays to the same pause (GAME-RECORD.md: one
    document holds a finished or unfinished game)."""
    game = three_choose()
    play(game, "H1", "C5")
    assert game.pending.kind == "clubs_target"
    copy = from_record(json.loads(json.dumps(to_record(game))))
    assert copy.pending == game.pending
    assert snapshot(copy) == snapshot(game)
    copy.choose_clubs_target(1, 2)
    game.choose_clubs_target(1, 2)
    assert snapshot(copy) == snapshot(game)


def test_an_unfinished_game_waiting_for_a_majority_clubs_target_exports_and_imports():
    game = game_after_pass(
        Ruleset(4, partnerships=True, hand_size=3, rounds=1),
        [["S9", "C1", "D2"], ["S1", "C9", "D1"], ["S2", "C2", "D9"], ["H1", "H2", "H3"]], first_dealer=3,
    )
    play(game, "S9", "S1", "S2", "H1", "C1", "C9", "C2", "H2")
    game.choose_clubs_target(1, 2)
    play(game, "D1", "D9", "H3", "D2")
    assert game.pending.kind == "clubs_target"  # team 1's majority in clubs
    copy = from_record(to_record(game))
    assert snapshot(copy) == snapshot(game)


def test_a_clubs_target_missing_before_a_later_play_is_still_an_error():
    game = three_choose()
    play(game, "H1", "C5")
    game.choose_clubs_target(1, 2)
    play(game, "H9")
    record = to_record(game)
    record["rounds"][0]["clubs_targets"] = []
    with pytest.raises(ReplayError) as e:
        from_record(record)
    assert (e.value.rule, e.value.round, e.value.trick, e.value.seat) == ("R-ACT-C", 0, 0, 1)


def test_import_keeps_the_move_number_when_clubs_targets_were_forced():
    """With two players every clubs target is forced (only one other showroom): the game takes it without a
    decision, and so must the replayed game, or the move number (which views and clients see) would jump."""
    game = game_after_pass(Ruleset(2, hand_size=4, rounds=1),
                           [["C1", "D9", "H2", "H3"], ["S1", "D4", "D6", "H5"]], first_dealer=0)
    play(game, "D4", "D9", "D6", "C1")  # seat 0 plays a club: seat 1 is robbed without being asked
    assert game.rounds[0].clubs_targets == [1]
    moves = game.move_number
    assert moves == 1 + 2 + 4  # the pass count, two passes, four plays
    copy = from_record(to_record(game))
    assert copy.move_number == moves
    assert SeatView(copy, 0).to_dict() == SeatView(game, 0).to_dict()


def test_import_keeps_the_move_number_of_whole_random_games():
    for seed in range(10):
        game = Game(Ruleset(2), f"moves-{seed}")
        play_game(game, bots_for(2, seed))
        assert from_record(to_record(game)).move_number == game.move_number


def test_replay_reports_where_the_record_disagrees_with_the_rules():
    game = Game(Ruleset(4), "disagree")
    play_game(game, bots_for(4, "disagree"))
    record = json.loads(json.dumps(to_record(game)))
    record["rounds"][1]["tricks"][2]["winner"] = (record["rounds"][1]["tricks"][2]["winner"] + 1) % 4
    record["result"]["score"][0] += 1
    _, derived, disagreements = replay(record)
    assert derived == to_record(game)
    assert len(disagreements) == 2
    assert disagreements[0].startswith("/rounds/1/tricks/2/winner")
    assert disagreements[1].startswith("/result/score/0")


def test_a_record_of_a_game_not_yet_passed_replays():
    game = Game(Ruleset(5), "fresh")
    copy = from_record(to_record(game))
    assert snapshot(copy) == snapshot(game)
    game.choose_pass_count(game.dealer, 3)
    copy = from_record(to_record(game))
    assert snapshot(copy) == snapshot(game)


def test_records_with_bad_choices_are_refused_with_a_rule():
    game = Game(Ruleset(3), "bad")
    play_game(game, bots_for(3, "bad"))
    record = to_record(game)
    bad = json.loads(json.dumps(record))
    bad["rounds"][0]["pass_count"] = 5
    with pytest.raises(ReplayError) as e:
        from_record(bad)
    assert (e.value.rule, e.value.round) == ("R-PASS-1", 0)
    bad = json.loads(json.dumps(record))
    bad["rounds"] = bad["rounds"] * 2
    with pytest.raises(ReplayError) as e:
        from_record(bad)
    assert e.value.rule == "R-ROUNDS-1"
    bad = json.loads(json.dumps(record))
    bad["format"] = "diamonds-record/0"
    with pytest.raises(ReplayError):
        from_record(bad)


def test_exports_and_views_do_not_share_lists_with_the_game():
    """R-SCORE-1: editing an exported record or a view must not change the game's result."""
    game = Game(Ruleset(3), "alias")
    play_game(game, bots_for(3, "alias"))
    before = snapshot(game)
    record = to_record(game)
    record["result"]["score"][0] += 100
    record["result"]["winners"].append(9)
    view = SeatView(game, 0).to_dict()
    view["result"]["vault"][0] += 100
    view["vaults"][1] += 100
    assert snapshot(game) == before
    assert game.result.score[0] < 100


def test_R_ROUND_1_a_record_with_an_unfinished_round_before_another_is_refused():
    game = Game(Ruleset(3), "unfinished-round")
    play_game(game, bots_for(3, "unfinished-round"))
    record = to_record(game)
    record["rounds"][0]["tricks"] = record["rounds"][0]["tricks"][:5]
    with pytest.raises(ReplayError) as e:
        from_record(record)
    assert (e.value.rule, e.value.round) == ("R-ROUND-1", 1)
    assert "round 0 is not finished" in str(e.value)
