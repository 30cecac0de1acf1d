"""`{% seat_clock s.seat %}`: a seat's chess clock, drawn in the seat beside its player's name (web/_seat_clock.html,
from web.play.clock_context's `seat_clocks`). Nothing for a table without a clock, for a seat without one (an
engine bot's), or on a replay."""

from django import template

register = template.Library()


@register.inclusion_tag("web/_seat_clock.html", takes_context=True)
def seat_clock(context, seat: int) -> dict:
    clocks = context.get("seat_clocks") or {}
    return {"c": clocks.get(seat), "taken_at": context.get("clock_taken_ms")}
