"""Starting a club on the website (issue 28: "a club organiser ... today they cannot start"): a verified person
starts one from My page or the home page and organises it from then on; an unverified account, a visitor and an
account that organises as many clubs as one may start get a clear refusal and nothing is created; a name taken or
looking like another club's, and a website that is not one, are refused on the form (400)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from league.models import Club, ClubAdmin
from league.services import create_club
from league.services.clubs import ClubDetailsRefused, found_club
from runtime.throttling import STORE

from .support import administrators_account

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()
    STORE.clear_local()
    yield
    cache.clear()
    STORE.clear_local()


def person(username: str, *, verified: bool = True):
    user = User.objects.create_user(username, password="pw-start-1")
    EmailAddress.objects.create(user=user, email=f"{username}@example.org", verified=verified, primary=True)
    client = Client()
    client.force_login(user)
    return user, client


def test_a_verified_person_starts_a_club_and_organises_it():
    user, client = person("carla")
    assert "/clubs/new/" in client.get("/me/").content.decode()
    assert "/clubs/new/" in client.get("/").content.decode()
    page = client.get("/clubs/new/")
    assert page.status_code == 200 and "Start the club" in page.content.decode()
    response = client.post("/clubs/new/", {"name": "  Club  du\u200b Port ", "location": "Café du Port",
                                           "website": "club.example.org", "membership": "request",
                                           "description": "Thursdays."})
    club = Club.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.pk}/"
    assert (club.name, club.location, club.website, club.membership) == (
        "Club du Port", "Café du Port", "https://club.example.org", "request")
    assert ClubAdmin.objects.filter(club=club, user=user).exists()
    html = client.get(f"/clubs/{club.pk}/").content.decode()
    assert "you organise it" in html and f"/clubs/{club.pk}/tournaments/new/" in html
    assert f"/clubs/{club.pk}/roster/" in html
    me = client.get("/me/").content.decode()
    assert "Clubs you organise" in me and f'href="/clubs/{club.pk}/"' in me


@pytest.mark.parametrize("fields, field", [
    ({"name": "Crystal Club"}, "name"),   # taken
    ({"name": "CRYSTAL CLUB"}, "name"),   # the same, in other letters' case
    ({"name": "Crystal C1ub"}, "name"),   # a look-alike
    ({"name": ""}, "name"),
    ({"name": "x" * 101}, "name"),
    ({"name": "Fine", "website": "javascript:alert(1)"}, "website"),
    ({"name": "Fine", "membership": "invite-only"}, "membership"),
])
def test_a_bad_name_or_detail_is_refused_on_the_form_and_nothing_is_created(fields, field):
    create_club(name="Crystal Club")
    user, client = person("carla")
    response = client.post("/clubs/new/", {"membership": "open", **fields})
    assert response.status_code == 400
    assert f'id="id_{field}_errors"' in response.content.decode()
    assert Club.objects.count() == 1 and not ClubAdmin.objects.filter(user=user).exists()


def test_who_may_not_start_a_club_is_told_why_and_nothing_is_created(settings):
    _unverified, client = person("newt", verified=False)
    for response in (client.get("/clubs/new/"), client.post("/clubs/new/", {"name": "Newt's", "membership": "open"})):
        assert response.status_code == 403 and "Confirm your email address" in response.content.decode()
    anonymous = Client().post("/clubs/new/", {"name": "Anon", "membership": "open"})
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    settings.DIAMONDS_CLUBS_ORGANISED_MAX = 2
    busy, busy_client = person("busy")
    for name in ("One", "Two"):
        assert busy_client.post("/clubs/new/", {"name": name, "membership": "open"}).status_code == 302
    refused = busy_client.post("/clubs/new/", {"name": "Three", "membership": "open"})
    assert refused.status_code == 403 and "You organise 2 clubs already" in refused.content.decode()
    assert sorted(Club.objects.values_list("name", flat=True)) == ["One", "Two"]
    # Site staff have no limit (they organise every club anyway).
    staff = administrators_account("stan", is_staff=True)
    for name in ("S1", "S2", "S3"):
        found_club(user=staff, name=name)
    staff_client = Client()
    staff_client.force_login(staff)
    assert staff_client.get("/clubs/new/").status_code == 200


def test_found_club_refuses_what_a_change_of_details_refuses():
    create_club(name="Crystal Club")
    user = administrators_account("carla")
    with pytest.raises(ClubDetailsRefused) as refused:
        found_club(user=user, name="crystal club", details={"website": "ftp://x"})
    assert set(refused.value.errors) == {"name", "website"}
    assert Club.objects.count() == 1 and not ClubAdmin.objects.exists()
