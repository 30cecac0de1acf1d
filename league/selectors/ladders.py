"""What a ladder will do next, in words for its page: why it has no tables, or when the next ones are seated."""

from __future__ import annotations

from django.conf import settings

from ..models import Ladder, LadderEntry, MatchSeat, MatchStatus


def ladder_tick_seconds() -> float | None:
    """How often the ladder tick runs here (the beat schedule's entry), or None when nothing runs it: no broker
    (so no `celery beat`) and the embedded beat turned off (workers/embedded_beat.py)."""
    entry = next((e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "workers.tasks.ladder_tick"),
                 None)
    if entry is None or (settings.CELERY_TASK_ALWAYS_EAGER and not settings.DIAMONDS_EMBEDDED_BEAT):
        return None
    schedule = entry["schedule"]
    return float(schedule.total_seconds() if hasattr(schedule, "total_seconds") else schedule)


def ladder_outlook(*, ladder: Ladder) -> str:
    """One sentence: why the ladder seats nothing, or when it seats its next tables."""
    if not ladder.active:
        return "This ladder is paused: no new tables are seated until an organiser resumes it."
    # Paused bots keep their entries but are not seated (league.services.bot_pausing): they do not count here.
    active = LadderEntry.objects.filter(ladder=ladder, active=True, player__paused_at__isnull=True).values_list(
        "player_id", flat=True)
    joined = len(active)
    if joined < ladder.table_size:
        return (f"A table needs {ladder.table_size} players and {joined} {'has' if joined == 1 else 'have'} "
                f"joined: tables are seated once {ladder.table_size} are in the pool.")
    tick = ladder_tick_seconds()
    if tick is None:
        return ("Nothing seats tables of this ladder here: there is no `celery beat` (no REDIS_URL) and the web "
                "process's own schedule is off (DIAMONDS_EMBEDDED_BEAT=0).")
    busy = MatchSeat.objects.filter(player_id__in=list(active),
                                    match__status__in=[MatchStatus.PENDING, MatchStatus.RUNNING]).count()
    free = joined - busy
    if free < ladder.table_size:
        return (f"{busy} of its {joined} players are at a table; the next tables are seated when "
                f"{ladder.table_size} are free (the ladder tick runs every {tick:g} s).")
    return (f"The next ladder tick (every {tick:g} s) seats {free // ladder.table_size} table"
            f"{'s' if free // ladder.table_size != 1 else ''} of {ladder.table_size} from its {free} free players.")
