"""The Diamoniak referee: one game from the shuffle to the result, one decision at a time (OTHER-GAMES.md K-...).

Same shape as the Diamonds `Game`: `pending` says whose decision it is and of what kind, `legal(seat)` lists
the complete decisions open to that seat, `apply(seat, decision)` checks everything before it writes anything,
so a refused decision (IllegalDecision naming the K- rule) leaves the game untouched. Everything without a
choice (where a drawn card goes, forced witch discards, reshuffles, the next turn) happens inside `apply`.

Pending kinds:
- "turn": the start of a turn: `draw`, `buy` (K-BUY-1: the three diamond cards go to the seller's side pile, or
  to the discard pile under a ruleset of `buy_pays="discard"`, the rule before the spec's correction) or, when
  no card can be drawn, `pass` (K-DECK-1);
- "draw_more": after a draw that was not a witch: `draw` again or `stop` (K-TURN-1);
- "witch": a witch was drawn: `fairy` (only before the first discard) or `discard` one card; `pending.count`
  is how many cards the witch still takes (K-WITCH-1).

K-CASTLE-1 (Decision): the rulebook's "il pourra s'en débarrasser" for off-colour castle cards means being bought
(K-BUY-1) or taken by a witch (K-WITCH-1); a `discard` of one at any other time is refused naming K-CASTLE-1.

Decisions where OTHER-GAMES.md and the seed are silent (also in the report of issue 7):
- The witch's three cards are discarded one decision at a time (the same choice as three at once, without
  listing every triple); when what is left is forced (no fairy, no more cards than the witch takes) it is
  discarded without asking, and a witch that finds no cards at all just goes to the discard pile.
- A buyer pays with any three of their diamond cards; they are alike, so the lowest ids go.
- The draw pile is refilled from the discard pile when a draw needs it (K-DECK-1), shuffled by the seed and
  the reshuffle's number. When both are empty, a player may still buy, or passes (the pass is a decision
  like the others, so the record shows it); a drawing player whose piles run out must stop.
- Every card but those in the draw pile is public: castles and side piles lie face up, the discard pile is
  built of shown cards. So a seat's view hides only the draw pile's order.
- A turn ends with a witch, a purchase, a stop or a pass; after `max_turns` (200) turns without a complete
  castle the game ends and seats rank by castle size, then diamond cards; a tie on both shares the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..common.pending import Pending
from ..common.referee import OVER, ChoicesReferee, card_places, cards_on_top, one_seat_pending, ranked_places
from ..errors import IllegalDecision
from ..fastrandom import seeded_shuffle
from .rules import (
    CARD_COUNT,
    CARD_KINDS,
    CARD_NAMES,
    CASTLE,
    CASTLE_CARDS,
    CASTLE_SIZE,
    COLOURS,
    FIRST_DIAMOND,
    FIRST_FAIRY,
    FIRST_WITCH,
    PRICE,
    SELLER,
    WITCH,
    WITCH_TOLL,
    Ruleset,
    card_name,
    colour_of,
    kind_of,
    parse_card,
)

TURN, DRAW_MORE, WITCH_PHASE = "turn", "draw_more", "witch"
DRAW, STOP, BUY, PASS, USE_FAIRY, DISCARD = "draw", "stop", "buy", "pass", "fairy", "discard"
DECISION_KINDS = (DRAW, STOP, BUY, PASS, USE_FAIRY, DISCARD)


@dataclass(frozen=True, slots=True)
class Decision:
    """A seat's answer: `draw`, `stop`, `pass`, `fairy` (value None), `discard` (a card) or `buy` ((seller, card))."""

    kind: str
    value: Any = None

    @staticmethod
    def buy(seller: int, card: int) -> Decision:
        return Decision(BUY, (seller, card))

    @staticmethod
    def discard(card: int) -> Decision:
        return Decision(DISCARD, card)

    def to_json(self) -> dict[str, Any]:
        if self.kind == BUY:
            seller, card = self.value
            return {"kind": BUY, "seller": seller, "card": card_name(card)}
        if self.kind == DISCARD:
            return {"kind": DISCARD, "card": card_name(self.value)}
        return {"kind": self.kind}

    @staticmethod
    def from_json(data: object) -> Decision:
        """Parse `{"kind": "buy", "seller": 1, "card": "red-2"}` and friends; ValueError when malformed."""
        if not isinstance(data, dict):
            raise ValueError("a decision is a JSON object with a 'kind'")
        kind = data.get("kind")
        if kind in (DRAW, STOP, PASS, USE_FAIRY):
            return Decision(kind)
        if kind == DISCARD:
            return Decision(DISCARD, parse_card(data.get("card")))
        if kind == BUY:
            seller = data.get("seller")
            if not isinstance(seller, int) or isinstance(seller, bool):
                raise ValueError("a buy decision needs an integer 'seller' seat")
            return Decision(BUY, (seller, parse_card(data.get("card"))))
        raise ValueError(f"unknown decision kind {kind!r}: expected one of {', '.join(DECISION_KINDS)}")


