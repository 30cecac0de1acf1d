"""The ring race referee: one game from the secret board to the result, one decision at a time (G- rules).

Same shape as the Diamonds `Game`: `pending` says whose decision it is, `legal(seat)` lists the complete
decisions open to that seat, `apply(seat, decision)` checks everything before writing anything, so a refused
decision (IllegalDecision naming the G- rule) leaves the game untouched. Drawing is not a choice (G-TURN-1):
the referee draws for the player inside `apply`, sets aside steal cards that cannot be used and draws again.

Pending kinds:
- "try": a ring card was drawn; the player names one board position still holding a diamond (G-RING-1);
- "steal": a steal card was drawn and a steal is possible; the player names (victim seat, ring value)
  (G-STEAL-1).

Decisions where OTHER-GAMES.md and the seed are silent (also in the report of issue 7):
- The first player is drawn from the seed (the seed says "the most feverish").
- A try may name any position still holding a diamond, even one everybody has seen is fixed (the seed
  allows it; it is just a wasted try).
- A steal names a victim and a value: rings of one value are alike, so the diamond leaves the victim's
  earliest set ring of that value and goes on the thief's earliest empty ring of that value. The used steal
  card is set aside, like an unusable one.
- The game ends (G-END-1) when a turn would start with an empty deck or no loose diamond on the board,
  also in the middle of drawing again after an unusable steal card. When it ends the board is revealed.
- Places: by total value (G-SCORE-1, with `debts` an empty ring counts minus its value), then by set rings;
  a tie on both shares the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..common.instances import new_slots
from ..common.pending import Pending
from ..common.referee import OVER, ChoicesReferee, card_places, cards_on_top, one_seat_pending, ranked_places
from ..errors import IllegalDecision
from ..fastrandom import seeded_sample, seeded_shuffle
from .rules import (
    CARD_COUNT,
    CARD_NAMES,
    FIXED,
    LOOSE,
    POSITIONS,
    RING_CARDS,
    RING_VALUES,
    RINGS_PER_VALUE,
    VALUES,
    Ruleset,
    card_name,
    is_ring,
    parse_card,
    value_of,
)

TRY, STEAL = "try", "steal"
DECISION_KINDS = (TRY, STEAL)


@dataclass(frozen=True, slots=True)
class Decision:
    """`try` a board position (value: 0-41) or `steal` (value: (victim seat, ring value in dollars))."""

    kind: str
    value: Any = None

    @staticmethod
    def try_position(position: int) -> Decision:
        return Decision(TRY, position)

    @staticmethod
    def steal(victim: int, value: int) -> Decision:
        return Decision(STEAL, (victim, value))

    def to_json(self) -> dict[str, Any]:
        if self.kind == STEAL:
            victim, value = self.value
            return {"kind": STEAL, "victim": victim, "value": value}
        return {"kind": self.kind, "position": self.value}

    @staticmethod
    def from_json(data: object) -> Decision:
        """Parse `{"kind": "try", "position": 7}` or `{"kind": "steal", "victim": 2, "value": 3000}`."""
        if not isinstance(data, dict):
            raise ValueError("a decision is a JSON object with a 'kind'")
        kind = data.get("kind")
        if kind == TRY:
            position = data.get("position")
            if not isinstance(position, int) or isinstance(position, bool):
                raise ValueError("a try decision needs an integer 'position'")
            return Decision(TRY, position)
        if kind == STEAL:
            victim, value = data.get("victim"), data.get("value")
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in (victim, value)):
                raise ValueError("a steal decision needs an integer 'victim' seat and a ring 'value'")
            return Decision(STEAL, (victim, value))
        raise ValueError(f"unknown decision kind {kind!r}: expected one of {', '.join(DECISION_KINDS)}")


# One try decision per board position, made once: `legal` lists those still holding a diamond on every decision
# (twice in the league: the worker's forced-move check, then the bot), and a Decision is immutable, so the same
# objects serve every game.
TRY_DECISIONS = tuple(Decision(TRY, p) for p in range(POSITIONS))


class Result(NamedTuple):
    """Per seat: dollars (G-SCORE-1), set rings, places (1 = best, ties share); and the winners."""

    totals: list[int]
    set_rings: list[int]
    places: list[int]
    winners: list[int]
    reason: str  # "deck" or "board" (G-END-1)


class Game(ChoicesReferee):
    """One ring race. Build it with a ruleset and a seed; drive it with `apply`."""

    ruleset: Ruleset
    choices: list[tuple[int, Decision]]
    result: Result | None

    def __init__(self, ruleset: Ruleset, seed: str, seats: Sequence[str] | None = None, *,
                 first_player: int | None = None, deck_top: Sequence[int | str] | None = None,
                 fixed: Sequence[int] | None = None):
        """For exact set-ups: `deck_top` are the first cards drawn, in order (ids or names; the rest keep the
        seed's order), `fixed` the 16 fixed positions instead of the seed's. A record keeps both."""
        super().__init__(ruleset, seed, seats, first_player)
        n = self.n
        # G-SETUP-1: the board is spun with everyone's eyes closed
        self.fixed = frozenset(seeded_sample(f"{self.seed}/board", range(POSITIONS), FIXED))  # Random(...).sample
        self.given_fixed = sorted(fixed) if fixed is not None else None
        if self.given_fixed is not None:
            if len(set(self.given_fixed)) != FIXED or not set(self.given_fixed) <= set(range(POSITIONS)):
                raise ValueError(f"G-SETUP-1: fixed must name {FIXED} distinct positions of 0-{POSITIONS - 1}")
            self.fixed = frozenset(self.given_fixed)
        self.on_board = [True] * POSITIONS  # every position holds a diamond until a loose one is taken
        self.revealed: set[int] = set()  # fixed positions everybody has seen
        self.loose_left = LOOSE
        deck = list(range(CARD_COUNT))  # the top card is the last
        seeded_shuffle(f"{self.seed}/deck", deck)  # random.Random(f"{self.seed}/deck").shuffle(deck)
        self.deck_top, self.deck = cards_on_top(deck, deck_top, parse_card, "ring race")
        self.aside: list[int] = []
        self.rings: list[list[int]] = [[] for _ in range(n)]  # ring cards in the order drawn
        self.set_rings: list[set[int]] = [set() for _ in range(n)]  # those holding a diamond
        self.seat = self.first_player
        self.turn = 0
        self.card: int | None = None  # the card shown and waiting for its decision
        self.phase = TRY
        self._start_turn()

    # ---- what is pending -------------------------------------------------------------------------------

    @property
    def pending(self) -> Pending | None:
        return None if self.phase == OVER else one_seat_pending(self.phase, self.seat)

    def steal_options(self, seat: int) -> list[tuple[int, int]]:
        """(victim, value) pairs: the victim has a set ring of that value, `seat` an empty one (G-STEAL-1)."""
        # Values as bits (bit k: VALUES[k]) rather than sets of dollars: this runs on every steal card drawn and
        # every steal checked, and a few integer operations make no set per seat.
        set_rings, per_value = self.set_rings, RINGS_PER_VALUE
        mine = set_rings[seat]
        empty = 0
        for c in self.rings[seat]:
            if c not in mine:
                empty |= 1 << c // per_value
        if not empty:  # nothing to steal onto (most steal cards early in a game): no victim to look at
            return []
        options = []
        for victim in range(self.n):
            if victim != seat:
                held = 0
                for c in set_rings[victim]:
                    held |= 1 << c // per_value
                both = empty & held
                if both:
                    options += [(victim, VALUES[k]) for k in range(len(VALUES)) if both >> k & 1]
        return options

    def legal(self, seat: int) -> list[Decision]:
        if self.phase == OVER or seat != self.seat:
            return []
        if self.phase == TRY:
            on_board, tries = self.on_board, TRY_DECISIONS
            return [tries[p] for p in range(POSITIONS) if on_board[p]]  # in position order
        return [new_slots(Decision, (STEAL, option)) for option in self.steal_options(seat)]  # Decision(STEAL, option)

    def diamonds_on_board(self) -> int:
        return sum(self.on_board)

    # ---- applying decisions ----------------------------------------------------------------------------

    def apply(self, seat: int, decision: Decision) -> None:
        """Apply `decision` for `seat`, or raise IllegalDecision (naming the G- rule) and change nothing."""
        self._take_choice(seat, decision)
        if decision.kind == TRY:
            self._try(decision.value)
        else:
            victim, value = decision.value  # _check made sure it is a pair
            self._steal(victim, value)

    def _check(self, seat: int, decision: object) -> None:
        if self.phase == OVER:
            raise IllegalDecision("G-END-1", "the game is over")
        if not isinstance(decision, Decision):
            raise IllegalDecision("G-TURN-1", f"{decision!r} is not a ring race decision")
        if seat != self.seat:
            raise IllegalDecision("G-TURN-1", f"it is seat {self.seat}'s turn, not seat {seat!r}'s")
        kind, value = decision.kind, decision.value
        if self.phase == TRY:
            if kind != TRY:
                raise IllegalDecision("G-RING-1", f"a ring card was drawn: try a position, not {kind!r}")
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < POSITIONS:
                raise IllegalDecision("G-RING-1", f"there is no board position {value!r} (0-{POSITIONS - 1})")
            if not self.on_board[value]:
                raise IllegalDecision("G-RING-1", f"position {value} holds no diamond any more")
            return
        if kind != STEAL:
            raise IllegalDecision("G-STEAL-1", f"a steal card was drawn and a steal is possible: steal, not {kind!r}")
        exact = isinstance(value, tuple) and all([type(x) is int for x in value])  # no bools, no floats
        if not exact or value not in self.steal_options(seat):
            raise IllegalDecision("G-STEAL-1", f"{value!r} is not a steal open to seat {seat}: a steal takes a "
                                  "diamond from another player's set ring onto an own empty ring of the same value")

    # ---- the flow between decisions --------------------------------------------------------------------

    def _start_turn(self) -> None:
        seat = self.seat
        while True:
            if self.loose_left == 0:  # G-END-1
                self._finish("board")
                return
            if not self.deck:
                self._finish("deck")
                return
            card = self.deck.pop()  # G-TURN-1
            self._event("draw", {"card": CARD_NAMES[card]})
            if card < RING_CARDS:  # is_ring(card)
                self.rings[seat].append(card)
                self.card, self.phase = card, TRY
                return
            if self.steal_options(seat):
                self.card, self.phase = card, STEAL
                return
            self.aside.append(card)  # G-STEAL-1: no steal possible, draw again
            self._event("set_aside", {"card": CARD_NAMES[card]})

    def _next(self, seat: int) -> None:
        self.card = None
        self.turn += 1
        self.seat = seat
        self._start_turn()

    def _try(self, position: int) -> None:
        seat, ring = self.seat, self.card
        assert ring is not None
        if position in self.fixed:  # G-RING-1: it stays; now everyone knows
            self.revealed.add(position)
            self._event("try", {"position": position, "outcome": "fixed", "ring": CARD_NAMES[ring]})
        else:
            self.on_board[position] = False
            self.loose_left -= 1
            self.set_rings[seat].add(ring)
            self._event("try", {"position": position, "outcome": "loose", "ring": CARD_NAMES[ring]})
        self._next((seat + 1) % self.n)

    def _steal(self, victim: int, value: int) -> None:
        seat, card = self.seat, self.card
        assert card is not None
        # the first such rings (_check made sure there are)
        taken = [c for c in self.rings[victim] if c in self.set_rings[victim] and value_of(c) == value][0]
        onto = [c for c in self.rings[seat] if c not in self.set_rings[seat] and value_of(c) == value][0]
        self.set_rings[victim].remove(taken)
        self.set_rings[seat].add(onto)
        self.aside.append(card)
        self._event("steal", {"card": CARD_NAMES[card], "victim": victim, "value": value,
                              "taken_from": CARD_NAMES[taken], "set_on": CARD_NAMES[onto]})
        self._next(victim)  # G-STEAL-1: the robbed player plays next

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.card = None
        self.result = final_result(self.rings, self.set_rings, debts=self.ruleset.debts, reason=reason)
        self._event("end", {"reason": reason, "winners": list(self.result.winners)})

    # ---- for tests and the record ----------------------------------------------------------------------

    def where(self) -> dict[int, str]:
        """card -> the one place it is in (deck, aside, a seat's rings, or shown); for conservation checks."""
        piles = [("deck", self.deck), ("aside", self.aside)]
        piles += [(f"rings-{s}", self.rings[s]) for s in range(self.n)]
        if self.card is not None and not is_ring(self.card):
            piles.append(("shown", [self.card]))
        return card_places(piles, card_name)


def final_result(rings: Sequence[Sequence[int]], set_rings: Sequence[set[int] | frozenset[int]], *,
                 debts: bool = False, reason: str = "deck") -> Result:
    """G-SCORE-1: a set ring scores its value, an empty one nothing (with `debts`, minus its value); places by
    total, then (Decision) by set rings, then shared. `rings[s]` are seat s's ring cards, `set_rings[s]` those
    holding a diamond."""
    n = len(rings)
    totals, counts = [], []
    for s in range(n):
        held = set_rings[s]
        total = count = 0
        for c in rings[s]:
            if c in held:
                total += RING_VALUES[c]  # value_of(c)
                count += 1
            elif debts:
                total -= RING_VALUES[c]
        totals.append(total)
        counts.append(count)
    keys = list(zip(totals, counts))
    places = ranked_places(keys)
    return Result(totals, counts, places, [s for s in range(n) if places[s] == 1], reason)
