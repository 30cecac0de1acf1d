"""API tokens (DRF TokenAuthentication): an external bot's account signs in with one, sent as
`Authorization: Token <key>`."""

from __future__ import annotations

from django.db import transaction
from rest_framework.authtoken.models import Token


@transaction.atomic
def issue_token(user) -> str:
    """The account's token, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token.key
