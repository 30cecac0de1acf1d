"""Pausing bots that stop answering (aiarena's crash limit), and resuming them.

A bot that missed a turn deadline (the fallback bot decided for it, `MatchSeat.timeouts`) or forfeited in
`DIAMONDS_BOT_PAUSE_AFTER` finished matches in a row is paused: ladders stop seating it and it cannot be entered
anywhere (league.services.competition.check_entrants_can_play) until its owner resumes it. A finished match it
played without a miss resets the count; failed and cancelled matches count neither way (the bot did not finish
them). Only finished matches count: a forfeit there is already final.

Tournaments already running keep a paused bot seated: their later rounds are drawn from the entries, and taking
an entrant out mid-tournament would change the schedule the other entrants play under (pairings, byes, match
points). The fallback bot plays its overdue turns meanwhile; the organiser may still withdraw it.

Engine bots are played by the workers and never have a deadline to miss, so in practice only external bots (and
people, who are never paused) have misses; the rule is written for any bot all the same.

Concurrency: the count moves with F() expressions in single UPDATE statements and the pause is a conditional
UPDATE (`paused_at IS NULL AND missed_in_row >= N`), so two matches finishing at once lose no count and emit
"bot.paused" once.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from ..events import emit
from ..models import Match, MatchSeat, MatchStatus, Player
from ..selectors.prepared import PreparedValues


def pause_after() -> int:
    return max(1, int(settings.DIAMONDS_BOT_PAUSE_AFTER))


def count_match_conduct(*, match_id: int) -> list[int]:
    """Count a finished match towards its bots' pausing, once (a repeated call does nothing). Returns the ids of
    the bots this match paused."""
    # A finished match's seats no longer change. Read first, outside a transaction: at most tables (engine bots,
    # which never miss, at zero already) the count changes nothing, and one conditional UPDATE marks it counted.
    seats = _BOT_SEATS(match_id)
    missed = {pid for pid, timeouts, forfeited, _ in seats if timeouts > 0 or forfeited}
    # Only counts not at zero are reset: a bot's row is not rewritten (nor locked) after each of its clean matches.
    clean = {pid for pid, _, _, in_row in seats if in_row} - missed
    if not missed and not clean:
        _claim(match_id)
        return []
    with transaction.atomic():
        return _count(match_id, missed, clean)


# Every match the workers finish runs it: compiled once per process (league.selectors.prepared).
_BOT_SEATS = PreparedValues(lambda match_id: MatchSeat.objects.filter(match_id=match_id).exclude(player__bot_kind="")
                            .values_list("player_id", "timeouts", "forfeited", "player__missed_in_row"), 1)


def _claim(match_id: int) -> bool:
    # Every finished match runs it: written out, not compiled by the ORM on every call (which costs more than the
    # statement).
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {Match._meta.db_table} SET conduct_counted = %s "
                       "WHERE id = %s AND status = %s AND conduct_counted = %s",
                       [True, match_id, MatchStatus.FINISHED.value, False])
        return bool(cursor.rowcount)


def _count(match_id: int, missed: set[int], clean: set[int]) -> list[int]:
    if not _claim(match_id):
        return []
    if clean:
        # Of two matches of one bot ending together either may count first, as before: this reset and the other's
        # increment are row-locked updates.
        Player.objects.filter(pk__in=clean).exclude(missed_in_row=0).update(missed_in_row=0)
    if not missed:
        return []
    Player.objects.filter(pk__in=missed).update(missed_in_row=F("missed_in_row") + 1)
    n = pause_after()
    reason = _("Missed a turn deadline or forfeited in %(n)d matches in a row (the last: match %(match)d).") % {
        "n": n, "match": match_id}
    due = list(Player.objects.filter(pk__in=missed, paused_at__isnull=True, missed_in_row__gte=n)
               .values_list("pk", flat=True))
    paused = []
    for player_id in due:
        # Conditional: of two transactions reaching N together, one pauses and emits.
        if Player.objects.filter(pk=player_id, paused_at__isnull=True).update(
                paused_at=timezone.now(), paused_reason=reason):
            emit("bot.paused", player_id=player_id, reason=reason)
            paused.append(player_id)
    return paused


class NotPaused(ValueError):
    """Resuming a bot that is not paused."""


@transaction.atomic
def resume_bot(*, player: Player) -> Player:
    """The owner's resume: the bot may be seated and entered again, and its count starts from zero. NotPaused if
    it was not paused (nothing changes, no event)."""
    if not Player.objects.filter(pk=player.pk, paused_at__isnull=False).update(
            paused_at=None, paused_reason="", missed_in_row=0):
        raise NotPaused(_("%(name)s is not paused.") % {"name": player.name})
    emit("bot.resumed", player_id=player.pk)
    player.refresh_from_db(fields=["paused_at", "paused_reason", "missed_in_row"])
    return player
