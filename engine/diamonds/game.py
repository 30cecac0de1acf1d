"""The referee: one game of Diamonds from set-up to result, applying RULES.md one decision at a time.

A `Game` always knows whose decision is pending (`pending`) and what is legal (`legal`). Decisions are
applied with `apply` (or the typed helpers `choose_pass_count`, `pass_cards`, `play`, `choose_clubs_target`);
an illegal one raises `IllegalDecision` naming the rule and leaves the game untouched, because every check
runs before the first write. Everything automatic (trick winners, Suit Actions without a choice, the end of a
round, the next deal) happens inside `apply`, so between two calls the game is always waiting on a person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from ..common.instances import new_slots, new_tuple
from ..common.pending import Pending
from ..common.referee import one_seat_pending
from ..errors import IllegalDecision
from ..fastrandom import seeded_below, seeded_shuffle
from .cards import CLUBS, DIAMONDS, HEARTS, SPADES, Card, card_str, deck, parse_cards
from .ruleset import STARTING_SHOWROOM, SUPPLY_POINTS, Ruleset

PASS_COUNT = "pass_count"
PASS_CARDS = "pass_cards"
PLAY = "play"
CLUBS_TARGET = "clubs_target"
OVER = "over"
DECISION_KINDS = (PASS_COUNT, PASS_CARDS, PLAY, CLUBS_TARGET)

OFFSUIT, TRICK, MAJORITY, NO_TRICK = "offsuit", "trick", "majority", "no_trick"
PASS_COUNTS = (1, 2, 3)  # R-PASS-1

# Where the flow resumes once a clubs target has been chosen.
_AFTER_PLAY, _AFTER_TRICK, _AFTER_MAJORITY = 1, 2, 3


class Play(NamedTuple):
    """One card played: an event."""

    round: int
    trick: int
    seat: int
    card: Card


class Action(NamedTuple):
    """One Suit Action taken: an event. `trick` is None for end-of-round actions."""

    round: int
    trick: int | None
    seat: int
    suit: int
    cause: str
    target: int | None
    moved: int


class Trick:
    __slots__ = ("leader", "plays", "winner")
    leader: int
    plays: list[Play]
    winner: int | None

    def __init__(self, leader: int):
        self.leader = leader
        self.plays = []
        self.winner = None


class RoundLog:
    """What happened in one round, in the shape of a `diamonds-record/1` round."""

    __slots__ = ("dealer", "hands", "pass_count", "passes", "clubs_targets", "tricks", "actions")
    dealer: int
    hands: list[list[Card]]
    pass_count: int | None
    passes: list[list[Card]] | None
    clubs_targets: list[int | None]
    tricks: list[Trick]
    actions: list[Action]

    def __init__(self, dealer: int, hands: list[list[Card]]):
        self.dealer = dealer
        self.hands = hands
        self.pass_count = None
        self.passes = None
        self.clubs_targets = []
        self.tricks = []
        self.actions = []


@dataclass(frozen=True, slots=True)
class Decision:
    """A seat's answer to a pending decision. `value` is a count, a tuple of cards, a card or a target seat."""

    kind: str
    value: Any  # its type follows `kind`; the referee checks it (a wrong one is an IllegalDecision)

    @staticmethod
    def pass_count(count: int) -> Decision:
        if type(count) is int and count in PASS_COUNT_DECISIONS:  # one per count serves every game
            return PASS_COUNT_DECISIONS[count]
        return Decision(PASS_COUNT, count)

    @staticmethod
    def pass_cards(cards: Sequence[Card]) -> Decision:
        return _decision(PASS_CARDS, tuple(cards))

    @staticmethod
    def play(c: Card) -> Decision:
        d = PLAY_DECISIONS.get(c)
        if d is None:  # decisions are immutable, so one per card serves every game
            d = PLAY_DECISIONS[c] = Decision(PLAY, c)
        return d

    @staticmethod
    def clubs_target(seat: int) -> Decision:
        return Decision(CLUBS_TARGET, seat)

    def to_json(self) -> dict[str, Any]:
        if self.kind == PASS_COUNT:
            return {"kind": PASS_COUNT, "count": self.value}
        if self.kind == PASS_CARDS:
            return {"kind": PASS_CARDS, "cards": [card_str(c) for c in self.value]}
        if self.kind == PLAY:
            return {"kind": PLAY, "card": card_str(self.value)}
        return {"kind": CLUBS_TARGET, "target": self.value}

    @staticmethod
    def from_json(data: object) -> Decision:
        """Parse `{"kind": "play", "card": "H7"}` and friends; raises ValueError with a readable message."""
        if not isinstance(data, dict):
            raise ValueError("a decision is a JSON object with a 'kind'")
        kind = data.get("kind")
        if kind == PASS_COUNT:
            count = data.get("count")
            if not isinstance(count, int) or isinstance(count, bool):
                raise ValueError("a pass_count decision needs an integer 'count'")
            return Decision(PASS_COUNT, count)
        if kind == PASS_CARDS:
            cards = data.get("cards")
            if not isinstance(cards, list):
                raise ValueError("a pass_cards decision needs a list 'cards', like [\"D3\", \"S12\"]")
            return Decision(PASS_CARDS, tuple(parse_cards(cards)))
        if kind == PLAY:
            return Decision(PLAY, parse_cards([data.get("card")])[0])
        if kind == CLUBS_TARGET:
            target = data.get("target")
            if not isinstance(target, int) or isinstance(target, bool):
                raise ValueError("a clubs_target decision needs an integer seat 'target'")
            return Decision(CLUBS_TARGET, target)
        raise ValueError(f"unknown decision kind {kind!r}: expected one of {', '.join(DECISION_KINDS)}")


