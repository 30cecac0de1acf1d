"""A person's request to join a club whose membership is "request" (Club.membership): pending until one of the
club's organisers accepts it (the player becomes a member) or declines it. Kept afterwards, decided, so the person
can see the answer; at most one pending request per club and player."""

from django.conf import settings
from django.db import models
from django.db.models import Q


class RequestStatus(models.TextChoices):
    PENDING = "pending", "pending"
    ACCEPTED = "accepted", "accepted"
    DECLINED = "declined", "declined"
    WITHDRAWN = "withdrawn", "withdrawn"


class MembershipRequest(models.Model):
    club = models.ForeignKey("league.Club", on_delete=models.CASCADE, related_name="membership_requests")
    player = models.ForeignKey("league.Player", on_delete=models.CASCADE, related_name="membership_requests")
    status = models.CharField(max_length=10, choices=RequestStatus.choices, default=RequestStatus.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["club", "player"], condition=Q(status="pending"),
                                               name="membership_request_one_pending")]

    def __str__(self) -> str:
        return f"{self.player} asks to join {self.club} ({self.status})"
