"""The admin for competitions: leagues and seasons, tournaments with their entries and rounds, ladders, ratings.
Imported by league/admin.py (Django discovers only that module)."""

from django import forms
from django.contrib import admin, messages

from .limits import MAX_TOURNAMENT_ROUNDS, check_tables_per_tick, check_turn_deadline
from .models import (
    Ladder,
    LadderEntry,
    League,
    Rating,
    RatingHistory,
    Season,
    Tournament,
    TournamentEntry,
    TournamentRound,
)
from .services.cancellation import NotCancellable, cancel_tournament
from .services.competition import competition_game, shared_ruleset
from .services.finals import check_final_settings


class BoundedSettingsForm(forms.ModelForm):
    """A competition edited here meets the bounds the API's creation checks (the game's ruleset fields, the table
    size, the turn deadline): a ruleset the engine refuses would otherwise fail later, at seating, in a worker."""

    def clean(self):
        super().clean()
        data = self.cleaned_data  # what ModelForm.clean returns (its stub says None)
        try:
            competition_game(data.get("game", "diamonds"), data.get("table_size") or 0,
                             shared_ruleset(data.get("ruleset")))
            if "turn_deadline_seconds" in data:
                check_turn_deadline(data["turn_deadline_seconds"])
            if "rounds" in data and not 1 <= (data["rounds"] or 0) <= MAX_TOURNAMENT_ROUNDS:
                raise ValueError(f"rounds must be a whole number from 1 to {MAX_TOURNAMENT_ROUNDS}")
            if "max_tables_per_tick" in data:
                check_tables_per_tick(data["max_tables_per_tick"])
            if "final_size" in data:  # a final the tables cannot seat would fail when the qualifying rounds end
                check_final_settings(
                    final_size=data["final_size"] or 0, final_stages=data.get("final_stages") or 0,
                    final_advance=data.get("final_advance") or 0, table_size=data.get("table_size") or 0,
                    game=data.get("game", "diamonds"), format=data.get("format", ""),
                    partnerships=bool(shared_ruleset(data.get("ruleset")).get("partnerships")))
        except (ValueError, TypeError) as e:
            raise forms.ValidationError(str(e)) from None
        return data


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "created_at"]
    list_filter = ["club"]
    search_fields = ["name"]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "starts_on", "ends_on"]
    list_filter = ["league"]
    search_fields = ["name", "league__name"]


class TournamentEntryInline(admin.TabularInline):
    model = TournamentEntry
    extra = 0
    raw_id_fields = ["player"]
    fields = ["player", "team", "active", "joined_round"]


class TournamentRoundInline(admin.TabularInline):
    model = TournamentRound
    extra = 0
    fields = ("index", "stage", "status", "byes", "started_at", "closed_at")
    readonly_fields = fields
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "season", "format", "rounds", "table_size", "status", "auto_advance",
                    "turn_deadline_seconds", "deadline_action", "created_at"]
    list_filter = ["status", "format", "club", "season"]
    search_fields = ["name"]
    exclude = ["deal_salt"]  # the secret behind every table's deal
    readonly_fields = ["created_at", "started_at", "finished_at"]
    inlines = [TournamentEntryInline, TournamentRoundInline]
    form = BoundedSettingsForm
    actions = ["cancel"]

    @admin.action(description="Cancel the selected tournaments (their matches in play stop)")
    def cancel(self, request, queryset):
        for tournament in queryset:
            try:
                cancel_tournament(tournament_id=tournament.pk, by=request.user.get_username(), reason="admin")
            except NotCancellable as e:
                self.message_user(request, str(e), messages.WARNING)


@admin.register(TournamentEntry)
class TournamentEntryAdmin(admin.ModelAdmin):
    list_display = ["tournament", "player", "team", "active"]
    list_filter = ["active", "tournament"]
    search_fields = ["player__name", "tournament__name"]
    raw_id_fields = ["player"]


@admin.register(TournamentRound)
class TournamentRoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "index", "status", "started_at", "closed_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "table_size", "rating_model", "active"]
    list_filter = ["active", "rating_model", "club"]
    search_fields = ["name"]
    form = BoundedSettingsForm


@admin.register(LadderEntry)
class LadderEntryAdmin(admin.ModelAdmin):
    list_display = ["ladder", "player", "active", "joined_at"]
    list_filter = ["active", "ladder"]
    search_fields = ["player__name"]
    raw_id_fields = ["player"]


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "ladder", "ordinal", "mu", "sigma", "matches", "updated_at"]
    list_filter = ["ladder"]
    search_fields = ["player__name"]
    raw_id_fields = ["player"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):
    list_display = ["player", "ladder", "match", "mu_before", "mu", "ordinal", "created_at"]
    list_filter = ["ladder"]
    search_fields = ["player__name"]
    raw_id_fields = ["player", "match"]
