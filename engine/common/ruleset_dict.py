"""The dict form of a ruleset that is a frozen dataclass (Diamoniak's, the ring race's): its fields as they are
stored with a match and in records, and back, refusing fields it does not have."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from ..errors import InvalidRuleset


class RulesetDict:
    """`to_dict`/`from_dict` for a dataclass ruleset whose required field is `players` (the others default)."""

    def to_dict(self) -> dict:
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, data: dict) -> Any:
        unknown = set(data) - {f.name for f in fields(cls)}  # type: ignore[arg-type]
        if unknown:
            raise InvalidRuleset(f"unknown ruleset fields: {sorted(unknown)}")
        if "players" not in data:
            raise InvalidRuleset("a ruleset needs 'players'")
        return cls(**data)
