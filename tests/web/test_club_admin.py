"""Running a club on the website (issue 28, "Run the club on the website"): the organisers' pages of a club (members
and requests, organisers and invitations, details and joining) and the page an invitation's link opens. Nothing here
needs the admin: an organiser adds organisers, invites one by email, answers requests, takes members out and edits
the club; anyone else gets 403 and changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta
from html.parser import HTMLParser

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from league.models import Club, ClubAdmin, Membership, MembershipRequest, OrganiserInvitation
from league.services import create_bot_player, create_club, create_person_player
from league.services.membership import ask_to_join
from league.services.organisers import invite_organiser
from league.services.players import add_club_admin
from runtime.throttling import STORE

pytestmark = pytest.mark.django_db

SITE = "http://testserver"  # the site as the organiser reached it (DIAMONDS_SITE_URL, when set, wins)

PASSWORD = "pw-club-test-1"
NEW_PASSWORD = "a-Good-pass-93"


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()
    STORE.clear_local()
    yield
    cache.clear()
    STORE.clear_local()
    # A page asked for in French leaves French active in this thread: the next test starts in English again.
    translation.activate("en")


@pytest.fixture
def club_world():
    User = get_user_model()
    club = create_club(name="Crystal Club")
    olive = User.objects.create_user("olive", password=PASSWORD)
    add_club_admin(club=club, user=olive)
    other_club = create_club(name="Other Club")
    oscar = User.objects.create_user("oscar", password=PASSWORD)
    add_club_admin(club=other_club, user=oscar)
    ann = create_person_player(user=User.objects.create_user("ann", password=PASSWORD), name="ann", clubs=[club])
    bot = create_bot_player(name="bot-1", kind="random", clubs=[club])
    carla = User.objects.create_user("carla", password=PASSWORD)
    return {"club": club, "olive": olive, "oscar": oscar, "ann": ann, "bot": bot, "carla": carla}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def organiser_urls(club, w) -> dict[str, tuple[str, dict]]:
    """Every page and change of the organisers' pages: (url, POST data, or None for a GET)."""
    invitation = invite_organiser(club=club, email="someone@example.org", by=w["olive"], site_url=SITE)
    mail.outbox.clear()
    return {
        "members": (reverse("web:club-members", args=[club.pk]), None),
        "organisers": (reverse("web:club-organisers", args=[club.pk]), None),
        "details": (reverse("web:club-details", args=[club.pk]), None),
        "remove-member": (reverse("web:club-member-remove", args=[club.pk, w["ann"].pk]), {}),
        "add-organiser": (reverse("web:club-organiser-add", args=[club.pk]), {"username": "carla"}),
        "remove-organiser": (reverse("web:club-organiser-remove", args=[club.pk, w["olive"].pk]), {}),
        "invite": (reverse("web:club-invitation-send", args=[club.pk]), {"email": "x@example.org"}),
        "revoke": (reverse("web:club-invitation-revoke", args=[club.pk, invitation.pk]), {}),
        "edit": (reverse("web:club-details", args=[club.pk]),
                 {"name": "Taken Over", "membership": "request", "description": "", "location": "", "website": ""}),
    }


def state(club) -> tuple:
    club = Club.objects.get(pk=club.pk)
    return (club.name, club.membership, club.description,
            sorted(ClubAdmin.objects.filter(club=club).values_list("user__username", flat=True)),
            sorted(club.players.values_list("name", flat=True)),
            sorted(OrganiserInvitation.objects.filter(club=club).values_list("email", "status")))


# ---- who may --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("who", ["ann", "oscar", "carla"])
def test_a_non_organiser_gets_403_on_every_page_and_change_and_nothing_changes(club_world, who):
    """Non-organiser: a member, another club's organiser, any account: 403 everywhere, the club as it was, no
    email sent."""
    club = club_world["club"]
    urls = organiser_urls(club, club_world)
    before = state(club)
    user = club_world[who].user if who == "ann" else club_world[who]
    client = signed_in(user)
    for name, (url, data) in urls.items():
        response = client.get(url) if data is None else client.post(url, data)
        assert response.status_code == 403, name
    assert state(club) == before and not mail.outbox
    assert "run-the-club" not in client.get(reverse("web:club", args=[club.pk])).content.decode()


def test_a_visitor_is_sent_to_sign_in_and_nothing_changes(club_world):
    club = club_world["club"]
    urls = organiser_urls(club, club_world)
    before = state(club)
    for name, (url, data) in urls.items():
        response = Client().get(url) if data is None else Client().post(url, data)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], name
    assert state(club) == before


def test_a_get_changes_nothing(club_world):
    """POST actions are buttons in forms: the same addresses opened with GET are refused (405)."""
    club = club_world["club"]
    client = signed_in(club_world["olive"])
    urls = organiser_urls(club, club_world)
    before = state(club)
    for name, (url, data) in urls.items():
        if data is not None and name != "edit":
            assert client.get(url).status_code == 405, name
    assert state(club) == before


