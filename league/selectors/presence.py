"""Whether an external bot is there: ladders seat only bots that are (league.services.ladders), and a bot's page
says which (web.views.player).

An external bot is a program that may stop at any time (the README's first bot stops after `--matches 1`), and the
league only learns it has gone from its silence. It counts as there while it asks the API for its turns or makes
decisions: `Player.last_seen_at` (league.services.presence writes it, about once a minute) within the last
DIAMONDS_BOT_PRESENT_MINUTES, and not before its last match ended (a bot that left the moment its match ended was
seen only during it; one still running asks for its next turns at once). A paused bot is not seated either, but
that is its pausing (league.services.bot_pausing), not its presence. People and engine bots are always there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from ..models import MatchSeat, Player
from ..models.match import ENDED
from ..models.player import EXTERNAL_BOT


@dataclass(frozen=True)
class Presence:
    """An external bot's presence: `there`, and when not, `since_match` says it was last seen before its last match
    ended (it has not asked for work since), else it has not been seen for the window (or never)."""

    last_seen_at: datetime | None
    there: bool
    since_match: bool = False
    minutes: int = 0  # the window, DIAMONDS_BOT_PRESENT_MINUTES


def window_start(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) - timedelta(minutes=settings.DIAMONDS_BOT_PRESENT_MINUTES)


def _last_ended(player_ids: list[int]) -> dict[int, datetime]:
    """When each player's latest ended match ended (its row's last change: finished, failed or cancelled)."""
    if not player_ids:
        return {}
    return dict(MatchSeat.objects.filter(player_id__in=player_ids, match__status__in=ENDED).values("player_id")
                .annotate(last=Max("match__updated_at")).values_list("player_id", "last"))


def _judged(seen: datetime | None, ended: datetime | None, start: datetime) -> Presence:
    minutes = settings.DIAMONDS_BOT_PRESENT_MINUTES
    if seen is None or seen < start:
        return Presence(seen, False, minutes=minutes)
    if ended is not None and seen < ended:
        return Presence(seen, False, since_match=True, minutes=minutes)
    return Presence(seen, True, minutes=minutes)


def absent_bot_ids(player_ids: Iterable[int], *, now: datetime | None = None) -> set[int]:
    """The external bots among `player_ids` that are not there now (two reads, whatever their number)."""
    seen = dict(Player.objects.filter(pk__in=list(player_ids), bot_kind=EXTERNAL_BOT)
                .values_list("pk", "last_seen_at"))
    start = window_start(now)
    recent = [pid for pid, at in seen.items() if at is not None and at >= start]
    ended = _last_ended(recent)  # only those seen lately can have been seen since their last match
    return {pid for pid, at in seen.items() if not _judged(at, ended.get(pid), start).there}


def presence_of(player: Player, *, now: datetime | None = None) -> Presence | None:
    """An external bot's presence (None for anyone else: people and engine bots are always there)."""
    if not player.is_external_bot:
        return None
    start = window_start(now)
    ended = _last_ended([player.pk]) if player.last_seen_at is not None and player.last_seen_at >= start else {}
    return _judged(player.last_seen_at, ended.get(player.pk), start)
