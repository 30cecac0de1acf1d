"""People on their own on the website: sign up (django-allauth) with email verification, password reset, the sign-in
by username or email with django-axes' lockout, the profile, club membership (open and on request), self-entry to
tournaments and ladders within their registration windows, and My page."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from league.models import (
    LadderEntry,
    Membership,
    MembershipRequest,
    Player,
    Profile,
    RequestStatus,
    TournamentEntry,
)
from league.services import create_tournament, register_players, start_tournament
from league.services.ladders import create_ladder

from .conftest import PASSWORD
from .support import administrators_account

NEW_PASSWORD = "a-Long-pass-phrase-42"


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from runtime.throttling import STORE

    cache.clear()
    STORE.clear_local()
    yield
    cache.clear()
    STORE.clear_local()


def link_in(message) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)


def sign_up(client: Client, username: str = "newt", email: str = "newt@example.com"):
    return client.post(reverse("account_signup"), {"username": username, "email": email,
                                                   "password1": NEW_PASSWORD, "password2": NEW_PASSWORD})


def signed_up_and_confirmed(username: str = "newt") -> None:
    """An account made by signing up, its address confirmed with the link from the email."""
    client = Client()
    sign_up(client, username=username, email=f"{username}@example.com")
    assert client.post(link_in(mail.outbox[-1])).status_code == 302
    assert EmailAddress.objects.get(user__username=username).verified


def test_sign_up_makes_the_profile_and_player_and_verification_signs_in_and_unlocks_joining(db, site):
    client = Client()
    assert client.get(reverse("account_signup")).status_code == 200
    response = sign_up(client)
    assert response.status_code == 302 and response["Location"] == reverse("account_email_verification_sent")
    user = get_user_model().objects.get(username="newt")
    assert Profile.objects.filter(user=user, language="", email_notifications=True,
                                  made_by_administrator=False).exists()
    player = Player.objects.get(user=user)
    assert player.name == "newt" and not player.bot_kind
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newt@example.com"]
    assert "/accounts/confirm-email/" in mail.outbox[0].body

    # Not signed in until the address is confirmed: joining a club asks to sign in first.
    club = site["club"]
    assert client.post(reverse("web:club-join", args=[club.pk]))["Location"].startswith(reverse("account_login"))
    assert client.get(reverse("web:me")).status_code == 302
    assert not player.clubs.filter(pk=club.pk).exists()

    # The link signs the person in, in the browser that signed up, and takes them to My page.
    link = link_in(mail.outbox[-1])
    assert client.get(link).status_code == 200  # the page asks to confirm (a GET changes nothing)
    confirmed = client.post(link)
    assert confirmed.status_code == 302 and confirmed["Location"] == reverse("web:me")
    assert EmailAddress.objects.get(user=user).verified
    client.post(reverse("web:club-join", args=[club.pk]))
    assert player.clubs.filter(pk=club.pk).exists()


def test_signing_in_before_confirming_sends_the_link_again(db, site):
    """The "resend confirmation" path with mandatory verification: signing in with the right password before
    confirming leads to the page that says an email went out, and sends the link again (allauth paces it per address:
    not twice within minutes)."""
    sign_up(Client())
    cache.clear()  # allauth's pace per address, counted in the cache: as if some minutes went by
    mail.outbox.clear()
    client = Client()
    answer = client.post(reverse("web:login"), {"login": "newt", "password": NEW_PASSWORD})
    assert answer.status_code == 302 and answer["Location"] == reverse("account_email_verification_sent")
    assert client.get(reverse("web:me")).status_code == 302  # still not signed in
    assert len(mail.outbox) == 1 and "/accounts/confirm-email/" in mail.outbox[0].body
    confirmed = client.post(link_in(mail.outbox[0]))
    assert confirmed.status_code == 302 and client.get(reverse("web:me")).status_code == 200


def test_sign_up_with_a_registered_address_answers_as_a_new_one_and_emails_its_owner(db, site):
    """Finding (issue 27, sign-up): sign-up answered "A user is already registered with this email address", which
    tells anyone who has an account. Now signing up with an address in use looks exactly like a new sign-up (the
    answer, where it leads, the page there), makes no account, and the address's owner is emailed that someone tried
    (allauth's enumeration prevention)."""
    sign_up(Client())
    cache.clear()  # as if the owner signed up some minutes ago (allauth paces its emails per address)
    mail.outbox.clear()

    def attempt(username: str, email: str) -> tuple:
        client = Client()
        answer = sign_up(client, username=username, email=email)
        page = client.get(answer["Location"])
        text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page.content.decode())
        return answer.status_code, answer["Location"], page.status_code, text.replace(email, "ADDRESS")

    fresh = attempt("nell", "nell@example.com")
    taken = attempt("other", "Newt@Example.com")  # the address in use, in other letters
    assert taken == fresh
    assert fresh[:3] == (302, reverse("account_email_verification_sent"), 200)
    assert "We have sent an email to you for verification" in fresh[3]
    assert not get_user_model().objects.filter(username="other").exists()
    assert EmailAddress.objects.filter(email__iexact="newt@example.com").count() == 1
    to_nell, to_newt = mail.outbox
    assert to_nell.to == ["nell@example.com"] and "/accounts/confirm-email/" in to_nell.body
    assert to_newt.to == ["newt@example.com"] and "Account Already Exists" in to_newt.subject
    assert "/accounts/password/reset/" in to_newt.body and "/accounts/confirm-email/" not in to_newt.body


