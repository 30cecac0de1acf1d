"""Load a stored match back into an engine game by replaying its stored choices.

This is how a resumed worker continues a match, how a person's decision is applied and how a record is derived
(league.selectors.records). Every game is stored the same way: the game's ordered choices, compactly encoded
(engine.common.compact): in `Match.moves`, followed while the match is in play by its MatchStep rows (the steps
stored since); once it has ended, all of it is in `moves`.
Replaying them into a fresh game of the match's ruleset, seed and seats re-derives everything else (the deals,
tricks, Suit Actions, events and result), and the referee checks every stored choice again on the way.
Alongside the game comes its marks (`ChoiceMarks`), a note of how many choices are already stored, so the writer
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
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from engine import IllegalDecision
from engine.common.compact import EncodingError
from engine.games import game_type

from ..models import Match, MatchStatus, MatchStep


class StoredPlayError(Exception):
    """The stored play of a match cannot be read or replayed (a choice the rules refuse, a missing step)."""


@dataclass
class ChoiceMarks:
    """How much of a match's play is stored: the number of its choices (in `moves` and its steps)."""

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

    def get(self, match: Match) -> tuple[Any, ChoiceMarks] | None:
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

    def put(self, match: Match, game: Any, marks: ChoiceMarks) -> None:
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


def load_match_game(match: Match, *, cached: bool = False) -> tuple[Any, ChoiceMarks]:
    """The match's game (of its `game`) as its stored play leaves it, and the marks of what is stored. Raises
    StoredPlayError.

    With `cached`, `match` must be the row as read under the caller's lock or in its snapshot: the game comes from
    GAME_CACHE when it is there. Once the caller's transaction commits (at once outside one), the game is kept in
    GAME_CACHE as it then is, if `match` (which league.services.progress updates as it stores) says it is stored
    up to the game's move: so a step stored and committed is kept, and nothing rolled back or left unstored is."""
    hit = GAME_CACHE.get(match) if cached else None
    if hit is not None:
        game, marks = hit
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


def new_match_game(match: Match) -> Any:
    """A fresh game of the match's kind, ruleset, seed, seats and first seat (and its given deals, if any): the game
    before its first choice. Raises StoredPlayError when the stored parameters do not make a game."""
    try:
        kind = game_type(match.game)
        # a stored ruleset: a field added by a later rule correction reads as the rule the match was made under
        ruleset = kind.stored_ruleset(match.ruleset)
        if match.deals:
            return kind.game(ruleset, match.seed, match.seats, deals=match.deals,
                             **{kind.first_seat_keyword: match.first_dealer})
        return kind.new_game(ruleset, match.seed, match.seats, first_seat=match.first_dealer)
    except (IllegalDecision, ValueError, TypeError) as e:
        raise StoredPlayError(f"match {match.pk}: cannot set up its {match.game} game: {e}") from None


def stored_choices(match: Match) -> list[tuple[int, Any]]:
    """The match's stored choices, (seat, decision) in order: `moves`, then its steps (a finished match has only
    `moves`; nothing is stored before a match leaves `pending`). Raises StoredPlayError."""
    if match.status == MatchStatus.PENDING:
        return []
    codec = game_type(match.game).codec
    try:
        choices = codec.decode(match.moves)
        # A finished match keeps no steps (its play is all in `moves`): they are read only if its moves fall short.
        if match.status != MatchStatus.FINISHED or len(choices) < match.move_number:
            for first, blob in MatchStep.objects.filter(match=match).order_by("first").values_list("first",
                                                                                                   "choices"):
                if first != len(choices):
                    raise StoredPlayError(f"match {match.pk}: choice {len(choices)} is missing (the next stored "
                                          f"step starts at {first})")
                choices.extend(codec.decode(blob))
    except EncodingError as e:
        raise StoredPlayError(f"match {match.pk}: its stored play does not read: {e}") from None
    # Every choice is a move, and a store writes both in one step. More choices than the row read says: play went
    # on after it was read (a reader outside a snapshot), and the game read is simply newer. Fewer: the row was read
    # before a finish moved its steps into `moves`, and the caller reads it again.
    if len(choices) < match.move_number:
        raise StoredPlayError(f"match {match.pk}: {len(choices)} choices stored, the match row read says "
                              f"{match.move_number} moves")
    return choices


def _rebuild(match: Match) -> tuple[Any, ChoiceMarks]:
    """Replay the match's stored choices, in order, into a fresh game of its kind (what load_match_game does without
    the cache): the referee checks every choice again, so a stored choice the rules refuse is caught here."""
    game = new_match_game(match)
    choices = stored_choices(match)
    for index, (seat, decision) in enumerate(choices):
        try:
            game.apply(seat, decision)
        except (IllegalDecision, ValueError, KeyError, TypeError) as e:
            raise StoredPlayError(f"match {match.pk} choice {index}: stored choice refused: {e}") from None
    return game, ChoiceMarks(len(choices))
