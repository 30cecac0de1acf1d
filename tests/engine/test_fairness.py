"""engine.fairness and `diamonds verify`: the commitment scheme, the deal check, and bots that never see the seed."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from engine import Game, Ruleset, to_record
from engine.cli import main
from engine.diamonds.bots import make_bot, play_game
from engine.diamonds.game import seeded_hands
from engine.diamonds.view import SeatView
from engine.fairness import commitment, new_nonce, new_seed, verify_record
from engine.games import game_type


def committed_record(kind: str = "diamonds", players: int = 4) -> dict:
    """A finished game's record as the league reveals it: commitment, and reveal with seed and nonce."""
    seed, nonce = new_seed(), new_nonce()
    game_kind = game_type(kind)
    game = game_kind.new_game({"players": players}, seed)
    game_kind.play_game(game, [game_kind.make_bot("random", seed=s) for s in range(players)])
    record = game_kind.to_record(game)
    record["commitment"] = commitment(seed, nonce)
    record["reveal"] = {"seed": seed, "nonce": nonce}
    return record


def verify_cli(tmp_path, record: dict, capsys) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    code = main(["verify", str(path)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_the_commitment_is_sha256_of_nonce_colon_seed():
    nonce = "0123456789abcdef0123456789abcdef"
    assert commitment("s33d", nonce) == hashlib.sha256(b"0123456789abcdef0123456789abcdef:s33d").hexdigest()
    with pytest.raises(ValueError):
        commitment("s33d", "not-hex")


def test_seeds_and_nonces_are_fresh_128_bit_values():
    seeds = {new_seed() for _ in range(200)}
    assert len(seeds) == 200 and all(len(s) == 32 and int(s, 16) >= 0 for s in seeds)
    assert len({new_nonce() for _ in range(200)}) == 200


def test_seeded_hands_are_the_engines_own_deal_R_DEAL_1():
    ruleset = Ruleset(4)
    game = Game(ruleset, "some seed")
    assert game.hands == seeded_hands(ruleset, "some seed", 0)


@pytest.mark.parametrize("kind,players", [("diamonds", 4), ("diamonds", 3), ("diamoniak", 3), ("ringrace", 4)])
def test_a_genuine_record_verifies(tmp_path, capsys, kind, players):
    record = committed_record(kind, players)
    assert verify_record(record)[0] == []
    code, out = verify_cli(tmp_path, record, capsys)
    assert code == 0, out
    assert "verified" in out
    assert main(["replay", "--verify", str(tmp_path / "record.json")]) == 0


def test_a_changed_seed_fails(tmp_path, capsys):
    record = committed_record()
    record["seed"] = record["reveal"]["seed"] = new_seed()
    code, out = verify_cli(tmp_path, record, capsys)
    assert code == 1 and "commitment does not match" in out and "not the one the seed deals" in out


def test_a_changed_deal_fails(tmp_path, capsys):
    record = committed_record()
    hands = record["rounds"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # two cards swapped between seats 0 and 1
    code, out = verify_cli(tmp_path, record, capsys)
    assert code == 1 and "round 1, seat 0" in out and "round 1, seat 1" in out


def test_a_changed_commitment_fails(tmp_path, capsys):
    record = committed_record("ringrace")
    record["commitment"] = hashlib.sha256(b"something else").hexdigest()
    code, out = verify_cli(tmp_path, record, capsys)
    assert code == 1 and "commitment does not match" in out


def test_a_revealed_seed_that_is_not_the_records_fails():
    record = committed_record("diamoniak")
    record["reveal"] = {**record["reveal"], "seed": new_seed()}
    problems, _ = verify_record(record)
    assert any("is not the record's seed" in p for p in problems)


def test_a_set_up_given_instead_of_drawn_fails():
    record = committed_record("diamoniak")
    record["deck_top"] = ["x"]
    problems, _ = verify_record(record)
    assert any("instead of drawing it from the seed" in p for p in problems)


def test_records_without_commitment_still_replay_but_do_not_verify(tmp_path, capsys):
    record = committed_record()
    plain = {k: v for k, v in record.items() if k not in ("commitment", "reveal")}
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(plain))
    assert main(["replay", str(path)]) == 0
    capsys.readouterr()
    code, out = verify_cli(tmp_path, plain, capsys)
    assert code == 1 and "no commitment" in out and "no reveal" in out


def test_a_replay_keeps_the_commitment_and_reveal():
    for kind in ("diamonds", "diamoniak"):
        record = committed_record(kind, 3)
        _, derived, disagreements = game_type(kind).replay(copy.deepcopy(record))
        assert disagreements == []
        assert derived["commitment"] == record["commitment"] and derived["reveal"] == record["reveal"]


@pytest.mark.parametrize("bot,settings", [("random", {}), ("greedy", {}), ("search", {"playouts": 24})])
def test_bots_decide_from_their_seat_alone_never_the_seed(bot, settings):
    """The same deals under two different seeds: a bot seeded alike makes the same decisions, so nothing it
    decides depends on the seed (which would give away the later deals and the others' hands)."""
    ruleset = Ruleset(4, rounds=1)
    deals = [seeded_hands(ruleset, "the real deal", 0)]
    games = [Game(ruleset, seed, deals=deals, first_dealer=1) for seed in ("seed one", "seed two")]
    bots = [[make_bot(bot, seed=s, **settings) for s in range(4)] for _ in games]
    while games[0].pending is not None:
        seat = games[0].pending.seats[0]
        decisions = [b[seat].decide(SeatView(g, seat)) for g, b in zip(games, bots)]
        assert decisions[0] == decisions[1]
        for g, d in zip(games, decisions):
            g.apply(seat, d)
    assert games[0].result == games[1].result


def test_diamonds_play_records_carry_no_attestation():
    game = Game(Ruleset(4), "x")
    play_game(game, [make_bot("random", seed=s) for s in range(4)])
    assert "commitment" not in to_record(game) and "reveal" not in to_record(game)


@pytest.mark.parametrize("change", [
    {"ruleset": "x"}, {"ruleset": [1, 2]}, {"rounds": {"a": 1}}, {"rounds": ["text"]}, {"reveal": [1]},
    {"seed": 5}, {"commitment": 5}, {"rounds": [{"hands": 5}]}, {"rounds": [{"hands": [1, 2, 3]}]},
])
def test_a_hostile_record_is_refused_saying_why_never_a_traceback(tmp_path, capsys, change):
    record = {**committed_record(), **change}
    code, out = verify_cli(tmp_path, record, capsys)
    assert code == 1 and "NOT verified" in out
    path = tmp_path / "record.json"
    assert main(["replay", str(path)]) in (0, 1, 2)  # replay judges the rules only; it must not crash either