def remove_address(client: Client, email: str) -> str:
    return client.post(reverse("account_email"), {"email": email, "action_remove": ""}, follow=True).content.decode()


def test_an_unverified_account_cannot_remove_its_only_address_nor_pass_for_an_administrators(db, site):
    """Finding (issue 27, verification): an unverified account removed its only email address on allauth's page
    (/accounts/email/, action_remove); its profile then said email_verified: true and joining a club answered 201,
    because an account without an address passed for one an administrator made. Now the last address stays, and
    without one an account is not verified either: verified is a confirmed address or the administrator's mark."""
    sign_up(Client())
    user = get_user_model().objects.get(username="newt")
    client = Client()
    client.force_login(user)  # a session from before verification was mandatory for signing in
    page = remove_address(client, "newt@example.com")
    assert "You cannot remove newt@example.com" in page
    assert EmailAddress.objects.filter(user=user, email="newt@example.com").exists()

    EmailAddress.objects.filter(user=user).delete()  # gone all the same (by whatever means)
    club = site["club"]
    page = client.post(reverse("web:club-join", args=[club.pk]), follow=True).content.decode()
    assert "Confirm your email address first" in page and not club.players.filter(user=user).exists()
    assert "Your email address is not confirmed yet" in client.get(reverse("web:profile")).content.decode()
    api = APIClient()
    api.force_authenticate(user)
    profile = api.get("/api/v1/me/profile/").json()
    assert (profile["email_verified"], profile["made_by_administrator"]) == (False, False)
    assert api.post(f"/api/v1/clubs/{club.pk}/join/").status_code == 403


def test_a_person_keeps_a_confirmed_address(db, site):
    """A person may not remove their last confirmed address (what verifies them); an unconfirmed one, or a confirmed
    one while another is confirmed, goes."""
    signed_up_and_confirmed("vera")
    client = Client()
    assert client.post(reverse("web:login"), {"login": "vera", "password": NEW_PASSWORD}).status_code == 302
    client.post(reverse("account_email"), {"email": "vera2@example.com", "action_add": ""})
    assert not EmailAddress.objects.get(email="vera2@example.com").verified
    assert "You cannot remove vera@example.com" in remove_address(client, "vera@example.com")
    remove_address(client, "vera2@example.com")
    assert list(EmailAddress.objects.filter(user__username="vera").values_list("email", flat=True)) == [
        "vera@example.com"]

    client.post(reverse("account_email"), {"email": "vera3@example.com", "action_add": ""})
    assert client.post(link_in(mail.outbox[-1])).status_code == 302  # the second address confirmed too
    assert "Removed email address vera3@example.com" in remove_address(client, "vera3@example.com")
    assert EmailAddress.objects.get(user__username="vera").verified


