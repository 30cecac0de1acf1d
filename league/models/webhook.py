"""Webhooks: an organiser's or a bot author's URL that is sent the league's events as signed JSON POSTs.

A WebhookEndpoint says where and which events (of the owner's bots' matches and of the tournaments of the clubs they
organise); a WebhookDelivery is one event for one endpoint, written in the event's own transaction
(league.services.webhooks) and sent by the workers with retries (workers.webhooks). See api/README.md."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

# The events an endpoint may choose (turn.awaited is per person and too frequent; bot.resumed follows bot.paused).
WEBHOOK_EVENTS = ("match.started", "match.finished", "round.seated", "tournament.finished", "bot.paused")
# The ping sent by "send a ping": to any endpoint, whatever it chose.
PING_EVENT = "ping"


class WebhookEndpoint(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=500)
    # The HMAC key: shown to the owner once, when the endpoint is made; kept to sign (it must be readable to sign).
    secret = models.CharField(max_length=100)
    events = models.JSONField(default=list, help_text="The event names sent to it.")
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    # The sender's hold on the endpoint: one sender at a time, so deliveries go out in event order.
    busy_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"webhook {self.pk} of {self.owner_id}: {self.url}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "pending"
    DELIVERED = "delivered", "delivered"
    FAILED = "failed", "failed (given up)"


class WebhookDelivery(models.Model):
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.UUIDField(help_text="The event's id: the same for every endpoint told of it.")
    event = models.CharField(max_length=40)
    payload = models.JSONField(help_text="The whole body sent: id, event, created_at, data.")
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [
            # The sender's questions: an endpoint's oldest pending delivery, and which pending ones are due.
            models.Index(fields=["endpoint", "id"], condition=Q(status="pending"), name="webhook_delivery_pending"),
            models.Index(fields=["next_attempt_at"], condition=Q(status="pending"), name="webhook_delivery_due"),
        ]

    def __str__(self) -> str:
        return f"{self.event} to endpoint {self.endpoint_id} ({self.status})"
