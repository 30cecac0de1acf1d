"""The admin lists club organisers and the result corrections' audit trail (which it shows but does not edit)."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_organisers_and_corrections_are_listed_in_the_admin(accounts, client):
    accounts["staff"].is_superuser = True
    accounts["staff"].save()
    client.force_login(accounts["staff"])
    for model in ("clubadmin", "resultcorrection"):
        assert client.get(reverse(f"admin:league_{model}_changelist"), {"q": "olga"}).status_code == 200
    assert client.get(reverse("admin:league_resultcorrection_add")).status_code == 403