# Decisions are immutable, so one per card serves every game: built for the whole deck at import, so that the
# hot paths (the referee's choices, the random bot) look one up with a plain subscript. The same for pass counts.
PLAY_DECISIONS: dict[Card, Decision] = {c: Decision(PLAY, c) for c in deck(15)}
PASS_COUNT_DECISIONS: dict[int, Decision] = {count: Decision(PASS_COUNT, count) for count in PASS_COUNTS}
# PLAY_DECISIONS by card as a tuple (a card is suit << 4 | rank, below 64; the ints that are no card have a decision
# of their own, never looked up): what the referee records on every card.
PLAY_DECISION_OF: tuple[Decision, ...] = tuple(PLAY_DECISIONS.get(c) or Decision(PLAY, c) for c in range(64))


def _decision(kind: str, value: Any) -> Decision:
    """`Decision(kind, value)`, made in C in the compiled build (engine.common.instances): the referee and the
    random bot make one for every pass of cards."""
    return new_slots(Decision, (kind, value))


# A pending pass of cards, by the seats that still owe theirs and the count: frozen, so one object per distinct
# value serves every game (asked for before each pass, and again by the bot's view).
_PASS_PENDINGS: dict[tuple[tuple[int, ...], int | None], Pending] = {}


class Result(NamedTuple):
    """Per seat, or per team (in `ruleset.teams` order) with partnerships. R-SCORE-1, R-WIN-1."""

    score: list[int]
    vault: list[int]
    showroom: list[int]
    winners: list[int]



def _shuffled_hands(full_deck: Sequence[Card], seed: str, round_index: int, n: int, size: int) -> list[list[Card]]:
    cards = list(full_deck)
    seeded_shuffle(f"{seed}/round-{round_index}", cards)  # random.Random(f"{seed}/round-{round_index}").shuffle
    return [cards[s * size:(s + 1) * size] for s in range(n)]


def seeded_hands(ruleset: Ruleset, seed: str, round_index: int) -> list[list[Card]]:
    """The hands the engine deals from `seed` in round `round_index` (R-DEAL-1): what a game dealt by the seed
    itself holds, whatever was played before (each round reshuffles the whole deck). `diamonds verify` checks a
    revealed record's hands against it."""
    return _shuffled_hands(deck(ruleset.deck_ranks), seed, round_index, ruleset.players, ruleset.hand_size)


# Per ruleset: each seat's team, the deck, the Pending of a card play and of a pass count per seat, and the play
# order of a trick per leader.
_Tables = tuple[
    tuple[int, ...], tuple[Card, ...], tuple[Pending, ...], tuple[Pending, ...], tuple[tuple[int, ...], ...]
]
_TABLES: dict[Ruleset, _Tables] = {}


def _tables(ruleset: Ruleset) -> _Tables:
    """What a game derives from its ruleset alone, built once per ruleset rather than once per game: each
    seat's team, the deck, the Pending of a card play and of a pass count per seat (immutable and asked for on
    every move), and the play order of a trick per leader."""
    tables = _TABLES.get(ruleset)
    if tables is None:
        n = ruleset.players
        team_of = [0] * n
        for t, members in enumerate(ruleset.teams):
            for s in members:
                team_of[s] = t
        orders = tuple(
            (leader, 1 - leader, leader, 1 - leader) if n == 2 else tuple((leader + i) % n for i in range(n))
            for leader in range(n)
        )
        tables = (tuple(team_of), tuple(deck(ruleset.deck_ranks)), tuple(Pending(PLAY, (s,)) for s in range(n)),
                  tuple(Pending(PASS_COUNT, (s,)) for s in range(n)), orders)
        if len(_TABLES) < 1000:  # rulesets come from requests: keep the cache bounded
            _TABLES[ruleset] = tables
    return tables


