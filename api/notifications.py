"""The signed-in account's notifications and webhook endpoints: /api/v1/me/notifications/, /api/v1/me/webhooks/.

Only one's own: another account's ids answer 404, as if they did not exist."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from league.models import Notification, WebhookDelivery, WebhookEndpoint
from league.models.webhook import WEBHOOK_EVENTS
from league.selectors.notifications import deliveries_of, endpoints_of, notifications_of, unread_count
from league.services import notifications, webhooks
from runtime.secrecy import never_stored

from .errors import ErrorSerializer

# A list answers 404 for a page past the end; a path id that is not one's own answers 404 too.
LIST_ERRORS = {404: ErrorSerializer}


class NotificationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Notification
        fields = ["id", "kind", "text", "link", "match", "created_at", "read_at"]


class UnreadCountSerializer(serializers.Serializer):
    unread = serializers.IntegerField()


@extend_schema_view(
    list=extend_schema(summary="My notifications, newest first", parameters=[
        OpenApiParameter("unread", bool, description="Only the unread ones.")],
        responses={200: NotificationSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One of my notifications", responses={200: NotificationSerializer,
                                                                          404: ErrorSerializer}),
)
class MyNotificationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = NotificationSerializer
    permission_classes = [IsAuthenticated]
    queryset = Notification.objects.none()  # for the schema; get_queryset gives the caller's own

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        unread = self.request.query_params.get("unread", "").lower() in ("1", "true", "yes")
        return notifications_of(self.request.user, unread_only=unread)

    @extend_schema(summary="Mark one of my notifications read", request=None,
                   responses={200: NotificationSerializer, 404: ErrorSerializer})
    @action(detail=True, methods=["post"])
    def read(self, request, pk=None):
        notification = self.get_object()  # 404 for another's
        notifications.mark_read(user=request.user, notification_id=notification.pk)
        notification.refresh_from_db()
        return Response(NotificationSerializer(notification).data)

    @extend_schema(summary="Mark all my notifications read", request=None, responses={200: UnreadCountSerializer})
    @action(detail=False, methods=["post"], url_path="read-all")
    def read_all(self, request):
        notifications.mark_all_read(user=request.user)
        return Response({"unread": unread_count(request.user)})

    @extend_schema(summary="How many unread notifications I have (the header's badge)",
                   responses={200: UnreadCountSerializer})
    @action(detail=False, methods=["get"])
    def unread(self, request):
        return Response({"unread": unread_count(request.user)})


class WebhookEndpointSerializer(serializers.ModelSerializer):
    events = serializers.ListField(child=serializers.ChoiceField(choices=WEBHOOK_EVENTS), allow_empty=False)

    class Meta:
        model = WebhookEndpoint
        fields = ["id", "url", "events", "active", "created_at"]
        read_only_fields = ["id", "created_at"]


class NewWebhookEndpointSerializer(WebhookEndpointSerializer):
    secret = serializers.CharField(read_only=True, help_text=str(_(
        "The signing secret: shown in this answer only. Keep it; it is not shown again.")))

    class Meta(WebhookEndpointSerializer.Meta):
        fields = [*WebhookEndpointSerializer.Meta.fields, "secret"]


class ActiveSerializer(serializers.Serializer):
    active = serializers.BooleanField()


class WebhookDeliverySerializer(serializers.ModelSerializer):
    class Meta:
        model = WebhookDelivery
        fields = ["id", "event_id", "event", "status", "attempts", "last_status_code", "last_error",
                  "next_attempt_at", "delivered_at", "created_at", "payload"]


@extend_schema_view(
    list=extend_schema(summary="My webhook endpoints",
                       responses={200: WebhookEndpointSerializer(many=True), **LIST_ERRORS}),
    retrieve=extend_schema(summary="One of my webhook endpoints", responses={200: WebhookEndpointSerializer,
                                                                              404: ErrorSerializer}),
)
class MyWebhookViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    serializer_class = WebhookEndpointSerializer
    permission_classes = [IsAuthenticated]
    queryset = WebhookEndpoint.objects.none()  # for the schema; get_queryset gives the caller's own

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.queryset
        return endpoints_of(self.request.user)

    @extend_schema(summary="Add a webhook endpoint (its secret is in this answer only)",
                   request=WebhookEndpointSerializer,
                   responses={201: NewWebhookEndpointSerializer, 400: ErrorSerializer})
    def create(self, request):
        form = WebhookEndpointSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        try:
            endpoint = webhooks.create_endpoint(owner=request.user, url=form.validated_data["url"],
                                                events=form.validated_data["events"])
        except webhooks.WebhookError as e:
            raise ValidationError({e.field: [str(e)]}) from None
        return never_stored(Response(NewWebhookEndpointSerializer(endpoint).data, status=201))

    @extend_schema(summary="Enable or disable one of my webhook endpoints", request=ActiveSerializer,
                   responses={200: WebhookEndpointSerializer, 400: ErrorSerializer, 404: ErrorSerializer})
    def partial_update(self, request, pk=None):
        endpoint = self.get_object()
        form = ActiveSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        webhooks.set_active(endpoint=endpoint, active=form.validated_data["active"])
        return Response(WebhookEndpointSerializer(endpoint).data)

    @extend_schema(summary="Send a ping to one of my webhook endpoints", request=None,
                   responses={202: WebhookDeliverySerializer, 404: ErrorSerializer})
    @action(detail=True, methods=["post"])
    def ping(self, request, pk=None):
        delivery = webhooks.send_ping(endpoint=self.get_object())
        return Response(WebhookDeliverySerializer(delivery).data, status=202)

    @extend_schema(summary="One of my webhook endpoints' deliveries, newest first",
                   responses={200: WebhookDeliverySerializer(many=True), 404: ErrorSerializer},
                   parameters=[OpenApiParameter("page", int), OpenApiParameter("page_size", int)])
    @action(detail=True, methods=["get"])
    def deliveries(self, request, pk=None):
        page = self.paginate_queryset(deliveries_of(self.get_object()))
        return self.get_paginated_response(WebhookDeliverySerializer(page, many=True).data)
