"""What a seat can know about hidden cards and scores from its view alone, shared by the greedy and search bots.

Everything here is derived from `SeatView`: the seat's own hand, the cards played this round, the cards it
passed and received, the voids others revealed by not following suit, and the public Suit Actions (from
which every team's vault can be counted, as a player at the table could by watching).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from ...fastrandom import below
from ..cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card, deck
from ..game import Action, Play
from ..view import SeatView

# Points of score (R-SCORE-1) one Suit Action is worth to its taker, before the source may be empty.
ACTION_POINTS = {DIAMONDS: 2.0, HEARTS: 1.0, SPADES: 1.0, CLUBS: 1.0}


class Knowledge:
    """The seat's picture of the round: unseen cards, voids, cards known to be in a hand, scores."""

    def __init__(self, view: SeatView):
        g_rules = view.ruleset
        n = view.players
        self.view = view
        self.seat = seat = view.seat
        self.n = n
        self.team_of = [0] * n
        for t, members in enumerate(g_rules.teams):
            for s in members:
                self.team_of[s] = t
        self.team = self.team_of[seat]
        self.partnerships = g_rules.partnerships
        self.hand = view.hand
        self.hand_sizes = view.hand_sizes
        self.deck_ranks = g_rules.deck_ranks
        plays = view.round_plays
        self.played = {c for _, _, c in plays}
        self.trick = view.current_trick
        # voids: a seat that did not follow the led suit holds none of it for the rest of the round
        self.voids: list[set[int]] = [set() for _ in range(n)]
        led_by_trick: dict[int, int] = {}
        for t, s, c in plays:
            led = led_by_trick.setdefault(t, c >> 4)
            if c >> 4 != led:
                self.voids[s].add(led)
        # cards this seat passed are in the receiver's hand until they are played
        self.known: list[set[Card]] = [set() for _ in range(n)]
        passed = view.passed
        if passed and view.received is not None:
            to = (seat + n // 2) % n if self.partnerships else (seat + 1) % n
            self.known[to] = {c for c in passed if c not in self.played}
        mine = set(self.hand)
        self.unseen = [c for c in deck(self.deck_ranks) if c not in mine and c not in self.played]
        self.showrooms = view.showrooms
        self.vaults = count_vaults(view.events, self.team_of, len(g_rules.teams))
        self._plan: _DealPlan | None = None  # made by the first sample_hands

    def scores(self) -> list[int]:
        """Per team: 2 x vault + showroom (R-SCORE-1), vaults counted from the public actions."""
        return [2 * v + s for v, s in zip(self.vaults, self.showrooms)]

    def higher_unseen(self, c: Card) -> int:
        """How many cards of c's suit above c are not in this hand and not yet played."""
        suit = c >> 4
        return sum(1 for u in self.unseen if u >> 4 == suit and u > c)

    def sample_hands(self, rng: random.Random, tries: int = 30) -> list[list[Card]]:
        """Hands for the other seats drawn from the unseen cards, consistent with voids and known cards.

        Cards are dealt suit by suit, the suits the fewest seats may hold first, each card to a random seat
        that may hold it and still has room (weighted by room); unseen cards left over were set aside.
        When the constraints cannot all be met in `tries` attempts, voids are relaxed.
        """
        if self._plan is None:  # what every deal from this knowledge starts from (the search deals thousands)
            self._plan = _DealPlan.of(self)
        for attempt in range(tries + 1):
            hands = _try_deal(self._plan, rng, attempt == tries)
            if hands is not None:
                return hands
        raise AssertionError("a deal ignoring voids always fits")  # pragma: no cover


class _DealPlan(NamedTuple):
    """What a deal of the unseen cards starts from, the same for every deal from one `Knowledge`."""

    n: int
    seat: int
    hands: list[list[Card]]  # per seat, the cards known to be in its hand (none for this seat)
    room: list[int]  # per seat, the places left in its hand for unknown cards (0 for this seat)
    by_suit: list[list[Card]]  # the unseen cards not known to be anywhere, by suit
    spare: int  # how many of them were set aside unseen this round (R-DEAL-1)
    others: list[int]
    holders: tuple[list[list[int]], list[list[int]]]  # per suit, the seats that may hold it; [1]: voids relaxed
    suits: tuple[list[int], list[int]]  # the suits in the order they are dealt, the most constrained first

    @staticmethod
    def of(k: Knowledge) -> _DealPlan:
        n, seat = k.n, k.seat
        hands: list[list[Card]] = [[] for _ in range(n)]
        room = list(k.hand_sizes)
        room[seat] = 0
        for s in range(n):
            if s != seat:
                hands[s].extend(k.known[s])
                room[s] -= len(k.known[s])
        known_all = set().union(*k.known)
        pool = [c for c in k.unseen if c not in known_all]
        by_suit: list[list[Card]] = [[], [], [], []]
        for c in pool:
            by_suit[c >> 4].append(c)
        others = [s for s in range(n) if s != seat]
        holders = tuple([[s for s in others if relax or suit not in k.voids[s]] for suit in range(4)]
                        for relax in (False, True))
        suits = tuple([suit for _, suit in sorted([(len(seats[suit]), suit) for suit in range(4)])]
                      for seats in holders)
        return _DealPlan(n, seat, hands, room, by_suit, len(pool) - sum(room), others,
                         (holders[0], holders[1]), (suits[0], suits[1]))


def _try_deal(plan: _DealPlan, rng: random.Random, relax: bool) -> list[list[Card]] | None:
    hands = [list(h) for h in plan.hands]
    room = list(plan.room)
    spare = plan.spare
    if spare < 0:
        return None
    by_suit, holders = plan.by_suit, plan.holders[relax]
    for suit in plan.suits[relax]:  # the most constrained first
        cards = by_suit[suit]
        if not cards:
            continue
        # one slot per free place in a hand that may hold the suit, and one per card to be set aside:
        # drawing slots without replacement deals each card as a weighted draw by room would
        slots = [s for s in holders[suit] for _ in range(room[s])]
        slots.extend([-1] * spare)
        m = len(slots)
        if m < len(cards):
            return None
        for j in range(len(cards)):  # a partial Fisher-Yates shuffle of the slots
            c = cards[j]
            r = j + below(rng, m - j)
            s = slots[r]
            slots[r] = slots[j]
            if s < 0:
                spare -= 1
            else:
                hands[s].append(c)
                room[s] -= 1
    if any([room[s] for s in plan.others]):
        return None
    return hands


def count_vaults(events: Sequence[Play | Action], team_of: Sequence[int], teams: int) -> list[int]:
    """Every team's vault, counted from the public Suit Actions (R-ACT-D and R-ACT-S fill vaults)."""
    vaults = [0] * teams
    for e in events:
        if type(e) is Action and e.moved and e.suit in (DIAMONDS, SPADES):
            vaults[team_of[e.seat]] += e.moved
    return vaults


def action_value(suit: int, team: int, showrooms: Sequence[int], supply: int) -> float:
    """What one Suit Action of `suit` is worth to `team` now, in points (0 when its source is empty)."""
    if suit == DIAMONDS or suit == HEARTS:
        return ACTION_POINTS[suit] if supply else 0.0
    if suit == SPADES:
        return 1.0 if showrooms[team] else 0.0
    return 1.0


__all__ = ["ACTION_POINTS", "Knowledge", "action_value", "count_vaults"]