# Every decision `legal` can list, made once: it lists them on every decision (twice in the league: the worker's
# forced-move check, then the bot), and a Decision is immutable, so the same objects serve every game.
DRAW_DECISION, STOP_DECISION, PASS_DECISION, FAIRY_DECISION = (Decision(k) for k in (DRAW, STOP, PASS, USE_FAIRY))
DISCARD_DECISIONS = tuple(Decision(DISCARD, c) for c in range(CARD_COUNT))
BUY_DECISIONS = {(seller, c): Decision(BUY, (seller, c)) for seller in range(4) for c in range(CASTLE_CARDS)}


class Result(NamedTuple):
    """Per seat: castle sizes, diamond cards, places (1 = best, ties share); the winners; why it ended."""

    winners: list[int]
    castle: list[int]
    diamonds: list[int]
    places: list[int]
    reason: str  # "castle" (K-WIN-1) or "turns" (the 200-turn Decision)


class Game(ChoicesReferee):
    """One game of Diamoniak. Build it with a ruleset and a seed; drive it with `apply`."""

    ruleset: Ruleset
    choices: list[tuple[int, Decision]]
    result: Result | None

    def __init__(self, ruleset: Ruleset, seed: str, seats: Sequence[str] | None = None, *,
                 first_player: int | None = None, deck_top: Sequence[int | str] | None = None):
        """`deck_top`: the first cards to be drawn, in order (ids or names), for exact set-ups; the rest of
        the draw pile keeps the seed's order. A record keeps it, so such a game replays too."""
        super().__init__(ruleset, seed, seats, first_player)  # K-SETUP-1 (Decision): the seed draws the first player
        n = self.n
        draw_pile = list(range(CARD_COUNT))  # the top card is the last
        seeded_shuffle(f"{self.seed}/deck", draw_pile)  # K-SETUP-1: random.Random(f"{seed}/deck").shuffle
        self.deck_top, self.draw_pile = cards_on_top(draw_pile, deck_top, parse_card, "Diamoniak")
        self.discard_pile: list[int] = []
        self.castle: list[list[int]] = [[] for _ in range(n)]
        self.side: list[list[int]] = [[] for _ in range(n)]
        self.colour: list[int | None] = [None] * n
        self.reshuffles = 0
        self.turn = 0  # turns begun before this one
        self.seat = self.first_player  # whose turn it is
        self.draws = 0  # draws in this turn
        self.phase = TURN
        self.witch_due = 0  # cards the witch still takes
        self.witch_taken = 0  # cards the current witch has taken (the fairy is an option only before the first)

    # ---- what is pending -------------------------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        if self.phase == OVER:
            return None
        return one_seat_pending(self.phase, self.seat, self.witch_due if self.phase == WITCH_PHASE else None)

    def holdings(self, seat: int) -> list[int]:
        """The cards a witch may take from `seat`: its castle and its side pile."""
        return self.castle[seat] + self.side[seat]

    def diamonds(self, seat: int) -> list[int]:
        # The diamond cards are the ids FIRST_DIAMOND to FIRST_WITCH - 1 (rules.py): a range test of an int, not a
        # comparison of kind names, on every purchase looked for.
        first, last = FIRST_DIAMOND, FIRST_WITCH
        found = []
        for c in self.side[seat]:
            if first <= c < last:
                found.append(c)
        return found

    def fairies(self, seat: int) -> list[int]:
        first = FIRST_FAIRY  # the fairies are the last ids (rules.py)
        found = []
        for c in self.side[seat]:
            if c >= first:
                found.append(c)
        return found

    def can_draw(self) -> bool:
        return bool(self.draw_pile or self.discard_pile)

    def buy_options(self, seat: int) -> list[tuple[int, int]]:
        """(seller, card) pairs `seat` could buy now if it were the start of its turn (K-BUY-1)."""
        colour = self.colour[seat]
        if colour is None or len(self.diamonds(seat)) < PRICE:
            return []
        # The castle cards of colour k are the ids k * CASTLE_SIZE and the five after (rules.py): one range test
        # picks them, and only they need sorting.
        first = colour * CASTLE_SIZE
        last = first + CASTLE_SIZE
        side = self.side
        options = []
        for other in range(self.n):
            if other != seat:
                cards = []
                for c in side[other]:
                    if first <= c < last:
                        cards.append(c)
                if cards:
                    cards.sort()
                    options += [(other, c) for c in cards]
        return options

    def legal(self, seat: int) -> list[Decision]:
        """Every decision `seat` may make now; [] when it owes none."""
        if self.phase == OVER or seat != self.seat:
            return []
        can_draw = bool(self.draw_pile or self.discard_pile)  # can_draw(), without the call
        if self.phase == TURN:
            options = [DRAW_DECISION if can_draw else PASS_DECISION]
            buys = self.buy_options(seat)
            if buys:
                options += [BUY_DECISIONS[option] for option in buys]
            return options
        if self.phase == DRAW_MORE:
            return [DRAW_DECISION, STOP_DECISION] if can_draw else [STOP_DECISION]
        options = [FAIRY_DECISION] if self.witch_taken == 0 and self.fairies(seat) else []
        options += [DISCARD_DECISIONS[c] for c in sorted(self.castle[seat] + self.side[seat])]  # holdings(seat)
        return options

    # ---- applying decisions ----------------------------------------------------------------------------

    def apply(self, seat: int, decision: Decision) -> None:
        """Apply `decision` for `seat`, or raise IllegalDecision (naming the K- rule) and change nothing."""
        self._take_choice(seat, decision)
        kind = decision.kind
        if kind == DRAW:
            self._draw()
        elif kind == STOP:
            self._event(STOP)
            self._end_turn()
        elif kind == PASS:
            self._event(PASS)
            self._end_turn()
        elif kind == BUY:
            seller, card = decision.value  # _check made sure it is a pair
            self._buy(seller, card)
        elif kind == USE_FAIRY:
            fairy = self.fairies(seat)[0]
            self.side[seat].remove(fairy)
            self.discard_pile.append(fairy)
            self._event(USE_FAIRY, {"card": CARD_NAMES[fairy]})
            self.witch_due = 0
            self._end_turn()
        else:
            self._discard(decision.value)
            self._after_witch_discard()

    def _check(self, seat: int, decision: object) -> None:
        if self.phase == OVER:
            raise IllegalDecision("K-WIN-1", "the game is over")
        if not isinstance(decision, Decision):
            raise IllegalDecision("K-TURN-1", f"{decision!r} is not a Diamoniak decision")
        kind = decision.kind
        if seat != self.seat:
            rule = "K-WITCH-1" if self.phase == WITCH_PHASE else "K-TURN-1"
            raise IllegalDecision(rule, f"it is seat {self.seat}'s turn, not seat {seat!r}'s")
        if self.phase == WITCH_PHASE:
            if kind == USE_FAIRY:
                if not self.fairies(seat):
                    raise IllegalDecision("K-WITCH-1", f"seat {seat} holds no fairy")
                if self.witch_taken:
                    raise IllegalDecision("K-WITCH-1", "the fairy replaces the whole toll, not what is left of it")
                return
            if kind != DISCARD:
                raise IllegalDecision("K-WITCH-1", f"a witch was drawn: discard a card or use a fairy, not {kind!r}")
            card = decision.value
            if type(card) is not int or (card not in self.castle[seat] and card not in self.side[seat]):
                what = _name(decision.value)
                raise IllegalDecision("K-WITCH-1", f"{what} is not in seat {seat}'s castle or side pile")
            return
        if kind == DRAW:
            if not self.can_draw():
                raise IllegalDecision("K-DECK-1", "the draw pile and the discard pile are both empty")
            return
        if kind == STOP:
            if self.phase == TURN:
                raise IllegalDecision("K-TURN-1", "a drawing player must draw at least once before stopping")
            return
        if kind == PASS:
            if self.phase != TURN or self.can_draw():
                raise IllegalDecision("K-DECK-1", "a player passes only when no card can be drawn")
            return
        if kind == BUY:
            self._check_buy(seat, decision.value)
            return
        if kind == DISCARD and self._off_colour(seat, decision.value):
            raise IllegalDecision("K-CASTLE-1", f"{card_name(decision.value)} leaves the side pile only when it is "
                                  "bought or a witch takes it: there is no discard action")
        if kind in (USE_FAIRY, DISCARD):
            raise IllegalDecision("K-WITCH-1", f"{kind!r} answers a witch, and no witch was drawn")
        raise IllegalDecision("K-TURN-1", f"unknown decision kind {kind!r}")

    def _off_colour(self, seat: int, card: object) -> bool:
        """Whether `card` is a castle card in `seat`'s side pile (K-CASTLE-1: not of its colour)."""
        return type(card) is int and card in self.side[seat] and kind_of(card) == CASTLE

    def _check_buy(self, seat: int, value: object) -> None:
        if self.phase != TURN:
            raise IllegalDecision("K-BUY-1", "a purchase replaces drawing: none after a draw, one per turn")
        if not isinstance(value, tuple) or len(value) != 2:
            raise IllegalDecision("K-BUY-1", "a purchase names a seller and a castle card")
        seller, card = value
        if not isinstance(seller, int) or isinstance(seller, bool) or not 0 <= seller < self.n or seller == seat:
            raise IllegalDecision("K-BUY-1", f"seat {seller!r} is not another player")
        colour = self.colour[seat]
        if colour is None:
            raise IllegalDecision("K-BUY-1", f"seat {seat} has no castle colour yet, so nothing to buy")
        if len(self.diamonds(seat)) < PRICE:
            raise IllegalDecision("K-BUY-1", f"a castle card costs {PRICE} diamond cards; seat {seat} has "
                                  f"{len(self.diamonds(seat))}")
        if type(card) is not int or card not in self.side[seller] or kind_of(card) != CASTLE:
            raise IllegalDecision("K-BUY-1", f"{_name(card)} is not a castle card in seat {seller}'s side pile")
        if colour_of(card) != colour:
            raise IllegalDecision("K-BUY-1", f"seat {seat} builds {COLOURS[colour]} and cannot buy {_name(card)}")

    # ---- the flow between decisions --------------------------------------------------------------------

    def _draw(self) -> None:
        seat = self.seat
        if not self.draw_pile:  # K-DECK-1
            self.reshuffles += 1
            self.draw_pile = self.discard_pile
            self.discard_pile = []
            seeded_shuffle(f"{self.seed}/reshuffle-{self.reshuffles}", self.draw_pile)  # Random(...).shuffle
            self._event("reshuffle", {"cards": len(self.draw_pile)})
        card = self.draw_pile.pop()
        self.draws += 1
        kind = CARD_KINDS[card]
        if kind == WITCH:  # K-WITCH-1
            self.discard_pile.append(card)
            self._event(DRAW, {"card": CARD_NAMES[card], "to": "discard"})
            self._witch()
            return
        if kind == CASTLE:  # K-CASTLE-1
            colour = colour_of(card)
            if self.colour[seat] is None and colour not in self.colour:
                self.colour[seat] = colour
                self._event("colour", {"colour": COLOURS[colour]})
            place = "castle" if self.colour[seat] == colour else "side"
        else:  # K-KEEP-1
            place = "side"
        (self.castle if place == "castle" else self.side)[seat].append(card)
        self._event(DRAW, {"card": CARD_NAMES[card], "to": place})
        if place == "castle" and len(self.castle[seat]) == CASTLE_SIZE:
            self._finish("castle")
            return
        self.phase = DRAW_MORE

    def _witch(self) -> None:
        held = self.holdings(self.seat)
        self.witch_due = min(WITCH_TOLL, len(held))
        self.witch_taken = 0
        if self.fairies(self.seat) or len(held) > WITCH_TOLL:
            self.phase = WITCH_PHASE  # a choice: which cards, or the fairy
            return
        for card in sorted(held):  # fewer than the toll, no fairy: all of them, no choice
            self._discard(card)
        self.witch_due = 0
        self._end_turn()

    def _discard(self, card: int) -> None:
        seat = self.seat
        pile = self.castle[seat] if card in self.castle[seat] else self.side[seat]
        pile.remove(card)
        self.discard_pile.append(card)
        self.witch_due -= 1
        self.witch_taken += 1
        source = "castle" if pile is self.castle[seat] else "side"
        self._event(DISCARD, {"card": CARD_NAMES[card], "source": source})

    def _after_witch_discard(self) -> None:
        held = self.holdings(self.seat)
        if self.witch_due and len(held) <= self.witch_due:  # what is left is forced
            for card in sorted(held):
                self._discard(card)
            self.witch_due = 0
        if self.witch_due == 0:
            self._end_turn()

    def _buy(self, seller: int, card: int) -> None:
        seat = self.seat
        paid = sorted(self.diamonds(seat))[:PRICE]
        pays = self.ruleset.buy_pays
        to = self.side[seller] if pays == SELLER else self.discard_pile  # K-BUY-1 as the ruleset's version has it
        for c in paid:
            self.side[seat].remove(c)
            to.append(c)
        self.side[seller].remove(card)
        self.castle[seat].append(card)
        self._event(BUY, {"seller": seller, "card": CARD_NAMES[card], "paid": [CARD_NAMES[c] for c in paid],
                          "paid_to": pays})
        if len(self.castle[seat]) == CASTLE_SIZE:
            self._finish("castle")
            return
        self._end_turn()

    def _end_turn(self) -> None:
        self.turn += 1
        if self.turn >= self.ruleset.max_turns:
            self._finish("turns")
            return
        self.seat = (self.seat + 1) % self.n
        self.draws = 0
        self.phase = TURN

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        castle = [len(c) for c in self.castle]
        diamonds = [len(self.diamonds(s)) for s in range(self.n)]
        keys = [(castle[s], diamonds[s]) for s in range(self.n)]
        if reason == "castle":  # K-WIN-1: the first complete castle wins at once, whatever the others hold
            keys[self.seat] = (CASTLE_SIZE + 1, 0)
        places = ranked_places(keys)
        winners = [s for s in range(self.n) if places[s] == 1]
        self.result = Result(winners, castle, diamonds, places, reason)
        self._event("end", {"reason": reason, "winners": list(winners)})

    # ---- for tests and the record ----------------------------------------------------------------------

    def where(self) -> dict[int, str]:
        """card -> the one place it is in; used by the conservation checks."""
        piles = [("draw", self.draw_pile), ("discard", self.discard_pile)]
        piles += [(f"castle-{s}", self.castle[s]) for s in range(self.n)]
        piles += [(f"side-{s}", self.side[s]) for s in range(self.n)]
        return card_places(piles, card_name)


def _name(card: object) -> str:
    try:
        return card_name(card)  # type: ignore[arg-type]
    except Exception:
        return repr(card)
