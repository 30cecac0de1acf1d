"""The random bot: a uniformly random legal decision. The baseline every other bot must beat."""

from __future__ import annotations

from ..fastrandom import below
from ..game import PASS_CARDS, PLAY, Decision
from ..view import SeatView
from .base import Bot

_play = Decision.play


class RandomBot(Bot):
    name = "random"

    def decide(self, view: SeatView) -> Decision:
        pending = view.pending
        legal = view.legal
        kind = pending.kind
        if kind is PLAY:  # the hot path of every benchmark and playout: one draw, one cached decision
            return _play(legal[below(self.rng, len(legal))])
        if kind == PASS_CARDS:
            return Decision(PASS_CARDS, tuple(self.rng.sample(legal, pending.count)))
        return Decision(kind, legal[below(self.rng, len(legal))])
