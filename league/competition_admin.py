"""The admin for competitions: leagues and seasons, tournaments with their entries and rounds, ladders, ratings.
Imported by league/admin.py (Django discovers only that module)."""

from django.contrib import admin

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
    fields = ["player", "team", "active"]


class TournamentRoundInline(admin.TabularInline):
    model = TournamentRound
    extra = 0
    fields = ["index", "status", "byes", "started_at", "closed_at"]
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
