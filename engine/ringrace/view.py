"""What one ring race seat may see: the board as the table knows it, everyone's rings, the card shown.

Hidden while the game runs: which positions still holding a diamond are loose and which fixed (only fixed
positions that a try revealed are known) and the deck's order. Once the game is over the board is revealed.
"""

from __future__ import annotations

from typing import Any

from ..game import Pending
from .game import Decision, Game
from .rules import POSITIONS, card_name, is_ring, value_of

EMPTY, FIXED_KNOWN, UNKNOWN, LOOSE_SHOWN = "empty", "fixed", "unknown", "loose"


class SeatView:
    """A read-only window on a ring race for one seat."""

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
    def board(self) -> list[str]:
        """Per position: "empty", "fixed" (seen), or "unknown"; after the game "fixed" or "loose" for all."""
        g = self._game
        out = []
        for p in range(POSITIONS):
            if not g.on_board[p]:
                out.append(EMPTY)
            elif p in g.revealed or (g.over and p in g.fixed):
                out.append(FIXED_KNOWN)
            else:
                out.append(LOOSE_SHOWN if g.over else UNKNOWN)
        return out

    @property
    def card(self) -> int | None:
        """The card shown this turn, waiting for its decision."""
        return self._game.card

    @property
    def rings(self) -> list[list[tuple[int, bool]]]:
        """Per seat, each ring card (in the order drawn) and whether it holds a diamond."""
        g = self._game
        return [[(c, c in g.set_rings[s]) for c in g.rings[s]] for s in range(g.n)]

    def totals(self) -> list[int]:
        """Dollars per seat so far (G-SCORE-1)."""
        g = self._game
        debts = g.ruleset.debts
        return [sum(value_of(c) if c in g.set_rings[s] else (-value_of(c) if debts else 0) for c in g.rings[s])
                for s in range(g.n)]

    @property
    def deck_size(self) -> int:
        return len(self._game.deck)

    def to_dict(self) -> dict[str, Any]:
        """The JSON a client gets for this seat."""
        g = self._game
        pending = g.pending
        data: dict[str, Any] = {
            "game": "ringrace",
            "seat": self.seat,
            "seats": list(g.seats),
            "ruleset": g.ruleset.to_dict(),
            "move_number": g.move_number,
            "turn": g.turn,
            "to_play": None if g.over else g.seat,
            "board": self.board,
            "deck_size": len(g.deck),
            "card": None if g.card is None else card_name(g.card),
            "card_is_ring": None if g.card is None else is_ring(g.card),
            "rings": [[{"card": card_name(c), "value": value_of(c), "set": s} for c, s in seat_rings]
                      for seat_rings in self.rings],
            "aside": [card_name(c) for c in g.aside],
            "totals": self.totals(),
            "events": [dict(e) for e in g.events],
            "pending": None if pending is None else {"kind": pending.kind, "seats": list(pending.seats)},
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
    return {"totals": list(r.totals), "set_rings": list(r.set_rings), "places": list(r.places),
            "winners": list(r.winners), "reason": r.reason}
