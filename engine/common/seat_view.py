"""The part of a seat's view every game shares: which seat it is, the decision it owes, and a frame for its JSON.

`SeatViewBase` is the read-only window on a game for one seat with the fields every game's `SeatView` has
(`pending`, `my_turn`, `legal`, `move_number`, `players`, `over`). `ChoicesSeatView` adds the JSON frame of
the newer games (Diamoniak, the ring race): who is at the table and whose turn it is, the game's own table
(`table_json`), the events, the pending decision, the legal decisions and the result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from .pending import Pending
from .referee import result_json


class SeatsGame(Protocol):
    """What every game shows its seats' views."""

    @property
    def n(self) -> int: ...
    @property
    def move_number(self) -> int: ...
    @property
    def pending(self) -> Pending | None: ...
    @property
    def over(self) -> bool: ...
    def legal(self, seat: int) -> list[Any]: ...


class ChoicesGame(SeatsGame, Protocol):
    """What a newer game (engine.common.referee.ChoicesReferee with its rules) shows its seats' views."""

    @property
    def seats(self) -> Sequence[str]: ...
    @property
    def ruleset(self) -> Any: ...
    @property
    def turn(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def events(self) -> Sequence[Mapping[str, Any]]: ...
    @property
    def result(self) -> Any: ...


class SeatViewBase:
    """A read-only window on a game for one seat. Fields are computed on demand (bots read only a few)."""

    __slots__ = ("_game", "seat")
    # Declared for the type checker only (no values: the compiled build declares them in seat_view.pxd); a game's
    # view narrows `_game` to its own Game.
    _game: SeatsGame
    seat: int

    def __init__(self, game: SeatsGame, seat: int):
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
    def legal(self) -> list[Any]:
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


class ChoicesSeatView(SeatViewBase):
    """A seat's view of a game whose `legal` lists complete decisions; `to_dict` is the JSON a client gets.

    A game's view names the game (`game_name`) and fills in `table_json` (what this seat may see of the table);
    `pending_json` may say more about the pending decision than its kind and seats.
    """

    __slots__ = ()
    _game: ChoicesGame
    game_name = ""

    def table_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def pending_json(self, pending: Pending) -> dict[str, Any]:
        return {"kind": pending.kind, "seats": list(pending.seats)}

    def to_dict(self) -> dict[str, Any]:
        """The JSON a client gets for this seat."""
        g = self._game
        pending = g.pending
        data: dict[str, Any] = {
            "game": self.game_name,
            "seat": self.seat,
            "seats": list(g.seats),
            "ruleset": g.ruleset.to_dict(),
            "move_number": g.move_number,
            "turn": g.turn,
            "to_play": None if g.over else g.seat,
            **self.table_json(),
            "events": [dict(e) for e in g.events],
            "pending": None if pending is None else self.pending_json(pending),
            "my_turn": self.my_turn,
            "legal": [d.to_json() for d in self.legal],
            "over": g.over,
        }
        if g.result is not None:
            data["result"] = result_json(g.result)
        return data
