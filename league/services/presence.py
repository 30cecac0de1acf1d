"""Noting that an external bot is there (Player.last_seen_at; league.selectors.presence judges it), cheaply: the API
calls `note_seen` on every turns long-poll and decision of an account, and it writes the account's bot row at most
once a minute per process, so a bot's thousand decisions a minute cost one small UPDATE.

Just after a bot has played, its turns polls are noted more often (every SETTLING_SECONDS for SETTLING_FOR
seconds): the poll a bot makes once its match has ended is what tells the ladder it is still there and wants its
next table (league.selectors.presence: seen since its last match ended), and the ladder should hear it within a
tick, not a minute later. A bot that left when its match ended makes no such poll.
"""

from __future__ import annotations

import threading
import time

from django.utils import timezone

from ..models import Player
from ..models.player import EXTERNAL_BOT

SEEN_EVERY_SECONDS = 60.0
SETTLING_SECONDS = 10.0
SETTLING_FOR = 120.0
# The accounts a process remembers having noted; past this it forgets them all (each is then noted once more).
REMEMBERED = 10_000

_lock = threading.Lock()
# account id -> (when this process last wrote it, when it last played), both time.monotonic()
_notes: dict[int, tuple[float | None, float | None]] = {}


def note_seen(user_id: int, *, playing: bool) -> bool:
    """The account asked for its turns (`playing`: and had some, or made a decision): note its external bot as
    seen now, if this process has not done so lately. Returns whether it wrote. A person's account has no external
    bot row, so its rare write changes nothing."""
    now = time.monotonic()
    with _lock:
        written, played = _notes.get(user_id, (None, None))
        if playing:
            played = now
        settling = not playing and played is not None and now - played < SETTLING_FOR
        due = written is None or now - written >= (SETTLING_SECONDS if settling else SEEN_EVERY_SECONDS)
        if due:
            written = now
        if len(_notes) >= REMEMBERED and user_id not in _notes:
            _notes.clear()
        _notes[user_id] = (written, played)
    if due:
        Player.objects.filter(user_id=user_id, bot_kind=EXTERNAL_BOT).update(last_seen_at=timezone.now())
    return due


def forget_notes() -> None:
    """Forget what this process noted (tests: each starts as a fresh process would)."""
    with _lock:
        _notes.clear()
