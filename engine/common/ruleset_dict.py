"""The dict form of a ruleset that is a frozen dataclass (Diamoniak's, the ring race's): its fields as they are
stored with a match and in records, and back, refusing fields it does not have.

When a rule is corrected after games were stored, the correction gets a ruleset field whose dataclass default is
the corrected rule, and `BEFORE_CORRECTION` says what a stored dict *without* that field was played under: a
stored match or an old record reads as the rule it was played under, while a new game (`from_dict(...,
new=True)`, the league's and the command line's way to make one) takes the corrected rule. So no stored row needs
rewriting: absence is the old rule, and every new game stores the field explicitly.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any, ClassVar

from .ruleset_fields import fields_of


class RulesetDict:
    """`to_dict`/`from_dict` for a dataclass ruleset whose required field is `players` (the others default)."""

    # field -> its value for a stored ruleset that lacks it (the rule before the field existed)
    BEFORE_CORRECTION: ClassVar[dict[str, Any]] = {}

    def to_dict(self) -> dict[str, Any]:
        fields: dict[str, Any] = asdict(self)  # type: ignore[call-overload]  # a dataclass mixin
        return fields

    @classmethod
    def from_dict(cls, data: object, *, new: bool = False) -> Any:
        """The ruleset `data` describes (InvalidRuleset naming a field unknown or out of bounds). A stored dict
        (`new` False: a match's, a record's) lacking a field of `BEFORE_CORRECTION` reads as the rule it was played
        under; a new game's (`new`) takes today's default."""
        data = fields_of(data, [f.name for f in fields(cls)])  # type: ignore[arg-type]
        if not new:
            data = {**cls.BEFORE_CORRECTION, **data}
        return cls(**data)
