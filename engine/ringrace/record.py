"""`ringrace-record/1`: export a ring race, and replay a record's choices into a checked game.

A record holds the ruleset, the seed (which fixes the board, the deck and the first player), the seats, the first
player, every choice in order, and what the rules derived from them: the events and the result. Replaying
feeds the choices to a fresh `Game`, so the referee's own checks are the checks; the derived parts of the
given record are then compared with the replayed ones, path by path.
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalDecision, InvalidRuleset
from ..record import ReplayError, differences
from .game import Decision, Game
from .rules import Ruleset, card_name
from .view import result_json

FORMAT = "ringrace-record/1"


def to_record(game: Game) -> dict[str, Any]:
    """The whole record of `game` (finished or not) as a JSON-ready dict."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": game.ruleset.to_dict(),
        "seed": game.seed,
        "seats": list(game.seats),
        "first_player": game.first_player,
        **_setup(game),
        "choices": [{"seat": seat, **d.to_json()} for seat, d in game.choices],
        "events": [dict(e) for e in game.events],
    }
    if game.result is not None:
        record["result"] = result_json(game)
    return record


def _setup(game: Game) -> dict[str, Any]:
    """A set-up given instead of drawn from the seed (tests, puzzles): kept so that the record replays."""
    out: dict[str, Any] = {}
    if game.deck_top:
        out["deck_top"] = [card_name(c) for c in game.deck_top]
    if game.given_fixed is not None:
        out["fixed"] = list(game.given_fixed)
    return out


def _given(record: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if record.get("deck_top"):
        out["deck_top"] = record["deck_top"]
    if record.get("fixed") is not None:
        out["fixed"] = record["fixed"]
    return out


def from_record(record: dict[str, Any]) -> Game:
    """Replay a record's choices into a game, checking each against the rules. Raises ReplayError."""
    if not isinstance(record, dict):
        raise ReplayError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise ReplayError(f"unknown format {record.get('format')!r}; expected {FORMAT!r}")
    try:
        ruleset = Ruleset.from_dict(dict(record["ruleset"]))
    except (KeyError, TypeError, ValueError, InvalidRuleset) as e:
        raise ReplayError(f"bad ruleset: {e}", rule="G-SETUP-1") from None
    try:
        game = Game(ruleset, str(record.get("seed", "")), record.get("seats"), first_player=record.get("first_player"),
                    **_given(record))
    except (ValueError, TypeError) as e:
        raise ReplayError(str(e), rule="G-SETUP-1") from None
    choices = record.get("choices") or []
    if not isinstance(choices, list):
        raise ReplayError("choices must be a list")
    for index, choice in enumerate(choices):
        seat = choice.get("seat") if isinstance(choice, dict) else None
        try:
            decision = Decision.from_json(choice)
            game.apply(seat, decision)  # type: ignore[arg-type]
        except IllegalDecision as e:
            raise ReplayError(f"choice {index}: {e.message}", rule=e.rule, seat=seat) from None
        except (ValueError, TypeError) as e:
            raise ReplayError(f"choice {index}: {e}", seat=seat) from None
    return game


def replay(record: dict[str, Any]) -> tuple[Game, dict[str, Any], list[str]]:
    """Replay and check: the game, its whole derived record, and where the given record disagrees with it."""
    game = from_record(record)
    derived = to_record(game)
    return game, derived, differences(record, derived)
