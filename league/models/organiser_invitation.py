"""An invitation to organise a club, sent to an email address by one of its organisers (league.services.organisers).

The link in the email carries a random token; only its SHA-256 digest is stored, so the table alone opens nothing.
The invitation is pending until it is accepted (once, by a signed-in account with that address confirmed), revoked
by an organiser, or past `expires_at`; a new invitation to the same address of the same club replaces the pending
one."""

import hashlib

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class InvitationStatus(models.TextChoices):
    PENDING = "pending", "pending"
    ACCEPTED = "accepted", "accepted"
    REVOKED = "revoked", "revoked"


def token_digest(token: str) -> str:
    """What is stored of an invitation's token (and looked up by)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class OrganiserInvitation(models.Model):
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="organiser_invitations")
    email = models.EmailField(max_length=254, help_text="The address the invitation was sent to.")
    token_digest = models.CharField(max_length=64, unique=True, editable=False)
    status = models.CharField(max_length=10, choices=InvitationStatus.choices, default=InvitationStatus.PENDING)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    decided_at = models.DateTimeField(null=True, blank=True, help_text="When it was accepted or revoked.")
    accepted_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["club", "email"], condition=Q(status="pending"),
                                               name="organiser_invitation_one_pending")]

    def __str__(self) -> str:
        return f"invitation to organise {self.club} sent to {self.email} ({self.status})"
