"""Results of games played with real cards: what a table writes on its score slip, checked against the rules.

A club may play a table offline: the server deals nothing and sees no decision, so all it can check is that the
figures a table enters could have come out of a game played by the rules. Each game's folder has one pure
function (`offline.check_result`, reached through its GameType's `check_offline_result`) that takes the game's
ruleset and the entry (a dict as a form or the API sends it) and returns the same result a played game stores
(`OfflineResult`: the game's result JSON, as its record's "result", and per seat the standing's score, tie-break,
place and winner flag), or raises `InvalidResult` listing every problem, each with the field it is about and the
rule id where a rule decides it. Every list of an entry has one number per seat (per team with Diamonds
partnerships); this module holds what the games' checks share.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

# A figure larger than any game could give is refused before any sum is made of it.
MAX_FIGURE = 10**6


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an entry: the field (`vault.2` for seat 3's vault), why, and the rule that says so."""

    field: str
    message: str
    rule: str | None = None

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" if self.rule else self.message


class InvalidResult(ValueError):
    """An entry the rules could not have produced; `problems` lists every reason."""

    def __init__(self, problems: list[Problem]):
        super().__init__("; ".join(f"{p.field}: {p}" for p in problems))
        self.problems = problems


@dataclass(frozen=True)
class OfflineResult:
    """A checked entry: `figures` the entry as stored (its numbers only), `result` the game's result JSON (the record's
    "result" of a played game), and per seat `score`, `tiebreak`, `places`, `winners` as engine.games'
    `standing` gives them (Diamonds adds `showroom`)."""

    figures: dict[str, Any]
    result: dict[str, Any]
    score: list[int]
    tiebreak: list[int]
    places: list[int]
    winners: list[int]
    showroom: list[int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class ResultChecker:
    """Collects problems while reading an entry's fields."""

    def __init__(self, entry: object, allowed: tuple[str, ...], game_title: str):
        self.problems: list[Problem] = []
        if not isinstance(entry, Mapping):
            raise InvalidResult([Problem("result", f"a result is an object of {game_title}'s figures per seat, not "
                                                   f"{type(entry).__name__}")])
        self.entry: Mapping[Any, Any] = entry
        for name in sorted(set(self.entry) - set(allowed)):
            self.fail(str(name), f"{game_title} results have no {name!r}: they give {', '.join(allowed)}")

    def fail(self, field_name: str, message: str, rule: str | None = None) -> None:
        self.problems.append(Problem(field_name, message, rule))

    def numbers(self, name: str, count: int, *, minimum: int | None = 0, what: str = "seat",
                negative_rule: str | None = None, negative_note: str = "", source: Mapping[str, Any] | None = None,
                prefix: str = "") -> list[int] | None:
        """The field as `count` whole numbers (none missing, none below `minimum`), or None after noting why. A
        field of a nested object (a round of Diamonds) is read from `source` and named with `prefix`."""
        value = (self.entry if source is None else source).get(name)
        field_name = prefix + name
        if value is None:
            self.fail(field_name, f"give {name} for every {what} ({count})")
            return None
        if not isinstance(value, list | tuple):
            self.fail(field_name, f"{name} is a list of {count} whole numbers, one per {what}")
            return None
        if len(value) != count:
            self.fail(field_name, f"{name} needs one figure per {what}: {count}, not {len(value)}")
            return None
        out, ok = [], True
        for i, v in enumerate(value):
            if v is None or v == "":
                self.fail(f"{field_name}.{i}", f"{what} {i + 1} has no {name}")
                ok = False
            elif isinstance(v, bool) or not isinstance(v, int):
                self.fail(f"{field_name}.{i}", f"{what} {i + 1}'s {name} must be a whole number, not {v!r}")
                ok = False
            elif minimum is not None and v < minimum:
                self.fail(f"{field_name}.{i}", f"{what} {i + 1}'s {name} cannot be negative ({v}){negative_note}",
                          negative_rule)
                ok = False
            elif abs(v) > MAX_FIGURE:
                self.fail(f"{field_name}.{i}", f"{what} {i + 1}'s {name} is far too large ({v})")
                ok = False
            else:
                out.append(v)
        return out if ok else None

    def seat(self, name: str, seats: int) -> int | None:
        value = self.entry.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
            # Refused here; None lets the game's other checks go on (and name their own problems) without ever
            # computing with a value that is not a seat, and done() refuses the entry.
            self.fail(name, f"{name} is a seat number from 0 to {seats - 1}, not {value!r}")
            return None
        seat: int = value
        return seat

    def done(self) -> None:
        if self.problems:
            raise InvalidResult(self.problems)


__all__ = ["MAX_FIGURE", "InvalidResult", "OfflineResult", "Problem", "ResultChecker"]
