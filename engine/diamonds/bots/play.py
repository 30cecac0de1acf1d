"""The loop that lets Diamonds bots play a game to its end."""

from __future__ import annotations

from collections.abc import Sequence

from ...common.bot import Bot
from ..game import PLAY, Game
from ..view import SeatView


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Let `bots[seat]` make every pending decision until the game is over."""
    views = [SeatView(game, s) for s in range(game.n)]
    deciders = [bot.decide for bot in bots]
    # game.play and game.apply are called as methods, not kept as bound ones: the compiled build calls them
    # straight in C (bots/play.pxd), and that is only open to a method call on the typed game.
    while True:
        if game.phase is PLAY:  # the hot path: one seat owes a card; no Pending needed to know which
            seat = game._order[game._pos]
            decision = deciders[seat](views[seat])
            if decision.kind is PLAY:  # what apply does with it, one call sooner
                game.play(seat, decision.value)
            else:
                game.apply(seat, decision)
            continue
        pending = game.pending
        if pending is None:
            return game
        for seat in pending.seats:
            game.apply(seat, deciders[seat](views[seat]))
