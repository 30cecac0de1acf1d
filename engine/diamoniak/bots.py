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

from collections.abc import Sequence

from ..bots.base import Bot
from ..common.decision_bots import RandomBot, make_named_bot, play_until_over
from .game import BUY, DISCARD, DRAW, DRAW_MORE, PASS, STOP, TURN, USE_FAIRY, Decision, Game
from .rules import (
    CARD_COUNT,
    CASTLE,
    CASTLE_SIZE,
    DIAMOND,
    FAIRY,
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
            return Decision(DRAW) if DRAW in kinds else Decision(PASS)
        if pending.kind == DRAW_MORE:
            if DRAW in kinds and self._worth_drawing(view):
                return Decision(DRAW)
            return Decision(STOP)
        held = sorted(view.castles[view.seat] + view.sides[view.seat], key=lambda c: (self._value(view, c), c))
        if USE_FAIRY in kinds:
            toll = sum(self._value(view, c) for c in held[:WITCH_TOLL])
            if toll > FAIRY_VALUE:
                return Decision(USE_FAIRY)
        return Decision(DISCARD, next(c for c in held if Decision(DISCARD, c) in legal))

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
        witches = sum(kind_of(c) == WITCH for c in pool)
        p_witch = witches / len(pool)
        gain = sum(self._draw_value(view, c) for c in pool if kind_of(c) != WITCH) / len(pool)
        held = sorted(self._value(view, c) for c in view.castles[view.seat] + view.sides[view.seat])
        fairy = any(kind_of(c) == FAIRY for c in view.sides[view.seat])
        loss = min(FAIRY_VALUE, sum(held[:WITCH_TOLL])) if fairy else sum(held[:WITCH_TOLL])
        diamonds = sum(kind_of(c) == DIAMOND for c in view.sides[view.seat])
        if diamonds >= PRICE and view.colours[view.seat] is not None:
            loss += 1.0  # a purchase is waiting for the next turn: do not gamble it away
        return gain > p_witch * (loss + gain)


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, seed: str | int = 0, **settings) -> Bot:
    return make_named_bot(BOTS, "Diamoniak", name, seed, settings)


def play_game(game: Game, bots: Sequence[Bot]) -> Game:
    """Let `bots[seat]` make every pending decision until the game is over."""
    return play_until_over(game, bots, SeatView)
