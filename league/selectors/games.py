"""Load a stored match back into an engine game by replaying its stored choices.

This is how a resumed worker continues a match and how a person's decision is applied. How a match is stored
depends on its game (`Match.game`, a name of engine.games):
- Diamonds: rounds, tricks and Suit Actions rows hold the choices (deals, pass counts, passes, plays, clubs
  targets); the engine re-derives everything else, and what it derives must agree with the stored rows (the API
  serves them trick by trick). Its marks are `StoredMarks`.
- every other game: its `MatchChoice` rows, the ordered decisions (as a choices record holds them), replayed
  into a fresh game of that game. Its marks are `ChoiceMarks`: how many choices are stored.
Alongside the game comes its marks, a note of how much of the game is already stored, so the writer
(league.services.progress) stores only what is new.

Replaying a whole match for every decision is the main cost of live play, so each process keeps the games it has
rebuilt or stepped in a small LRU (`GAME_CACHE`), keyed by match and move number. Stored play is never rewritten
and every stored step moves the match's move number on in the same transaction, so the game a running match's row
points at (its id and move number) is always the same game: a cached copy can only go unused, never be wrong.
Entries are private snapshots; callers get a clone (Game.clone) they may change as they like.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction

from engine import CLUBS_TARGET, Game, IllegalDecision, Ruleset, parse_card, parse_cards
from engine.games import game_type

from ..models import Match, MatchChoice, MatchRound, MatchStatus, SuitAction, Trick

# The games stored as rounds, tricks and Suit Actions (the API's trick-by-trick reads); every other game of
# engine.games is stored as its ordered choices (MatchChoice).
TRICK_STORED_GAMES = frozenset({"diamonds"})


def stored_as_choices(game_name: str) -> bool:
    """Whether a match of `game_name` is stored as MatchChoice rows (not as Diamonds' rounds and tricks)."""
    return game_name not in TRICK_STORED_GAMES


class StoredPlayError(Exception):
    """The stored rows of a match cannot be replayed, or disagree with what the rules derive from them."""


@dataclass
class RoundMark:
    """How much of one round is stored."""

    pass_count: int | None = None
    passes: list | None = None
    clubs_targets: int = 0
    tricks: int = 0  # trick rows stored
    last_plays: int = 0  # plays in the last stored trick row
    last_has_winner: bool = False
    actions: int = 0  # SuitAction rows stored


@dataclass
class StoredMarks:
    """How much of a match is stored: one RoundMark per stored round."""

    rounds: list[RoundMark] = field(default_factory=list)

    def copy(self) -> StoredMarks:
        """An independent copy (what copy.deepcopy gives, at a fraction of its cost: GAME_CACHE copies marks on
        every decision). A round's passes are lists of card names per seat, or None."""
        return StoredMarks([
            RoundMark(m.pass_count, None if m.passes is None else [None if p is None else list(p) for p in m.passes],
                      m.clubs_targets, m.tricks, m.last_plays, m.last_has_winner, m.actions)
            for m in self.rounds
        ])


@dataclass
class ChoiceMarks:
    """How much of a match stored as its choices is stored: the number of MatchChoice rows."""

    choices: int = 0

    def copy(self) -> ChoiceMarks:
        return ChoiceMarks(self.choices)


class GameCache:
    """A process's most recently used running games, by (match id, move number), as private snapshots.

    An entry also holds the match's seed and creation time, so a reused id (a test database rolled back, say)
    never finds another match's game."""

    def __init__(self, size: int | None = None):
        self._size = size
        self._entries: OrderedDict = OrderedDict()
        self._lock = threading.Lock()  # gunicorn threads share the process's cache

    @property
    def size(self) -> int:
        if self._size is not None:
            return self._size
        return settings.DIAMONDS_GAME_CACHE_SIZE

    @staticmethod
    def _tag(match: Match) -> tuple:
        return (match.seed, match.created_at)

    def get(self, match: Match) -> tuple[Any, StoredMarks | ChoiceMarks] | None:
        """A clone of the game the running match's row points at, with its marks, or None."""
        if match.status != MatchStatus.RUNNING or not self.size:
            return None
        key = (match.pk, match.move_number)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] != self._tag(match):
                return None
            self._entries.move_to_end(key)
        _, game, marks = entry
        return game.clone(), marks.copy()

    def put(self, match: Match, game: Any, marks: StoredMarks | ChoiceMarks) -> None:
        """Keep a snapshot of `game` (as stored: `marks` must describe all of it) for the match at its move."""
        size = self.size
        if not size or game.over:
            return  # a finished match takes no more decisions
        entry = (self._tag(match), game.clone(), marks.copy())
        with self._lock:
            self._entries[(match.pk, game.move_number)] = entry
            self._entries.move_to_end((match.pk, game.move_number))
            while len(self._entries) > size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


GAME_CACHE = GameCache()


def load_match_game(match: Match, *, cached: bool = False) -> tuple[Any, StoredMarks | ChoiceMarks]:
    """The match's game (of its `game`) as its stored rows leave it, and the marks of what is stored (StoredMarks for
    Diamonds, ChoiceMarks for the others). Raises StoredPlayError.

    With `cached`, `match` must be the row as read under the caller's lock or in its snapshot: the game comes from
    GAME_CACHE when it is there. Once the caller's transaction commits (at once outside one), the game is kept in
    GAME_CACHE as it then is, if `match` (which league.services.progress updates as it stores) says it is stored
    up to the game's move: so a step stored and committed is kept, and nothing rolled back or left unstored is."""
    hit = GAME_CACHE.get(match) if cached else None
    if hit is not None:
        game, marks = hit
    elif stored_as_choices(match.game):
        game, marks = _rebuild_from_choices(match)
    else:
        game, marks = _rebuild(match)
    if cached:
        loaded_at = game.move_number

        def keep() -> None:
            if hit is not None and game.move_number == loaded_at:
                return  # the cache holds this very state already
            if match.status == MatchStatus.RUNNING and match.move_number == game.move_number:
                GAME_CACHE.put(match, game, marks)

        transaction.on_commit(keep)
    return game, marks


