"""The lobby's tables in the admin, to look at only: a table changes through league.services.lobby (its row lock
keeps a full table to one match), never by editing its row. The invitation token is left out: it is the table's
secret, for those seated."""

from django.contrib import admin

from .models import LobbySeat, LobbyTable


class LobbySeatInline(admin.TabularInline):
    model = LobbySeat
    extra = 0
    fields = ("seat", "player", "joined_at")
    readonly_fields = fields
    can_delete = False


@admin.register(LobbyTable)
class LobbyTableAdmin(admin.ModelAdmin):
    list_display = ["id", "game", "seats", "host", "status", "rated", "public", "created_at", "expires_at", "match"]
    list_filter = ["status", "game", "rated", "public"]
    search_fields = ["host__name"]
    exclude = ["token"]
    readonly_fields = ["game", "seats", "ruleset", "rated", "public", "bot_kind", "turn_deadline_seconds", "host",
                       "status", "match", "expires_at", "closed_at"]
    inlines = [LobbySeatInline]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
