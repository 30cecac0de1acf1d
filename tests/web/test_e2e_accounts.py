"""End to end in a real headless Chromium: a new person signs up, follows the verification link from the email (which
signs them in), joins a club, enters its open tournament; the organiser starts it; the person finds their table on My
page and plays it to the end against the club's engine bots. Screenshots of the account pages go to artifacts/ (at
phone width too: shoot() checks nothing sticks out sideways)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache

from league.models import Match, MatchStatus, Player, TournamentStatus
from league.services import create_bot_player, create_club, create_tournament, register_players, start_tournament
from league.services.players import add_club_admin

from .browser import shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-Long-pass-phrase-42"


def test_a_new_person_signs_up_joins_enters_and_plays_their_table(chromium, site_server):
    server, quiet = site_server
    # allauth paces confirmation emails per address in the cache, which outlives a test run when it is Redis.
    cache.clear()
    with quiet():
        club = create_club(name="Open Club")
        organiser = get_user_model().objects.create_user("olive", password="pw-olive-1")
        add_club_admin(club=club, user=organiser)
        bots = [create_bot_player(name=f"club-bot-{i}", kind="greedy", clubs=[club]) for i in range(3)]
        tournament = create_tournament(name="Friday Open", rounds=1, ruleset={"rounds": 1}, club=club,
                                       members_only=True)
        register_players(tournament=tournament, players=bots)
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # Sign up from the navigation.
    page.goto(server.url + "/")
    page.click("nav >> text=Sign up")
    shoot(page, "signup")
    page.fill("#id_username", "newt")
    page.fill("#id_email", "newt@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit].primary")
    # Not signed in until the address is confirmed: the page says an email went out.
    page.wait_for_url("**/accounts/confirm-email/")
    assert "We have sent an email to you for verification" in page.content()
    shoot(page, "verification-sent")

    # The verification link, as the email carries it: confirming signs the person in and opens My page.
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newt@example.com"]
    link = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+)", mail.outbox[0].body).group(1)
    page.goto(server.url + link)
    shoot(page, "confirm-email")
    with page.expect_navigation():
        page.click("main button[type=submit]")
    page.wait_for_url("**/me/")
    assert "Confirm your email address" not in page.content()
    shoot(page, "me-new")
    with quiet():
        assert get_user_model().objects.get(username="newt").emailaddress_set.get().verified

    # The profile, reached from the navigation.
    assert "Sign out (newt)" in page.locator("nav").inner_text()
    page.click("nav >> text=Profile")
    page.wait_for_url("**/accounts/profile/")
    page.fill("#id_display_name", "Newt S")
    page.select_option("#id_language", "en")  # (tests/web/test_french.py has the profile choosing French)
    page.click("main button[type=submit].primary")
    page.wait_for_selector("text=Your profile is saved.")
    shoot(page, "profile")
    with quiet():
        assert Player.objects.get(user__username="newt").name == "Newt S"

    # Join the club, then enter its tournament (members only).
    page.goto(server.url + f"/clubs/{club.pk}/")
    page.click("text=Join the club")
    page.wait_for_selector("text=You are a member.")
    shoot(page, "club-member")
    page.goto(server.url + f"/tournaments/{tournament.pk}/")
    page.click("text=Enter the tournament")
    page.wait_for_selector("text=You are entered.")
    page.goto(server.url + "/me/")
    assert "not seated yet" in page.locator("#next-tables").inner_text()

    # The organiser starts it (the bots play up to the person's first turn).
    with quiet():
        start_tournament(tournament=tournament)
        me = Player.objects.get(user__username="newt")
    page.goto(server.url + "/me/")
    shoot(page, "me-seated")
    assert "round 1, table 1" in page.locator("#next-tables").inner_text()
    page.click("#next-tables .play-link")
    page.wait_for_url("**/matches/*/")
    with quiet():
        match = Match.objects.get(tournament_round__tournament=tournament)
        seat = match.match_seats.get(player=me).seat

    for _ in range(80):
        form = page.locator("form.decision")
        kind = form.get_attribute("data-kind") if form.count() else ""
        if not kind:
            if page.locator("text=Final result").count():
                break
            page.wait_for_timeout(200)
            continue
        before = page.locator(".table-view").get_attribute("data-move")
        if kind == "pass_count":
            page.locator("button[name=count]").first.click()
        elif kind == "pass_cards":
            want = int(page.locator("button[data-pass-count]").get_attribute("data-pass-count"))
            boxes = page.locator("label.cardpick")  # a tap on a drawn card chooses it
            for i in range(want):
                boxes.nth(i).click()
            page.click("button[data-pass-count]")
        elif kind == "play":
            card = page.locator("button.cardbutton:not([aria-disabled=true])").first
            card.click()  # the first tap lifts the card, the second plays it
            card.click()
        else:
            page.locator("fieldset button.choice").first.click()
        page.wait_for_function("m => document.querySelector('.table-view').dataset.move !== m", arg=before)

    page.wait_for_selector("text=Final result")
    with quiet():
        match.refresh_from_db()
        tournament.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and tournament.status == TournamentStatus.FINISHED
    assert match.match_seats.get(seat=seat).player_id == me.pk
    page.goto(server.url + "/me/")
    assert "Friday Open" in page.content() and f"Match {match.pk}" in page.content()
    shoot(page, "me-finished")
    assert errors == [], errors
    context.close()