def _rebuild(match: Match) -> tuple[Game, StoredMarks]:
    """Read the match's rows and replay them (what load_match_game does without the cache)."""
    if match.status == MatchStatus.PENDING:
        # Nothing is stored before a match leaves `pending` (services mark it running first): no rows to read.
        return replay_stored(match, [], {}), StoredMarks()
    rounds = list(MatchRound.objects.filter(match=match).order_by("index"))
    tricks: dict[int, list[Trick]] = {}
    for t in Trick.objects.filter(match=match).order_by("round", "index"):
        tricks.setdefault(t.round, []).append(t)
    action_counts: dict[int, int] = {}
    for r in SuitAction.objects.filter(match=match).values_list("round", flat=True):
        action_counts[r] = action_counts.get(r, 0) + 1
    game = replay_stored(match, rounds, tricks)
    marks = StoredMarks()
    for r in rounds:
        stored_tricks = tricks.get(r.index, [])
        log = game.rounds[r.index]
        if action_counts.get(r.index, 0) != len(log.actions):
            raise StoredPlayError(
                f"match {match.pk} round {r.index}: {action_counts.get(r.index, 0)} Suit Actions stored, "
                f"the rules derive {len(log.actions)}"
            )
        for t in stored_tricks:
            if t.winner is not None and t.winner != log.tricks[t.index].winner:
                raise StoredPlayError(f"match {match.pk} round {r.index} trick {t.index}: stored winner disagrees")
        last = stored_tricks[-1] if stored_tricks else None
        marks.rounds.append(RoundMark(
            pass_count=r.pass_count,
            passes=r.passes,
            clubs_targets=len(r.clubs_targets),
            tricks=len(stored_tricks),
            last_plays=len(last.plays) if last else 0,
            last_has_winner=last is not None and last.winner is not None,
            actions=len(log.actions),
        ))
    return game, marks


def _rebuild_from_choices(match: Match) -> tuple[Any, ChoiceMarks]:
    """Replay the match's MatchChoice rows, in order, into a fresh game of its kind (a choices record's replay:
    the referee checks every choice again, so a row the rules refuse is caught here)."""
    try:
        kind = game_type(match.game)
        # a stored ruleset: a field added by a later rule correction reads as the rule the match was made under
        game = kind.new_game(kind.stored_ruleset(match.ruleset), match.seed, match.seats,
                             first_seat=match.first_dealer)
    except (IllegalDecision, ValueError, TypeError) as e:
        raise StoredPlayError(f"match {match.pk}: cannot set up its {match.game} game: {e}") from None
    if match.status == MatchStatus.PENDING:
        return game, ChoiceMarks()  # nothing is stored before a match leaves `pending`
    rows = MatchChoice.objects.filter(match=match).order_by("index").values_list("index", "seat", "decision")
    count = 0
    for index, seat, decision in rows:
        if index != count:
            raise StoredPlayError(f"match {match.pk}: choice {count} is missing (the next stored is {index})")
        try:
            game.apply(seat, kind.parse_decision(decision))
        except (IllegalDecision, ValueError, KeyError, TypeError) as e:
            raise StoredPlayError(f"match {match.pk} choice {index}: stored choice refused: {e}") from None
        count += 1
    return game, ChoiceMarks(count)


def replay_stored(match: Match, rounds: list[MatchRound], tricks: dict[int, list[Trick]]) -> Game:
    """Feed the stored choices to a fresh game, in the order they were made.

    The game keeps `auto_clubs` on, as in live play, so a clubs target with one option is applied without a
    decision exactly as it was live, and `move_number` comes out as it was live: bots are seeded from it.
    """
    try:
        game = Game(
            Ruleset.from_dict(match.ruleset), match.seed, match.seats,
            deals=[r.hands for r in rounds], first_dealer=match.first_dealer,
        )
    except (IllegalDecision, ValueError) as e:
        raise StoredPlayError(f"match {match.pk}: cannot set up its game: {e}") from None
    for r in rounds:
        index = r.index
        if game.round != index:
            raise StoredPlayError(f"match {match.pk}: round {index} is stored but the game is in round {game.round}")
        targets = r.clubs_targets or []

        try:
            if r.pass_count is None:
                break
            game.choose_pass_count(game.dealer, r.pass_count)
            for seat, cards in enumerate(r.passes or []):
                if cards is not None:
                    game.pass_cards(seat, parse_cards(cards))
            for t in tricks.get(index, []):
                for play in t.plays:
                    _settle_clubs(game, index, targets)
                    game.play(play["seat"], parse_card(play["card"]))
            _settle_clubs(game, index, targets)
        except (IllegalDecision, ValueError, KeyError, TypeError) as e:
            raise StoredPlayError(f"match {match.pk} round {index}: stored choice refused: {e}") from None
    return game


def _settle_clubs(game: Game, index: int, targets: list) -> None:
    """Answer pending clubs targets of round `index` from its stored list; stop where the stored choices end."""
    while game.pending is not None and game.pending.kind == CLUBS_TARGET and game.round == index:
        k = len(game.rounds[index].clubs_targets)
        if k >= len(targets):
            return
        game.choose_clubs_target(game.pending.seats[0], targets[k])
