"""People on their own on the website: sign up (django-allauth) with email verification, password reset, the sign-in
by username or email with django-axes' lockout, the profile, club membership (open and on request), self-entry to
tournaments and ladders within their registration windows, and My page."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

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

NEW_PASSWORD = "a-Long-pass-phrase-42"


@pytest.fixture(autouse=True)
def _fresh_throttles():
    from django.core.cache import cache

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


def verify(client: Client) -> None:
    link = link_in(mail.outbox[-1])
    assert client.get(link).status_code == 200  # the page asks to confirm (a GET changes nothing)
    assert client.post(link).status_code == 302


def test_sign_up_makes_the_profile_and_player_and_verification_unlocks_joining(db, site):
    client = Client()
    assert client.get(reverse("account_signup")).status_code == 200
    response = sign_up(client)
    assert response.status_code == 302
    user = get_user_model().objects.get(username="newt")
    assert Profile.objects.filter(user=user, language="", email_notifications=True).exists()
    player = Player.objects.get(user=user)
    assert player.name == "newt" and not player.bot_kind
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newt@example.com"]
    assert "/accounts/confirm-email/" in mail.outbox[0].body

    # Signed in at once, but an unconfirmed address cannot join a club yet.
    club = site["club"]
    page = client.post(reverse("web:club-join", args=[club.pk]), follow=True).content.decode()
    assert "Confirm your email address first" in page
    assert not player.clubs.filter(pk=club.pk).exists()

    verify(client)
    assert EmailAddress.objects.get(user=user).verified
    client.post(reverse("web:club-join", args=[club.pk]))
    assert player.clubs.filter(pk=club.pk).exists()


def test_sign_up_refuses_a_username_a_player_already_has_and_a_taken_email(db, site):
    response = sign_up(Client(), username="bot-1")  # a bot of the club is called so
    assert response.status_code == 200 and "Another player is already called bot-1" in response.content.decode()
    assert not get_user_model().objects.filter(username="bot-1").exists()
    for look_alike in ("BOT-1", "bot-l", "house-random-5"):  # one that looks like it, a house bot's
        assert sign_up(Client(), username=look_alike).status_code == 200
        assert not get_user_model().objects.filter(username=look_alike).exists()
    assert sign_up(Client()).status_code == 302
    sign_up(Client(), username="other")  # the same address again: no second account
    assert not get_user_model().objects.filter(username="other").exists()


def test_password_reset_by_email(db, site):
    client = Client()
    sign_up(client)
    client.post(reverse("account_logout"))
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
    sign_up(Client())
    assert Client().post(reverse("web:login"), {"login": "newt@example.com", "password": NEW_PASSWORD}
                         ).status_code == 302
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
    carl = get_user_model().objects.create_user("carl", password=PASSWORD)
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
    users = [get_user_model().objects.create_user(n, password=PASSWORD) for n in ("carl", "dora")]
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
    outsider = get_user_model().objects.create_user("otto", password=PASSWORD)
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
