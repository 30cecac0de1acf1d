"""A one-time code with which a guest (a person without an account on a club's roster) claims their history: the
person signs in, opens the code's link and confirms, and the guest's seats, entries, results and rating become their
account's player (league.services.roster.claim_guest).

Only the code's SHA-256 `digest` is kept: the organiser sees the code once, when it is made. It expires, is used
once, and an organiser may revoke it."""

from django.conf import settings
from django.db import models


class ClaimCode(models.Model):
    # Null once the guest is no more (merged into the person who claimed them, or into another guest): the used or
    # revoked code stays, answering "used" rather than "unknown".
    guest = models.ForeignKey("league.Player", null=True, on_delete=models.SET_NULL, related_name="claim_codes")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the code, hex.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+", help_text="The account that claimed the guest's history.")
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"claim code for {self.guest_id}"
