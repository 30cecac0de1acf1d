"""What one ring race seat may see: the board as the table knows it, everyone's rings, the card shown.

Hidden while the game runs: which positions still holding a diamond are loose and which fixed (only fixed
positions that a try revealed are known) and the deck's order. Once the game is over the board is revealed.
"""

from __future__ import annotations

from typing import Any

from ..common.seat_view import ChoicesSeatView
from .game import Game
from .rules import card_name, is_ring, value_of

EMPTY, FIXED_KNOWN, UNKNOWN, LOOSE_SHOWN = "empty", "fixed", "unknown", "loose"


class SeatView(ChoicesSeatView):
    """A read-only window on a ring race for one seat."""

    __slots__ = ()
    _game: Game
    game_name = "ringrace"

    @property
    def board(self) -> list[str]:
        """Per position: "empty", "fixed" (seen), or "unknown"; after the game "fixed" or "loose" for all."""
        g = self._game
        revealed = g.revealed
        if g.over:  # asked once, not once a position (the heuristic bot reads the board on every try)
            fixed = g.fixed
            return [EMPTY if not on else FIXED_KNOWN if p in revealed or p in fixed else LOOSE_SHOWN
                    for p, on in enumerate(g.on_board)]
        return [EMPTY if not on else FIXED_KNOWN if p in revealed else UNKNOWN for p, on in enumerate(g.on_board)]

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

    def table_json(self) -> dict[str, Any]:
        g = self._game
        return {
            "board": self.board,
            "deck_size": len(g.deck),
            "card": None if g.card is None else card_name(g.card),
            "card_is_ring": None if g.card is None else is_ring(g.card),
            "rings": [[{"card": card_name(c), "value": value_of(c), "set": s} for c, s in seat_rings]
                      for seat_rings in self.rings],
            "aside": [card_name(c) for c in g.aside],
            "totals": self.totals(),
        }