# ---- organisers ----------------------------------------------------------------------------------------------------

def test_the_organiser_sees_run_the_club_and_adds_an_organiser_by_username(club_world):
    """Organiser adds an organiser by username, from the club's page to its organisers page."""
    club, carla = club_world["club"], club_world["carla"]
    client = signed_in(club_world["olive"])
    page = client.get(reverse("web:club", args=[club.pk])).content.decode()
    assert 'id="run-the-club"' in page and reverse("web:club-organisers", args=[club.pk]) in page
    response = client.post(reverse("web:club-organiser-add", args=[club.pk]), {"username": "carla"}, follow=True)
    assert "carla organises Crystal Club now." in response.content.decode()
    assert ClubAdmin.objects.filter(club=club, user=carla).exists()
    # Carla sees the controls now.
    assert 'id="run-the-club"' in signed_in(carla).get(reverse("web:club", args=[club.pk])).content.decode()


def test_adding_an_unknown_username_says_so_beside_the_field(club_world):
    client = signed_in(club_world["olive"])
    club = club_world["club"]
    response = client.post(reverse("web:club-organiser-add", args=[club.pk]), {"username": "nobody<b>"})
    html = response.content.decode()
    assert response.status_code == 400 and "There is no account called nobody&lt;b&gt;." in html
    assert 'aria-invalid="true"' in html
    assert ClubAdmin.objects.filter(club=club).count() == 1


def test_the_last_organiser_cannot_leave(club_world):
    """The last organiser: no button to leave, and the POST is refused; with a second organiser they may."""
    club, olive = club_world["club"], club_world["olive"]
    client = signed_in(olive)
    page = client.get(reverse("web:club-organisers", args=[club.pk])).content.decode()
    leave = reverse("web:club-organiser-remove", args=[club.pk, olive.pk])
    assert leave not in page and "The last organiser" in page
    response = client.post(leave, follow=True)
    assert "last organiser" in response.content.decode()
    assert ClubAdmin.objects.filter(club=club, user=olive).exists()

    add_club_admin(club=club, user=club_world["carla"])
    assert leave in client.get(reverse("web:club-organisers", args=[club.pk])).content.decode()
    response = client.post(leave)
    assert response.status_code == 302 and response["Location"] == reverse("web:club", args=[club.pk])
    assert list(ClubAdmin.objects.filter(club=club).values_list("user__username", flat=True)) == ["carla"]


def test_an_organiser_removes_another(club_world):
    club = club_world["club"]
    add_club_admin(club=club, user=club_world["carla"])
    client = signed_in(club_world["olive"])
    client.post(reverse("web:club-organiser-remove", args=[club.pk, club_world["carla"].pk]))
    assert list(ClubAdmin.objects.filter(club=club).values_list("user__username", flat=True)) == ["olive"]


# ---- invitations ---------------------------------------------------------------------------------------------------

def invitation_path() -> str:
    return re.search(r"https?://[^/\s]+(/invitations/organise/[A-Za-z0-9_-]+/)", mail.outbox[-1].body).group(1)


