"""What one Diamoniak seat may see: everything on the table but the draw pile's order (only its size).

Castles, side piles, colours and the discard pile are face up; drawn cards are shown to all (K-TURN-1). So
the one secret is the order of the draw pile, which no seat sees, not even after the game.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..game import Pending
from .game import Decision, Game
from .rules import CARD_COUNT, COLOURS, card_name, kind_of


class SeatView:
    """A read-only window on a Diamoniak game for one seat."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int):
        if not 0 <= seat < game.n:
            raise ValueError(f"there is no seat {seat}")
        self._game = game
        self.seat = seat

    @property
    def pending(self) -> Pending | None:
        return self._game.pending

    @property
    def my_turn(self) -> bool:
        p = self._game.pending
        return p is not None and self.seat in p.seats

    @property
    def legal(self) -> list[Decision]:
        return self._game.legal(self.seat)

    @property
    def move_number(self) -> int:
        return self._game.move_number

    @property
    def players(self) -> int:
        return self._game.n

    @property
    def over(self) -> bool:
        return self._game.over

    @property
    def colours(self) -> list[int | None]:
        return list(self._game.colour)

    @property
    def castles(self) -> list[list[int]]:
        return [list(c) for c in self._game.castle]

    @property
    def sides(self) -> list[list[int]]:
        return [list(s) for s in self._game.side]

    @property
    def discard_pile(self) -> list[int]:
        return list(self._game.discard_pile)

    @property
    def draw_size(self) -> int:
        return len(self._game.draw_pile)

    @property
    def turn(self) -> int:
        return self._game.turn

    @property
    def max_turns(self) -> int:
        return self._game.ruleset.max_turns

    def unseen(self) -> Counter:
        """How many cards of each kind the draw pile holds: known, since every other card is face up."""
        g = self._game
        seen = [c for pile in (*g.castle, *g.side, g.discard_pile) for c in pile]
        left = Counter(kind_of(c) for c in range(CARD_COUNT))
        left.subtract(kind_of(c) for c in seen)
        return left

    def to_dict(self) -> dict[str, Any]:
        """The JSON a client gets for this seat."""
        g = self._game
        pending = g.pending
        data: dict[str, Any] = {
            "game": "diamoniak",
            "seat": self.seat,
            "seats": list(g.seats),
            "ruleset": g.ruleset.to_dict(),
            "move_number": g.move_number,
            "turn": g.turn,
            "to_play": g.seat if not g.over else None,
            "colours": [None if c is None else COLOURS[c] for c in g.colour],
            "castles": [[card_name(c) for c in pile] for pile in g.castle],
            "sides": [[card_name(c) for c in pile] for pile in g.side],
            "discard_pile": [card_name(c) for c in g.discard_pile],
            "draw_size": len(g.draw_pile),
            "events": [dict(e) for e in g.events],
            "pending": None if pending is None else {
                "kind": pending.kind, "seats": list(pending.seats), "count": pending.count,
            },
            "my_turn": self.my_turn,
            "legal": [d.to_json() for d in self.legal],
            "over": g.over,
        }
        if g.result is not None:
            data["result"] = result_json(g)
        return data


def result_json(g: Game) -> dict[str, Any]:
    r = g.result
    assert r is not None
    return {"winners": list(r.winners), "castle": list(r.castle), "diamonds": list(r.diamonds),
            "places": list(r.places), "reason": r.reason}
