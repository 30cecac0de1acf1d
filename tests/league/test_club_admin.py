"""Running a club (issue 28, "Run the club on the website"): the services behind the club's organiser pages and the
API. Organisers added by username or by an emailed invitation, removed (never the last), a club's details checked,
members dated and taken out."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone, translation

from league.models import Club, ClubAdmin, ClubMember, InvitationStatus, OrganiserInvitation
from league.models.organiser_invitation import token_digest
from league.selectors.clubs import members_of, open_invitations
from league.services import create_club, create_person_player
from league.services.clubs import ClubDetailsRefused, update_club_details
from league.services.membership import MembershipError, ask_to_join, decide_request, remove_member
from league.services.organisers import (
    MAX_OPEN_INVITATIONS,
    OrganiserError,
    accept_invitation,
    add_organiser,
    invite_organiser,
    remove_organiser,
    revoke_invitation,
)
from league.services.players import add_club_admin, create_external_bot

pytestmark = pytest.mark.django_db

SITE = "http://testserver"  # the site as the organiser reached it (DIAMONDS_SITE_URL, when set, wins)

LINK = re.compile(r"https?://\S+/invitations/organise/(?P<token>[A-Za-z0-9_-]+)/")


@pytest.fixture
def club():
    return create_club(name="Crystal Club")


@pytest.fixture
def olive(club):
    user = get_user_model().objects.create_user("olive", password="pw-olive-1")
    add_club_admin(club=club, user=user)
    return user


def confirmed(username: str, email: str):
    user = get_user_model().objects.create_user(username, email=email, password="pw-1")
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    return user


def sent_token() -> str:
    return LINK.search(mail.outbox[-1].body).group("token")


# ---- by username ---------------------------------------------------------------------------------------------------

def test_an_organiser_adds_an_existing_account_by_username(club, olive):
    """Organisers by username: the account organises the club at once; twice is no second row."""
    carla = get_user_model().objects.create_user("carla")
    admin, new = add_organiser(club=club, username=" carla ")
    assert new and admin.user == carla
    assert add_organiser(club=club, username="carla")[1] is False
    assert ClubAdmin.objects.filter(club=club, user=carla).count() == 1


def test_adding_an_unknown_inactive_or_bot_account_is_refused(club, olive):
    """By username: only an existing, active person's account; a bot's account does not organise."""
    get_user_model().objects.create_user("gone", is_active=False)
    bot = create_external_bot(name="ext-bot", clubs=[club])
    for name in ("nobody", "gone", bot.user.get_username(), "", "x" * 10_000):
        with pytest.raises(OrganiserError):
            add_organiser(club=club, username=name)
    assert list(ClubAdmin.objects.filter(club=club).values_list("user__username", flat=True)) == ["olive"]


def test_the_last_organiser_cannot_leave_but_staff_can_remove_them(club, olive):
    """The last organiser: a club is never left without one, unless staff remove them."""
    with pytest.raises(OrganiserError, match="last organiser"):
        remove_organiser(club=club, user=olive, by=olive)
    assert ClubAdmin.objects.filter(club=club, user=olive).exists()
    carla = get_user_model().objects.create_user("carla")
    add_organiser(club=club, username="carla")
    remove_organiser(club=club, user=olive, by=olive)  # with another organiser, they may leave
    with pytest.raises(OrganiserError, match="last organiser"):
        remove_organiser(club=club, user=carla, by=carla)
    staff = get_user_model().objects.create_user("stan", is_staff=True)
    remove_organiser(club=club, user=carla, by=staff)
    assert not ClubAdmin.objects.filter(club=club).exists()
    with pytest.raises(OrganiserError, match="does not organise"):
        remove_organiser(club=club, user=carla, by=staff)


# ---- by invitation -------------------------------------------------------------------------------------------------

def test_an_invitation_is_emailed_with_an_unguessable_one_time_link(club, olive, settings):
    """Invitation sent: one email to the address, in the outbox, its link's token random and never stored."""
    settings.DIAMONDS_SITE_URL = "https://league.example.org"
    invitation = invite_organiser(club=club, email="  Carla@Example.ORG ", by=olive, site_url=SITE)
    assert invitation.email == "carla@example.org" and invitation.status == InvitationStatus.PENDING
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["carla@example.org"]
    assert "Crystal Club" in mail.outbox[0].subject and "olive" in mail.outbox[0].body
    assert "https://league.example.org/invitations/organise/" in mail.outbox[0].body
    token = sent_token()
    assert len(token) >= 43  # 32 random bytes
    assert invitation.token_digest == token_digest(token) and token not in invitation.token_digest
    assert not OrganiserInvitation.objects.filter(token_digest=token).exists()
    invite_organiser(club=club, email="dan@example.org", by=olive, site_url=SITE)
    assert sent_token() != token
    assert invitation.expires_at - invitation.created_at == timedelta(days=settings.DIAMONDS_ORGANISER_INVITATION_DAYS)


