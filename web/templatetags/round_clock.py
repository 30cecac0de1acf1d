"""`{% round_clock tournament_round %}`: the round's clock (Tournament.round_minutes) counting down from its start,
as the club calls time. Server-rendered with the time it ends, so it reads right without JavaScript; clock.js
counts the minutes and seconds down. Nothing at all for a round without a clock, or not started."""

from datetime import timedelta

from django import template
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag
def round_clock(tournament_round) -> str:
    if tournament_round is None or tournament_round.started_at is None or tournament_round.status == "closed":
        return ""
    minutes = tournament_round.tournament.round_minutes
    if not minutes:
        return ""
    ends = tournament_round.started_at + timedelta(minutes=minutes)
    return format_html(
        '<p class="round-clock" role="timer" aria-label="{}"><span class="clock-left" data-ends-at="{}" '
        'data-over="{}">{}</span> <time datetime="{}">{}</time></p>',
        _("Round %(number)s clock") % {"number": tournament_round.index}, ends.isoformat(), _("Time!"),
        "", ends.isoformat(), _("ends at %(time)s") % {"time": date_format(localtime(ends), "H:i")})