def test_accounts_an_administrator_makes_say_so_and_sign_in_without_an_address(db, site, monkeypatch):
    """Accounts made by an administrator are verified by an explicit mark, set by createsuperuser, the admin's "add
    user" and the tools that make accounts; signing up never sets it. Such an account signs in on the website with
    no address (verification is otherwise mandatory), and its profile says what verifies it."""
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", PASSWORD)
    call_command("createsuperuser", "--noinput", "--username", "root", "--email", "root@example.com",
                 stdout=StringIO())
    assert Profile.objects.get(user__username="root").made_by_administrator
    admin = Client()
    admin.force_login(get_user_model().objects.get(username="root"))
    added = admin.post("/admin/auth/user/add/", {"username": "walkin", "password1": NEW_PASSWORD,
                                                  "password2": NEW_PASSWORD, "usable_password": "true"})
    assert added.status_code == 302, added.content.decode()[:2000]
    assert Profile.objects.get(user__username="walkin").made_by_administrator

    client = Client()
    answer = client.post(reverse("web:login"), {"login": "walkin", "password": NEW_PASSWORD})
    assert answer.status_code == 302 and answer["Location"] != reverse("account_email_verification_sent")
    page = client.get(reverse("web:profile")).content.decode()
    assert "An administrator made this account" in page and "not confirmed yet" not in page
    club = site["club"]
    client.post(reverse("web:club-join", args=[club.pk]))
    assert club.players.filter(user__username="walkin").exists()


def test_password_reset_by_email(db, site):
    client = Client()
    signed_up_and_confirmed()
    mail.outbox.clear()
    assert client.post(reverse("account_reset_password"), {"email": "newt@example.com"}).status_code == 302
    assert len(mail.outbox) == 1
    form = client.get(link_in(mail.outbox[0]), follow=True)
    assert form.status_code == 200 and "password1" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0] if form.redirect_chain else link_in(mail.outbox[0]),
                       {"password1": "another-Pass-77", "password2": "another-Pass-77"})
    assert done.status_code == 302
    assert Client().post(reverse("web:login"), {"login": "newt", "password": "another-Pass-77"}).status_code == 302
    assert Client().post(reverse("web:login"), {"login": "newt", "password": NEW_PASSWORD}).status_code == 200


def test_sign_in_by_email_and_lockout_after_failures_by_email_too(db, site, settings):
    signed_up_and_confirmed()
    client = Client()
    assert client.post(reverse("web:login"), {"login": "newt@example.com", "password": NEW_PASSWORD}
                       ).status_code == 302
    assert client.get(reverse("web:me")).status_code == 200  # signed in
    codes = [Client().post(reverse("web:login"), {"login": "NEWT@example.com", "password": f"wrong-{i}"},
                           HTTP_X_FORWARDED_FOR=f"9.9.9.{i}").status_code
             for i in range(settings.AXES_FAILURE_LIMIT + 2)]
    assert codes[0] == 200 and codes[-1] == 429
    right = Client().post(reverse("web:login"), {"login": "newt@example.com", "password": NEW_PASSWORD})
    assert right.status_code == 429  # locked out, the right password too


def test_the_old_sign_in_address_is_the_only_one(db, site):
    assert reverse("web:login") == reverse("account_login") == "/accounts/login/"
    page = Client().get("/accounts/login/").content.decode()
    assert 'name="login"' in page and "Sign up" in page and 'href="/static/web/site.css"' in page


def test_profile_is_made_for_an_old_account_and_edits_name_language_and_notifications(client, site):
    user = get_user_model().objects.create_user("old", password=PASSWORD)  # an account older than sign-up
    client.force_login(user)
    assert client.get(reverse("web:profile")).status_code == 200
    player = Player.objects.get(user=user)
    assert player.name == "old" and Profile.objects.filter(user=user).exists()
    response = client.post(reverse("web:profile"), {"display_name": "Old Hand", "language": "fr"})
    assert response.status_code == 302
    profile = Profile.objects.get(user=user)
    player.refresh_from_db()
    assert (player.name, profile.language, profile.email_notifications) == ("Old Hand", "fr", False)
    # Another player's name, and a language the site does not offer: refused, nothing changed.
    page = client.post(reverse("web:profile"), {"display_name": "ann", "language": "en",
                                                "email_notifications": "on"}).content.decode()
    # The profile's French applies at once: the refusal reads in French (the refused change saved nothing).
    assert "Un autre joueur s&#x27;appelle déjà ann" in page or "Un autre joueur s'appelle déjà ann" in page
    client.post(reverse("web:profile"), {"display_name": "X", "language": "xx"})
    player.refresh_from_db()
    assert player.name == "Old Hand" and Profile.objects.get(user=user).language == "fr"
    assert client.get(reverse("web:player", args=[player.pk])).status_code == 200


