"""What a ladder will do next, in words for its page: why it has no tables, or when the next ones are seated."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Ladder, LadderEntry, MatchSeat, MatchStatus
from .presence import absent_bot_ids


def ladder_tick_seconds() -> float | None:
    """How often the ladder tick runs here (the beat schedule's entry), or None when nothing runs it: no broker
    (so no `celery beat`) and the embedded beat turned off (workers/embedded_beat.py)."""
    entry = next((e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "workers.tasks.ladder_tick"),
                 None)
    if entry is None or (settings.CELERY_TASK_ALWAYS_EAGER and not settings.DIAMONDS_EMBEDDED_BEAT):
        return None
    schedule = entry["schedule"]
    return float(schedule.total_seconds() if isinstance(schedule, timedelta) else schedule)


def ladder_outlook(*, ladder: Ladder) -> str:
    """One sentence: why the ladder seats nothing, or when it seats its next tables."""
    if not ladder.active:
        return _("This ladder is paused: no new tables are seated until an organiser resumes it.")
    # Paused bots keep their entries but are not seated (league.services.bot_pausing): they do not count here.
    active = LadderEntry.objects.filter(ladder=ladder, active=True, player__paused_at__isnull=True).values_list(
        "player_id", flat=True)
    joined = len(active)
    if joined < ladder.table_size:
        return ngettext("A table needs %(size)s players and %(joined)s has joined: tables are seated once %(size)s "
                        "are in the pool.",
                        "A table needs %(size)s players and %(joined)s have joined: tables are seated once %(size)s "
                        "are in the pool.", joined) % {"size": ladder.table_size, "joined": joined}
    tick = ladder_tick_seconds()
    if tick is None:
        return _("Nothing seats tables of this ladder here: there is no `celery beat` (no REDIS_URL) and the web "
                 "process's own schedule is off (DIAMONDS_EMBEDDED_BEAT=0).")
    busy_ids = set(MatchSeat.objects.filter(player_id__in=list(active),
                                            match__status__in=[MatchStatus.PENDING, MatchStatus.RUNNING])
                   .values_list("player_id", flat=True))
    busy = len(busy_ids)
    # External bots that are not polling are not seated either (league.selectors.presence).
    absent = len(absent_bot_ids([pid for pid in active if pid not in busy_ids]))
    free = joined - busy - absent
    if free < ladder.table_size and absent:
        return ngettext("%(absent)s external bot of this ladder is absent (it is not polling for its turns): the next "
                        "tables are seated when %(size)s players are free and there (the ladder tick runs every "
                        "%(tick)s s).",
                        "%(absent)s external bots of this ladder are absent (they are not polling for their turns): "
                        "the next tables are seated when %(size)s players are free and there (the ladder tick runs "
                        "every %(tick)s s).", absent) % {"absent": absent, "size": ladder.table_size,
                                                          "tick": f"{tick:g}"}
    if free < ladder.table_size:
        return _("%(busy)s of its %(joined)s players are at a table; the next tables are seated when %(size)s are "
                 "free (the ladder tick runs every %(tick)s s).") % {
            "busy": busy, "joined": joined, "size": ladder.table_size, "tick": f"{tick:g}"}
    tables = free // ladder.table_size
    return ngettext("The next ladder tick (every %(tick)s s) seats %(tables)s table of %(size)s from its %(free)s free "
                    "players.",
                    "The next ladder tick (every %(tick)s s) seats %(tables)s tables of %(size)s from its %(free)s "
                    "free players.", tables) % {"tick": f"{tick:g}", "tables": tables, "size": ladder.table_size,
                                                "free": free}
