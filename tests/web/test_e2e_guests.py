"""End to end in a real headless Chromium (issue 28): an organiser pastes guests into the roster and adds them after
the preview, a guest enters their table's result through their private link on a phone, and the new pages (the
roster with its preview, the private links page, a private link's page, the claim page) have no WCAG A/AA violation
(axe-core) and nothing sticking out sideways at 390 px."""

from __future__ import annotations

import re

import pytest

from league.models import ClubAdmin, EntryStatus, Match, MatchSeat, Player, PrivateLink, ResultEntry
from league.selectors.private_links import link_token
from league.services import create_club, create_person_player, register_players, start_tournament
from league.services.private_links import issue_links
from league.services.roster import issue_claim_code
from league.services.tournament_setup import create_tournament

from .browser import PHONE, assert_accessible, shoot
from .conftest import PASSWORD
from .support import administrators_account

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_roster_links_and_a_guests_result_on_a_phone(chromium, site_server):
    server, quiet = site_server
    with quiet():
        club = create_club(name="Card Club")
        ClubAdmin.objects.create(club=club, user=administrators_account("org", password=PASSWORD))
        members = [create_person_player(user=administrators_account(f"m{i}", password=PASSWORD),
                                        name=f"Member{i}", clubs=[club]) for i in range(2)]

    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(server.url + f"/accounts/login/?next=/clubs/{club.pk}/roster/")
    page.fill("#id_login", "org")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{server.url}/clubs/{club.pk}/roster/")
    page.fill("#id_names", "Gina\nGus\n")
    page.click("text=Preview")
    page.wait_for_selector("text=Add 2 guests")
    shoot(page, "roster-preview")
    assert_accessible(page, "the roster's preview")
    page.click("text=Add 2 guests")
    page.wait_for_selector("text=2 guests added to the roster.")
    assert_accessible(page, "the roster")

    with quiet():
        guests = list(Player.objects.filter(guest_club=club).order_by("name"))
        tournament = create_tournament(name="Thursday cards", rounds=1, club=club, offline_tables=True)
        register_players(tournament=tournament, players=[*guests, *members])
        match = Match.objects.get(tournament_round=start_tournament(tournament=tournament))
        issue_links(tournament=tournament)
        seat_of = {ms.player_id: ms.seat for ms in MatchSeat.objects.filter(match=match)}
        token = link_token(PrivateLink.objects.get(entry__player=guests[0]))
        code = issue_claim_code(guest=guests[1], by=None)

    page.goto(f"{server.url}/tournaments/{tournament.pk}/links/")
    assert page.locator("svg[role=img]").count() == 4
    shoot(page, "private-links")
    assert_accessible(page, "the private links page")

    guest_phone = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    guest_phone.set_default_timeout(15000)
    guest_phone.goto(f"{server.url}/p/{token}/")
    assert guest_phone.locator(f"text=You sit at seat {seat_of[guests[0].pk] + 1}.").count() == 1
    for seat, (vault, showroom) in enumerate([(10, 3), (4, 8), (0, 12), (7, 2)]):
        guest_phone.fill(f"input[name=vault_{seat}]", str(vault))
        guest_phone.fill(f"input[name=showroom_{seat}]", str(showroom))
    shoot(guest_phone, "private-link")
    assert_accessible(guest_phone, "a private link's page")
    guest_phone.click("form.result-form button[type=submit]")
    guest_phone.wait_for_selector("text=another player at the table confirms it")
    with quiet():
        entry = ResultEntry.objects.get(match=match)
    assert entry.status == EntryStatus.ENTERED and entry.entered_by_player_id == guests[0].pk
    assert re.search(r"/p/[^/]+/", guest_phone.url)

    guest_phone.goto(f"{server.url}/claim/{code}/")
    assert guest_phone.locator("text=Claim your history").count() >= 1
    assert_accessible(guest_phone, "the claim page")
