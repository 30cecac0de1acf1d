"""The random bot: a uniformly random legal decision. The baseline every other bot must beat."""

from __future__ import annotations

from typing import cast

from ...common.bot import Bot
from ...common.pending import Pending
from ...fastrandom import below, sample
from ..game import PASS_CARDS, PASS_COUNT, PLAY_DECISION_OF, Decision
from ..view import SeatView


class RandomBot(Bot):
    name = "random"

    def decide(self, view: SeatView) -> Decision:
        cards = view.cards_to_play()
        if cards is not None:  # the hot path of every benchmark: one draw, one ready-made decision
            return PLAY_DECISION_OF[cards[below(self.rng, len(cards))]]
        # Cast, not checked: a bot is asked only for a seat that owes a decision, and a pass of cards has its count.
        pending = cast(Pending, view.pending)
        legal = view.legal
        kind = pending.kind
        if kind == PASS_CARDS:
            return Decision.pass_cards(sample(self.rng, legal, cast(int, pending.count)))
        choice = legal[below(self.rng, len(legal))]
        return Decision.pass_count(choice) if kind == PASS_COUNT else Decision(kind, choice)
