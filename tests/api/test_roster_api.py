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


def test_organisers_rename_a_guest_with_clear_refusals(accounts, other_organiser):
    club = accounts["club"]
    gina, gus = add_guests(club=club, names=["Gina", "Gus"])
    org = accounts["clients"]["organiser"]
    url = f"/api/v1/clubs/{club.pk}/guests/{gus.pk}/"
    r = org.patch(url, {"name": "  Gustave\u200b "}, format="json")
    assert r.status_code == 200 and r.json()["name"] == "Gustave" and r.json()["kind"] == "guest"
    assert Player.objects.get(pk=gus.pk).name == "Gustave"
    for body, status in [({"name": "ann"}, 409), ({"name": "gina"}, 409), ({"name": ""}, 400), ({}, 400),
                         ({"name": "x" * 200}, 400), ({"name": "house-greedy-1"}, 400), ({"name": ["a"]}, 400),
                         (["Gus"], 400)]:
        r = org.patch(url, body, format="json")
        assert r.status_code == status, (body, r.json())
        assert r.json()["detail"]
    assert Player.objects.get(pk=gus.pk).name == "Gustave"
    # Only a guest of this club's roster: a member, another club's guest, none at all are 404.
    stranger = add_guests(club=create_club(name="Far"), names=["Stranger"])[0]
    ann = Player.objects.get(name="ann")
    for other in (ann.pk, stranger.pk, 999999, 99999999999999999999):
        assert org.patch(f"/api/v1/clubs/{club.pk}/guests/{other}/", {"name": "Z"}, format="json").status_code == 404
    for client in (other_organiser, accounts["clients"]["ann"]):
        assert client.patch(url, {"name": "Hacked"}, format="json").status_code == 403
    assert accounts["clients"]["anon"].patch(url, {"name": "Hacked"}, format="json").status_code in (401, 403)
    assert sorted(Player.objects.filter(guest_club=club).values_list("name", flat=True)) == ["Gina", "Gustave"]


def test_organisers_merge_two_guests_with_clear_refusals(accounts, other_organiser):
    club = accounts["club"]
    gina, gina_b, gus = add_guests(club=club, names=["Gina", "Gina B", "Gus"])
    t = create_tournament(name="Evening", rounds=1, club=club, offline_tables=True)
    TournamentEntry.objects.create(tournament=t, player=gina_b)
    TournamentEntry.objects.create(tournament=t, player=gus)
    org = accounts["clients"]["organiser"]
    url = f"/api/v1/clubs/{club.pk}/guests/merge/"
    for client in (other_organiser, accounts["clients"]["ann"]):
        assert client.post(url, {"source": gina_b.pk, "target": gina.pk}, format="json").status_code == 403
    stranger = add_guests(club=create_club(name="Far"), names=["Stranger"])[0]
    ann = Player.objects.get(name="ann")
    for body in ({}, {"source": gina_b.pk}, {"source": "x", "target": gina.pk}, {"source": True, "target": gina.pk},
                 {"source": 2**70, "target": gina.pk}, {"source": gina.pk, "target": gina.pk},
                 {"source": stranger.pk, "target": gina.pk}, {"source": ann.pk, "target": gina.pk}, [1, 2]):
        r = org.post(url, body, format="json")
        assert r.status_code == 400, (body, r.json())
    # Both in the same tournament: one person cannot hold two entries.
    r = org.post(url, {"source": gina_b.pk, "target": gus.pk}, format="json")
    assert r.status_code == 409 and "same tournament" in r.json()["detail"]
    assert Player.objects.filter(guest_club=club).count() == 3
    r = org.post(url, {"source": gina_b.pk, "target": gina.pk}, format="json")
    assert r.status_code == 200 and r.json()["id"] == gina.pk and r.json()["name"] == "Gina"
    assert not Player.objects.filter(pk=gina_b.pk).exists()
    assert TournamentEntry.objects.filter(tournament=t, player=gina).exists()
