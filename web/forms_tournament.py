"""The organiser's tournament form: create a tournament, or change its settings while they may change, with a field
for everything league.services.tournament_setup.create_tournament takes (never JSON, never a seed: it is
generated), filled in from a named preset (league.presets).

The form checks what a field can check (numbers within bounds, known choices, a points row given whole, each
tie-break once, a table size the game seats); the service checks the whole (the game's options together, the
final's plan) and its refusal becomes the form's error (web.competition_setup).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any, cast

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.games import GAME_TYPES
from league.limits import MAX_MATCH_POINTS, MAX_ROUND_MINUTES, MAX_TOURNAMENT_ROUNDS, MAX_TURN_DEADLINE_SECONDS
from league.models import (
    DeadlineAction,
    FinalRanking,
    LateEntryPoints,
    Season,
    Tournament,
    TournamentFormat,
)
from league.presets import stored_points
from league.scheduling.sizes import MAX_PLAYERS, MIN_PLAYERS
from league.services.tournament_setup import MAX_PREVIEW_ENTRANTS, PREVIEWED_SETTINGS
from league.standings import DEFAULT_PRECEDENCE

from .clock_options import CLOCK_FIELDS, add_clock_fields, clock_initial, clock_settings
from .game_options import add_option_fields, check_game, option_groups, options_initial, ruleset_of
from .games import presenter_for

# Competitors at a table a points table may be given for: every table any game seats (partnership tables have 2
# or 3 teams, inside this range too).
POINTS_SIZES = range(MIN_PLAYERS, MAX_PLAYERS + 1)
TIEBREAK_SLOTS = len(DEFAULT_PRECEDENCE)
# Decision: a final of at most 100 players in at most 6 stages (a bracket of tables of 4 from 100 down to one table
# takes 3); past that it is no longer a final.
MAX_FINAL_SIZE = 100
MAX_FINAL_STAGES = 6

# The standings' metrics (league.standings.METRICS) an organiser ranks by, in words.
METRIC_CHOICES = (
    ("points", gettext_lazy("match points")),
    ("score", gettext_lazy("total score")),
    ("tiebreak", gettext_lazy("the game's tie-break total (Diamonds: vault; Diamoniak: diamond cards; ring race: "
                              "set rings)")),
    ("wins", gettext_lazy("wins (first places)")),
    ("head_to_head", gettext_lazy("head to head, among those still tied")),
    ("opponent_points", gettext_lazy("opponents' match points")),
    ("average_points", gettext_lazy("average match points a game")),
    ("average_opponent_points", gettext_lazy("opponents' average match points")),
    ("duplicate", gettext_lazy("duplicate comparison (the duplicate format)")),
    ("games", gettext_lazy("games played")),
)
FALLBACK_CHOICES = (
    ("random", gettext_lazy("random: any legal move")),
    ("greedy", gettext_lazy("greedy: a fast, sensible bot")),
)
LATE_ENTRY_CHOICES = (
    (LateEntryPoints.ZERO, gettext_lazy("nothing")),
    (LateEntryPoints.BYE, gettext_lazy("a bye's points")),
)
FINAL_RANKING_CHOICES = (
    (FinalRanking.FINAL_DECIDES, gettext_lazy("the final decides the first places")),
    (FinalRanking.ADDED, gettext_lazy("the final's games count in the standings like any round")),
)
# The settings a tournament's form shows as they are stored (the rest: the game's options, the points table and
# the tie-breaks, spread over several fields).
PLAIN_SETTINGS = ("name", "game", "format", "rounds", "table_size", "season", "round_minutes",
                  "turn_deadline_seconds", "deadline_action", "deadline_fallback", "offline_tables", "auto_advance",
                  "rated", "members_only", "registration_closes_at", "check_in_required", "self_check_in",
                  "late_entry_points", "final_size", "final_stages", "final_advance", "final_ranking")
SETTINGS = (*PLAIN_SETTINGS, "ruleset", "match_points", "tiebreaks", "clock_bank_seconds", "clock_increment_seconds")


def points_name(competitors: int, place: int | str) -> str:
    return f"points_{competitors}_{place}"


def tiebreak_name(slot: int) -> str:
    return f"tiebreak_{slot}"


class PointsField(forms.CharField):
    """Match points: a number (a comma reads as a decimal point) or a fraction like 3/2, within the league's bounds
    (league.limits.checked_match_points), kept exact (league.presets.stored_points)."""

    def __init__(self, **kwargs):
        super().__init__(required=False, max_length=20, strip=True, **kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "size": "5", "autocomplete": "off"})

    def clean(self, value):
        text = super().clean(value)  # the text, its length checked
        if text in self.empty_values:
            return None
        try:
            exact = Fraction(text.replace(",", "."))
        except (ValueError, ZeroDivisionError):
            exact = None
        if exact is None or not -MAX_MATCH_POINTS <= exact <= MAX_MATCH_POINTS:
            raise forms.ValidationError(
                _("A number such as 3 or 1.5 (or a fraction such as 3/2) from -%(most)s to %(most)s.")
                % {"most": MAX_MATCH_POINTS}, code="invalid")
        return stored_points(exact)


def points_text(value: Any) -> str:
    """A stored points value as the form shows it: a decimal where it has one (1.5), else a fraction (1/3)."""
    exact = Fraction(str(value))
    denominator = exact.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return f"{exact.numerator}/{exact.denominator}"
    return format(Decimal(exact.numerator) / Decimal(exact.denominator), "f")


class TournamentForm(forms.Form):
    name = forms.CharField(max_length=100, label=gettext_lazy("Name"),
                           help_text=gettext_lazy("As the players will see it, e.g. Thursday club night."))
    game = forms.ChoiceField(label=gettext_lazy("Game"), initial="diamonds",
                             choices=[(kind.name, presenter_for(kind.name).title) for kind in GAME_TYPES])
    format = forms.ChoiceField(
        label=gettext_lazy("Format"), choices=TournamentFormat.choices, initial=TournamentFormat.SWISS,
        help_text=gettext_lazy("Fixed schedule: the rounds are planned so that everyone meets as many others as "
                               "can be. Swiss: each round seats players of similar standing together. Duplicate "
                               "(Diamonds only): the tables of a group play the same deals."))
    rounds = forms.IntegerField(label=gettext_lazy("Rounds"), min_value=1, max_value=MAX_TOURNAMENT_ROUNDS, initial=3,
                                help_text=gettext_lazy("The qualifying rounds, before any final."))
    table_size = forms.IntegerField(
        label=gettext_lazy("Players at a table"), min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, initial=4,
        help_text=gettext_lazy("A field that does not divide mixes in tables of one fewer: the preview shows them."))
    season = forms.ModelChoiceField(queryset=Season.objects.none(), required=False,
                                    label=gettext_lazy("Counts towards the season"),
                                    empty_label=gettext_lazy("none"))
    points_bye = PointsField(label=gettext_lazy("Points for a bye"),
                             help_text=gettext_lazy("Also what a late entry gets for each round it missed, when "
                                                    "late entries get a bye's points. Blank: 0."))
    offline_tables = forms.BooleanField(
        required=False, label=gettext_lazy("Played with real cards at the club"),
        help_text=gettext_lazy("The server deals nothing: each table enters its result on a phone."))
    turn_deadline_seconds = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_TURN_DEADLINE_SECONDS,
        label=gettext_lazy("Time for each decision, in seconds"),
        help_text=gettext_lazy("Tables played on the website only. Blank: no limit; 120 is two minutes, 86400 a "
                               "day."))
    round_minutes = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_ROUND_MINUTES, label=gettext_lazy("Minutes for each round"),
        help_text=gettext_lazy("A clock counts them down on every table's page and the projector. Blank: no clock."))
    deadline_action = forms.ChoiceField(label=gettext_lazy("When the time runs out"), choices=DeadlineAction.choices,
                                        initial=DeadlineAction.FALLBACK)
    deadline_fallback = forms.ChoiceField(label=gettext_lazy("The bot that plays for a late player"),
                                          choices=FALLBACK_CHOICES, initial="random")
    auto_advance = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Seat the next round as soon as one ends"),
        help_text=gettext_lazy("Off: the organiser seats each round with a button (as with check-in)."))
    rated = forms.BooleanField(required=False, initial=True, label=gettext_lazy("Counts for the ratings"),
                               help_text=gettext_lazy("Its games count for the players' ratings."))
    members_only = forms.BooleanField(required=False, label=gettext_lazy("For the club's members only"))
    registration_closes_at = forms.DateTimeField(
        required=False, label=gettext_lazy("Entries close at (UTC)"),
        help_text=gettext_lazy("Blank: when the first round starts."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"))
    check_in_required = forms.BooleanField(
        required=False, label=gettext_lazy("Check-in before each round"),
        help_text=gettext_lazy("Only the players checked in for a round are seated in it."))
    self_check_in = forms.BooleanField(required=False, label=gettext_lazy("Players check themselves in"))
    late_entry_points = forms.ChoiceField(label=gettext_lazy("A late entry gets, for each round it missed"),
                                          choices=LATE_ENTRY_CHOICES, initial=LateEntryPoints.ZERO)
    final_size = forms.IntegerField(
        label=gettext_lazy("Players in the final"), min_value=0, max_value=MAX_FINAL_SIZE, initial=0,
        help_text=gettext_lazy("0: no final. The best by the qualifying standings go on to it."))
    final_stages = forms.IntegerField(label=gettext_lazy("Stages of the final"), min_value=1,
                                      max_value=MAX_FINAL_STAGES, initial=1,
                                      help_text=gettext_lazy("The last stage is one table."))
    final_advance = forms.IntegerField(
        label=gettext_lazy("Going on from each table"), min_value=1, max_value=MAX_PLAYERS - 1, initial=1,
        help_text=gettext_lazy("With more than one stage: how many of each table go on to the next."))
    final_ranking = forms.ChoiceField(label=gettext_lazy("The final's result"), choices=FINAL_RANKING_CHOICES,
                                      initial=FinalRanking.FINAL_DECIDES)
    expected_players = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_PREVIEW_ENTRANTS, label=gettext_lazy("Players expected"),
        help_text=gettext_lazy("For the preview only. Blank: those entered now."))

    def __init__(self, *args, seasons=None, frozen: frozenset[str] = frozenset(), **kwargs):
        """`seasons`: those the tournament may count towards (its club's); `frozen`: the settings that can no
        longer change (shown, not taken)."""
        super().__init__(*args, **kwargs)
        season_field = cast(forms.ModelChoiceField, self.fields["season"])
        season_field.queryset = seasons if seasons is not None else Season.objects.none()
        add_option_fields(self)
        add_clock_fields(self)  # a chess clock at every table (web.clock_options)
        for n in POINTS_SIZES:
            for place in range(1, n + 1):
                self.fields[points_name(n, place)] = PointsField(
                    label=_("Place %(place)s") % {"place": place})
        for slot in range(1, TIEBREAK_SLOTS + 1):
            self.fields[tiebreak_name(slot)] = forms.ChoiceField(
                required=False, label=_("Criterion %(number)s") % {"number": slot},
                choices=[("", "—"), *METRIC_CHOICES])
        self.frozen = frozen
        for setting in frozen:
            for name in self.fields_of(setting):
                self.fields[name].disabled = True

    def fields_of(self, setting: str) -> list[str]:
        """The form's fields that show a tournament setting."""
        if setting == "ruleset":
            return [name for name in self.fields if name.startswith("option_")]
        if setting == "match_points":
            return [name for name in self.fields if name.startswith("points_")]
        if setting == "tiebreaks":
            return [name for name in self.fields if name.startswith("tiebreak_")]
        if setting in ("clock_bank_seconds", "clock_increment_seconds"):
            return list(CLOCK_FIELDS)
        return [setting] if setting in self.fields else []

    # ---- checks --------------------------------------------------------------------------------------------------

    def clean(self):
        super().clean()
        data = self.cleaned_data
        check_game(self, data)
        data["match_points"] = self._match_points(data)
        data["tiebreaks"] = self._tiebreaks(data)
        data["clock_bank_seconds"], data["clock_increment_seconds"] = clock_settings(self, data)
        return data

    def _match_points(self, data: dict[str, Any]) -> dict[str, Any]:
        table: dict[str, Any] = {}
        for n in POINTS_SIZES:
            names = [points_name(n, place) for place in range(1, n + 1)]
            if any(name in self.errors for name in names):
                continue
            given = [data.get(name) for name in names]
            if all(value is None for value in given):
                continue
            if any(value is None for value in given):
                self.add_error(names[0], _("Give every place at a table of %(n)s its points, or leave them all "
                                           "blank.") % {"n": n})
                continue
            table[str(n)] = {str(place): value for place, value in enumerate(given, start=1)}
        if data.get("points_bye") is not None:
            table["bye"] = data["points_bye"]
        return table

    def _tiebreaks(self, data: dict[str, Any]) -> list[str]:
        chosen: list[str] = []
        for slot in range(1, TIEBREAK_SLOTS + 1):
            metric = data.get(tiebreak_name(slot))
            if not metric:
                continue
            if metric in chosen:
                self.add_error(tiebreak_name(slot), _("Each criterion once: %(metric)s is already chosen.") % {
                    "metric": dict(METRIC_CHOICES)[metric]})
                continue
            chosen.append(metric)
        return chosen

    # ---- what the form gives --------------------------------------------------------------------------------------

    def settings(self) -> dict[str, Any]:
        """create_tournament's (and update_tournament's) keywords from the cleaned form."""
        data = self.cleaned_data
        out = {name: data.get(name) for name in PLAIN_SETTINGS}
        out["ruleset"] = ruleset_of(data["game"], data)
        out["match_points"] = data["match_points"]
        out["tiebreaks"] = data["tiebreaks"]
        out["clock_bank_seconds"] = data["clock_bank_seconds"]
        out["clock_increment_seconds"] = data["clock_increment_seconds"]
        return out

    def previewed(self) -> dict[str, Any]:
        """The settings preview_tournament reads."""
        settings = self.settings()
        return {name: settings[name] for name in PREVIEWED_SETTINGS}

    def expected(self, entered: int) -> int:
        value = self.cleaned_data.get("expected_players")
        return entered if value is None else value

    # ---- the template's groups -----------------------------------------------------------------------------------

    def option_groups(self) -> list[dict[str, Any]]:
        return option_groups(self)

    def points_rows(self) -> list[dict[str, Any]]:
        return [{"competitors": n, "fields": [self[points_name(n, place)] for place in range(1, n + 1)]}
                for n in POINTS_SIZES]

    def match_points_open(self) -> bool:
        """Whether the points rows show unfolded: some are given, or wrong."""
        rows = [name for name in self.fields if name.startswith("points_") and name != "points_bye"]
        return any(self[name].value() not in (None, "") or self[name].errors for name in rows)

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[tiebreak_name(slot)] for slot in range(1, TIEBREAK_SLOTS + 1)]


def tournament_initial(settings: Mapping[str, Any]) -> dict[str, Any]:
    """A TournamentForm's initial values from tournament settings (a preset's, league.presets, or a tournament's)."""
    initial = {name: settings[name] for name in PLAIN_SETTINGS if name in settings}
    initial.update(options_initial(settings.get("game"), settings.get("ruleset")))
    points = settings.get("match_points") or {}
    for n in POINTS_SIZES:
        row = points.get(str(n), {})
        for place in range(1, n + 1):
            value = row.get(str(place))
            initial[points_name(n, place)] = "" if value is None else points_text(value)
    initial["points_bye"] = "" if points.get("bye") is None else points_text(points["bye"])
    tiebreaks = list(settings.get("tiebreaks") or [])
    for slot in range(1, TIEBREAK_SLOTS + 1):
        initial[tiebreak_name(slot)] = tiebreaks[slot - 1] if slot <= len(tiebreaks) else ""
    initial.update(clock_initial(settings.get("clock_bank_seconds"), settings.get("clock_increment_seconds") or 0))
    return initial


def settings_of_tournament(tournament: Tournament) -> dict[str, Any]:
    return {name: getattr(tournament, name) for name in SETTINGS}