def test_open_club_join_and_leave(client, site):
    club = site["club"]
    carl = administrators_account("carl", password=PASSWORD)
    client.force_login(carl)
    assert "Join the club" in client.get(reverse("web:club", args=[club.pk])).content.decode()
    client.post(reverse("web:club-join", args=[club.pk]))
    me = Player.objects.get(user=carl)
    assert me.clubs.filter(pk=club.pk).exists()
    assert "Leave the club" in client.get(reverse("web:club", args=[club.pk])).content.decode()
    client.post(reverse("web:club-leave", args=[club.pk]))
    assert not me.clubs.filter(pk=club.pk).exists()
    assert client.get(reverse("web:club-join", args=[club.pk])).status_code == 405  # a GET joins nothing


def test_club_on_request_accept_and_decline(client, site):
    club = site["club"]
    club.membership = Membership.REQUEST
    club.save()
    users = [administrators_account(n, password=PASSWORD) for n in ("carl", "dora")]
    for u in users:
        c = Client()
        c.force_login(u)
        c.post(reverse("web:club-join", args=[club.pk]))
        c.post(reverse("web:club-join", args=[club.pk]))  # a double submit keeps one request
        assert "waiting for an organiser" in c.get(reverse("web:club", args=[club.pk])).content.decode()
    carl, dora = (Player.objects.get(user=u) for u in users)
    assert MembershipRequest.objects.filter(club=club, status=RequestStatus.PENDING).count() == 2
    assert not carl.clubs.exists()

    # A member who does not organise sees no requests and cannot answer them.
    client.force_login(site["ann"].user)
    req = MembershipRequest.objects.get(player=carl)
    assert "Requests to join" not in client.get(reverse("web:club", args=[club.pk])).content.decode()
    url = reverse("web:club-request-decide", args=[club.pk, req.pk, "accept"])
    assert client.post(url).status_code == 403
    assert not carl.clubs.exists()

    client.force_login(site["organiser"])
    page = client.get(reverse("web:club", args=[club.pk])).content.decode()
    assert "Requests to join" in page and "carl" in page and "dora" in page
    client.post(url)
    client.post(reverse("web:club-request-decide", args=[club.pk, MembershipRequest.objects.get(player=dora).pk,
                                                         "decline"]))
    assert carl.clubs.filter(pk=club.pk).exists() and not dora.clubs.exists()
    assert MembershipRequest.objects.get(player=dora).status == RequestStatus.DECLINED
    # Answering again changes nothing (another organiser was first).
    client.post(reverse("web:club-request-decide", args=[club.pk, MembershipRequest.objects.get(player=dora).pk,
                                                         "accept"]))
    assert not dora.clubs.exists()


def _tournament(site, **kw):
    return create_tournament(name=kw.pop("name", "Open Night"), rounds=2, ruleset={"rounds": 1}, club=site["club"],
                             **kw)


def test_self_entry_before_registration_closes_and_leaving_removes_the_entry(client, site):
    t = _tournament(site, registration_closes_at=timezone.now() + timedelta(hours=1))
    client.force_login(site["ann"].user)
    assert "Enter the tournament" in client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    client.post(reverse("web:tournament-enter", args=[t.pk]))
    assert TournamentEntry.objects.filter(tournament=t, player=site["ann"]).exists()
    client.post(reverse("web:tournament-enter", args=[t.pk]))  # twice: still one entry
    assert TournamentEntry.objects.filter(tournament=t).count() == 1
    client.post(reverse("web:tournament-leave", args=[t.pk]))
    assert not TournamentEntry.objects.filter(tournament=t).exists()


