"""The admin lists every league table and shows a played match with its seats, rounds and tricks."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.models import MatchSeat
from league.services import play_bot_match

from .matches_support import VARIANTS, bot_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("admin", "admin@example.org", "pw"))
    return client


def test_every_league_table_is_listed_filtered_and_searchable(staff_client):
    match = bot_match(VARIANTS["4p-choose"], seed="admin")
    play_bot_match(match_id=match.pk)
    for model in ("club", "player", "match", "matchseat"):
        url = reverse(f"admin:league_{model}_changelist")
        assert staff_client.get(url).status_code == 200, model
        assert staff_client.get(url, {"q": "admin"}).status_code == 200, model
    assert staff_client.get(reverse("admin:league_match_changelist"), {"status": "finished"}).status_code == 200
    page = staff_client.get(reverse("admin:league_match_change", args=[match.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    match.refresh_from_db()
    assert text.count('name="match_seats-') and f"{match.move_number} choices," in text  # its stored play, summed up
    for row in (MatchSeat.objects.first(),):
        url = reverse(f"admin:league_{row._meta.model_name}_change", args=[row.pk])
        assert staff_client.get(url).status_code == 200
