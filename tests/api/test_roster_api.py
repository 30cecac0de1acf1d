"""The API's small part of issue 28's players without accounts and private links: a club's roster listed and added to,
a tournament's links issued and revoked, by the club's organisers only (an organiser of another club is refused)."""

from __future__ import annotations

import pytest
from django.test import Client

from league.models import ClubAdmin, Player, PrivateLink, TournamentEntry
from league.services import create_club
from league.services.roster import add_guests
from league.services.tournament_setup import create_tournament

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_organiser(accounts):
    user = type(accounts["organiser"]).objects.create_user("oscar")
    ClubAdmin.objects.create(club=create_club(name="Elsewhere"), user=user)
    return client_for(user)


def test_organisers_list_and_add_guests_all_or_none(accounts, other_organiser):
    club = accounts["club"]
    url = f"/api/v1/clubs/{club.pk}/guests/"
    org = accounts["clients"]["organiser"]
    r = org.post(url, {"names": ["Gina", "Gus"]}, format="json")
    assert r.status_code == 201 and [p["kind"] for p in r.json()] == ["guest", "guest"]
    r = org.post(url, {"names": ["Gemma", "ann", "<b>x</b>" * 100]}, format="json")
    assert r.status_code == 400 and "ann" in str(r.json())
    assert not Player.objects.filter(name="Gemma").exists()
    assert [p["name"] for p in org.get(url).json()] == ["Gina", "Gus"]
    for client in (other_organiser, accounts["clients"]["ann"]):
        assert client.get(url).status_code == 403
        assert client.post(url, {"names": ["Intruder"]}, format="json").status_code == 403
    assert accounts["clients"]["anon"].get(url).status_code in (401, 403)
    assert not Player.objects.filter(name="Intruder").exists()


def test_organisers_issue_and_revoke_links(accounts, other_organiser):
    club = accounts["club"]
    guest = add_guests(club=club, names=["Gina"])[0]
    t = create_tournament(name="Evening", rounds=1, club=club, offline_tables=True)
    entry = TournamentEntry.objects.create(tournament=t, player=guest)
    org = accounts["clients"]["organiser"]
    assert other_organiser.post(f"/api/v1/tournaments/{t.pk}/links/").status_code == 403
    assert org.post(f"/api/v1/tournaments/{t.pk}/links/").json() == {"issued": 1}
    assert other_organiser.post(f"/api/v1/tournaments/{t.pk}/links/{entry.pk}/").status_code == 403
    r = org.post(f"/api/v1/tournaments/{t.pk}/links/{entry.pk}/")
    assert r.status_code == 200 and "no-store" in r["Cache-Control"]
    url = r.json()["url"]
    path = url.split("testserver", 1)[1]
    assert Client().get(path).status_code == 200
    assert other_organiser.delete(f"/api/v1/tournaments/{t.pk}/links/{entry.pk}/").status_code == 403
    assert Client().get(path).status_code == 200
    assert org.delete(f"/api/v1/tournaments/{t.pk}/links/{entry.pk}/").status_code == 204
    assert Client().get(path).status_code == 404
    assert PrivateLink.objects.get(entry=entry).revoked_at is not None
