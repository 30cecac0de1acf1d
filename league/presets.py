"""Named tournament presets: the settings a club reaches for most, one choice away on the website's tournament form.

A preset is create_tournament's keywords for the kind of event, never for one event: no name, season, closing time
or seed (the seed is always generated). Whatever a preset leaves out takes create_tournament's default
(`settings_of` fills them in, so a preset applied over a form that was changed resets every other setting).

Points: an evening that does not divide into tables of 4 mixes in tables of 3 (league.scheduling.table_sizes), and
the standings' default (one point per player beaten) would give a table of 3 at most 2 where a table of 4 gives 3.
The evening presets spread the same 3 points over every table size instead (first 3, last 0, the places between
evenly, so every table hands out 1.5 a player on average) and give a bye, or a round missed by a late entry, that
average.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .models import DeadlineAction, FinalRanking, LateEntryPoints, TournamentFormat

# create_tournament's defaults for what a preset may set (league.services.tournament_setup).
BASE: Mapping[str, Any] = {
    "game": "diamonds", "format": TournamentFormat.FIXED, "rounds": 3, "table_size": 4, "ruleset": {},
    "match_points": {}, "tiebreaks": [], "auto_advance": True, "rated": True, "turn_deadline_seconds": None,
    "deadline_action": DeadlineAction.FALLBACK, "deadline_fallback": "random", "check_in_required": False,
    "self_check_in": False, "late_entry_points": LateEntryPoints.ZERO, "final_size": 0, "final_stages": 1,
    "final_advance": 1, "final_ranking": FinalRanking.FINAL_DECIDES, "offline_tables": False, "round_minutes": None,
}


def stored_points(value: Fraction) -> int | float | str:
    """Match points as they are stored, exact as the standings read them back (Fraction(str(value))): a whole number
    as an int, a decimal such as 2.4 as a float (str(2.4) is "2.4"), anything else as a fraction, "1/3"."""
    if value.denominator == 1:
        return int(value)
    if Fraction(str(float(value))) == value:
        return float(value)
    return f"{value.numerator}/{value.denominator}"


def even_points(sizes: range, top: int = 3) -> dict[str, Any]:
    """A points table giving every table size `top` points for first, 0 for last, evenly between (see the module
    docstring), and a bye the average, `top` / 2."""
    table: dict[str, Any] = {str(n): {str(place): stored_points(Fraction(top * (n - place), n - 1))
                                      for place in range(1, n + 1)} for n in sizes}
    table["bye"] = stored_points(Fraction(top, 2))
    return table


EVENING_POINTS = even_points(range(2, 7))


@dataclass(frozen=True)
class Preset:
    key: str
    label: str | Promise
    settings: Mapping[str, Any] = field(default_factory=dict)

    def full_settings(self) -> dict[str, Any]:
        return settings_of(self.settings)


def settings_of(settings: Mapping[str, Any]) -> dict[str, Any]:
    """`settings` over create_tournament's defaults: every setting a preset may give."""
    return {**BASE, **settings}


# An evening at the club with real cards: the organiser seats each round when the room is ready (no auto-advance),
# results are entered from the tables, late arrivals get the average for what they missed.
_EVENING = {"game": "diamonds", "format": TournamentFormat.SWISS, "rounds": 3, "table_size": 4,
            "offline_tables": True, "auto_advance": False, "match_points": EVENING_POINTS,
            "late_entry_points": LateEntryPoints.BYE}
# Played on the website: a decision waits two minutes, then the fast bot plays it.
_ONLINE = {"offline_tables": False, "auto_advance": True, "turn_deadline_seconds": 120,
           "deadline_action": DeadlineAction.FALLBACK, "deadline_fallback": "greedy"}

PRESETS: tuple[Preset, ...] = (
    Preset("club-night", _("Club night: Swiss, 3 rounds, tables of 4, real cards"), _EVENING),
    Preset("club-night-final", _("Club night with a final: Swiss, 3 rounds, tables of 4, then a final table of 4"),
           {**_EVENING, "final_size": 4}),
    Preset("league-round", _("Afternoon league round: fixed schedule, 4 rounds, tables of 4, real cards"),
           {**_EVENING, "format": TournamentFormat.FIXED, "rounds": 4}),
    # The server deals duplicate hands, so a duplicate evening is played on the website, not with real cards.
    Preset("duplicate-evening", _("Duplicate evening: 4 rounds, tables of 4, the same deals at every table of a "
                                  "group, online"),
           {"game": "diamonds", "format": TournamentFormat.DUPLICATE, "rounds": 4, "table_size": 4, **_ONLINE}),
    Preset("online-swiss", _("Online Swiss: 5 rounds, tables of 4, two minutes a decision"),
           {"game": "diamonds", "format": TournamentFormat.SWISS, "rounds": 5, "table_size": 4, **_ONLINE}),
    Preset("diamoniak-night", _("Diamoniak night: Swiss, 3 rounds, tables of 4, real cards"),
           {**_EVENING, "game": "diamoniak"}),
    Preset("ringrace-night", _("Ring race night: Swiss, 3 rounds, tables of 4, real cards"),
           {**_EVENING, "game": "ringrace"}),
)

PRESETS_BY_KEY: Mapping[str, Preset] = {p.key: p for p in PRESETS}
DEFAULT_PRESET = "club-night"


def preset(key: str | None) -> Preset | None:
    return PRESETS_BY_KEY.get(key or "")
