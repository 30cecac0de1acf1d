"""The notifications page, the header badge's endpoint and the webhooks pages: one's own only."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from league.models import Notification, NotificationKind, WebhookDelivery, WebhookEndpoint
from league.services.notifications import notify
from league.services.webhooks import create_endpoint, send_ping

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(settings):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True
    User = get_user_model()
    ann, bob = User.objects.create_user("ann"), User.objects.create_user("bob")
    clients = {}
    for u in (ann, bob):
        clients[u.username] = Client()
        clients[u.username].force_login(u)
    notify(user_ids=[ann.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="cup is over", link="/tournaments/1/")
    notify(user_ids=[bob.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="bob's secret cup")
    return ann, bob, clients


def test_badge_counts_ones_own_unread(two):
    ann, bob, clients = two
    assert clients["ann"].get("/notifications/unread/").json() == {"unread": 1}
    assert Client().get("/notifications/unread/").json() == {"unread": 0}
    page = clients["ann"].get("/notifications/").content.decode()
    assert "cup is over" in page and "bob&#x27;s secret cup" not in page and "bob's secret cup" not in page
    assert 'data-badge-url="/notifications/unread/"' in page and "badge.js" in page


def test_mark_read_and_all_read(two):
    ann, bob, clients = two
    mine = Notification.objects.get(recipient=ann)
    theirs = Notification.objects.get(recipient=bob)
    assert clients["ann"].post(f"/notifications/{theirs.pk}/read/").status_code == 404
    assert Notification.objects.get(pk=theirs.pk).read_at is None
    assert clients["ann"].get(f"/notifications/{mine.pk}/read/").status_code == 405
    response = clients["ann"].post(f"/notifications/{mine.pk}/read/", {"open": "1"})
    assert response.status_code == 302 and response["Location"] == "/tournaments/1/"
    assert clients["ann"].get("/notifications/unread/").json() == {"unread": 0}
    notify(user_ids=[ann.pk, ann.pk], kind=NotificationKind.BOT_PAUSED, text="paused")
    clients["ann"].post("/notifications/read-all/")
    assert clients["ann"].get("/notifications/unread/").json() == {"unread": 0}
    assert clients["bob"].get("/notifications/unread/").json() == {"unread": 1}


def test_signed_out_is_sent_to_sign_in():
    assert Client().get("/notifications/").status_code == 302
    assert Client().get("/webhooks/").status_code == 302


def test_webhook_pages_add_show_the_secret_once_ping_disable(two):
    ann, bob, clients = two
    response = clients["ann"].post("/webhooks/", {"url": "http://127.0.0.1:9/hook", "events": ["match.finished"]})
    endpoint = WebhookEndpoint.objects.get(owner=ann)
    assert response.status_code == 200 and endpoint.secret in response.content.decode()
    detail = clients["ann"].get(f"/webhooks/{endpoint.pk}/").content.decode()
    assert endpoint.secret not in detail
    clients["ann"].post(f"/webhooks/{endpoint.pk}/ping/")
    assert WebhookDelivery.objects.filter(endpoint=endpoint, event="ping").count() == 1
    assert "ping" in clients["ann"].get(f"/webhooks/{endpoint.pk}/").content.decode()
    clients["ann"].post(f"/webhooks/{endpoint.pk}/active/", {"active": "0"})
    assert WebhookEndpoint.objects.get(pk=endpoint.pk).active is False
    # Bob sees none of it and changes nothing.
    assert clients["bob"].get(f"/webhooks/{endpoint.pk}/").status_code == 404
    assert clients["bob"].post(f"/webhooks/{endpoint.pk}/ping/").status_code == 404
    assert clients["bob"].post(f"/webhooks/{endpoint.pk}/active/", {"active": "1"}).status_code == 404
    assert WebhookEndpoint.objects.get(pk=endpoint.pk).active is False
    assert endpoint.url not in clients["bob"].get("/webhooks/").content.decode()


def test_hostile_webhook_forms_are_refused(two, settings):
    ann, bob, clients = two
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = False
    for data in ({"url": "http://127.0.0.1/", "events": ["match.finished"]},
                 {"url": "javascript:alert(1)", "events": ["match.finished"]},
                 {"url": "https://example.org/", "events": ["turn.awaited"]},
                 {"url": "https://example.org/"}):
        response = clients["ann"].post("/webhooks/", data)
        assert response.status_code == 400, data
    assert not WebhookEndpoint.objects.exists()


def test_delivery_log_is_shown(two):
    ann, _bob, clients = two
    endpoint = create_endpoint(owner=ann, url="http://127.0.0.1:9/", events=["bot.paused"])
    delivery = send_ping(endpoint=endpoint)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(attempts=2, last_status_code=503, last_error="HTTP 503 x")
    page = clients["ann"].get(f"/webhooks/{endpoint.pk}/").content.decode()
    assert "HTTP 503" in page and "pending" in page


def test_admin_lists_them_and_never_shows_a_secret(two):
    ann, _bob, _clients = two
    endpoint = create_endpoint(owner=ann, url="http://127.0.0.1:9/", events=["bot.paused"])
    send_ping(endpoint=endpoint)
    staff = get_user_model().objects.create_user("sam", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    for url in ("/admin/league/notification/", "/admin/league/webhookendpoint/", "/admin/league/webhookdelivery/",
                f"/admin/league/webhookendpoint/{endpoint.pk}/change/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert endpoint.secret not in response.content.decode()
