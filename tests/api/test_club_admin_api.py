"""Running a club through the API (issue 28, "Run the club on the website"; the website's pages have the same
services): the organisers listed, added, removed (never the last), invited by email and the invitation accepted;
the club's details changed. Who may is the permission matrix's (test_permission_matrix.py); here, what happens."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from league.models import Club, ClubAdmin, OrganiserInvitation
from league.services.players import add_club_admin

from .conftest import client_for

pytestmark = pytest.mark.django_db


def token_sent() -> str:
    return re.search(r"/invitations/organise/([A-Za-z0-9_-]+)/", mail.outbox[-1].body).group(1)


def test_organisers_are_listed_and_invitations_shown_to_organisers_only(accounts):
    """Who organises a club is public (as its page); the addresses invited are its organisers' only."""
    club, c = accounts["club"], accounts["clients"]
    for who in ("organiser", "outsider", "anon"):
        r = c[who].get(f"/api/v1/clubs/{club.pk}/admins/")
        assert r.status_code == 200 and [o["username"] for o in r.json()] == ["olga"] and r.json()[0]["since"]
    c["organiser"].post(f"/api/v1/clubs/{club.pk}/invitations/", {"email": "x@example.org"}, format="json")
    assert [i["email"] for i in c["organiser"].get(f"/api/v1/clubs/{club.pk}/invitations/").json()] == [
        "x@example.org"]
    for who in ("outsider", "anon", "ann"):
        assert c[who].get(f"/api/v1/clubs/{club.pk}/invitations/").json() == []


def test_adding_by_username_refuses_an_unknown_or_bot_account_with_400(accounts):
    club, c = accounts["club"], accounts["clients"]
    for name in ("nobody", accounts["players"]["ext-1"].user.username, "", 12):
        r = c["organiser"].post(f"/api/v1/clubs/{club.pk}/admins/", {"username": name}, format="json")
        assert r.status_code == 400 and "username" in r.json()["errors"], name
    assert ClubAdmin.objects.filter(club=club).count() == 1


def test_the_last_organiser_cannot_leave_409(accounts):
    """The last organiser cannot leave (409, still there); once another organises, they may (204)."""
    club, c = accounts["club"], accounts["clients"]
    r = c["organiser"].delete(f"/api/v1/clubs/{club.pk}/admins/olga/")
    assert r.status_code == 409 and "last organiser" in r.json()["detail"]
    assert ClubAdmin.objects.filter(club=club, user__username="olga").exists()
    assert c["organiser"].delete(f"/api/v1/clubs/{club.pk}/admins/nobody/").status_code == 404
    add_club_admin(club=club, user=accounts["players"]["ann"].user)
    assert c["organiser"].delete(f"/api/v1/clubs/{club.pk}/admins/olga/").status_code == 204
    assert list(ClubAdmin.objects.filter(club=club).values_list("user__username", flat=True)) == ["ann"]


def test_an_invitation_is_sent_listed_revoked_and_accepted_through_the_api(accounts):
    """Invitation sent (email in the outbox; the answer never holds the link), listed, accepted by the signed-in
    account with that address confirmed; another account is refused; a revoked one is refused."""
    club, c = accounts["club"], accounts["clients"]
    r = c["organiser"].post(f"/api/v1/clubs/{club.pk}/invitations/", {"email": "Ann@Example.org"}, format="json")
    assert r.status_code == 201 and r.json()["email"] == "ann@example.org" and r.json()["invited_by"] == "olga"
    token = token_sent()
    assert token not in r.content.decode()
    listed = c["organiser"].get(f"/api/v1/clubs/{club.pk}/invitations/").json()
    assert [i["email"] for i in listed] == ["ann@example.org"] and token not in str(listed)

    accept = "/api/v1/invitations/organise/accept/"
    bob = accounts["players"]["bob"].user
    EmailAddress.objects.create(user=bob, email="bob@example.org", verified=True, primary=True)
    r = c["bob"].post(accept, {"token": token}, format="json")
    assert r.status_code == 409 and "not confirmed" in r.json()["detail"]
    assert c["bob"].post(accept, {"token": "nope"}, format="json").status_code == 400  # no such invitation
    assert c["bob"].post(accept, {}, format="json").status_code == 400
    assert c["anon"].post(accept, {"token": token}, format="json").status_code == 401
    ann = accounts["players"]["ann"].user
    EmailAddress.objects.create(user=ann, email="ann@example.org", verified=True, primary=True)
    r = c["ann"].post(accept, {"token": token}, format="json")
    assert r.status_code == 200 and r.json() == {"club": club.pk, "username": "ann"}
    assert ClubAdmin.objects.filter(club=club, user=ann).exists()

    r = c["organiser"].post(f"/api/v1/clubs/{club.pk}/invitations/", {"email": "bob@example.org"}, format="json")
    invitation_id = r.json()["id"]
    assert c["organiser"].delete(f"/api/v1/clubs/{club.pk}/invitations/{invitation_id}/").status_code == 204
    assert c["organiser"].delete(f"/api/v1/clubs/{club.pk}/invitations/{invitation_id}/").status_code == 409
    assert c["bob"].post(accept, {"token": token_sent()}, format="json").status_code == 409
    assert not ClubAdmin.objects.filter(club=club, user=bob).exists()


