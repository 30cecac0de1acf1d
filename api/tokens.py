"""API tokens (DRF TokenAuthentication): an external bot's account signs in with one, sent as
`Authorization: Token <key>`."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import Throttled, ValidationError

from runtime.secrecy import never_stored

from .parsers import FormParser, JSONParser, MultiPartParser
from .throttling import SigninThrottle, WriteThrottle


def lockout_seconds() -> int:
    """How long a sign-in lockout lasts (AXES_COOLOFF_TIME is in hours)."""
    return max(1, round(float(settings.AXES_COOLOFF_TIME) * 3600))


@transaction.atomic
def issue_token(user) -> str:
    """The account's token, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key


class TokenView(ObtainAuthToken):
    """POST username and password, get the account's token (for a person's scripts; bots get theirs when they are
    registered)."""

    # Attempts per client address (whatever the username), and every write's budget; failures lock the username
    # and the address out for a while (django-axes: its backend refuses a locked-out sign-in, right password too).
    throttle_classes = [SigninThrottle, WriteThrottle]
    parser_classes = [FormParser, MultiPartParser, JSONParser]  # DRF's view names its own: ours keep the limits

    @extend_schema(summary="Exchange a username and password for the account's API token",
                   responses={200: inline_serializer("Token", {"token": serializers.CharField()}),
                              400: OpenApiResponse(description="Wrong username or password."),
                              429: OpenApiResponse(description="Too many attempts, or too many failures for this "
                                                               "username or address: see Retry-After.")})
    def post(self, request, *args, **kwargs):
        try:
            return never_stored(super().post(request, *args, **kwargs))
        except ValidationError:
            # django-axes marks the request when the username or the address is locked out: say so, not "wrong
            # password", so a person knows to wait (a guesser learns nothing about the password either way).
            if getattr(request, "axes_locked_out", False):
                raise Throttled(wait=lockout_seconds(),
                                detail=gettext("Too many failed sign-ins for this username or from this "
                                               "address.")) from None
            raise

