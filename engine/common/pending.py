"""What a game waits for next, in the same shape for every game."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pending:
    """The decision the game waits for: its kind, the seats that owe it, and for passing how many cards."""

    kind: str
    seats: tuple[int, ...]
    count: int | None = None
