"""Reading notifications and webhooks: always one account's own (nobody reads another's)."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import Notification, WebhookDelivery, WebhookEndpoint


def notifications_of(user, *, unread_only: bool = False) -> QuerySet[Notification]:
    found = Notification.objects.filter(recipient=user)
    return found.filter(read_at__isnull=True) if unread_only else found


def notification_link(user, notification_id: int) -> str | None:
    """The link of one of the account's notifications, or None (no such notification of theirs)."""
    return notifications_of(user).filter(pk=notification_id).values_list("link", flat=True).first()


def unread_count(user) -> int:
    """The header badge's number (the `notification_unread` index answers it)."""
    if not user.is_authenticated:
        return 0
    return Notification.objects.filter(recipient=user, read_at__isnull=True).count()


def endpoints_of(user) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(owner=user)


def deliveries_of(endpoint: WebhookEndpoint) -> QuerySet[WebhookDelivery]:
    return WebhookDelivery.objects.filter(endpoint=endpoint).order_by("-pk")
