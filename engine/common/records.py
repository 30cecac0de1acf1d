"""What every game's records share: the replay error, the comparison of a given record with the derived one, and
the fairness attestation a replay carries over untouched."""

from __future__ import annotations

from typing import Any

# Not rules: what the server attests about the deal. Replays carry them over untouched;
# engine.fairness.verify_record checks them.
ATTESTATION_FIELDS = ("commitment", "reveal")


class ReplayError(Exception):
    """A record that cannot be replayed: the first illegal choice, with where it happened."""

    def __init__(self, message: str, *, rule: str | None = None, round: int | None = None,
                 trick: int | None = None, seat: int | None = None):
        self.rule, self.round, self.trick, self.seat, self.message = rule, round, trick, seat, message
        where = ", ".join(
            f"{k} {v}" for k, v in (("round", round), ("trick", trick), ("seat", seat)) if v is not None
        )
        super().__init__(" ".join(x for x in (f"[{rule}]" if rule else "", f"{where}:" if where else "", message) if x))


def differences(given: Any, derived: Any, path: str = "") -> list[str]:
    """Paths where `given` says something other than `derived`; fields `given` lacks are not compared."""
    if isinstance(given, dict) and isinstance(derived, dict):
        out = []
        for key, value in given.items():
            if key not in derived:
                out.append(f"{path}/{key}: not derivable from the rules")
            else:
                out.extend(differences(value, derived[key], f"{path}/{key}"))
        return out
    if isinstance(given, list) and isinstance(derived, list):
        if len(given) != len(derived):
            return [f"{path}: {len(given)} entries, the rules give {len(derived)}"]
        out = []
        for i, (a, b) in enumerate(zip(given, derived)):
            out.extend(differences(a, b, f"{path}/{i}"))
        return out
    if given != derived:
        return [f"{path}: record says {given!r}, the rules give {derived!r}"]
    return []


def carry_attestation(given: dict[str, Any], derived: dict[str, Any]) -> dict[str, Any]:
    """`derived` with the given record's commitment and reveal, which no rule derives, copied over."""
    for name in ATTESTATION_FIELDS:
        if name in given:
            derived[name] = given[name]
    return derived
