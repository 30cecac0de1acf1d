"""Helpers for the engine tests: deals built from the hands wanted after passing, trick drivers, snapshots."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine import Game, Ruleset, SeatView, parse_card, parse_cards, to_record
from engine.diamonds.bots import make_bot
from engine.diamonds.ruleset import SUPPLY_POINTS

TOTAL_CRYSTALS = SUPPLY_POINTS  # 235 points, wherever they are


def receiver(ruleset: Ruleset, seat: int) -> int:
    """Who `seat` passes to: the left neighbour, or the partner across the table (R-PASS-2, R-TEAM-2)."""
    n = ruleset.players
    return (seat + n // 2) % n if ruleset.partnerships else (seat + 1) % n


def dealt_for(ruleset: Ruleset, after_pass: list[list[str]]) -> list[list[str]]:
    """The dealt hands that become `after_pass` when every seat passes one card.

    The first card of each hand in `after_pass` is the card that seat received; so the giver was dealt it.
    """
    n = ruleset.players
    dealt = [list(h[1:]) for h in after_pass]
    for giver in range(n):
        dealt[giver].insert(0, after_pass[receiver(ruleset, giver)][0])
    return dealt


def game_after_pass(ruleset: Ruleset, after_pass: list[list[str]], *, first_dealer: int = 0,
                    later: list[list[list[str]]] | None = None, seed: str = "test", **kw) -> Game:
    """A game whose first round's hands, after a one-card pass, are exactly `after_pass`."""
    dealt = dealt_for(ruleset, after_pass)
    game = Game(ruleset, seed, deals=[dealt, *(later or [])], first_dealer=first_dealer, **kw)
    pass_one(game, after_pass)
    return game


def pass_one(game: Game, after_pass: list[list[str]]) -> None:
    """Dealer chooses 1; each seat passes the card its receiver should end up with first in `after_pass`."""
    game.choose_pass_count(game.dealer, 1)
    for seat in range(game.n):
        game.pass_cards(seat, [parse_card(after_pass[receiver(game.ruleset, seat)][0])])
    for seat in range(game.n):
        assert sorted(game.hands[seat]) == sorted(parse_cards(after_pass[seat])), seat


def play(game: Game, *cards: str) -> None:
    """Play `cards` in order, each by the seat whose turn it is."""
    for c in cards:
        game.play(game.to_play, parse_card(c))


def snapshot(game: Game) -> str:
    """Everything observable about a game: its record, every seat's view, the move number and the crystals."""
    return json.dumps({
        "record": to_record(game),
        "views": [SeatView(game, s).to_dict() for s in range(game.n)],
        "move_number": game.move_number,
        "pending": repr(game.pending),
        "supply": game.supply, "vault": game.vault, "showroom": game.showroom, "thief": game.thief,
        "hands": [sorted(h) for h in game.hands],
        "passed": [game.passed_by(s) for s in range(game.n)],
        "phase": game.phase, "round": game.round, "dealer": game.dealer, "pass_count": game.pass_count,
        "over": game.over, "result": None if game.result is None else game.result._asdict(),
    }, sort_keys=True)


def crystals(game: Game) -> int:
    return game.supply + sum(game.vault) + sum(game.showroom)


def bots_for(n: int, seed: object) -> list:
    return [make_bot("random", seed=f"{seed}/bot-{s}") for s in range(n)]


def actions(game: Game, round_index: int = -1) -> list[dict]:
    return to_record(game)["rounds"][round_index]["actions"]


def spec_dir() -> Path:
    """The repository's copy of the specification (docs/spec, see its README): a plain clone tests itself."""
    folder = Path(__file__).resolve().parents[2] / "docs" / "spec"
    assert (folder / "RULES.md").is_file(), f"the specification is missing: {folder} has no RULES.md"
    return folder


def rule_ids() -> frozenset[str]:
    """Every rule id of RULES.md."""
    text = (spec_dir() / "RULES.md").read_text(encoding="utf-8")
    return frozenset(re.findall(r"R-[A-Z]+-[0-9A-Z]+", text))


def examples_dir() -> Path:
    folder = spec_dir() / "examples"
    assert folder.is_dir(), f"the example records are missing: {folder} is not a folder"
    return folder


def example_names() -> list[str]:
    try:
        folder = examples_dir()
    except AssertionError:
        return ["<examples folder missing>"]
    names = sorted(p.name.removesuffix(".choices.json") for p in folder.glob("*.choices.json"))
    return names or ["<no *.choices.json in the examples folder>"]


def load(name: str) -> tuple[dict, dict]:
    folder = examples_dir()
    choices_path, full_path = folder / f"{name}.choices.json", folder / f"{name}.json"
    assert choices_path.is_file(), f"missing example {choices_path}"
    assert full_path.is_file(), f"{choices_path.name} has no full record {full_path.name} beside it"
    return json.loads(choices_path.read_text(encoding="utf-8")), json.loads(full_path.read_text(encoding="utf-8"))


ALL_RULESETS = {
    "2p": Ruleset(2),
    "3p-thief": Ruleset(3),
    "3p-choose": Ruleset(3, clubs="choose"),
    "4p-thief": Ruleset(4),
    "4p-choose": Ruleset(4, clubs="choose"),
    "5p-thief": Ruleset(5),
    "5p-choose": Ruleset(5, clubs="choose"),
    "6p-thief": Ruleset(6),
    "6p-choose": Ruleset(6, clubs="choose"),
    "4p-partners": Ruleset(4, partnerships=True),
    "6p-partners": Ruleset(6, partnerships=True),
    "2p-perfect": Ruleset(2, perfect=True),
    "3p-perfect": Ruleset(3, perfect=True),
    "4p-perfect": Ruleset(4, perfect=True),
    "5p-perfect": Ruleset(5, perfect=True),
    "3p-perfect-choose": Ruleset(3, perfect=True, clubs="choose"),
}
