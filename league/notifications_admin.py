"""The admin's view of notifications and webhooks: for looking into what was sent (staff only). Endpoints' secrets
are never shown; deliveries are read-only (they are the log of what was sent)."""

from django.contrib import admin
from django.db import models

from .models import Notification, WebhookDelivery, WebhookEndpoint


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ["id", "recipient", "kind", "text", "created_at", "read_at", "emailed_at"]
    list_filter = ["kind"]
    raw_id_fields = ["recipient", "match"]


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(admin.ModelAdmin):
    list_display = ["id", "owner", "url", "active", "created_at"]
    list_filter = ["active"]
    exclude = ["secret"]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    raw_id_fields = ["owner"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    list_display = ["id", "endpoint", "event", "status", "attempts", "last_status_code", "next_attempt_at",
                    "delivered_at"]
    list_filter = ["status", "event"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
