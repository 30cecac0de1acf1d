"""The admin for organising: who organises which club (ClubAdmin rows; organisers change them on the club's
website pages, web/club_admin.py), the invitations to organise (read here), and the result corrections' audit trail
(read-only: corrections are made through league.services.corrections, which keeps before and after)."""

from django.contrib import admin

from .models import ClubAdmin, OrganiserInvitation, ResultCorrection, ResultEntry


@admin.register(ClubAdmin)
class ClubOrganiserAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "created_at"]
    list_filter = ["club"]
    search_fields = ["club__name", "user__username"]


@admin.register(OrganiserInvitation)
class OrganiserInvitationAdmin(admin.ModelAdmin):
    """Read here; sent, revoked and accepted on the website or through the API (league.services.organisers). The
    token itself is never stored, only its digest, which is not shown."""

    list_display = ["club", "email", "status", "invited_by", "created_at", "expires_at", "accepted_by"]
    list_filter = ["status", "club"]
    search_fields = ["email", "club__name"]
    exclude = ["token_digest"]
    readonly_fields = ["club", "email", "status", "invited_by", "created_at", "expires_at", "decided_at",
                       "accepted_by"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ResultCorrection)
class ResultCorrectionAdmin(admin.ModelAdmin):
    list_display = ["match", "corrected_by", "reason", "created_at"]
    search_fields = ["reason", "corrected_by__username"]
    readonly_fields = ["match", "corrected_by", "reason", "before", "after", "created_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ResultEntry)
class ResultEntryAdmin(admin.ModelAdmin):
    """The versions entered for tables played with real cards (league.services.offline_results): shown, never
    edited here, so the audit trail stays what the table and the organisers did."""

    list_display = ["match", "entered_by", "entered_at_seat", "by_organiser", "status", "decided_by", "created_at"]
    list_filter = ["status", "by_organiser"]
    search_fields = ["match__id", "entered_by__username"]
    readonly_fields = ["match", "entered_by", "entered_at_seat", "by_organiser", "figures", "result", "status",
                       "decided_by", "decided_at", "created_at"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
# ---- people on their own: profiles and requests to join clubs -------------------------------------------------------
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.admin import UserAdmin  # noqa: E402

from .models import MembershipRequest, Profile  # noqa: E402
from .services.accounts import mark_made_by_administrator  # noqa: E402


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    """`made_by_administrator` lets an account take part without a confirmed email address: tick it only for an
    account an administrator vouches for."""

    list_display = ["user", "made_by_administrator", "language", "email_notifications", "created_at"]
    list_filter = ["made_by_administrator", "language", "email_notifications"]
    search_fields = ["user__username", "user__email"]
    raw_id_fields = ["user"]


@admin.register(MembershipRequest)
class MembershipRequestAdmin(admin.ModelAdmin):
    """Read here; answered on the club's page or through the API (league.services.membership adds the member)."""

    list_display = ["club", "player", "status", "created_at", "decided_at", "decided_by"]
    list_filter = ["status", "club"]
    search_fields = ["player__name", "club__name"]
    readonly_fields = ["club", "player", "status", "created_at", "decided_at", "decided_by"]

    def has_add_permission(self, request) -> bool:
        return False


class AccountAdmin(UserAdmin):
    """Django's user admin; an account added here is an administrator's, and its profile says so
    (Profile.made_by_administrator)."""

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if not change:
            mark_made_by_administrator(obj)


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), AccountAdmin)