class Game:
    """One game. Build it with a ruleset and a seed (or given deals); drive it with `apply`."""

    # The fields, declared for the type checker only (no values: the compiled build declares them in game.pxd).
    ruleset: Ruleset
    seed: str
    seats: list[str]
    n: int
    auto_clubs: bool
    first_dealer: int
    thief: int | None
    supply: int
    vault: list[int]
    showroom: list[int]
    rounds: list[RoundLog]
    events: list[Play | Action]
    choices: list[tuple[int, Decision]]
    move_number: int
    result: Result | None
    phase: str
    round: int
    dealer: int
    hands: list[list[Card]]
    pass_count: int | None
    _deals: list[list[list[Card]]]
    _deck: tuple[Card, ...]
    _pending_play: tuple[Pending, ...]
    _pending_count: tuple[Pending, ...]
    _orders: tuple[tuple[int, ...], ...]
    _team_of: list[int]
    _tricks_per_round: int
    _logging: bool
    # The round's state (_start_round) and the trick's (_start_trick).
    _suit_count: list[list[int]]
    _won: list[list[int]]
    _tricks_won: list[int]
    _passes: list[list[Card] | None]
    _trick_index: int
    _order: tuple[int, ...]
    _pos: int
    _led: int
    _trick: Trick
    _plays: list[Play]
    _trick_cards: list[Card]  # the current trick's cards in the order played: the i-th by seat _order[i]
    _log: RoundLog
    # A pending clubs target (_act): where the flow resumes, who acts, why, who chooses, in which trick.
    _after: int | None
    _clubs_actor: int | None
    _clubs_cause: str | None
    _clubs_chooser: int | None
    _clubs_trick: int | None

    def __init__(
        self,
        ruleset: Ruleset,
        seed: str,
        seats: Sequence[str] | None = None,
        *,
        deals: Sequence[Sequence[Sequence[Card | str]]] | None = None,
        first_dealer: int | None = None,
        auto_clubs: bool = True,
    ):
        """`deals[r][s]` is seat s's hand in round r (cards or strings); rounds past `deals` are shuffled
        from the seed. `auto_clubs` applies a clubs target that has only one legal choice without asking."""
        n = ruleset.players
        self.ruleset = ruleset
        self.seed = str(seed)
        self.seats = list(seats) if seats is not None else [f"seat-{s}" for s in range(n)]
        if len(self.seats) != n:
            raise ValueError(f"{n} players need {n} seat names, got {len(self.seats)}")
        self.n = n
        self.auto_clubs = auto_clubs
        self._deals = [[parse_cards(h) if h and isinstance(h[0], str) else list(cast("Sequence[Card]", h)) for h in rd]
                       for rd in deals or []]
        team_of, self._deck, self._pending_play, self._pending_count, self._orders = _tables(ruleset)
        self._team_of = list(team_of)
        self._tricks_per_round = ruleset.tricks_per_round
        self._logging = True

        teams = ruleset.team_count
        self.supply = SUPPLY_POINTS - STARTING_SHOWROOM * n  # R-SETUP-1
        self.vault = [0] * teams
        self.showroom = [STARTING_SHOWROOM * len(m) for m in ruleset.teams]
        if first_dealer is None:
            first_dealer = seeded_below(f"{self.seed}/first-dealer", n)  # R-SETUP-2: Random(...).randrange(n)
        elif not isinstance(first_dealer, int) or not 0 <= first_dealer < n:
            raise ValueError(f"first_dealer must be a seat 0..{n - 1}, not {first_dealer!r}")
        self.first_dealer = first_dealer
        self.thief = (first_dealer + 1) % n if ruleset.clubs == "thief" else None  # R-SETUP-3

        # Set when a clubs target is pending (_act); None until then, so that every game has every field.
        self._after = self._clubs_actor = self._clubs_cause = self._clubs_chooser = self._clubs_trick = None
        self.rounds = []
        self.events = []
        # Every decision in the order it was applied, as the newer games keep theirs: what the league stores
        # (league.services.progress) and replays. A clubs target applied without asking (auto_clubs) is no choice.
        self.choices = []
        self.move_number = 0
        self.result = None
        self.phase = PASS_COUNT
        self.round = -1
        self.dealer = first_dealer
        self._start_round(first_dealer)

    # ---- what is pending -------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def pending(self) -> Pending | None:
        phase = self.phase
        if phase is PLAY:
            return self._pending_play[self._order[self._pos]]
        if phase == PASS_CARDS:
            passes = self._passes
            key = (tuple([s for s in range(self.n) if passes[s] is None]), self.pass_count)
            pending = _PASS_PENDINGS.get(key)
            if pending is None:
                pending = Pending(PASS_CARDS, *key)
                if len(_PASS_PENDINGS) < 4096:  # bounded: subsets of at most 6 seats, a few counts
                    _PASS_PENDINGS[key] = pending
            return pending
        if phase == PASS_COUNT:
            return self._pending_count[self.dealer]
        if phase == CLUBS_TARGET:
            chooser = self._clubs_chooser
            assert chooser is not None  # set with the phase (_act)
            return one_seat_pending(CLUBS_TARGET, chooser)  # Pending(CLUBS_TARGET, (chooser,)), made once
        return None

    @property
    def to_play(self) -> int | None:
        """The seat that plays the next card, when a card is what the game waits for."""
        return self._order[self._pos] if self.phase == PLAY else None

    def legal(self, seat: int) -> list[int]:
        """The options open to `seat` now: pass counts, cards (to pass or play) or target seats; [] if none."""
        phase = self.phase
        if phase is PLAY:
            if seat != self._order[self._pos]:
                return []
            hand = self.hands[seat]
            led = self._led
            if led >= 0 and self._suit_count[seat][led]:
                return [c for c in hand if c >> 4 == led]  # R-FOLLOW-1
            return hand[:]  # R-OFFSUIT-1 (or leading)
        if phase == PASS_CARDS:
            return list(self.hands[seat]) if 0 <= seat < self.n and self._passes[seat] is None else []
        if phase == PASS_COUNT:
            return [c for c in PASS_COUNTS if c <= self.ruleset.hand_size] if seat == self.dealer else []
        if phase == CLUBS_TARGET:
            actor = self._clubs_actor
            assert actor is not None  # set with the phase (_act)
            return self._clubs_options(actor) if seat == self._clubs_chooser else []
        return []

    def _playable(self, seat: int) -> list[Card]:
        hand = self.hands[seat]
        led = self._led
        if led >= 0 and self._suit_count[seat][led]:
            return [c for c in hand if c >> 4 == led]  # R-FOLLOW-1
        return list(hand)  # R-OFFSUIT-1 (or leading)

    @property
    def current_trick(self) -> Trick | None:
        return self._trick if self.phase in (PLAY, CLUBS_TARGET) else None

    def team_of(self, seat: int) -> int:
        return self._team_of[seat]

    def partner_seats(self, seat: int) -> tuple[int, ...]:
        return self.ruleset.teams[self._team_of[seat]]

    def tricks_won(self, seat: int) -> int:
        return self._tricks_won[seat]

    # ---- applying decisions ----------------------------------------------------------------------------

    def apply(self, seat: int, decision: Decision) -> None:
        kind = decision.kind
        if kind is PLAY or kind == PLAY:
            self.play(seat, decision.value)
        elif kind == PASS_CARDS:
            self.pass_cards(seat, decision.value)
        elif kind == PASS_COUNT:
            self.choose_pass_count(seat, decision.value)
        elif kind == CLUBS_TARGET:
            self.choose_clubs_target(seat, decision.value)
        else:
            raise IllegalDecision("R-PASS-1", f"unknown decision kind {kind!r}")

    def _refuse_phase(self, wanted: str) -> None:
        if self.phase == OVER:
            raise IllegalDecision("R-ROUNDS-1", "the game is over")
        rule = {
            PASS_COUNT: "R-PASS-1",
            PASS_CARDS: "R-PASS-2",
            PLAY: "R-LEAD-1" if self._trick_index == 0 and self._pos == 0 else "R-TRICK-2",
            CLUBS_TARGET: "R-ACT-C",
        }[self.phase]
        pending = self.pending
        assert pending is not None  # the game is not over
        raise IllegalDecision(
            rule, f"the game waits for {pending.kind} from seat(s) {list(pending.seats)}, not {wanted}"
        )

    def choose_pass_count(self, seat: int, count: int) -> None:
        if self.phase != PASS_COUNT:
            self._refuse_phase(PASS_COUNT)
        if seat != self.dealer:
            raise IllegalDecision("R-PASS-1", f"only the dealer (seat {self.dealer}) chooses how many cards to pass")
        if count not in PASS_COUNTS or isinstance(count, bool):
            raise IllegalDecision("R-PASS-1", f"the dealer passes 1, 2 or 3 cards, not {count!r}")
        if count > self.ruleset.hand_size:  # an overridden small hand: no one could pass that many
            raise IllegalDecision("R-PASS-1", f"hands of {self.ruleset.hand_size} card(s) cannot pass {count}")
        self.move_number += 1
        if self._logging:
            self.choices.append((seat, Decision.pass_count(count)))
        self.pass_count = count
        self._log.pass_count = count
        self.phase = PASS_CARDS

    def pass_cards(self, seat: int, cards: Sequence[Card]) -> None:
        if self.phase != PASS_CARDS:
            self._refuse_phase(PASS_CARDS)
        if not isinstance(seat, int) or not 0 <= seat < self.n:
            raise IllegalDecision("R-PASS-2", f"there is no seat {seat!r}")
        if self._passes[seat] is not None:
            raise IllegalDecision("R-PASS-2", f"seat {seat} has already chosen the cards to pass")
        cards = list(cards)
        if len(cards) != self.pass_count:
            raise IllegalDecision("R-PASS-2", f"pass exactly {self.pass_count} card(s), not {len(cards)}")
        if len(set(cards)) != len(cards):
            raise IllegalDecision("R-PASS-2", "the same card cannot be passed twice")
        hand = self.hands[seat]
        for c in cards:
            if c not in hand:
                raise IllegalDecision("R-PASS-2", f"{_show(c)} is not in seat {seat}'s hand")
        self.move_number += 1
        if self._logging:
            self.choices.append((seat, _decision(PASS_CARDS, tuple(cards))))
        self._passes[seat] = cards
        if None not in self._passes:  # every seat has chosen
            self._exchange()

    def play(self, seat: int, c: Card) -> None:
        if self.phase is not PLAY:
            self._refuse_phase(PLAY)
        pos = self._pos
        to_play = self._order[pos]  # the seat as the game numbers it (an int), whatever equal value was passed
        if seat != to_play:
            first_lead = self._trick_index == 0 and self._pos == 0
            rule = "R-TWO-1" if self.n == 2 else ("R-LEAD-1" if first_lead else "R-TRICK-2")
            raise IllegalDecision(rule, f"it is seat {to_play}'s turn to play, not seat {seat}'s")
        hand = self.hands[to_play]
        try:
            at = hand.index(c)
        except ValueError:
            raise IllegalDecision("R-DEAL-1", f"{_show(c)} is not in seat {to_play}'s hand") from None
        suit = c >> 4
        led = self._led
        counts = self._suit_count[to_play]
        if led >= 0 and suit != led and counts[led]:
            rule = "R-TWO-1" if self.n == 2 and self._pos == 2 else "R-FOLLOW-1"
            raise IllegalDecision(rule, f"seat {to_play} holds {_SUIT_WORD[led]} and must follow suit")
        self.move_number += 1
        hand.pop(at)
        counts[suit] -= 1
        self._trick_cards.append(c)
        if self._logging:  # a copy for search keeps no record, the current trick's plays included
            play = new_tuple(Play, (self.round, self._trick_index, to_play, c))  # Play(...) without its __new__
            self._plays.append(play)  # the current trick's plays
            self.events.append(play)
            self.choices.append((to_play, PLAY_DECISION_OF[c]))  # c is in the hand, so a card of the deck
        pos += 1
        self._pos = pos
        if led < 0:
            self._led = suit
        elif suit != led:  # R-OFFSUIT-1: the lead never earns it, every later off-suit card does
            self._after = _AFTER_PLAY
            if not self._act(to_play, suit, OFFSUIT, self._trick_index):
                return
        if pos == len(self._order):
            self._finish_trick()

    def choose_clubs_target(self, seat: int, target: int) -> None:
        if self.phase != CLUBS_TARGET:
            self._refuse_phase(CLUBS_TARGET)
        if seat != self._clubs_chooser:
            raise IllegalDecision("R-ACT-C", f"seat {self._clubs_chooser} chooses this clubs target, not seat {seat}")
        actor = self._clubs_actor
        assert actor is not None  # set with the phase (_act)
        self._check_clubs_target(actor, target)
        self.move_number += 1
        if self._logging:
            self.choices.append((seat, Decision(CLUBS_TARGET, target)))
        self._finish_clubs(target)
        self._resume()

    def _check_clubs_target(self, actor: int, target: object) -> None:
        if not isinstance(target, int) or isinstance(target, bool) or not 0 <= target < self.n:
            raise IllegalDecision("R-ACT-C", f"there is no seat {target!r}")
        if self._team_of[target] == self._team_of[actor]:
            who = "yourself" if target == actor else "your partner"
            raise IllegalDecision("R-TEAM-5" if target != actor else "R-ACT-C", f"clubs cannot rob {who}")
        if self.showroom[self._team_of[target]] == 0:
            raise IllegalDecision("R-ACT-C", f"seat {target}'s showroom is empty")

    # ---- the flow between decisions --------------------------------------------------------------------

    def _start_round(self, dealer: int) -> None:
        self.round += 1
        self.dealer = dealer
        n, size = self.n, self.ruleset.hand_size
        if self.round < len(self._deals):
            hands = [list(h) for h in self._deals[self.round]]
            self._check_deal(hands)
        else:  # R-DEAL-1: the whole deck, reshuffled every round
            hands = _shuffled_hands(self._deck, self.seed, self.round, n, size)
        self.hands = hands
        self._suit_count = [[0, 0, 0, 0] for _ in range(n)]
        for s in range(n):
            counts = self._suit_count[s]
            for c in hands[s]:
                counts[c >> 4] += 1
        self._won = [[0, 0, 0, 0] for _ in range(n)]
        self._tricks_won = [0] * n
        self._passes = [None] * n
        self.pass_count = None
        self._trick_index = -1
        self._order = ()
        self._pos = 0
        self._led = -1
        self._trick = _new_trick(-1)
        self._plays = self._trick.plays  # always the current trick's list of plays
        self._trick_cards = []
        self._log = RoundLog(dealer, [list(h) for h in hands])
        if self._logging:
            self.rounds.append(self._log)
        self.phase = PASS_COUNT

    def _check_deal(self, hands: list[list[Card]]) -> None:
        size = self.ruleset.hand_size
        in_deck = set(self._deck)
        seen: set[Card] = set()
        if len(hands) != self.n:
            raise IllegalDecision("R-DEAL-1", f"round {self.round}: {len(hands)} hands dealt for {self.n} players")
        for s, hand in enumerate(hands):
            if len(hand) != size:
                message = f"round {self.round}: seat {s} was dealt {len(hand)} cards, not {size}"
                raise IllegalDecision("R-DEAL-1", message)
            for c in hand:
                if c not in in_deck:
                    raise IllegalDecision("R-PERFECT-1", f"round {self.round}: {_show(c)} is not in this game's deck")
                if c in seen:
                    raise IllegalDecision("R-DEAL-1", f"round {self.round}: {_show(c)} was dealt twice")
                seen.add(c)

    def _exchange(self) -> None:
        n = self.n
        teams = self.ruleset.partnerships
        half = n // 2
        passes = cast("list[list[Card]]", self._passes)  # every seat has chosen its cards (pass_cards)
        for s in range(n):
            to = (s + half) % n if teams else (s + 1) % n  # R-TEAM-2 / R-PASS-2
            hand_from, hand_to = self.hands[s], self.hands[to]
            counts_from, counts_to = self._suit_count[s], self._suit_count[to]
            for c in passes[s]:
                hand_from.remove(c)
                hand_to.append(c)
                counts_from[c >> 4] -= 1
                counts_to[c >> 4] += 1
        self._log.passes = [list(p) for p in passes]
        self._start_trick((self.dealer + 1) % n)  # R-LEAD-1

    def _start_trick(self, leader: int) -> None:
        self._trick_index += 1
        self._order = self._orders[leader]
        self._pos = 0
        self._led = -1
        self._trick = trick = _new_trick(leader)
        self._plays = trick.plays
        self._trick_cards = []
        if self._logging:
            self._log.tricks.append(trick)
        self.phase = PLAY

    def _after_play(self) -> None:
        if self._pos == len(self._order):
            self._finish_trick()
        else:
            self.phase = PLAY

    def _finish_trick(self) -> None:
        led = self._led
        cards, order = self._trick_cards, self._order
        best, winner = -1, -1
        for i in range(len(cards)):  # R-TRICK-1
            card = cards[i]
            if card > best and card >> 4 == led:  # same suit: a higher card is a higher rank
                best, winner = card, order[i]
        won = self._won[winner]
        for card in cards:  # R-TRICK-2
            won[card >> 4] += 1
        self._tricks_won[winner] += 1
        self._trick.winner = winner
        self._after = _AFTER_TRICK
        if not self._act(winner, led, TRICK, self._trick_index):
            return
        if self._trick_index + 1 == self._tricks_per_round:  # R-ROUND-1 (as _after_trick, one call less)
            self._majority_actions()
        else:
            self._start_trick(winner)

    def _after_trick(self) -> None:
        if self._trick_index + 1 == self._tricks_per_round:  # R-ROUND-1
            self._majority_actions()
        else:
            winner = self._trick.winner
            assert winner is not None  # the trick is over (_finish_trick)
            self._start_trick(winner)

    def _majority_actions(self) -> None:
        teams = self.ruleset.teams
        if self.ruleset.partnerships:  # R-TEAM-3: partners' cards count together
            totals = [[sum([self._won[s][suit] for s in members]) for suit in range(4)] for members in teams]
        else:
            totals = self._won
        for suit in (DIAMONDS, HEARTS, SPADES, CLUBS):  # R-END-2
            best, leader = 0, -1  # the one team with the most cards of the suit; -1 for none or a tie
            for i, t in enumerate(totals):
                x = t[suit]
                if x > best:
                    best, leader = x, i
                elif x == best and x:
                    leader = -1
            if leader < 0:
                continue
            seat = teams[leader][0]
            if suit == CLUBS:
                self._after = _AFTER_MAJORITY
                if not self._act(seat, suit, MAJORITY, None):
                    return
            else:
                self._act(seat, suit, MAJORITY, None)
        self._end_round()

    def _end_round(self) -> None:
        n = self.n
        for i in range(1, n + 1):  # R-END-3, from the player left of the dealer
            seat = (self.dealer + i) % n
            if self._tricks_won[seat] == 0:
                self._act(seat, DIAMONDS, NO_TRICK, None)
                self._act(seat, DIAMONDS, NO_TRICK, None)
        if self.round + 1 == self.ruleset.rounds:  # R-ROUNDS-1
            self._finish_game()
        else:
            self._start_round((self.dealer + 1) % n)  # R-DEALER-1

    def _finish_game(self) -> None:
        self.phase = OVER
        score = [2 * v + s for v, s in zip(self.vault, self.showroom)]  # R-SCORE-1
        best = max(score)
        tied = [i for i, x in enumerate(score) if x == best]
        best_vault = max([self.vault[i] for i in tied])  # R-WIN-1
        winners = [i for i in tied if self.vault[i] == best_vault]
        self.result = new_tuple(Result, (score, list(self.vault), list(self.showroom), winners))

    def _resume(self) -> None:
        after = self._after
        if after == _AFTER_PLAY:
            self._after_play()
        elif after == _AFTER_TRICK:
            self._after_trick()
        else:
            self._end_round()

    # ---- Suit Actions ------------------------------------------------------------------------------------

    def _act(self, seat: int, suit: int, cause: str, trick: int | None) -> bool:
        """Take one Suit Action. Returns False when it waits for a clubs target (the caller stops there)."""
        team = self._team_of[seat]
        target = None
        if suit == DIAMONDS:  # R-ACT-D
            moved = 1 if self.supply else 0  # R-ACT-EMPTY
            self.supply -= moved
            self.vault[team] += moved
        elif suit == HEARTS:  # R-ACT-H
            moved = 1 if self.supply else 0
            self.supply -= moved
            self.showroom[team] += moved
        elif suit == SPADES:  # R-ACT-S
            moved = 1 if self.showroom[team] else 0
            self.showroom[team] -= moved
            self.vault[team] += moved
        elif self.thief is not None:  # R-ACT-C, thief mode
            target = self.thief
            victim = self._team_of[target]
            moved = 1 if victim != team and self.showroom[victim] else 0
            self.showroom[victim] -= moved
            self.showroom[team] += moved
            self.thief = (target + 1) % self.n  # moves whether or not anything was taken
        else:  # R-ACT-C, choose mode
            options = self._clubs_options(seat)
            if len(options) == 1 and self.auto_clubs:
                self._clubs_actor, self._clubs_cause, self._clubs_trick = seat, cause, trick
                self._finish_clubs(options[0])
                return True
            if options:
                self._clubs_actor, self._clubs_cause, self._clubs_trick = seat, cause, trick
                self._clubs_chooser = self.ruleset.teams[team][0] if cause == MAJORITY else seat
                self.phase = CLUBS_TARGET
                return False
            moved = 0
            if self._logging:
                self._log.clubs_targets.append(None)
        if self._logging:
            action = new_tuple(Action, (self.round, trick, seat, suit, cause, target, moved))
            self._log.actions.append(action)
            self.events.append(action)
        return True

    def _clubs_options(self, seat: int) -> list[int]:
        team = self._team_of[seat]
        showroom, team_of = self.showroom, self._team_of
        return [s for s in range(self.n) if team_of[s] != team and showroom[team_of[s]]]

    def _finish_clubs(self, target: int) -> None:
        seat, cause = self._clubs_actor, self._clubs_cause
        assert seat is not None and cause is not None  # set with the pending target (_act)
        team, victim = self._team_of[seat], self._team_of[target]
        self.showroom[victim] -= 1
        self.showroom[team] += 1
        if self._logging:
            self._log.clubs_targets.append(target)
            action = new_tuple(Action, (self.round, self._clubs_trick, seat, CLUBS, cause, target, 1))
            self._log.actions.append(action)
            self.events.append(action)

    # ---- copies for search ---------------------------------------------------------------------------

    def clone(self, *, logging: bool = True) -> Game:
        """An independent copy. With `logging=False` the copy keeps no record (fast playouts for search)."""
        return self._clone(logging)

    def _clone(self, logging: bool) -> Game:
        g = Game.__new__(Game)
        self._copy_state(g)
        g._logging = logging and self._logging
        g.vault = list(self.vault)
        g.showroom = list(self.showroom)
        g.hands = [list(h) for h in self.hands]
        g._suit_count = [list(c) for c in self._suit_count]
        g._won = [list(w) for w in self._won]
        g._tricks_won = list(self._tricks_won)
        g._passes = list(self._passes)  # a seat's chosen cards are never changed, only replaced
        g._trick_cards = list(self._trick_cards)
        if g._logging:
            g.rounds = [_copy_round(r) for r in self.rounds]
            g.events = list(self.events)
            g.choices = list(self.choices)
            g._log = g.rounds[-1]
            in_log = bool(self._log.tricks) and self._trick is self._log.tricks[-1]
            g._trick = g._log.tricks[-1] if in_log else Trick(self._trick.leader)
        else:
            g.rounds = []
            g.events = []
            g.choices = []
            g._log = RoundLog(self.dealer, [])
            g._trick = Trick(self._trick.leader)
            g._trick.plays = list(self._plays)
            g._trick.winner = self._trick.winner  # needed to resume after a clubs choice that ends a trick
        g._plays = g._trick.plays
        g._deals = self._deals
        return g

    def _copy_state(self, g: Game) -> None:
        """Every field of this game onto `g`, as they are (clone then copies what must not be shared). Named
        one by one, as the compiled build keeps them in slots (game.pxd): a field added to Game is added here."""
        g.ruleset, g.seed, g.seats, g.n, g.auto_clubs = self.ruleset, self.seed, self.seats, self.n, self.auto_clubs
        g.first_dealer, g.thief, g.supply, g.vault = self.first_dealer, self.thief, self.supply, self.vault
        g.showroom, g.rounds, g.events, g.choices = self.showroom, self.rounds, self.events, self.choices
        g.move_number, g.result, g.phase, g.round = self.move_number, self.result, self.phase, self.round
        g.dealer, g.hands, g.pass_count = self.dealer, self.hands, self.pass_count
        g._deals, g._deck = self._deals, self._deck
        g._pending_play, g._pending_count, g._orders = self._pending_play, self._pending_count, self._orders
        g._team_of, g._tricks_per_round, g._logging = self._team_of, self._tricks_per_round, self._logging
        g._suit_count, g._won, g._tricks_won, g._passes = self._suit_count, self._won, self._tricks_won, self._passes
        g._trick_index, g._order, g._pos, g._led = self._trick_index, self._order, self._pos, self._led
        g._trick, g._plays, g._log, g._after = self._trick, self._plays, self._log, self._after
        g._trick_cards = self._trick_cards
        g._clubs_actor, g._clubs_cause = self._clubs_actor, self._clubs_cause
        g._clubs_chooser, g._clubs_trick = self._clubs_chooser, self._clubs_trick

    def set_hidden_hands(self, hands: Sequence[Sequence[Card]]) -> None:
        """Replace the hands (a determinization for search): suit counts follow. Not for refereeing."""
        self.hands = [list(h) for h in hands]
        self._suit_count = [[0, 0, 0, 0] for _ in range(self.n)]
        for s, h in enumerate(self.hands):
            counts = self._suit_count[s]
            for c in h:
                counts[c >> 4] += 1

    def won_cards(self, seat: int) -> list[int]:
        """Cards of each suit (D, H, S, C) that `seat` has won in tricks this round (R-END-1)."""
        return list(self._won[seat])

    @property
    def trick_index(self) -> int:
        return self._trick_index

    @property
    def pending_passes(self) -> list[bool]:
        """Which seats have already chosen their cards to pass this round (not which cards)."""
        return [p is not None for p in self._passes]

    def passed_by(self, seat: int) -> list[Card] | None:
        """The cards `seat` chose to pass this round (known to that seat only)."""
        p = self._passes[seat]
        return list(p) if p is not None else None


def _new_trick(leader: int) -> Trick:
    """`Trick(leader)`, made without a call of its `__init__` (the referee starts one every trick)."""
    trick = Trick.__new__(Trick)
    trick.leader, trick.plays, trick.winner = leader, [], None
    return trick


def _copy_round(r: RoundLog) -> RoundLog:
    c = RoundLog(r.dealer, r.hands)
    c.pass_count = r.pass_count
    c.passes = r.passes
    c.clubs_targets = list(r.clubs_targets)
    c.tricks = []
    for t in r.tricks:
        nt = Trick(t.leader)
        nt.plays = list(t.plays)
        nt.winner = t.winner
        c.tricks.append(nt)
    c.actions = list(r.actions)
    return c


_SUIT_WORD = ("diamonds", "hearts", "spades", "clubs")


def _show(c: object) -> str:
    try:
        return card_str(c)  # type: ignore[arg-type]
    except Exception:
        return repr(c)
