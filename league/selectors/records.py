"""Export a stored match as its game's record (`diamonds-record/1`, or the newer games' own formats), derived by
replaying its stored choices (league.selectors.games).

`engine.games.by_format(record["format"]).from_record(match_record(match))` replays it. An unfinished Diamonds
match's record lists the tricks that have at least one play, and passes only once all seats have passed (as the
engine's own record does). A Diamonds record's result is the match's stored one, which an organiser may have
corrected (league.services.corrections). These are the whole records, seed included, as the engine exports them
(with_attestation adds the commitment and reveal): only league.selectors.live.public_record decides what of them
anyone may see.

Finished play never changes, so each process keeps the records of the finished matches it has derived in a small
LRU (`RECORD_CACHE`), as JSON text: a hit is parsed afresh, so every caller gets a record of its own to change.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from django.conf import settings

from engine.games import game_type

from ..models import Match, MatchStatus
from .games import StoredPlayError, load_match_game


def with_attestation(match: Match, record: dict[str, Any]) -> dict[str, Any]:
    """The record with the match's commitment and its reveal (seed and nonce: engine.fairness), for those who may
    see them; league.selectors.live.public_record drops the reveal while the deal is secret."""
    if match.commitment:
        record["commitment"] = match.commitment
        record["reveal"] = {"seed": match.seed, "nonce": match.nonce}
    return record


class RecordCache:
    """Finished matches' derived records by match id, as JSON text (the match's seed and creation time tag an
    entry, so a reused id never finds another match's record)."""

    def __init__(self, size: int | None = None):
        self._size = size
        self._entries: OrderedDict[int, tuple[tuple, str]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def size(self) -> int:
        return self._size if self._size is not None else settings.DIAMONDS_RECORD_CACHE_SIZE

    def get(self, match: Match) -> dict[str, Any] | None:
        with self._lock:
            entry = self._entries.get(match.pk)
            if entry is None or entry[0] != (match.seed, match.created_at, match.move_number):
                return None
            self._entries.move_to_end(match.pk)
        return json.loads(entry[1])

    def put(self, match: Match, record: dict[str, Any]) -> None:
        if not self.size:
            return
        with self._lock:
            self._entries[match.pk] = ((match.seed, match.created_at, match.move_number), json.dumps(record))
            self._entries.move_to_end(match.pk)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


RECORD_CACHE = RecordCache()


def match_record(match: Match) -> dict[str, Any]:
    """The match's whole record, derived from its stored play. `match` is read again once when its play moved on
    since it was read (a worker finished the match meanwhile): the record is then the row's as it now stands."""
    try:
        return _record(match)
    except StoredPlayError:
        match.refresh_from_db()
        return _record(match)


def _record(match: Match) -> dict[str, Any]:
    finished = match.status == MatchStatus.FINISHED
    record = RECORD_CACHE.get(match) if finished else None
    if record is None:
        game, _ = load_match_game(match)
        record = game_type(match.game).to_record(game)
        if match.game == "diamonds":
            for r in record["rounds"]:
                r["tricks"] = [t for t in r["tricks"] if t["plays"]]  # a trick just led to has nothing in it yet
        if finished:
            RECORD_CACHE.put(match, record)
    if match.game == "diamonds":
        # The stored result: the game's own, or an organiser's correction of it; none before the match finishes.
        record.pop("result", None)
        if match.result is not None:
            record["result"] = match.result
    return record


def match_tricks(match: Match) -> list[dict[str, Any]]:
    """A Diamonds match's tricks so far, in order, each with its round and index: those with at least one play (every
    card played is seen by the whole table)."""
    return [{"round": r, "index": i, "leader": t["leader"], "plays": t["plays"], "winner": t["winner"]}
            for r, rnd in enumerate(match_record(match)["rounds"]) for i, t in enumerate(rnd["tricks"])]
