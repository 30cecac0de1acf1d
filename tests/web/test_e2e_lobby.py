"""End to end in a real headless Chromium: two people meet at a lobby table and play a whole game. Ann opens a
private two-seat ring race table in the lobby and copies its invitation link; Bob, in another browser context,
watches a public table appear in the lobby's list without a reload, then opens the link and takes the seat; the
full table starts its match, Bob's page goes to it and Ann's waiting room follows by itself (its script polls the
table). They play by clicking their legal decisions until the game ends, and both see the result. Screenshots of
the lobby and the waiting room at desktop and phone width go to artifacts/."""

from __future__ import annotations

import pytest

from league.models import LobbyStatus, LobbyTable, Match, MatchStatus
from league.services.lobby import create_table

from .browser import shoot
from .conftest import PASSWORD
from .support import administrators_account

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def sign_in(browser, server, name: str, next_path: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{server.url}/accounts/login/?next={next_path}")
    page.fill("#id_login", name)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**{next_path}")
    return context, page


@pytest.fixture
def people(transactional_db):
    """Two accounts with passwords and no Player yet: the lobby makes their people on first use."""
    return {name: administrators_account(name, password=PASSWORD) for name in ("ann", "bob")}


def test_two_people_meet_at_a_lobby_table_and_play_a_game_to_the_end(chromium, site_server, people):
    server, quiet = site_server
    errors = []
    ann_context, ann = sign_in(chromium, server, "ann", "/lobby/")
    ann.on("pageerror", lambda e: errors.append(str(e)))
    shoot(ann, "lobby")
    ann.check("input[name=game][value=ringrace]")
    ann.select_option("#id_seats", "2")
    ann.uncheck("#id_public")
    ann.select_option("#id_turn_deadline", "3600")  # the longest: the browsers take their time
    ann.click("button:has-text('Open the table')")
    ann.wait_for_url("**/lobby/tables/*/")
    invite = ann.locator("#invite-link").input_value()
    shoot(ann, "lobby-table")
    with quiet():
        table = LobbyTable.objects.get()
    assert table.token in invite and not table.public

    # Bob watches the lobby: a public table someone else opens shows up in the list without a reload; Ann's private
    # one never does.
    bob_context, bob = sign_in(chromium, server, "bob", "/lobby/")
    bob.on("pageerror", lambda e: errors.append(str(e)))
    with quiet():
        other = create_table(user=administrators_account("cy"), game="diamonds", seats=4)
    bob.wait_for_selector(f"#tables-list >> text=Table {other.pk}")
    assert f"Table {table.pk}" not in bob.locator("#tables-list").inner_text()
    bob.goto(invite)
    assert "Take a seat" in bob.content()
    bob.click("#join")
    bob.wait_for_url("**/matches/*/")
    ann.wait_for_url("**/matches/*/")  # the waiting room's script sent her there
    with quiet():
        table.refresh_from_db()
        match = Match.objects.get(pk=table.match_id)
        by_user = {ms.player.user_id: ms.seat for ms in match.match_seats.select_related("player")}
    assert table.status == LobbyStatus.STARTED and match.game == "ringrace"
    assert ann.url == bob.url == f"{server.url}/matches/{match.pk}/"
    pages = {by_user[people["ann"].pk]: ann, by_user[people["bob"].pk]: bob}

    decisions = 0
    for _ in range(300):
        with quiet():
            match.refresh_from_db()
            awaited = match.match_seats.filter(awaiting=True).values_list("seat", flat=True).first()
        if match.status != MatchStatus.RUNNING and match.status != MatchStatus.PENDING:
            break
        if awaited is None:  # between two stored steps
            continue
        page = pages[awaited]
        if page.locator("form.decision button[name=decision]:enabled").count() == 0:
            page.reload()  # the page's own poll would get there within 1.5 s; the test does not wait for it
            continue
        before = page.locator(".table-view").get_attribute("data-move")
        chosen = page.locator("form.decision button[name=decision]:enabled").first
        chosen.click()  # on the ring race's drawn board a first click lifts the position (test_e2e_boards) ...
        chosen.click()  # ... and the second plays it
        page.wait_for_function("m => document.querySelector('.table-view').dataset.move !== m", arg=before)
        decisions += 1
    with quiet():
        match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED, match.status
    assert decisions > 10
    for page in (ann, bob):
        page.reload()
        page.wait_for_selector("text=Final result")
        assert page.locator("#match-status").inner_text() == "finished"
    assert errors == [], errors
    ann_context.close()
    bob_context.close()
