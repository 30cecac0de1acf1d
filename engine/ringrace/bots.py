"""Ring race bots: `random` (any legal decision) and `heuristic` (never tries a position known to be fixed;
steals the most valuable diamond from whoever leads).

All positions not yet tried or seen fixed are alike to a player (the board was spun with eyes closed), so the
heuristic's only edge in a try is to skip what the table has already seen. Bots see the game only through
their seat's `SeatView`.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bots.base import Bot
from .game import STEAL, TRY, Decision, Game
from .view import UNKNOWN, SeatView


class RandomBot(Bot):
    """A uniformly random legal decision: the baseline."""

    name = "random"

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]


class HeuristicBot(Bot):
    name = "heuristic"

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        pending = view.pending
        assert pending is not None
        if pending.kind == TRY:
            board = view.board
            unknown = [d for d in legal if board[d.value] == UNKNOWN]
            pool = unknown or legal
            return pool[self.rng.randrange(len(pool))]
        assert pending.kind == STEAL
        totals = view.totals()
        # the most valuable diamond, from the richest victim: it gains as much and hurts the leader most
        return max(legal, key=lambda d: (d.value[1], totals[d.value[0]], -d.value[0]))


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, seed: str | int = 0, **settings) -> Bot:
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown ring race bot {name!r}; known bots: {', '.join(sorted(BOTS))}") from None
    return cls(seed=seed, **settings)


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Let `bots[seat]` make every pending decision until the game is over."""
    views = [SeatView(game, s) for s in range(game.n)]
    while (pending := game.pending) is not None:
        seat = pending.seats[0]
        game.apply(seat, bots[seat].decide(views[seat]))  # type: ignore[arg-type]
    return game