def test_the_invited_person_accepts_while_signed_in_with_the_address_confirmed(club, olive):
    """Invitation accepted by the signed-in invitee (their confirmed address): they organise the club."""
    invite_organiser(club=club, email="carla@example.org", by=olive, site_url=SITE)
    carla = confirmed("carla", "Carla@example.org")
    accepted = accept_invitation(token=sent_token(), user=carla)
    assert accepted.status == InvitationStatus.ACCEPTED and accepted.accepted_by == carla
    assert ClubAdmin.objects.filter(club=club, user=carla).exists()
    assert accept_invitation(token=sent_token(), user=carla).pk == accepted.pk  # their second click: no change
    assert ClubAdmin.objects.filter(club=club, user=carla).count() == 1


def test_someone_elses_account_cannot_use_the_invitation(club, olive):
    """A different signed-in account cannot use someone else's invitation, even holding the link: the account
    must have confirmed the address it was sent to. An unconfirmed address of the same spelling is not enough."""
    invite_organiser(club=club, email="carla@example.org", by=olive, site_url=SITE)
    token = sent_token()
    mallory = confirmed("mallory", "mallory@example.org")
    squatter = get_user_model().objects.create_user("squatter", email="carla@example.org")
    EmailAddress.objects.create(user=squatter, email="carla@example.org", verified=False, primary=True)
    no_address = get_user_model().objects.create_user("noaddress")
    for user in (mallory, squatter, no_address):
        with pytest.raises(OrganiserError, match="not confirmed"):
            accept_invitation(token=token, user=user)
    assert list(ClubAdmin.objects.filter(club=club).values_list("user__username", flat=True)) == ["olive"]
    assert OrganiserInvitation.objects.get().status == InvitationStatus.PENDING  # still Carla's to accept


