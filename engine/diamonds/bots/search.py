"""The search bot: determinized Monte Carlo over hidden hands consistent with what its seat has seen.

A determinization deals the unseen cards to the other seats at random, respecting every void they showed
and the cards this seat passed to them (`Knowledge.sample_hands`), and asks the view for a copy of the game
with those hands (`SeatView.determinize`, which also replaces the seed, so no future deal is known and the
others' passes stay hidden). Each candidate move is made in such copies and the round is played out with a
fast policy. A playout is worth the seat's (team's) score margin over the best other team when the round
ends (at the last round, the final margin): moves are judged by what they do to the race, not only to the
seat's own pile. Card play, clubs targets, the pass count and the cards to pass are all searched.

Move selection (`selection`): "halving" (the default) is sequential halving in which every move still in
the race is played out in the same determinizations with the same rollout dice, so moves are compared on
equal deals and the worse half drops out each round; "ucb" is UCB1 with a fresh determinization per playout.

Settings: `playouts` per decision (default 800: about 3.5 s of one core for a 4-player game) and
`seconds`, an optional time cap per decision. With `seconds` the bot is no longer reproducible from its seed
alone (it depends on the machine's speed). Both are bounded (MAX_PLAYOUTS, MAX_SECONDS: some 20 s of thought per
decision at most), since a bot's settings come from an organiser's request and a play loop stops only between
decisions (league.services.stopping)."""

from __future__ import annotations

import dataclasses
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ...common.bot import Bot
from ...fastrandom import below, new_random, random_float, reset_random
from ..cards import DIAMONDS, Card
from ..game import CLUBS_TARGET, OVER, PASS_CARDS, PASS_COUNT, PLAY, Decision, Game
from ..ruleset import Ruleset
from ..view import SeatView
from .greedy import choose_pass_cards, choose_pass_count
from .knowledge import Knowledge

EXPLORATION = 6.0  # UCB1 constant, in points of margin (a playout's margin spreads over roughly +-10)
MAX_PLAYOUTS = 5000
MAX_SECONDS = 20.0

Move = TypeVar("Move")  # what a search compares: cards, seats, counts or sets of cards to pass
# A playout's policy: the card `seat` plays in the game from its legal cards, with the playout's dice.
Policy = Callable[[Game, int, list[Card], random.Random], Card]


