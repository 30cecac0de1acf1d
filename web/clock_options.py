"""The chess clock's fields, for every form that configures a match (the lobby's table form, the organiser's
tournament form): "no clock", a preset, or a bank of M minutes plus S seconds a decision.

Three fields: `clock` (a preset's "M+S", "" for none, or "custom"), and for a custom clock `clock_minutes` and
`clock_increment`. `clock_settings` turns them into the stored pair (clock_bank_seconds, clock_increment_seconds),
adding an error to the form for a custom clock without its minutes; the bounds are league.limits', which the
services check again.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from league.limits import MAX_CLOCK_BANK_SECONDS, MAX_CLOCK_INCREMENT_SECONDS

CUSTOM = "custom"
# Minutes of bank + seconds a decision. A game of Diamonds asks a player some forty to sixty decisions.
PRESETS = (
    ("3+2", gettext_lazy("3 minutes + 2 seconds a decision (blitz)")),
    ("5+5", gettext_lazy("5 minutes + 5 seconds a decision")),
    ("10+10", gettext_lazy("10 minutes + 10 seconds a decision")),
    ("20+15", gettext_lazy("20 minutes + 15 seconds a decision (relaxed)")),
)
CLOCK_FIELDS = ("clock", "clock_minutes", "clock_increment")


def add_clock_fields(form: forms.Form, *, initial: str = "") -> None:
    form.fields["clock"] = forms.ChoiceField(
        label=gettext_lazy("Chess clock"), required=False, initial=initial,
        choices=[("", gettext_lazy("none: the time per decision alone")), *PRESETS,
                 (CUSTOM, gettext_lazy("another clock: the minutes and seconds below"))],
        help_text=gettext_lazy("Each player's own time for the whole game, plus some for each decision. A player "
                               "whose time runs out is played by the bot, or forfeits, as for a late decision."))
    form.fields["clock_minutes"] = forms.IntegerField(
        label=gettext_lazy("Another clock: minutes for each player"), required=False, min_value=1,
        max_value=MAX_CLOCK_BANK_SECONDS // 60)
    form.fields["clock_increment"] = forms.IntegerField(
        label=gettext_lazy("Another clock: seconds added for each decision"), required=False, min_value=0,
        max_value=MAX_CLOCK_INCREMENT_SECONDS, help_text=gettext_lazy("Blank: none."))


def clock_settings(form: forms.Form, data: dict[str, Any]) -> tuple[int | None, int]:
    """The clock the form's fields ask for, as (clock_bank_seconds, clock_increment_seconds); (None, 0) for none.
    A custom clock without its minutes adds an error to the form (and gives none)."""
    chosen = data.get("clock") or ""
    if not chosen:
        return None, 0
    if chosen == CUSTOM:
        minutes, increment = data.get("clock_minutes"), data.get("clock_increment") or 0
        if minutes is None:
            if "clock_minutes" not in form.errors:
                form.add_error("clock_minutes", _("Give the clock's minutes, or choose no clock or a preset."))
            return None, 0
        return minutes * 60, increment
    minutes, increment = (int(part) for part in chosen.split("+"))
    return minutes * 60, increment


def clock_initial(bank_seconds: int | None, increment_seconds: int) -> dict[str, Any]:
    """The fields' initial values for a stored clock: its preset if it is one, else a custom clock (a bank that is
    not whole minutes, set through the API, shows rounded up)."""
    if bank_seconds is None:
        return {"clock": "", "clock_minutes": None, "clock_increment": None}
    key = f"{bank_seconds // 60}+{increment_seconds}"
    if bank_seconds % 60 == 0 and key in dict(PRESETS):
        return {"clock": key, "clock_minutes": None, "clock_increment": None}
    return {"clock": CUSTOM, "clock_minutes": -(-bank_seconds // 60), "clock_increment": increment_seconds}
