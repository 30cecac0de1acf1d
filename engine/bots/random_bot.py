"""The random bot: a uniformly random legal decision. The baseline every other bot must beat."""

from __future__ import annotations

from ..game import PASS_CARDS, Decision
from ..view import SeatView
from .base import Bot


class RandomBot(Bot):
    name = "random"

    def decide(self, view: SeatView) -> Decision:
        pending = view.pending
        legal = view.legal
        if pending.kind == PASS_CARDS:
            return Decision(PASS_CARDS, tuple(self.rng.sample(legal, pending.count)))
        return Decision(pending.kind, legal[self.rng.randrange(len(legal))])
