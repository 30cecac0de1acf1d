"""End to end in a real headless Chromium, at phone width: a club evening with real cards. One player enters their
table's result on their phone, another confirms it on theirs; the table is finished and the printable sheet shows
every table with its seats. Screenshots of the form and the slips go to artifacts/screenshots/."""

from __future__ import annotations

import pytest

from league.models import ClubAdmin, EntryStatus, Match, MatchSeat, MatchStatus, ResultEntry
from league.services import create_club, create_person_player, register_players, start_tournament
from league.services.tournament_setup import create_tournament

from .browser import PHONE, shoot
from .conftest import PASSWORD
from .support import administrators_account

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def phone_signed_in(chromium, server, username: str):
    context = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(server.url + "/accounts/login/")
    page.fill("#id_login", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(server.url + "/")
    return context, page


def test_one_player_enters_the_result_and_another_confirms_on_their_phones(chromium, site_server):
    server, quiet = site_server
    with quiet():
        club = create_club(name="Card Club")
        ClubAdmin.objects.create(club=club, user=administrators_account("org", password=PASSWORD))
        people = [create_person_player(user=administrators_account(f"p{i}", password=PASSWORD),
                                       clubs=[club]) for i in range(4)]
        tournament = create_tournament(name="Thursday cards", rounds=1, club=club, offline_tables=True)
        register_players(tournament=tournament, players=people)
        match = Match.objects.get(tournament_round=start_tournament(tournament=tournament))
        by_seat = {ms.seat: ms.player.user.username for ms in MatchSeat.objects.filter(match=match)
                   .select_related("player__user")}

    enterer, page = phone_signed_in(chromium, server, by_seat[0])
    page.goto(f"{server.url}/matches/{match.pk}/")
    box = page.locator("input[name=vault_0]")
    assert box.get_attribute("inputmode") == "numeric"
    assert box.bounding_box()["height"] >= 44  # one thumb: a box a finger hits
    for seat, (vault, showroom) in enumerate([(10, 3), (4, 8), (0, 12), (7, 2)]):
        page.fill(f"input[name=vault_{seat}]", str(vault))
        page.fill(f"input[name=showroom_{seat}]", str(showroom))
    shoot(page, "offline-result-form")
    page.click("form.result-form button[type=submit]")
    page.wait_for_selector("text=another player at the table confirms it")
    assert page.locator("text=Confirm this result").count() == 0  # not their own
    with quiet():
        entry = ResultEntry.objects.get(match=match)
    assert entry.status == EntryStatus.ENTERED

    confirmer, page2 = phone_signed_in(chromium, server, by_seat[2])
    page2.goto(f"{server.url}/matches/{match.pk}/")
    page2.click("text=Confirm this result")
    page2.wait_for_selector("text=the table is finished")
    assert "★" in page2.content()
    with quiet():
        match.refresh_from_db()
        assert match.status == MatchStatus.FINISHED and match.result["winners"] == [0]

    page2.goto(f"{server.url}/tournaments/{tournament.pk}/rounds/1/sheet/")
    sheet = page2.locator(".print-table")
    assert sheet.count() == 1 and "deals first" in sheet.inner_text()
    page2.emulate_media(media="print")
    assert not page2.locator("header.site").is_visible()  # the printed sheet has no navigation
    page2.emulate_media(media="screen")
    page2.goto(f"{server.url}/tournaments/{tournament.pk}/rounds/1/slips/")
    shoot(page2, "offline-score-slips")
    enterer.close()
    confirmer.close()
