"""A notification: something a person is told on the site (the header's badge, /notifications/) and, if they want
it, by email. Written by league.services.notifications when a league event concerns them."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone


class NotificationKind(models.TextChoices):
    TURN = "turn", "your turn"
    ROUND_SEATED = "round_seated", "your table is ready"
    MATCH_FINISHED = "match_finished", "your match finished"
    TOURNAMENT_FINISHED = "tournament_finished", "your tournament finished"
    BOT_PAUSED = "bot_paused", "your bot was paused"
    BOT_RESUMED = "bot_resumed", "your bot was resumed"


class Notification(models.Model):
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=30, choices=NotificationKind.choices)
    text = models.CharField(max_length=300)
    link = models.CharField(max_length=300, blank=True, help_text="A path on this site.")
    # The match the notification is about, if any: at most one unread "your turn" per match and person.
    match = models.ForeignKey("league.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    # Email: pending until the sweep (workers.tasks.send_notification_emails) sends it or decides not to.
    email_pending = models.BooleanField(default=False)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            # The badge's question, asked every few seconds: how many unread has this person.
            models.Index(fields=["recipient", "created_at"], condition=Q(read_at__isnull=True),
                         name="notification_unread"),
            models.Index(fields=["recipient", "-created_at"], name="notification_recipient_recent"),
            models.Index(fields=["created_at"], condition=Q(email_pending=True), name="notification_email_due"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["recipient", "match"], condition=Q(kind="turn", read_at__isnull=True),
                                    name="notification_one_unread_turn_per_match"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.recipient_id}: {self.text}"