def test_an_invitation_to_a_bad_address_is_a_400_and_sends_nothing(accounts):
    club, c = accounts["club"], accounts["clients"]
    for email in ("", "nope", None, ["a@b.org"], "a@b.org\r\nBcc: x@y.org"):
        r = c["organiser"].post(f"/api/v1/clubs/{club.pk}/invitations/", {"email": email}, format="json")
        assert r.status_code == 400 and "email" in r.json()["errors"], email
    assert not mail.outbox and not OrganiserInvitation.objects.exists()


def test_an_organiser_changes_the_clubs_details(accounts):
    club, c = accounts["club"], accounts["clients"]
    r = c["organiser"].patch(f"/api/v1/clubs/{club.pk}/", {
        "description": "Every Thursday.\n\n\n\nBring cards.", "location": " Café du Port ",
        "website": "club.example.org", "membership": "request"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["description"] == "Every Thursday.\n\nBring cards." and r.json()["location"] == "Café du Port"
    club.refresh_from_db()
    assert (club.website, club.membership) == ("https://club.example.org", "request")


@pytest.mark.parametrize("body,field", [
    ({"name": "x" * 101}, "name"),
    ({"name": "\u200b"}, "name"),
    ({"name": "Other Club"}, "name"),
    ({"website": "javascript:alert(1)"}, "website"),
    ({"description": "d" * 2001}, "description"),
    ({"membership": "anyone"}, "membership"),
    ({"created_at": "2020-01-01T00:00:00Z", "id": 5}, None),
])
def test_hostile_details_are_a_400_naming_the_field_and_change_nothing(accounts, body, field):
    """Editing details with hostile input through the API: 400 with the field named, never 500, nothing saved."""
    club, c = accounts["club"], accounts["clients"]
    Club.objects.create(name="Other Club")
    r = c["organiser"].patch(f"/api/v1/clubs/{club.pk}/", {"location": "changed?", **body}, format="json")
    if field is None:  # read-only fields are ignored, as DRF does: the rest is applied
        assert r.status_code == 200 and r.json()["id"] == club.pk
        return
    assert r.status_code == 400 and field in r.json()["errors"], r.content
    club.refresh_from_db()
    assert club.name == "Diamond Club" and club.location == "" and club.membership == "open"


def test_staff_create_a_club_with_its_details_checked(accounts):
    c = accounts["clients"]
    r = c["staff"].post("/api/v1/clubs/", {"name": " New\u200b  Club ", "description": "Hi"}, format="json")
    assert r.status_code == 201 and r.json()["name"] == "New Club" and r.json()["description"] == "Hi"
    r = c["staff"].post("/api/v1/clubs/", {"name": "Newer Club", "website": "javascript:x"}, format="json")
    assert r.status_code == 400 and "website" in r.json()["errors"]
    assert not Club.objects.filter(name="Newer Club").exists()
    assert client_for(accounts["organiser"]).post("/api/v1/clubs/", {"name": "Mine"}, format="json").status_code == 403
