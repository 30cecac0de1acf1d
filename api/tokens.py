"""API tokens (DRF TokenAuthentication): an external bot's account signs in with one, sent as
`Authorization: Token <key>`."""

from __future__ import annotations

from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken

from .parsers import FormParser, JSONParser, MultiPartParser
from .throttling import WriteThrottle


@transaction.atomic
def issue_token(user) -> str:
    """The account's token, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


class TokenView(ObtainAuthToken):
    """POST username and password, get the account's token (for a person's scripts; bots get theirs when they are
    registered)."""

    throttle_classes = [WriteThrottle]
    parser_classes = [FormParser, MultiPartParser, JSONParser]  # DRF's view names its own: ours keep the limits

    @extend_schema(summary="Exchange a username and password for the account's API token",
                   responses={200: inline_serializer("Token", {"token": serializers.CharField()}),
                              400: OpenApiResponse(description="Wrong username or password."),
                              429: OpenApiResponse(description="Too many attempts: see Retry-After.")})
    def post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)
