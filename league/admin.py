"""The admin: every league table listed, filtered and searchable; a match shows its seats and how much play is
stored (the play itself is read as the match's record and replay: league.selectors.records)."""

from django import forms
from django.contrib import admin, messages

from . import (
    competition_admin,  # noqa: F401  (registers the competition tables)
    lobby_admin,  # noqa: F401  (registers the lobby's tables, to look at)
    notifications_admin,  # noqa: F401  (registers notifications and webhooks)
    organiser_admin,  # noqa: F401  (registers club organisers and result corrections)
)
from .models import Club, ClubMember, Match, MatchSeat, OutboxMessage, Player
from .selectors.deals import revealed_seed
from .selectors.games import StoredPlayError, stored_choices
from .services.cancellation import NotCancellable, cancel_match
from .services.decisions import give_deadlines
from .services.names import NameRefused, checked_name


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "membership", "created_at"]
    search_fields = ["name"]


class PlayerForm(forms.ModelForm):
    def clean_name(self):
        """A new or changed name follows league.services.names' rule, as everywhere else: a look-alike of another
        player's name would otherwise reach the unique look-alike key as an error page."""
        name = self.cleaned_data["name"]
        if self.instance.pk and name == self.instance.name:
            return name  # unchanged: a house bot keeps its house name
        try:
            return checked_name(name, except_player=self.instance if self.instance.pk else None)
        except NameRefused as e:
            raise forms.ValidationError(str(e)) from None


class ClubMemberInline(admin.TabularInline):
    """A player's clubs, with since when (Player.clubs goes through ClubMember, which keeps the date)."""

    model = ClubMember
    extra = 0
    fields = ["club", "joined_at"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "user", "bot_kind", "created_at"]
    list_filter = ["bot_kind", "clubs"]
    search_fields = ["name", "user__username"]
    inlines = [ClubMemberInline]
    raw_id_fields = ["user"]


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    raw_id_fields = ["player"]
    fields = ["seat", "player", "team", "score", "tiebreak", "showroom", "placement", "is_winner", "forfeited",
              "forfeited_at_move"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    # The seed and nonce stay hidden here too until the deal is revealed (staff may also sit at tables); they are
    # never edited by hand (the commitment binds them) and never searched (a search would confirm a guess).
    list_display = ["id", "game", "status", "club", "revealed_seed", "move_number", "created_at", "finished_at"]
    list_filter = ["status", "game", "club", "created_at"]
    search_fields = ["match_seats__player__name", "claimed_by"]
    exclude = ["seed", "nonce"]
    readonly_fields = ["revealed_seed", "commitment", "seed_chosen", "stored_play", "created_at", "started_at",
                       "updated_at", "finished_at"]

    @admin.display(description="seed")
    def revealed_seed(self, match: Match) -> str:
        revealed = revealed_seed(match)
        return revealed.seed if revealed else "(hidden until the deal is revealed)"

    @admin.display(description="stored play")
    def stored_play(self, match: Match) -> str:
        """How much play is stored (the choices themselves are the record's, shown by the match's pages)."""
        try:
            count = len(stored_choices(match))
        except StoredPlayError as e:
            return str(e)
        where = "in its moves" if match.status == "finished" else "in its steps"
        return f"{count} choices, {len(bytes(match.moves or b''))} bytes {where}"
    date_hierarchy = "created_at"
    inlines = [MatchSeatInline]
    actions = ["cancel"]

    def save_related(self, request, form, formsets, change):
        # Once its seats are saved too: a match in play with a person or an external bot keeps a turn deadline (left
        # empty, the league's default), as everywhere else (league.services.matches.turn_deadline_for).
        super().save_related(request, form, formsets, change)
        give_deadlines(match_ids=[form.instance.pk])

    @admin.action(description="Cancel the selected matches (their play stops; they never count)")
    def cancel(self, request, queryset):
        for match in queryset:
            try:
                cancel_match(match_id=match.pk, by=request.user.get_username(), reason="admin")
            except NotCancellable as e:
                self.message_user(request, str(e), messages.WARNING)


@admin.register(MatchSeat)
class MatchSeatAdmin(admin.ModelAdmin):
    list_display = ["match", "seat", "player", "team", "score", "tiebreak", "showroom", "placement", "is_winner",
                    "forfeited"]
    list_filter = ["is_winner", "placement", "match__status"]
    search_fields = ["player__name"]
    raw_id_fields = ["match", "player"]


@admin.register(OutboxMessage)
class OutboxMessageAdmin(admin.ModelAdmin):
    """For whoever is paged: what waits to be sent or carried out, since when, and why a send failed. Read-only: the
    relay (workers.relay) owns these rows."""

    list_display = ("id", "kind", "match", "created_at", "sent_at", "sends", "done_at", "last_error")
    list_filter = ("kind", ("done_at", admin.EmptyFieldListFilter), ("sent_at", admin.EmptyFieldListFilter))
    raw_id_fields = ("match",)
    ordering = ("-id",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
