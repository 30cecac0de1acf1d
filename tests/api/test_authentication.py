"""api.authentication.TokenAuthentication: DRF's token authentication with its query written once; it must load
the same token and account the ORM would, and refuse what DRF refuses."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed

from api.authentication import TokenAuthentication
from api.tokens import issue_token

from .conftest import client_for


@pytest.mark.django_db
def test_the_token_and_its_account_load_as_the_orm_loads_them():
    user = get_user_model().objects.create_user("tina", password="pw-tina-123", email="t@example.org")
    key = issue_token(user)
    loaded_user, token = TokenAuthentication().authenticate_credentials(key)
    expected = Token.objects.select_related("user").get(key=key)
    assert token.key == expected.key and token.created == expected.created  # a datetime, on SQLite too
    assert loaded_user.pk == user.pk and token.user is loaded_user
    for field in get_user_model()._meta.concrete_fields:
        assert getattr(loaded_user, field.attname) == getattr(expected.user, field.attname), field.name
    assert client_for(token=key).get("/api/v1/me/").status_code == 200


@pytest.mark.django_db
def test_unknown_tokens_and_inactive_accounts_are_refused():
    user = get_user_model().objects.create_user("ivan", password="pw-ivan-123")
    key = issue_token(user)
    with pytest.raises(AuthenticationFailed, match="Invalid token"):
        TokenAuthentication().authenticate_credentials(key[:-1] + ("0" if key[-1] != "0" else "1"))
    assert client_for(token="not-a-token").get("/api/v1/me/").status_code == 401
    user.is_active = False
    user.save(update_fields=["is_active"])
    with pytest.raises(AuthenticationFailed, match="inactive"):
        TokenAuthentication().authenticate_credentials(key)
    assert client_for(token=key).get("/api/v1/me/").status_code == 401