def test_an_invitation_is_refused_once_used_revoked_or_expired(club, olive):
    """Invitation refused when reused (by another account), revoked, expired, or not a token at all."""
    carla, dan = confirmed("carla", "carla@example.org"), confirmed("dan", "dan@example.org")
    invite_organiser(club=club, email="carla@example.org", by=olive, site_url=SITE)
    used = sent_token()
    accept_invitation(token=used, user=carla)
    with pytest.raises(OrganiserError, match="used already"):
        accept_invitation(token=used, user=dan)

    invitation = invite_organiser(club=club, email="dan@example.org", by=olive, site_url=SITE)
    revoked = sent_token()
    revoke_invitation(club=club, invitation_id=invitation.pk)
    with pytest.raises(OrganiserError, match="withdrawn"):
        accept_invitation(token=revoked, user=dan)
    with pytest.raises(OrganiserError):
        revoke_invitation(club=club, invitation_id=invitation.pk)  # revoked already

    invitation = invite_organiser(club=club, email="dan@example.org", by=olive, site_url=SITE)
    expired = sent_token()
    OrganiserInvitation.objects.filter(pk=invitation.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(OrganiserError, match="expired"):
        accept_invitation(token=expired, user=dan)
    for bad in ("", "x", expired[:-1], "x" * 5000):
        with pytest.raises(OrganiserError, match="not valid"):
            accept_invitation(token=bad, user=dan)
    assert not ClubAdmin.objects.filter(club=club, user=dan).exists()


def test_a_new_invitation_to_the_same_address_replaces_the_pending_one(club, olive):
    """Sending again: the first link stops working, the second works; open invitations are bounded."""
    invite_organiser(club=club, email="carla@example.org", by=olive, site_url=SITE)
    first = sent_token()
    invite_organiser(club=club, email="CARLA@example.org", by=olive, site_url=SITE)
    second = sent_token()
    carla = confirmed("carla", "carla@example.org")
    with pytest.raises(OrganiserError, match="replaced"):
        accept_invitation(token=first, user=carla)
    accept_invitation(token=second, user=carla)
    assert [i.email for i in open_invitations(club)] == []
    for n in range(MAX_OPEN_INVITATIONS):
        invite_organiser(club=club, email=f"p{n}@example.org", by=olive, site_url=SITE)
    with pytest.raises(OrganiserError, match="waiting for an answer"):
        invite_organiser(club=club, email="one-more@example.org", by=olive, site_url=SITE)
    assert open_invitations(club).count() == MAX_OPEN_INVITATIONS


@pytest.mark.parametrize("email", ["", "not-an-address", "a@b", "x" * 250 + "@example.org", None, ["a@b.org"],
                                   "a@example.org\nBcc: everyone@example.org"])
def test_an_invitation_to_something_not_an_address_is_refused_and_sends_nothing(club, olive, email):
    """Hostile addresses (empty, too long, header injection, not text): a clear refusal, no email, no row."""
    with pytest.raises(OrganiserError, match="email address"):
        invite_organiser(club=club, email=email, by=olive, site_url=SITE)
    assert not mail.outbox and not OrganiserInvitation.objects.exists()


def test_an_email_that_cannot_be_sent_keeps_no_invitation(club, olive, settings):
    """A mail server down: the organiser is told, and no invitation nobody received is kept."""
    settings.EMAIL_BACKEND = "tests.league.test_club_admin.BrokenBackend"
    with pytest.raises(OrganiserError, match="could not be emailed"):
        invite_organiser(club=club, email="carla@example.org", by=olive, site_url=SITE)
    assert not OrganiserInvitation.objects.exists()


class BrokenBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("no mail server")


def test_the_invitation_email_is_in_the_language_of_the_organiser_who_sends_it(club, olive):
    """Translated: an organiser using the site in French sends the invitation in French."""
    with translation.override("fr"):
        invite_organiser(club=club, email="carla@example.org", by=olive, site_url=SITE)
    body = mail.outbox[0].subject + mail.outbox[0].body
    assert "vous invite" in body and "Crystal Club" in body


# ---- members -------------------------------------------------------------------------------------------------------

def test_members_are_dated_and_an_organiser_takes_one_out(club, olive):
    """Members with when they joined (a request accepted dates it then); taking one out keeps their player."""
    before = timezone.now()
    ann = create_person_player(user=get_user_model().objects.create_user("ann"), name="ann", clubs=[club])
    club.membership = "request"
    club.save()
    bob = create_person_player(user=get_user_model().objects.create_user("bob"), name="bob")
    req = ask_to_join(club=club, player=bob).request
    decide_request(request_id=req.pk, club=club, accept=True, by=olive)
    rows = {m.player.name: m.joined_at for m in members_of(club)}
    assert set(rows) == {"ann", "bob"} and all(before <= when <= timezone.now() for when in rows.values())
    remove_member(club=club, player=ann)
    assert not ann.clubs.exists() and ClubMember.objects.filter(club=club).count() == 1
    with pytest.raises(MembershipError):
        remove_member(club=club, player=ann)


# ---- the club's details --------------------------------------------------------------------------------------------

def test_details_are_stored_normalised(club):
    """Details: invisible characters out, spaces collapsed, a bare domain made an https address."""
    update_club_details(club=club, changes={
        "name": "  Crystal\u200b  Club  Paris ", "description": "Line one\u202e\r\n\r\n\r\n\r\nLine\u0000 two  ",
        "location": " Café du Port,\tThursdays ", "website": "club.example.org/about"})
    club.refresh_from_db()
    assert club.name == "Crystal Club Paris"
    assert club.description == "Line one\n\nLine two"
    assert club.location == "Café du Port, Thursdays"
    assert club.website == "https://club.example.org/about"


@pytest.mark.parametrize("changes,field", [
    ({"name": "\u200b\u200b"}, "name"),
    ({"name": "x" * 101}, "name"),
    ({"name": "Other Club"}, "name"),
    ({"name": "OTHER CLUB"}, "name"),
    ({"name": "\u041ether Club"}, "name"),  # a Cyrillic O
    ({"description": "x" * 2001}, "description"),
    ({"location": "y" * 201}, "location"),
    ({"website": "javascript:alert(1)"}, "website"),
    ({"website": "https://" + "a" * 200 + ".org"}, "website"),
    ({"website": "ftp://example.org"}, "website"),
    ({"website": "https://exa mple.org"}, "website"),
    ({"name": 12}, "name"),
    ({"owner": "me"}, "owner"),
])
def test_hostile_details_are_refused_field_by_field_and_change_nothing(club, changes, field):
    """Details with hostile input (too long, invisible only, look-alike name, a script URL, not text): refused,
    naming the field, nothing stored."""
    create_club(name="Other Club")
    with pytest.raises(ClubDetailsRefused) as refused:
        update_club_details(club=club, changes={"location": "kept?", **changes})
    assert field in refused.value.errors
    club.refresh_from_db()
    assert club.name == "Crystal Club" and club.location == "" and club.website == ""


def test_html_in_the_details_is_kept_as_text(club):
    """HTML is text here: stored as typed (the pages escape it)."""
    update_club_details(club=club, changes={"description": "<script>alert(1)</script> & <b>bold</b>"})
    assert Club.objects.get(pk=club.pk).description == "<script>alert(1)</script> & <b>bold</b>"