def test_an_invitation_from_the_page_is_emailed_and_accepted_by_a_new_person_after_signing_up(club_world):
    """Invitation end to end: sent from the organisers page (email in the outbox), opened by a visitor (changes
    nothing), who signs up with that address, confirms it and accepts while signed in."""
    club = club_world["club"]
    organiser = signed_in(club_world["olive"])
    response = organiser.post(reverse("web:club-invitation-send", args=[club.pk]), {"email": "newt@example.org"},
                              follow=True)
    assert "The invitation is sent to newt@example.org." in response.content.decode()
    assert "newt@example.org" in organiser.get(reverse("web:club-organisers", args=[club.pk])).content.decode()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newt@example.org"]
    path = invitation_path()

    newt = Client()
    page = newt.get(path)
    html = page.content.decode()
    assert page.status_code == 200 and "Crystal Club" in html
    assert f'{reverse("account_signup")}?next={path}' in html.replace("%2F", "/")
    assert not ClubAdmin.objects.filter(club=club).exclude(user=club_world["olive"]).exists()

    newt.post(f'{reverse("account_signup")}?next={path}', {
        "username": "newt", "email": "newt@example.org", "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    user = get_user_model().objects.get(username="newt")
    # Signing up signs nobody in until the address is confirmed (mandatory verification): still a visitor here.
    page = newt.get(path).content.decode()
    assert "<button" not in page.split("<main")[1].split("</main>")[0]
    assert newt.post(path).status_code == 302
    assert not ClubAdmin.objects.filter(club=club, user=user).exists()  # not before the address is confirmed

    confirm = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", mail.outbox[-1].body).group(1)
    assert newt.post(confirm).status_code == 302
    assert "Accept: organise Crystal Club" in newt.get(path).content.decode()
    response = newt.post(path)
    assert response.status_code == 302 and response["Location"] == reverse("web:club", args=[club.pk])
    assert ClubAdmin.objects.filter(club=club, user=user).exists()
    assert "You accepted this invitation" in newt.get(path).content.decode()
    # Used: nobody else can use it.
    carla = club_world["carla"]
    EmailAddress.objects.create(user=carla, email="carla@example.org", verified=True, primary=True)
    other = signed_in(carla)
    assert other.get(path).status_code == 410
    other.post(path)
    assert not ClubAdmin.objects.filter(club=club, user=carla).exists()


def test_a_different_signed_in_account_cannot_use_someone_elses_invitation(club_world):
    """A link forwarded to (or found by) another account binds nobody: the page says why, the POST changes
    nothing."""
    club, carla = club_world["club"], club_world["carla"]
    invite_organiser(club=club, email="dora@example.org", by=club_world["olive"], site_url=SITE)
    path = invitation_path()
    EmailAddress.objects.create(user=carla, email="carla@example.org", verified=True, primary=True)
    client = signed_in(carla)
    assert "has not confirmed" in client.get(path).content.decode()
    response = client.post(path, follow=True)
    assert "has not confirmed" in response.content.decode()
    assert not ClubAdmin.objects.filter(club=club, user=carla).exists()
    assert OrganiserInvitation.objects.get().status == "pending"


def test_a_revoked_expired_or_unknown_invitation_link_says_so(club_world):
    """Refused when revoked (the organiser's button), expired, or unknown: 410/404 with the reason, no button."""
    club, olive = club_world["club"], club_world["olive"]
    carla = club_world["carla"]
    EmailAddress.objects.create(user=carla, email="carla@example.org", verified=True, primary=True)
    invitation = invite_organiser(club=club, email="carla@example.org", by=olive, site_url=SITE)
    path = invitation_path()
    signed_in(olive).post(reverse("web:club-invitation-revoke", args=[club.pk, invitation.pk]))
    client = signed_in(carla)
    page = client.get(path)
    assert page.status_code == 410 and "withdrawn" in page.content.decode()
    client.post(path)
    assert not ClubAdmin.objects.filter(club=club, user=carla).exists()

    invitation = invite_organiser(club=club, email="carla@example.org", by=olive, site_url=SITE)
    path = invitation_path()
    OrganiserInvitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    page = client.get(path)
    assert page.status_code == 410 and "expired" in page.content.decode()
    client.post(path)
    assert not ClubAdmin.objects.filter(club=club, user=carla).exists()

    assert client.get("/invitations/organise/not-a-token/").status_code == 404


# ---- members and requests ------------------------------------------------------------------------------------------

def test_members_page_lists_members_with_since_when_and_answers_requests(club_world):
    """See members (with when they joined) and answer requests from the members page, which it returns to."""
    club = club_world["club"]
    club.membership = Membership.REQUEST
    club.save()
    dora = create_person_player(user=get_user_model().objects.create_user("dora"), name="dora")
    req = ask_to_join(club=club, player=dora).request
    client = signed_in(club_world["olive"])
    page = client.get(reverse("web:club-members", args=[club.pk])).content.decode()
    today = timezone.now()
    assert "ann" in page and "bot-1" in page and "member since" in page and str(today.year) in page
    assert "dora" in page and "Requests to join" in page
    response = client.post(reverse("web:club-request-decide", args=[club.pk, req.pk, "accept"]), {"back": "members"})
    assert response["Location"] == reverse("web:club-members", args=[club.pk])
    assert dora.clubs.filter(pk=club.pk).exists()
    assert MembershipRequest.objects.get(pk=req.pk).status == "accepted"


def test_an_organiser_takes_a_member_out(club_world):
    club, ann = club_world["club"], club_world["ann"]
    client = signed_in(club_world["olive"])
    response = client.post(reverse("web:club-member-remove", args=[club.pk, ann.pk]), follow=True)
    assert "ann is no longer a member of Crystal Club." in response.content.decode()
    assert not ann.clubs.filter(pk=club.pk).exists()
    response = client.post(reverse("web:club-member-remove", args=[club.pk, ann.pk]), follow=True)
    assert "not a member" in response.content.decode()  # twice: a message, not an error page
    assert client.post(reverse("web:club-member-remove", args=[club.pk, 999999])).status_code == 302


# ---- details -------------------------------------------------------------------------------------------------------

def details_form(**changes) -> dict:
    return {"name": "Crystal Club", "description": "", "location": "", "website": "", "membership": "open",
            **changes}


def test_an_organiser_edits_the_clubs_details_and_the_page_shows_them_as_text(club_world):
    """Editing details: saved normalised; HTML in them is shown escaped on the club's page."""
    club = club_world["club"]
    client = signed_in(club_world["olive"])
    response = client.post(reverse("web:club-details", args=[club.pk]), details_form(
        name="Crystal  Club\u200b Paris", description="<script>alert(1)</script>\nSecond line",
        location="Café du Port, Thursdays", website="club.example.org", membership="request"))
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.membership, club.website) == ("Crystal Club Paris", "request", "https://club.example.org")
    page = client.get(reverse("web:club", args=[club.pk])).content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;<br>Second line" in page
    assert 'href="https://club.example.org"' in page and "Café du Port, Thursdays" in page


@pytest.mark.parametrize("changes,message", [
    ({"name": "x" * 101}, "at most 100 characters"),
    ({"name": "\u200b\u2060"}, "1 to 100 visible characters"),
    ({"name": "Other Club"}, "Another club is already called Other Club."),
    ({"description": "d" * 2001}, "at most 2000 characters"),
    ({"location": "l" * 201}, "at most 200 characters"),
    ({"website": "javascript:alert(1)"}, "https://club.example.org"),
    ({"membership": "everyone"}, "Select a valid choice"),
    ({"name": "<b>Bold</b>" + "\u200b" * 300}, "at most 100 characters"),
])
def test_hostile_details_get_a_clear_error_and_change_nothing(club_world, changes, message):
    """Editing details with hostile input (too long, invisible, taken, a script URL, not a choice): a 400 naming
    the problem beside its field, never a 500, nothing saved."""
    club = club_world["club"]
    before = state(club)
    response = signed_in(club_world["olive"]).post(reverse("web:club-details", args=[club.pk]),
                                                   details_form(**changes))
    assert response.status_code == 400
    assert message.lower() in response.content.decode().lower()
    assert 'role="alert"' in response.content.decode()
    assert state(club) == before


# ---- accessible and in French --------------------------------------------------------------------------------------

class _Page(HTMLParser):
    """What a screen reader and a keyboard need of a page: labels for fields, headings, POST forms with a CSRF
    token and a button."""

    def __init__(self):
        super().__init__()
        self.labels, self.fields, self.h1 = set(), [], 0
        self.forms: list[dict] = []
        self.in_main = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "main":
            self.in_main = True
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"])
        if tag == "h1":
            self.h1 += 1
        if tag == "form":
            self.forms.append({"method": (a.get("method") or "get").lower(), "csrf": False, "button": False})
        if tag in ("input", "select", "textarea") and a.get("type") not in ("hidden", "submit"):
            self.fields.append(a.get("id"))
        if tag == "input" and a.get("name") == "csrfmiddlewaretoken" and self.forms:
            self.forms[-1]["csrf"] = True
        if tag == "button" and self.forms:
            self.forms[-1]["button"] = True


@pytest.mark.parametrize("page", ["members", "organisers", "details"])
def test_the_organisers_pages_are_labelled_and_post_with_buttons(club_world, page):
    """Keyboard and screen reader: one h1, every field labelled, every change a POST form with a CSRF token and a
    button (no link does a change)."""
    club = club_world["club"]
    club.membership = Membership.REQUEST
    club.save()
    ask_to_join(club=club, player=create_person_player(user=get_user_model().objects.create_user("dora"),
                                                       name="dora"))
    invite_organiser(club=club, email="x@example.org", by=club_world["olive"], site_url=SITE)
    add_club_admin(club=club, user=club_world["carla"])
    html = signed_in(club_world["olive"]).get(reverse(f"web:club-{page}", args=[club.pk])).content.decode()
    parsed = _Page()
    parsed.feed(html)
    assert parsed.h1 == 1
    assert parsed.fields and all(f and f in parsed.labels for f in parsed.fields), parsed.fields
    posts = [f for f in parsed.forms if f["method"] == "post"]
    assert len(posts) >= 2 and all(f["csrf"] and f["button"] for f in posts)


def test_the_pages_are_in_french(club_world):
    """In French: the organisers' pages and the invitation page."""
    club = club_world["club"]
    client = signed_in(club_world["olive"])
    client.cookies["django_language"] = "fr"
    organisers = client.get(reverse("web:club-organisers", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="fr")
    html = organisers.content.decode()
    assert "Organisateurs de Crystal Club" in html and "Inviter un organisateur par e-mail" in html
    members = client.get(reverse("web:club-members", args=[club.pk]), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Membres de Crystal Club" in members
    invite_organiser(club=club, email="x@example.org", by=club_world["olive"], site_url=SITE)
    visitor = Client()
    visitor.cookies["django_language"] = "fr"
    page = visitor.get(invitation_path(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Invitation à organiser un club" in page
