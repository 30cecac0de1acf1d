"""Pages at a phone's width (390 px) in a real browser (issue 28): the header's links fold into a menu, the standings
keep rank, name, points and tie-break in view without sideways scrolling, and a seat's figures are never cut in the
middle of a word."""

from __future__ import annotations

from contextlib import nullcontext

import pytest

from .browser import PHONE, assert_accessible, shoot
from .conftest import PASSWORD, _site, table_with_bots

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_menu_folds_on_a_phone_and_opens_by_keyboard(chromium, site_server):  # noqa: F811
    server, quiet = site_server
    with quiet():
        site = _site(nullcontext)
    page = chromium.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + f"/tournaments/{site['tournament'].pk}/")
    toggle = page.locator("button.menu-toggle")
    assert toggle.is_visible() and toggle.get_attribute("aria-expanded") == "false"
    lobby = page.locator("#site-nav a[href='/lobby/']")
    assert not lobby.is_visible()
    header = page.locator("header.site").bounding_box()
    assert header["height"] < 80  # one line: the brand and the button, not four lines of links
    toggle.focus()
    page.keyboard.press("Enter")
    assert lobby.is_visible() and toggle.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert not lobby.is_visible() and toggle.get_attribute("aria-expanded") == "false"

    # The standings: points and the tie-break in view, the rest behind each line's "more", nothing sideways.
    table = page.locator("table.standings").first
    headings = [h.strip() for h in table.locator("thead th:visible").all_inner_texts()]
    assert headings[:2] == ["Rank", "Player"] and "points" in headings
    assert "vault" in headings or "tie-break" in headings
    assert "score" not in headings and "Games" not in headings
    wide = page.evaluate("(() => { const s = document.querySelector('.scroll'); "
                         "return s.scrollWidth - s.clientWidth; })()")
    assert wide <= 0
    page.locator("table.standings details.row-more summary").first.click()
    assert page.locator("table.standings details.row-more[open] dd").first.is_visible()
    shoot(page, "phone-standings")
    assert_accessible(page, "the tournament page at a phone's width, menu and a line's details open")

    # A desktop shows every column and no menu button.
    page.set_viewport_size({"width": 1280, "height": 800})
    assert not toggle.is_visible() and lobby.is_visible()
    assert table.locator("thead th:has-text('score')").is_visible()
    assert not errors


def test_a_seats_figures_are_not_cut_mid_word_on_a_phone(chromium, site_server):  # noqa: F811
    server, quiet = site_server
    with quiet():
        site = _site(nullcontext)
        match = table_with_bots(site["ann"], site["bots"], seed="phone-words")
    page = chromium.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15000)
    page.goto(server.url + f"/accounts/login/?next=/matches/{match.pk}/")
    page.fill("#id_login", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"**/matches/{match.pk}/")
    names = page.locator(".felt .dseat .holding .cap")  # each seat's Showroom, Vault and Tricks, round the table
    assert names.count() >= 12
    # Each figure's name sits on one line inside its box: a word cut in two would take two lines (or stick out).
    cut = page.evaluate("""Array.from(document.querySelectorAll('.felt .dseat .holding .cap')).filter(dt => {
        const line = parseFloat(getComputedStyle(dt).lineHeight) || dt.getBoundingClientRect().height;
        return dt.getBoundingClientRect().height > line * 1.5 || dt.scrollWidth > dt.clientWidth + 1;
    }).map(dt => dt.textContent)""")
    assert cut == []
    shoot(page, "phone-seats")


def test_the_projector_is_readable_and_accessible(chromium, site_server):  # noqa: F811
    server, quiet = site_server
    with quiet():
        site = _site(nullcontext)
    page = chromium.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.set_default_timeout(15000)
    page.goto(server.url + f"/tournaments/{site['tournament'].pk}/projector/")
    assert page.locator(".projector-table").count() >= 1
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 24  # read from the back of the room
    shoot(page, "projector")
    assert_accessible(page, "the projector")