class SearchBot(Bot):
    name = "search"

    def __init__(self, seed: str | int = 0, playouts: int = 800, seconds: float | None = None,
                 rollout: str = "heuristic", objective: str = "margin", exploration: float = EXPLORATION,
                 search_passes: bool = True, selection: str = "halving"):
        super().__init__(seed=seed)
        if not isinstance(playouts, int) or isinstance(playouts, bool) or not 1 <= playouts <= MAX_PLAYOUTS:
            raise ValueError(f"playouts must be a whole number from 1 to {MAX_PLAYOUTS}, not {playouts!r}")
        if seconds is not None and (not isinstance(seconds, int | float) or isinstance(seconds, bool)
                                    or not 0 <= seconds <= MAX_SECONDS):
            raise ValueError(f"seconds must be a number from 0 (no cap) to {MAX_SECONDS:g}, or null; not {seconds!r}")
        if not isinstance(exploration, int | float) or isinstance(exploration, bool) or not 0 <= exploration <= 1000:
            raise ValueError(f"exploration must be a number from 0 to 1000, not {exploration!r}")
        if rollout not in ("heuristic", "random"):
            raise ValueError("rollout is 'heuristic' or 'random'")
        if objective not in ("margin", "delta"):
            raise ValueError("objective is 'margin' (over the best other team) or 'delta' (over the mean)")
        self.playouts = playouts
        self.seconds = seconds
        self.rollout = rollout
        self.objective = objective
        self.exploration = exploration
        self.search_passes = bool(search_passes)
        if selection not in ("ucb", "halving"):
            raise ValueError("selection is 'ucb' or 'halving'")
        self.selection = selection
        self.playouts_done = 0  # counted over the bot's life, for benchmarks
        self._truncated: dict[tuple[Ruleset, int], Ruleset] = {}

    def decide(self, view: SeatView) -> Decision:
        pending = view.pending
        assert pending is not None  # a bot is asked only for a seat that owes a decision
        kind = pending.kind
        if kind == PASS_COUNT:
            if not self.search_passes:
                return Decision.pass_count(choose_pass_count(view.hand))
            return Decision.pass_count(self._search(view, kind, [1, 2, 3]))
        if kind == PASS_CARDS:
            count = pending.count
            assert count is not None  # a pass of cards has its count
            if not self.search_passes:
                return Decision.pass_cards(choose_pass_cards(view.hand, count))
            return Decision.pass_cards(self._search(view, kind, pass_candidates(view.hand, count)))
        legal = view.legal
        if len(legal) == 1:
            return Decision(kind, legal[0])
        return Decision(kind, self._search(view, kind, sorted(legal)))

    def _search(self, view: SeatView, kind: str, moves: Sequence[Move]) -> Move:
        k = Knowledge(view)
        self._setup = (view, kind, k, self._round_only(view.ruleset, view.round))
        if self.selection == "halving":
            best = self._halving(moves)
        else:
            best = self._ucb(moves)
        return moves[best]

    def _world(self) -> Game:
        """A fresh determinization: the unseen cards dealt at random, the round the last one played."""
        view, _, k, ruleset = self._setup
        g = view.determinize(k.sample_hands(self.rng), seed=f"search/{self.rng.getrandbits(32)}")
        g.ruleset = ruleset  # the playout stops when the round ends
        return g

    def _playout(self, g: Game, move: Any, rng: random.Random) -> float:
        """Make `move` in `g` (a card, a seat, cards or a count: the decision's kind says which), play the round
        out, and value it for this seat's team."""
        view, kind, k, _ = self._setup
        seat, team = view.seat, k.team
        if kind == PLAY:
            g.play(seat, move)
        elif kind == CLUBS_TARGET:
            g.choose_clubs_target(seat, move)
        elif kind == PASS_CARDS:
            g.pass_cards(seat, move)
        else:
            g.choose_pass_count(seat, move)
        _play_out(g, rng, _random_play if self.rollout == "random" else _heuristic_play)
        self.playouts_done += 1
        result = g.result
        assert result is not None  # _play_out returns when the game is over
        score = result.score
        mine = score[team]
        if self.objective == "delta":
            return mine - (sum(score) - mine) / (len(score) - 1)
        return mine - max([x for t, x in enumerate(score) if t != team])

    def _ucb(self, moves: Sequence[object]) -> int:
        """UCB1 over the moves, each playout in a new determinization."""
        count = len(moves)
        visits = [0] * count
        totals = [0.0] * count
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        c = self.exploration
        for done in range(self.playouts):
            if deadline is not None and done >= count and time.perf_counter() > deadline:
                break
            if done < count:
                i = done
            else:
                log_n = math.log(done)
                i = max(range(count), key=lambda j: totals[j] / visits[j] + c * math.sqrt(log_n / visits[j]))
            totals[i] += self._playout(self._world(), moves[i], self.rng)
            visits[i] += 1
        return max(range(count), key=lambda j: (totals[j] / visits[j] if visits[j] else -math.inf, -j))

    def _halving(self, moves: Sequence[object]) -> int:
        """Sequential halving: every move still in the race is played out in the same determinizations
        (with the same rollout dice), so moves are compared on equal deals; the worse half drops out."""
        alive = list(range(len(moves)))
        totals = [0.0] * len(moves)
        rolled = new_random(0)  # each playout's dice: set to a world's dice before it
        rounds = max(1, math.ceil(math.log2(len(moves))))
        budget = self.playouts
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        for r in range(rounds):
            worlds = max(1, budget // (len(alive) * (rounds - r)))
            for _ in range(worlds):
                if deadline is not None and time.perf_counter() > deadline and r:
                    break
                base = self._world()
                dice = new_random(self.rng.getrandbits(64))  # the rollouts' dice, the same for every move
                for i in alive:
                    reset_random(rolled, dice)  # rolled.setstate(dice.getstate())
                    totals[i] += self._playout(base.clone(logging=False), moves[i], rolled)
                budget -= len(alive)
            alive.sort(key=lambda i: (-totals[i], i))
            if len(alive) > 1 and r < rounds - 1:
                alive = alive[: (len(alive) + 1) // 2]
        return alive[0]

    def _round_only(self, ruleset: Ruleset, round_index: int) -> Ruleset:
        """The same rules, but the game ends with the current round (later deals are unknown anyway)."""
        key = (ruleset, round_index)
        cut = self._truncated.get(key)
        if cut is None:
            cut = self._truncated[key] = dataclasses.replace(ruleset, rounds=round_index + 1)
        return cut


def _play_out(g: Game, rng: random.Random, policy: Policy) -> None:
    """Play `g` to its end with a fast policy, going through the referee's own checks."""
    _play_round(g, rng, policy)


def _play_round(g: Game, rng: random.Random, policy: Policy) -> None:
    """_play_out's loop (a function of its own, which the compiled build types: search.pxd)."""
    heuristic, uniform = policy is _heuristic_play, policy is _random_play  # called straight, not through `policy`
    while True:
        phase = g.phase
        if phase is PLAY:  # g.to_play and g.legal(seat) inlined: the policies only read the list
            seat = g._order[g._pos]
            hand = g.hands[seat]  # a playout never deals again (round-only ruleset): the same lists throughout
            led = g._led
            legal = [c for c in hand if c >> 4 == led] if led >= 0 and g._suit_count[seat][led] else hand
            if heuristic:
                card = _heuristic_play(g, seat, legal, rng)
            elif uniform:
                card = _random_play(g, seat, legal, rng)
            else:
                card = policy(g, seat, legal, rng)
            g.play(seat, card)
        elif phase == CLUBS_TARGET:
            pending = g.pending
            assert pending is not None  # the phase is a pending decision
            seat = pending.seats[0]
            g.choose_clubs_target(seat, _richest_target(g, g.legal(seat)))
        elif phase == PASS_CARDS:  # the others' passes (and this seat's, after a pass count) by the greedy rule
            pending, count = g.pending, g.pass_count
            assert pending is not None and count is not None  # the pass count is chosen in this phase
            for seat in pending.seats:
                g.pass_cards(seat, choose_pass_cards(g.hands[seat], count))
        elif phase == OVER:
            return
        else:  # pragma: no cover - a round-only ruleset ends before any new deal
            raise AssertionError(f"unexpected phase {phase} in a playout")


def pass_candidates(hand: list[Card], count: int) -> list[tuple[Card, ...]]:
    """A handful of sensible passes to compare: the greedy one, emptying each suit, lowest, highest cards."""
    candidates = [tuple(choose_pass_cards(hand, count))]
    by_rank = sorted(hand, key=lambda c: (c & 15, c))
    for suit in range(4):
        cards = sorted((c for c in hand if c >> 4 == suit), key=lambda c: (c & 15, c))
        if 0 < len(cards) <= count:  # empty this suit, then the lowest other cards
            rest = [c for c in by_rank if c >> 4 != suit]
            candidates.append(tuple(cards + rest[: count - len(cards)]))
        elif cards:  # thin it out from the bottom
            candidates.append(tuple(cards[:count]))
    candidates.append(tuple(by_rank[:count]))
    side = [c for c in by_rank if c >> 4 != DIAMONDS]
    if len(side) >= count:
        candidates.append(tuple(side[-count:]))
    unique: list[tuple[Card, ...]] = []
    for cand in candidates:
        key = tuple(sorted(cand))
        if key not in unique:
            unique.append(key)
    return unique


def _richest_target(g: Game, options: list[int]) -> int:
    """The clubs target a playout takes: the fullest showroom, the lowest seat on a tie."""
    showroom, team_of = g.showroom, g.team_of
    return max(options, key=lambda s: (showroom[team_of(s)], -s))


def _random_play(g: Game, seat: int, legal: list[Card], rng: random.Random) -> Card:
    return legal[below(rng, len(legal))] if len(legal) > 1 else legal[0]


def _heuristic_play(g: Game, seat: int, legal: list[Card], rng: random.Random) -> Card:
    """Cheap play: win a trick cheaply when last, duck otherwise; off suit, cash a diamond; lead at random."""
    if len(legal) == 1:
        return legal[0]
    trick = g._trick_cards  # the current trick's cards in play order (the referee's own list, read only)
    if not trick or random_float(rng) < 0.15:  # rng.random()
        return legal[below(rng, len(legal))]
    led = trick[0] >> 4
    if legal[0] >> 4 == led:  # following suit (legal cards are then all of the led suit, R-FOLLOW-1)
        best = -1  # the highest card of the led suit played so far (there is one: the lead)
        for c in trick:
            if c >> 4 == led and c > best:
                best = c
        lowest, highest, lowest_winner = 64, -1, 64  # cards are below 64
        for c in legal:
            lowest, highest = min(lowest, c), max(highest, c)
            if c > best:
                lowest_winner = min(lowest_winner, c)
        last = len(trick) == len(g._order) - 1
        if highest > best and (last or random_float(rng) < 0.5):  # a card that wins the trick so far
            return lowest_winner if last else highest
        return lowest
    lowest_diamond, lowest = 64, 64 << 6
    for c in legal:
        if c >> 4 == DIAMONDS:
            lowest_diamond = min(lowest_diamond, c)
        lowest = min(lowest, (c & 15) << 6 | c)  # the lowest rank, then the lowest card
    return lowest_diamond if lowest_diamond < 64 else lowest & 63
