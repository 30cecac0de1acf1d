"""Diamoniak bots: `random` (any legal decision) and `heuristic` (buys when it can, draws while the odds say so).

Every card outside the draw pile is face up, so the draw pile's contents (not its order) are known exactly;
the heuristic bot weighs the chance of a witch against what the next card is worth and what a witch would
take. Bots see the game only through their seat's `SeatView`.

Where a purchase pays the seller (K-BUY-1 as corrected, `buy_pays="seller"`), a castle card of a colour another
player builds is a sale waiting to happen: the heuristic keeps it before fodder when a witch takes cards, and
values drawing it. Paying a seller also arms them, so it buys from the seller furthest from a castle and never
pays a seller who could then buy their sixth card on their next turn (unless its own purchase wins at once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..common.bot import Bot
from ..common.decision_bots import RandomBot as RandomBot  # the game's random bot is the shared one
from ..common.decision_bots import make_named_bot, play_until_over
from .game import (
    BUY,
    DISCARD_DECISIONS,
    DRAW,
    DRAW_DECISION,
    DRAW_MORE,
    FAIRY_DECISION,
    PASS_DECISION,
    STOP_DECISION,
    TURN,
    USE_FAIRY,
    Decision,
    Game,
)
from .rules import (
    CARD_COUNT,
    CARD_KINDS,
    CASTLE,
    CASTLE_SIZE,
    DIAMOND,
    FAIRY,
    FIRST_DIAMOND,
    FIRST_FAIRY,
    FIRST_WITCH,
    PRICE,
    SELLER,
    WITCH,
    WITCH_TOLL,
    colour_of,
    kind_of,
)
from .view import SeatView

OWN_CASTLE, DIAMOND_VALUE, FAIRY_VALUE, FODDER = 10.0, 3.5, 5.0, 0.5
# A castle card another player builds, held where a purchase pays the seller: three diamonds if they buy it,
# discounted for the wait and for the card it gives them.
FOR_SALE = 2.5
# Per card id, the first card of its class: its colour's first castle card, or the first of its kind. The bot weighs
# a card by its kind and (a castle card) its colour alone, so weighing the seven classes weighs every card.
CLASS_OF = tuple(c - c % CASTLE_SIZE if k == CASTLE else {DIAMOND: FIRST_DIAMOND, WITCH: FIRST_WITCH,
                                                         FAIRY: FIRST_FAIRY}[k] for c, k in enumerate(CARD_KINDS))


class HeuristicBot(Bot):
    """Buys a castle card whenever it can; keeps drawing while a card's expected worth beats a witch's cost."""

    name = "heuristic"

    def decide(self, view: SeatView) -> Decision:
        legal = view.legal
        kinds = {d.kind for d in legal}
        pending = view.pending
        assert pending is not None
        if pending.kind == TURN:
            buy = self._best_buy(view, [d for d in legal if d.kind == BUY])
            if buy is not None:  # a sure castle card beats any gamble
                return buy
            return DRAW_DECISION if DRAW in kinds else PASS_DECISION
        if pending.kind == DRAW_MORE:
            if DRAW in kinds and self._worth_drawing(view):
                return DRAW_DECISION
            return STOP_DECISION
        value = self._worths(view, self._value)
        held = sorted(view.castles[view.seat] + view.sides[view.seat], key=lambda c: (value[c], c))
        if USE_FAIRY in kinds:
            toll = sum(value[c] for c in held[:WITCH_TOLL])
            if toll > FAIRY_VALUE:
                return FAIRY_DECISION
        return next(DISCARD_DECISIONS[c] for c in held if DISCARD_DECISIONS[c] in legal)

    def _worths(self, view: SeatView, worth: Callable[[SeatView, int], float]) -> list[float]:
        """`worth(view, card)` (`_value` or `_draw_value`) for every card id, weighed once per class (CLASS_OF):
        a decision weighs seven cards, not each card of a pile again and again."""
        of_class = {first: worth(view, first) for first in sorted(set(CLASS_OF))}
        return [of_class[first] for first in CLASS_OF]

    def _best_buy(self, view: SeatView, buys: list[Decision]) -> Decision | None:
        """The purchase to make, if any. Where the payment is discarded, rob the seller nearest to winning; where
        it goes to the seller, pay the one furthest from a castle, and none who could then buy their last card."""
        if not buys:
            return None
        castles = view.castles
        if view.buy_pays != SELLER:
            return max(buys, key=lambda d: (len(castles[d.value[0]]), -d.value[0], -d.value[1]))
        if len(castles[view.seat]) == CASTLE_SIZE - 1:
            return buys[0]  # this purchase wins at once: whoever is paid cannot use it
        safe = [d for d in buys if not self._arms_a_winner(view, d.value[0])]
        return min(safe, key=lambda d: (len(castles[d.value[0]]), d.value[0], d.value[1])) if safe else None

    def _arms_a_winner(self, view: SeatView, seller: int) -> bool:
        """Whether paying `seller` lets them buy their sixth castle card on their next turn (the payment alone
        makes the price, so what matters is a card of their colour in a side pile other than theirs)."""
        colour = view.colours[seller]
        if colour is None or len(view.castles[seller]) < CASTLE_SIZE - 1:
            return False
        return any(kind_of(c) == CASTLE and colour_of(c) == colour
                   for s, side in enumerate(view.sides) if s != seller for c in side)

    def _for_sale(self, view: SeatView, card: int) -> bool:
        """Whether `card` (a castle card not of this seat's colour) could be sold: another player builds its
        colour and a purchase pays the seller."""
        if view.buy_pays != SELLER:
            return False
        colour = colour_of(card)
        return any(c == colour for s, c in enumerate(view.colours) if s != view.seat)

    def _value(self, view: SeatView, card: int) -> float:
        """What keeping `card` is worth to this seat."""
        kind = kind_of(card)
        if kind == CASTLE:
            if view.colours[view.seat] == colour_of(card):
                return OWN_CASTLE
            return FOR_SALE if self._for_sale(view, card) else FODDER
        if kind == DIAMOND:
            return DIAMOND_VALUE
        if kind == FAIRY:
            return FAIRY_VALUE
        return 0.0

    def _draw_value(self, view: SeatView, card: int) -> float:
        """What drawing `card` would bring (a witch is counted apart)."""
        kind = kind_of(card)
        colours = view.colours
        mine = colours[view.seat]
        if kind == CASTLE:
            if mine is None and colour_of(card) not in colours:
                return OWN_CASTLE
            if mine == colour_of(card):
                return OWN_CASTLE
            return FOR_SALE if self._for_sale(view, card) else FODDER
        if kind == DIAMOND:  # worth most to a builder with a card to buy in sight
            return DIAMOND_VALUE if mine is not None else 1.0
        return FAIRY_VALUE if kind == FAIRY else 0.0

    def _worth_drawing(self, view: SeatView) -> bool:
        seen = {c for pile in (*view.castles, *view.sides, view.discard_pile) for c in pile}
        pool = [c for c in range(CARD_COUNT) if c not in seen] if view.draw_size else view.discard_pile
        if not pool:
            return False
        witches = sum(CARD_KINDS[c] == WITCH for c in pool)
        p_witch = witches / len(pool)
        draw_value = self._worths(view, self._draw_value)
        gain = sum(draw_value[c] for c in pool if CARD_KINDS[c] != WITCH) / len(pool)
        value = self._worths(view, self._value)
        side = view.sides[view.seat]
        held = sorted(value[c] for c in view.castles[view.seat] + side)
        fairy = any(CARD_KINDS[c] == FAIRY for c in side)
        loss = min(FAIRY_VALUE, sum(held[:WITCH_TOLL])) if fairy else sum(held[:WITCH_TOLL])
        diamonds = sum(CARD_KINDS[c] == DIAMOND for c in side)
        if diamonds >= PRICE and view.colours[view.seat] is not None:
            loss += 1.0  # a purchase is waiting for the next turn: do not gamble it away
        return gain > p_witch * (loss + gain)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, seed: str | int = 0, **settings: Any) -> Bot:
    return make_named_bot(BOTS, "Diamoniak", name, seed, settings)


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Let `bots[seat]` make every pending decision until the game is over."""
    return play_until_over(game, bots, SeatView)
