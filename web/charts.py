"""Rating-history charts drawn on the server as inline SVG: one line per player, told apart by dash pattern and a
label at the line's end as well as by colour (never colour alone)."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

COLOURS = ("#1f5fa8", "#b3261e", "#2e7d32", "#6a1b9a", "#8a5a00", "#00695c")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


@dataclass
class Series:
    name: str
    points: list[float]  # the ordinal after each rated match, oldest first


def rating_chart(series: list[Series], *, width: int = 640, height: int = 260, title: str | None = None
                 ) -> SafeString:
    """The chart; its words and the ratings it prints in the reader's language (the coordinates stay numbers)."""
    title = title if title is not None else _("Rating history")
    series = [s for s in series if s.points]
    if not series:
        return mark_safe("")
    left, right, top, bottom = 44, 110, 16, 28
    values = [v for s in series for v in s.points]
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    longest = max(len(s.points) for s in series)
    span_x = max(longest - 1, 1)

    def x(i: int) -> float:
        return left + (width - left - right) * i / span_x

    def y(v: float) -> float:
        return top + (height - top - bottom) * (high - v) / (high - low)

    # End labels at least a line apart, so players who finish level stay readable.
    label_y: dict[int, float] = {}
    for k in sorted(range(len(series)), key=lambda k: y(series[k].points[-1])):
        wanted = y(series[k].points[-1]) + 4
        label_y[k] = max(wanted, max(label_y.values(), default=-1e9) + 13)
    lines = []
    for k, s in enumerate(series):
        colour, dash = COLOURS[k % len(COLOURS)], DASHES[k % len(DASHES)]
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(s.points))
        end_x, end_y = x(len(s.points) - 1), y(s.points[-1])
        # format_html escapes its arguments into strings, so numbers are formatted first.
        after = ngettext("%(name)s: %(rating)s after %(count)s rated match",
                         "%(name)s: %(rating)s after %(count)s rated matches", len(s.points)) % {
            "name": s.name, "rating": number_format(s.points[-1], 2), "count": len(s.points)}
        lines.append(format_html(
            '<g><title>{}</title>'
            '<polyline points="{}" fill="none" stroke="{}" stroke-width="2" stroke-dasharray="{}"/>'
            '<circle cx="{}" cy="{}" r="3" fill="{}"/>'
            '<text x="{}" y="{}" font-size="12" fill="currentColor">{}</text></g>',
            after, pts, colour, dash, f"{end_x:.1f}", f"{end_y:.1f}", colour,
            f"{end_x + 6:.1f}", f"{label_y[k]:.1f}", s.name[:14],
        ))
    ticks = format_html_join("", '<text x="{}" y="{}" font-size="11" text-anchor="end" fill="currentColor">{}</text>',
                             ((left - 6, f"{y(v) + 4:.1f}", number_format(v, 1))
                              for v in (high, (high + low) / 2, low)))
    axes = format_html(
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="currentColor" stroke-opacity=".4"/>'
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="currentColor" stroke-opacity=".4"/>'
        '<text x="{}" y="{}" font-size="11" fill="currentColor">{}</text>',
        left, top, left, height - bottom, left, height - bottom, width - right, height - bottom,
        left, height - 8, _("rated matches →"),
    )
    summary = "; ".join(_("%(name)s %(first)s to %(last)s") % {
        "name": s.name, "first": number_format(s.points[0], 1), "last": number_format(s.points[-1], 1)} for s in series)
    return format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}: {}">{}{}{}</svg>',
        width, height, title, summary, axes, ticks, mark_safe("".join(lines)),
    )


def llr_chart(llrs: list[float], *, lower: float, upper: float, width: int = 640, height: int = 260,
              title: str = "LLR") -> SafeString:
    """A comparison's log-likelihood ratio after each pair (from 0 before the first) between its two bounds: the test
    accepts H1 when the line reaches the upper bound, H0 when it reaches the lower one. The bounds are told apart by
    their labels and dash patterns, not by colour alone."""
    left, right, top, bottom = 44, 118, 16, 28
    points = [0.0, *llrs]
    low = min(lower, *points) - 0.2
    high = max(upper, *points) + 0.2
    span_x = max(len(points) - 1, 10)

    def x(i: int) -> float:
        return left + (width - left - right) * i / span_x

    def y(v: float) -> float:
        return top + (height - top - bottom) * (high - v) / (high - low)

    bounds = format_html_join("", (
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.5" stroke-dasharray="{}"/>'
        '<text x="{}" y="{}" font-size="12" fill="currentColor">{}</text>'), (
        (left, f"{y(v):.1f}", width - right, f"{y(v):.1f}", colour, dash, width - right + 6, f"{y(v) + 4:.1f}", label)
        for v, colour, dash, label in ((upper, COLOURS[2], "6 3", _("H1 %(bound).2f") % {"bound": upper}),
                                       (lower, COLOURS[1], "2 3", _("H0 %(bound).2f") % {"bound": lower}))))
    pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(points))
    line = format_html('<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>'
                       '<circle cx="{}" cy="{}" r="3" fill="{}"/>', pts, COLOURS[0],
                       f"{x(len(points) - 1):.1f}", f"{y(points[-1]):.1f}", COLOURS[0])
    ticks = format_html_join("", '<text x="{}" y="{}" font-size="11" text-anchor="end" fill="currentColor">{}</text>',
                             ((left - 6, f"{y(v) + 4:.1f}", f"{v:.1f}") for v in (high, 0.0, low)))
    axes = format_html(
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="currentColor" stroke-opacity=".4"/>'
        '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="currentColor" stroke-opacity=".25"/>'
        '<text x="{}" y="{}" font-size="11" fill="currentColor">{}</text>',
        left, top, left, height - bottom, left, f"{y(0):.1f}", width - right, f"{y(0):.1f}", left, height - 8,
        _("pairs →"))
    summary = _("LLR %(llr).2f after %(pairs)s pairs; bounds %(lower).2f and %(upper).2f") % {
        "llr": points[-1], "pairs": len(llrs), "lower": lower, "upper": upper}
    return format_html('<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}: {}">{}{}{}{}</svg>',
                       width, height, title, summary, axes, ticks, bounds, line)
