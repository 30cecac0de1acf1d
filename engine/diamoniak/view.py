"""What one Diamoniak seat may see: everything on the table but the draw pile's order (only its size).

Castles, side piles, colours and the discard pile are face up; drawn cards are shown to all (K-TURN-1). So
the one secret is the order of the draw pile, which no seat sees, not even after the game.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..common.pending import Pending
from ..common.seat_view import ChoicesSeatView
from .game import Game
from .rules import CARD_COUNT, COLOURS, card_name, kind_of


class SeatView(ChoicesSeatView):
    """A read-only window on a Diamoniak game for one seat."""

    __slots__ = ()
    _game: Game
    game_name = "diamoniak"

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

    @property
    def buy_pays(self) -> str:
        """Who gets a purchase's diamond cards (K-BUY-1): "seller", or "discard" in a game stored before the
        correction. The JSON view says it in its `ruleset`."""
        return self._game.ruleset.buy_pays

    def unseen(self) -> Counter[str]:
        """How many cards of each kind the draw pile holds: known, since every other card is face up."""
        g = self._game
        seen = [c for pile in (*g.castle, *g.side, g.discard_pile) for c in pile]
        left = Counter(kind_of(c) for c in range(CARD_COUNT))
        left.subtract(kind_of(c) for c in seen)
        return left

    def table_json(self) -> dict[str, Any]:
        g = self._game
        return {
            "colours": [None if c is None else COLOURS[c] for c in g.colour],
            "castles": [[card_name(c) for c in pile] for pile in g.castle],
            "sides": [[card_name(c) for c in pile] for pile in g.side],
            "discard_pile": [card_name(c) for c in g.discard_pile],
            "draw_size": len(g.draw_pile),
        }

    def pending_json(self, pending: Pending) -> dict[str, Any]:
        return {"kind": pending.kind, "seats": list(pending.seats), "count": pending.count}
