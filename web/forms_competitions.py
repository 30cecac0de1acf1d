"""The organiser's forms for a club's ladders, leagues and seasons (the tournament's is web.forms_tournament): the
fields create_ladder, create_league and create_season take, checked as far as a field can; the services' refusals
become the forms' errors (web.competition_setup)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.games import GAME_TYPES
from league.limits import MAX_TABLES_PER_TICK
from league.models import RatingModel
from league.scheduling.sizes import MAX_PLAYERS, MIN_PLAYERS

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


class LeagueForm(forms.Form):
    name = forms.CharField(max_length=100, label=gettext_lazy("Name"),
                           help_text=gettext_lazy("e.g. Thursday league. Its seasons are added on its page."))


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=100, label=gettext_lazy("Name"), help_text=gettext_lazy("e.g. Spring 2026."))
    starts_on = forms.DateField(required=False, label=gettext_lazy("Starts on"),
                                widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))
    ends_on = forms.DateField(required=False, label=gettext_lazy("Ends on"),
                              widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))

    def clean(self):
        super().clean()
        data = self.cleaned_data
        starts_on, ends_on = data.get("starts_on"), data.get("ends_on")
        if starts_on and ends_on and ends_on < starts_on:
            self.add_error("ends_on", _("A season cannot end before it starts."))
        return data
