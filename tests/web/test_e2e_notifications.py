"""In a real browser: the header's unread badge changes without a reload, and the notifications page marks read;
the webhooks page fits a phone."""

from __future__ import annotations

import pytest

from league.models import NotificationKind, WebhookEndpoint
from league.services.notifications import notify

from .browser import chromium, shoot, site_server  # noqa: F401  (fixtures)
from .support import administrators_account

pytestmark = pytest.mark.e2e
PASSWORD = "pw-badge-test-1"


def test_the_badge_counts_new_notifications_without_a_reload(chromium, site_server, settings):  # noqa: F811
    from playwright.sync_api import expect

    server, quiet = site_server
    settings.DIAMONDS_BADGE_POLL_SECONDS = 1
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True
    with quiet():
        ann = administrators_account("ann", password=PASSWORD)
        notify(user_ids=[ann.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="The cup is over.",
               link="/notifications/")
    page = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(15000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/accounts/login/?next=/")
    page.fill("#id_login", "ann")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(server.url + "/")
    # At a phone's width the links fold under the Menu button, which carries the count too.
    badge = page.locator(".menu-toggle [data-badge]")
    assert badge.inner_text() == "1"
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads

    with quiet():
        notify(user_ids=[ann.pk], kind=NotificationKind.BOT_PAUSED, text="Your bot was paused.")
    expect(badge).to_have_text("2", timeout=10000)
    assert page.evaluate("window.__sameDocument") is True

    page.click("button.menu-toggle")
    expect(page.locator("a.notif-link [data-badge]")).to_have_text("2")
    page.click("a.notif-link")  # the header's link to the notifications page
    page.wait_for_url("**/notifications/")
    assert "Your bot was paused." in page.content()
    shoot(page, "notifications")
    page.click("text=Mark all read")
    page.wait_for_url("**/notifications/")
    expect(badge).to_be_hidden()

    page.goto(server.url + "/webhooks/")
    page.fill("#id_url", "http://127.0.0.1:9/hook")
    page.check("input[value='match.finished']")
    page.click("text=Add the webhook")
    with quiet():
        secret = WebhookEndpoint.objects.get(owner=ann).secret
    assert page.locator("[data-secret]").inner_text() == secret
    shoot(page, "webhook-created")
    page.click("text=I have copied it")
    page.click("text=Send a ping")
    assert "ping" in page.content()
    shoot(page, "webhook")
    assert errors == []
