"""The checks every game's ruleset runs on its fields: a whole number within its bounds, a true/false, one of a few
names. A ruleset arrives from JSON (the API, a stored match, a record), so anything may come: each check refuses
with InvalidRuleset naming the field, what it must be and what it got, never a TypeError further in.

The bounds themselves are each game's (engine.diamonds.ruleset, engine.diamoniak.rules, engine.ringrace.rules): one
place per game, beside its rules, so a game with every field in bounds always ends in a bounded number of decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import InvalidRuleset


def _prefix(rule: str | None) -> str:
    return f"{rule}: " if rule else ""


def whole_number(name: str, value: object, low: int, high: int, *, rule: str | None = None) -> int:
    """`value` if it is an int from `low` to `high` (a bool is not a number here: JSON's true is not 1)."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidRuleset(f"{_prefix(rule)}{name} must be a whole number from {low} to {high}, not {value!r}")
    return value


def yes_no(name: str, value: object, *, rule: str | None = None) -> bool:
    if not isinstance(value, bool):
        raise InvalidRuleset(f"{_prefix(rule)}{name} must be true or false, not {value!r}")
    return value


def one_of(name: str, value: object, choices: Sequence[str], *, rule: str | None = None) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InvalidRuleset(f"{_prefix(rule)}{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")
    return value


def fields_of(data: object, known: Sequence[str]) -> dict[str, Any]:
    """`data` as a ruleset's fields: an object whose keys are all `known`, with `players` among them."""
    if not isinstance(data, dict):
        raise InvalidRuleset(f"a ruleset is an object of fields ({', '.join(known)}), not {type(data).__name__}")
    unknown = sorted(str(k) for k in set(data) - set(known))
    if unknown:
        raise InvalidRuleset(f"unknown ruleset fields: {unknown}; the fields are {', '.join(known)}")
    if "players" not in data:
        raise InvalidRuleset("a ruleset needs 'players'")
    return dict(data)