def test_self_entry_after_registration_closes_is_refused(client, site):
    t = _tournament(site, registration_closes_at=timezone.now() - timedelta(minutes=1))
    client.force_login(site["ann"].user)
    assert "Enter the tournament" not in client.get(reverse("web:tournament", args=[t.pk])).content.decode()
    page = client.post(reverse("web:tournament-enter", args=[t.pk]), follow=True).content.decode()
    assert "Registration for Open Night closed" in page
    assert not TournamentEntry.objects.filter(tournament=t).exists()


def test_members_only_tournament_refuses_outsiders_and_an_open_one_takes_them(client, site):
    outsider = administrators_account("otto", password=PASSWORD)
    client.force_login(outsider)
    closed = _tournament(site, name="Members Night", members_only=True)
    page = client.post(reverse("web:tournament-enter", args=[closed.pk]), follow=True).content.decode()
    assert "not a member of the club" in page and not closed.entries.exists()
    open_ = _tournament(site, name="Open Night")
    client.post(reverse("web:tournament-enter", args=[open_.pk]))
    assert open_.entries.filter(player__user=outsider).exists()


def test_after_the_start_entering_is_refused_and_leaving_withdraws(site, django_capture_on_commit_callbacks):
    client = Client()
    t = _tournament(site, auto_advance=False)
    register_players(tournament=t, players=site["bots"][:3])
    client.force_login(site["ann"].user)
    client.post(reverse("web:tournament-enter", args=[t.pk]))
    with django_capture_on_commit_callbacks(execute=True):
        start_tournament(tournament=t)
    bob = Client()
    bob.force_login(site["bob"].user)
    page = bob.post(reverse("web:tournament-enter", args=[t.pk]), follow=True).content.decode()
    assert "has started: registration is closed" in page and not t.entries.filter(player=site["bob"]).exists()
    client.post(reverse("web:tournament-leave", args=[t.pk]))
    entry = TournamentEntry.objects.get(tournament=t, player=site["ann"])
    assert entry.active is False  # withdrawn from later rounds; round 1's results stay


def test_ladder_join_and_leave_for_oneself(client, site):
    ladder = create_ladder(name="People Ladder", ruleset={"rounds": 1}, club=site["club"])
    client.force_login(site["ann"].user)
    client.post(reverse("web:ladder-join", args=[ladder.pk]))
    assert LadderEntry.objects.filter(ladder=ladder, player=site["ann"], active=True).exists()
    assert "Leave the ladder" in client.get(reverse("web:ladder", args=[ladder.pk])).content.decode()
    client.post(reverse("web:ladder-leave", args=[ladder.pk]))
    assert not LadderEntry.objects.filter(ladder=ladder, player=site["ann"], active=True).exists()


def test_my_page_lists_clubs_tournaments_and_the_next_table(client, site, django_capture_on_commit_callbacks):
    client.force_login(site["ann"].user)
    t = _tournament(site, name="Cup Night", auto_advance=False, registration_closes_at=timezone.now()
                    + timedelta(days=1))
    client.post(reverse("web:tournament-enter", args=[t.pk]))
    page = client.get(reverse("web:me")).content.decode()
    assert "Crystal Club" in page and "Cup Night" in page and "not seated yet" in page
    assert "Registration closes" in page
    assert client.get("/").content.decode().count('href="/me/"') == 1  # in the navigation
    assert Client().get(reverse("web:me")).status_code == 302  # signed out: to the sign-in


def test_organisers_choose_how_people_join_on_the_club_page(client, site):
    club = site["club"]
    url = reverse("web:club-membership", args=[club.pk])
    client.force_login(site["ann"].user)
    assert client.post(url, {"membership": "request"}).status_code == 403
    client.force_login(site["organiser"])
    assert 'name="membership"' in client.get(reverse("web:club", args=[club.pk])).content.decode()
    client.post(url, {"membership": "nonsense"})
    club.refresh_from_db()
    assert club.membership == "open"
    client.post(url, {"membership": "request"})
    club.refresh_from_db()
    assert club.membership == "request"


@pytest.mark.parametrize("name", ["account_email", "account_change_password", "account_reset_password",
                                  "account_signup", "account_logout"])
def test_allauths_pages_wear_the_sites_layout(client, site, name):
    if name in ("account_email", "account_change_password", "account_logout"):
        client.force_login(site["ann"].user)
    page = client.get(reverse(name))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'href="/static/web/site.css"' in html and 'class="brand"' in html and "<main" in html
