"""The greedy bot: looks one trick ahead and values each card by the Suit Actions it is likely to bring.

A card is scored by what it earns at once (an off-suit action), the chance it wins the trick (then the led
suit's action and the cards for the end-of-round majorities) and what it costs to spend it. Passing keeps
diamonds and high cards and empties short suits, so that later off-suit plays earn actions. Clubs rob the
opponent who leads on score.
"""

from __future__ import annotations

from ...common.bot import Bot
from ..cards import CLUBS, DIAMONDS, SPADES, Card
from ..game import CLUBS_TARGET, PASS_CARDS, PASS_COUNT, Decision
from ..view import SeatView
from .knowledge import ACTION_POINTS, Knowledge, action_value

NO_TRICK_BONUS = 4.0  # R-END-3: two diamonds actions, 2 points each
MAJORITY_SHARE = 0.25  # how much of a suit's end-of-round action one won card of it is worth, roughly
SPEND_COST = 0.6  # what spending the highest card of a suit costs, in points of later tricks


class GreedyBot(Bot):
    name = "greedy"

    def decide(self, view: SeatView) -> Decision:
        pending = view.pending
        assert pending is not None  # a bot is asked only for a seat that owes a decision
        kind = pending.kind
        if kind == PASS_COUNT:
            return Decision.pass_count(choose_pass_count(view.hand))
        if kind == PASS_CARDS:
            assert pending.count is not None  # a pass of cards has its count
            return Decision.pass_cards(choose_pass_cards(view.hand, pending.count))
        k = Knowledge(view)
        if kind == CLUBS_TARGET:
            return Decision.clubs_target(choose_clubs_target(k, view.legal))
        legal = view.legal
        if len(legal) == 1:
            return Decision.play(legal[0])
        scored = [(score_card(k, c), -c) for c in legal]
        best = max(scored)
        # ties broken by seeded chance, so identical positions do not always play alike
        ties = [c for s, c in scored if s == best[0]]
        return Decision.play(-ties[self.rng.randrange(len(ties))])


def choose_pass_count(hand: list[Card]) -> int:
    """Pass as many cards as the shortest side suit holds (to empty it), else one."""
    lengths = [sum(1 for c in hand if c >> 4 == suit) for suit in (1, 2, 3)]
    short = [x for x in lengths if 1 <= x <= 3]
    return min(short) if short else 1


def choose_pass_cards(hand: list[Card], count: int) -> list[Card]:
    """Empty the shortest side suits that fit, then give away the lowest side-suit cards; keep diamonds."""
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        by_suit.setdefault(c >> 4, []).append(c)
    chosen: list[Card] = []
    for _, _, suit in sorted([(len(cards), -s, s) for s, cards in by_suit.items() if s != DIAMONDS]):
        cards = by_suit[suit]  # the shortest side suit first, the highest suit on a tie
        if len(chosen) + len(cards) <= count:
            chosen.extend(cards)
    rest = sorted([(c >> 4 == DIAMONDS, c & 15, c) for c in hand if c not in chosen])  # side suits, low ranks first
    chosen.extend([c for _, _, c in rest[: count - len(chosen)]])
    return chosen[:count]


def choose_clubs_target(k: Knowledge, options: list[int]) -> int:
    """The option whose team leads on score (vault counted from public actions), then on showroom."""
    scores = k.scores()
    return max(options, key=lambda s: (scores[k.team_of[s]], k.showrooms[k.team_of[s]], -s))


def _value(k: Knowledge, suit: int) -> float:
    view = k.view
    if suit == CLUBS and view.thief is not None:
        holder = view.thief
        if holder == k.seat or not k.showrooms[k.team_of[holder]]:
            return 0.0
        return 1.3  # one point for me and one less for the robbed opponent
    if suit == CLUBS:
        return 1.3 if any(k.showrooms[t] for t in range(len(k.showrooms)) if t != k.team) else 0.0
    return action_value(suit, k.team, k.showrooms, view.supply)


def _win_chance(k: Knowledge, c: Card, later: list[int]) -> float:
    """Chance that no seat still to play holds a higher card of c's suit (seats void in it cannot)."""
    suit = c >> 4
    holders = [s for s in later if suit not in k.voids[s] and s != k.seat]
    if not holders:
        return 1.0
    pool = len(k.unseen) or 1
    in_later = sum(k.hand_sizes[s] for s in holders)
    q = min(1.0, in_later / pool)
    higher = k.higher_unseen(c)
    known_higher = any(x >> 4 == suit and x > c for s in holders for x in k.known[s])
    if known_higher:
        return 0.0
    return (1.0 - q) ** higher


def _later_seats(k: Knowledge) -> list[int]:
    """The seats that play to this trick after this seat (with two players, the opponent and maybe itself)."""
    n = k.n
    played = len(k.trick)
    if n == 2:
        leader = k.trick[0][0] if k.trick else k.seat
        order = [leader, 1 - leader, leader, 1 - leader]
        return order[played + 1:]
    return [(k.seat + i) % n for i in range(1, n - played)]


def _clean_chance(k: Knowledge, skip: Card) -> float:
    """Rough chance of taking no trick this round with the other cards in hand (for R-END-3)."""
    others = [s for s in range(k.n) if s != k.seat]
    p = 1.0
    for c in k.hand:
        if c != skip:
            p *= 1.0 - 0.7 * _win_chance(k, c, others)
    return p


def score_card(k: Knowledge, c: Card) -> float:
    """Expected points (for this seat's team) of playing `c` now, looking to the end of this trick."""
    suit = c >> 4
    trick = k.trick
    later = _later_seats(k)
    led = trick[0][1] >> 4 if trick else suit
    score = 0.0
    if trick and suit != led:
        score += _value(k, suit)  # R-OFFSUIT-1
        p_win = 0.0
    else:
        best = max((x for _, x in trick if x >> 4 == led), default=-1)
        if c < best:
            p_win = 0.0
        else:
            p_win = _win_chance(k, c, later)
        winner_now = next((s for s, x in trick if x == best), None)
        if winner_now is not None and winner_now != k.seat and k.team_of[winner_now] == k.team:
            p_win = 0.0  # the partner is winning: taking it over gains the team nothing
    if not trick:  # seats void in the led suit will take off-suit actions against us
        opp_voids = sum(1 for s in later if suit in k.voids[s] and k.team_of[s] != k.team)
        score -= 0.8 * opp_voids
    if p_win > 0.0:
        gain = _value(k, led)
        trick_cards = [x for _, x in trick] + [c]
        gain += sum(MAJORITY_SHARE * ACTION_POINTS[x >> 4] for x in trick_cards)
        gain += MAJORITY_SHARE * ACTION_POINTS[led] * len(later)  # most later cards follow suit
        if k.view.tricks_won[k.seat] == 0:
            gain -= NO_TRICK_BONUS * _clean_chance(k, c)
        score += p_win * gain
    # spending a high card costs the tricks it could win later; spades and diamonds lose their own action
    strength = (c & 15) / k.deck_ranks
    score -= SPEND_COST * strength * strength
    if suit in (DIAMONDS, SPADES) and trick and suit != led:
        score -= 0.1
    return score
