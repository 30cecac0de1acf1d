"""Ring race bots: `random` (any legal decision) and `heuristic` (never tries a position known to be fixed;
steals the most valuable diamond from whoever leads).

All positions not yet tried or seen fixed are alike to a player (the board was spun with eyes closed), so the
heuristic's only edge in a try is to skip what the table has already seen. Bots see the game only through
their seat's `SeatView`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..common.bot import Bot
from ..common.decision_bots import RandomBot as RandomBot  # the game's random bot is the shared one
from ..common.decision_bots import make_named_bot, play_until_over
from .game import STEAL, TRY, Decision, Game
from .view import UNKNOWN, SeatView


class HeuristicBot(Bot):
    name = "heuristic"

    def decide(self, view: SeatView) -> Decision:
        legal: list[Decision] = view.legal
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


def make_bot(name: str, seed: str | int = 0, **settings: Any) -> Bot:
    return make_named_bot(BOTS, "ring race", name, seed, settings)


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Let `bots[seat]` make every pending decision until the game is over."""
    return play_until_over(game, bots, SeatView)
