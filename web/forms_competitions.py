"""The organiser's forms for a club's ladders, leagues and seasons (the tournament's is web.forms_tournament): the
fields create_ladder, create_league and create_season take, checked as far as a field can; the services' refusals
become the forms' errors (web.competition_setup, web.divisions). A season's divisions are three numbers, never
JSON, and who is in which is one choice per player (DivisionPlacesForm)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.games import GAME_TYPES
from league.limits import MAX_DIVISION_MOVES, MAX_DIVISIONS, MAX_TABLES_PER_TICK
from league.models import RatingModel
from league.scheduling.sizes import MAX_PLAYERS, MIN_PLAYERS
from league.services.divisions import DIVISION_NAME_MAX_LENGTH, Placing

from .game_options import add_option_fields, check_game, option_groups, ruleset_of
from .games import presenter_for


class LadderForm(forms.Form):
    name = forms.CharField(max_length=100, label=gettext_lazy("Name"),
                           help_text=gettext_lazy("Every ladder of the site has its own name."))
    game = forms.ChoiceField(label=gettext_lazy("Game"), initial="diamonds",
                             choices=[(kind.name, presenter_for(kind.name).title) for kind in GAME_TYPES])
    table_size = forms.IntegerField(label=gettext_lazy("Players at a table"), min_value=MIN_PLAYERS,
                                    max_value=MAX_PLAYERS, initial=4)
    rating_model = forms.ChoiceField(
        label=gettext_lazy("Rating model"), choices=RatingModel.choices, initial=RatingModel.PLACKETT_LUCE,
        help_text=gettext_lazy("Plackett-Luce suits tables of more than two; the ladder's ratings are its own."))
    max_tables_per_tick = forms.IntegerField(
        label=gettext_lazy("Tables seated at most at a time"), min_value=1, max_value=MAX_TABLES_PER_TICK,
        initial=50, help_text=gettext_lazy("Every few seconds the ladder seats the players waiting, up to this many "
                                           "tables; the rest wait for the next time."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_option_fields(self)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        check_game(self, data)
        return data

    def settings(self) -> dict[str, Any]:
        """create_ladder's keywords (but the club)."""
        data = self.cleaned_data
        return {"name": data["name"], "game": data["game"], "table_size": data["table_size"],
                "ruleset": ruleset_of(data["game"], data), "rating_model": data["rating_model"],
                "max_tables_per_tick": data["max_tables_per_tick"]}

    def option_groups(self) -> list[dict[str, Any]]:
        return option_groups(self)


def _division_fields() -> dict[str, forms.Field]:
    """How many divisions and how many go up and down between two: a league's (what its new seasons start with)
    and a season's own."""
    return {
        "division_count": forms.IntegerField(
            label=gettext_lazy("Divisions"), min_value=1, max_value=MAX_DIVISIONS, initial=1,
            help_text=gettext_lazy("1: one table for everyone. More: Division 1 is the top, and players move up and "
                                   "down between seasons.")),
        "promoted": forms.IntegerField(
            label=gettext_lazy("Promoted from each division"), min_value=0, max_value=MAX_DIVISION_MOVES, initial=2,
            help_text=gettext_lazy("The top N of every division but Division 1 go up one when the season closes.")),
        "relegated": forms.IntegerField(
            label=gettext_lazy("Relegated from each division"), min_value=0, max_value=MAX_DIVISION_MOVES, initial=2,
            help_text=gettext_lazy("The bottom N of every division but the last go down one.")),
    }


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=100, label=gettext_lazy("Name"),
                           help_text=gettext_lazy("e.g. Thursday league. Its seasons are added on its page."))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(_division_fields())
        self.fields["division_count"].help_text = gettext_lazy(
            "How many divisions each new season starts with; 1: one table for everyone. Each season can change its "
            "own.")

    def settings(self) -> dict[str, Any]:
        """create_league's and update_league's keywords (but the club)."""
        return {name: self.cleaned_data[name] for name in ("name", "division_count", "promoted", "relegated")}


class SeasonForm(forms.Form):
    """A season's name and dates, and its divisions: for a new season also how its players are put in them (the
    organiser reviews them on the season's divisions page before it starts); for a season made already the names of
    its divisions (`division_names`), and nothing about the divisions once it is closed."""

    name = forms.CharField(max_length=100, label=gettext_lazy("Name"), help_text=gettext_lazy("e.g. Spring 2026."))
    starts_on = forms.DateField(required=False, label=gettext_lazy("Starts on"),
                                widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    ends_on = forms.DateField(required=False, label=gettext_lazy("Ends on"),
                              widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def __init__(self, *args, previous=None, division_names: list[str] | None = None, closed: bool = False,
                 **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(_division_fields())
        if closed:
            for name in ("division_count", "promoted", "relegated"):
                self.fields[name].disabled = True
                self.fields[name].help_text = gettext_lazy("The season is closed: its divisions no longer change.")
        if division_names is None:  # a new season
            self.fields["placing"] = forms.ChoiceField(
                label=gettext_lazy("Put the players in divisions"), choices=Placing.choices,
                widget=forms.RadioSelect, initial=Placing.PREVIOUS if previous else Placing.RATING,
                help_text=gettext_lazy("With more than one division. You can move anyone before the season starts."))
            if previous:
                self.fields["from_season"] = forms.ModelChoiceField(
                    queryset=previous, required=False, label=gettext_lazy("Last season"), empty_label=None,
                    help_text=gettext_lazy("Whose finish the divisions follow, with its promotions and "
                                           "relegations once it is closed."))
        for number, name in enumerate(division_names or [], start=1):
            self.fields[f"division_name_{number}"] = forms.CharField(
                max_length=DIVISION_NAME_MAX_LENGTH, initial=name, disabled=closed,
                label=gettext_lazy("Name of division %(number)s") % {"number": number})

    def clean(self):
        super().clean()
        data = self.cleaned_data
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", _("A season cannot end before it starts."))
        if data.get("placing") == Placing.PREVIOUS and "from_season" not in self.fields \
                and (data.get("division_count") or 1) > 1:
            self.add_error("placing", _("The league has no season before this one: put the players in by rating or "
                                        "by hand."))
        return data

    def division_names(self) -> dict[int, str]:
        return {int(name.rsplit("_", 1)[1]): value for name, value in self.cleaned_data.items()
                if name.startswith("division_name_")}


class DivisionPlacesForm(forms.Form):
    """Who is in which division of a season: one choice per player (the club's members and whoever is placed), "not
    in a division" or one of the divisions; the field of player 12 is `player_12`."""

    def __init__(self, *args, players, divisions, placed: dict[int, int], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("not in a division")), *[(str(d.number), d.name) for d in divisions]]
        self.players = list(players)
        for player in self.players:
            self.fields[f"player_{player.pk}"] = forms.ChoiceField(
                choices=choices, required=False, label=player.name,
                initial=str(placed[player.pk]) if player.pk in placed else "")

    def placing(self) -> dict[int, int | None]:
        """{player id: division number or None} for every player on the form."""
        return {int(name.split("_", 1)[1]): int(value) if value else None
                for name, value in self.cleaned_data.items() if name.startswith("player_")}
