"""The dict form of a ruleset that is a frozen dataclass (Diamoniak's, the ring race's): its fields as they are
stored with a match and in records, and back, refusing fields it does not have."""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from .ruleset_fields import fields_of


class RulesetDict:
    """`to_dict`/`from_dict` for a dataclass ruleset whose required field is `players` (the others default)."""

    def to_dict(self) -> dict:
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, data: dict) -> Any:
        return cls(**fields_of(data, [f.name for f in fields(cls)]))  # type: ignore[arg-type]
