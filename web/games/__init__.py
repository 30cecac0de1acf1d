"""Each game's presentation on the website, one module per game (diamonds.py, diamoniak.py, ringrace.py, with their
templates in templates/web/games/), found by the game's name: `presenter_for(match.game)`.

A presenter turns the engine view's dict (what league.selectors.live gives a seat or a spectator) into the table a
template draws, a posted form into the game's decision JSON, and a finished record into replay frames. Adding a
game to the website is adding a module here and its line in PRESENTERS.
"""

from __future__ import annotations

from .base import GamePresenter
from .diamonds import DIAMONDS
from .diamoniak import DIAMONIAK
from .ringrace import RINGRACE

PRESENTERS: dict[str, GamePresenter] = {p.name: p for p in (DIAMONDS, DIAMONIAK, RINGRACE)}


def presenter_for(game_name: str) -> GamePresenter:
    """The presentation of the game named `game_name` (a match's, tournament's or ladder's `game`)."""
    try:
        return PRESENTERS[game_name]
    except KeyError:
        raise ValueError(f"the website cannot show the game {game_name!r}; it shows {', '.join(PRESENTERS)}") from None


__all__ = ["PRESENTERS", "GamePresenter", "presenter_for"]
