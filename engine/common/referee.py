"""The bookkeeping every newer game's referee (Diamoniak, the ring race) shares, apart from its rules.

`ChoicesReferee` seats the table (seat names, the first player drawn from the seed unless given), keeps the
choices, the events and the move number, and says when the game is `over`. The functions put given cards on
top of a shuffled pile (exact set-ups), check that every card is in one place, rank seats into places and
turn a result into JSON.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..fastrandom import seeded_below
from .pending import Pending

OVER = "over"  # the phase of a finished game

# Every Pending made so far, by (kind, seat, count). A game is asked what is pending before every decision (and a
# bot's view asks again); a Pending is frozen, so one object per distinct value serves every game, and there are
# few (a kind, one seat of at most six, a witch's count).
_PENDINGS: dict[tuple[str, int, int | None], Pending] = {}


def one_seat_pending(kind: str, seat: int, count: int | None = None) -> Pending:
    """Pending(kind, (seat,), count): the decision one seat owes, the same object for the same values."""
    key = (kind, seat, count)
    pending = _PENDINGS.get(key)
    if pending is None:
        pending = _PENDINGS[key] = Pending(kind, (seat,), count)
    return pending


class ChoicesReferee:
    """The part of a game that is the same for every game where one seat decides at a time.

    A subclass sets `phase`, `seat` (whose decision it is) and `turn`, checks a decision in `_check` and
    applies it after `_take_choice`; it calls `_event` for what happened.
    """

    phase: str
    seat: int
    turn: int

    def __init__(self, ruleset: Any, seed: str, seats: Sequence[str] | None, first_player: int | None):
        n = ruleset.players
        self.ruleset = ruleset
        self.n = n
        self.seed = str(seed)
        self.seats = list(seats) if seats is not None else [f"seat-{s}" for s in range(n)]
        if len(self.seats) != n:
            raise ValueError(f"{n} players need {n} seat names, got {len(self.seats)}")
        # K-SETUP-1, G-SETUP-1 (Decisions): the seed draws the first player; a game may be given another (the
        # league seats one, tests set up tables), and a record says so (engine.common.choices_record).
        self.drawn_first_player = seeded_below(f"{self.seed}/first-player", n)  # Random(...).randrange(n)
        if first_player is None:
            first_player = self.drawn_first_player
        elif type(first_player) is not int or not 0 <= first_player < n:
            raise ValueError(f"first_player must be a seat 0..{n - 1}, not {first_player!r}")
        self.first_player = first_player
        self.move_number = 0
        self.choices: list[tuple[int, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.result: Any = None

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def clone(self) -> ChoicesReferee:
        """An independent copy of the game as it stands (the league caches live games and hands out clones).

        A deep copy of the table (small lists and sets). The log is copied as new lists holding the same entries: a
        choice is a (seat, frozen decision) tuple and an event dict is never changed once logged, so only the lists
        themselves must not be shared; deep-copying them made a clone's cost grow with the game (most of a late
        decision's time in the league). The ruleset is frozen, so it is shared."""
        log = {id(self.choices): list(self.choices), id(self.events): list(self.events), id(self.ruleset): self.ruleset}
        return copy.deepcopy(self, log)

    def _check(self, seat: int, decision: object) -> None:
        """Raise IllegalDecision (naming the rule) unless `seat` may make `decision` now."""
        raise NotImplementedError

    def _take_choice(self, seat: int, decision: Any) -> None:
        """Check `decision` (changing nothing if it is refused), then count it and keep it for the record."""
        self._check(seat, decision)
        self.move_number += 1
        self.choices.append((seat, decision))

    def _event(self, event: str, fields: dict[str, Any] | None = None) -> None:
        """Log `event` of this turn and seat, with `fields` (in their order) after its name."""
        entry = {"turn": self.turn, "seat": self.seat, "event": event}
        if fields:
            entry.update(fields)  # one merge, sized once (a game logs an event on almost every decision)
        self.events.append(entry)


def cards_on_top(pile: list[int], deck_top: Sequence[int | str] | None, parse_card: Callable[[str], int],
                 game_title: str) -> tuple[list[int], list[int]]:
    """For exact set-ups: `deck_top` (ids or names) as ids, and `pile` (top card last) with those cards on top
    to be drawn in order, the rest keeping their order. ValueError unless they are distinct cards of `pile`."""
    top = [parse_card(c) if isinstance(c, str) else c for c in deck_top or []]
    if not top:
        return top, pile
    if len(set(top)) != len(top) or not set(top) <= set(pile):
        raise ValueError(f"deck_top must name distinct {game_title} cards")
    rest = [c for c in pile if c not in set(top)]
    return top, rest + top[::-1]


def card_places(piles: Sequence[tuple[str, Sequence[int]]], card_name: Callable[[int], str]) -> dict[int, str]:
    """card -> the name of the one pile it is in; AssertionError for a card in two piles (conservation checks)."""
    out: dict[int, str] = {}
    for name, pile in piles:
        for card in pile:
            if card in out:
                raise AssertionError(f"{card_name(card)} is both in {out[card]} and {name}")
            out[card] = name
    return out


def ranked_places(keys: Sequence[Any]) -> list[int]:
    """Per seat, 1 + how many seats have a better (greater) key: 1 is best, equal keys share a place."""
    places = []
    for mine in keys:  # loops rather than a generator a seat: this ranks every finished game
        place = 1
        for k in keys:
            if k > mine:
                place += 1
        places.append(place)
    return places


def result_json(result: NamedTuple) -> dict[str, Any]:
    """A result as views and records show it: its fields in order, per-seat lists copied."""
    return {k: v if isinstance(v, str) else list(v) for k, v in result._asdict().items()}
