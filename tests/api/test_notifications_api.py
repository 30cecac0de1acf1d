"""/api/v1/me/notifications/ and /api/v1/me/webhooks/: one's own only, others' ids 404, bad input 400."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import Notification, NotificationKind, WebhookEndpoint
from league.services.notifications import notify

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(settings):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True
    User = get_user_model()
    ann, bob = User.objects.create_user("ann"), User.objects.create_user("bob")
    clients = {}
    for u in (ann, bob):
        clients[u.username] = APIClient()
        clients[u.username].force_authenticate(u)
    notify(user_ids=[ann.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="cup is over")
    notify(user_ids=[bob.pk], kind=NotificationKind.TOURNAMENT_FINISHED, text="bob's")
    return ann, bob, clients


def test_list_read_and_count(two):
    ann, bob, clients = two
    api = clients["ann"]
    body = api.get("/api/v1/me/notifications/").json()
    assert [n["text"] for n in body["results"]] == ["cup is over"]
    assert api.get("/api/v1/me/notifications/unread/").json() == {"unread": 1}
    mine = body["results"][0]["id"]
    theirs = Notification.objects.get(recipient=bob).pk
    for url in (f"/api/v1/me/notifications/{theirs}/", f"/api/v1/me/notifications/{theirs}/read/"):
        response = api.post(url) if url.endswith("read/") else api.get(url)
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert api.post(f"/api/v1/me/notifications/{mine}/read/").json()["read_at"] is not None
    assert api.get("/api/v1/me/notifications/?unread=1").json()["results"] == []
    assert clients["bob"].post("/api/v1/me/notifications/read-all/").json() == {"unread": 0}
    assert APIClient().get("/api/v1/me/notifications/").status_code in (401, 403)


def test_webhooks_api(two):
    ann, bob, clients = two
    api = clients["ann"]
    created = api.post("/api/v1/me/webhooks/", {"url": "http://127.0.0.1:9/h", "events": ["match.finished"]},
                       format="json")
    assert created.status_code == 201 and created.json()["secret"].startswith("whsec_")
    pk = created.json()["id"]
    assert "secret" not in api.get(f"/api/v1/me/webhooks/{pk}/").json()
    assert api.post(f"/api/v1/me/webhooks/{pk}/ping/").status_code == 202
    log = api.get(f"/api/v1/me/webhooks/{pk}/deliveries/").json()["results"]
    assert [d["event"] for d in log] == ["ping"]
    assert api.patch(f"/api/v1/me/webhooks/{pk}/", {"active": False}, format="json").json()["active"] is False
    other = clients["bob"]
    for response in (other.get(f"/api/v1/me/webhooks/{pk}/"), other.post(f"/api/v1/me/webhooks/{pk}/ping/"),
                     other.get(f"/api/v1/me/webhooks/{pk}/deliveries/"),
                     other.patch(f"/api/v1/me/webhooks/{pk}/", {"active": True}, format="json")):
        assert response.status_code == 404
    assert WebhookEndpoint.objects.get(pk=pk).active is False
    assert other.get("/api/v1/me/webhooks/").json()["results"] == []


@pytest.mark.parametrize("data", [{"url": "http://10.0.0.1/", "events": ["match.finished"]},
                                  {"url": "http://[::7f00:1]/", "events": ["match.finished"]},
                                  {"url": "http://[64:ff9b::7f00:1]/", "events": ["match.finished"]},
                                  {"url": "http://[2002:7f00:1::]/", "events": ["match.finished"]},
                                  {"url": "http://[::ffff:0:7f00:1]/", "events": ["match.finished"]},
                                  {"url": "http://[fec0::1]/", "events": ["match.finished"]},
                                  {"url": "https://example.org/", "events": []},
                                  {"url": "https://example.org/", "events": ["turn.awaited"]},
                                  {"url": "ftp://example.org/", "events": ["match.finished"]},
                                  {"url": ["x"], "events": "match.finished"}, {}])
def test_bad_webhooks_are_400_in_the_error_shape(two, settings, data):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = False
    response = two[2]["ann"].post("/api/v1/me/webhooks/", data, format="json")
    assert response.status_code == 400 and "detail" in response.json()
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_live_play_tells_the_person_of_their_turn_once_and_of_the_result(accounts):
    from league.events import league_event
    from league.models import Match

    from .conftest import live_match
    from .support import play_out

    heard = []

    def listen(sender, *, name, payload, **kwargs):
        heard.append((name, payload))

    league_event.connect(listen, dispatch_uid="test-live-heard")
    try:
        match = live_match(accounts, ["ann", "ext-1", "greedy-1"])
        ann = accounts["players"]["ann"].user
        ext = accounts["players"]["ext-1"].user
        play_out([accounts["clients"]["ann"], accounts["clients"]["ext-1"]], match.pk)
    finally:
        league_event.disconnect(dispatch_uid="test-live-heard")
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished"
    names = [n for n, p in heard if p.get("match_id") == match.pk]
    assert names.count("match.started") == 1 and names.count("match.finished") == 1
    assert names.index("match.started") < names.index("match.finished") == len(names) - 1
    awaited = [p["user_ids"] for n, p in heard if n == "turn.awaited"]
    assert awaited and all(set(ids) <= {ann.pk, ext.pk} for ids in awaited)
    # Many turns, but never more than one unread "your turn": and none left once the match is over.
    assert Notification.objects.filter(recipient=ann, kind="turn", read_at__isnull=True).count() == 0
    assert Notification.objects.filter(recipient=ann, kind="turn").count() == 1
    finished = Notification.objects.get(recipient=ann, kind="match_finished")
    place = match.match_seats.get(seat=0).placement
    assert f"place {place} of 3" in finished.text or f"placed {place} of 3" in finished.text
    assert not Notification.objects.filter(recipient=ext).exists()  # a bot's own account is told nothing
    body = accounts["clients"]["outsider"].get("/api/v1/me/notifications/").json()
    assert body["results"] == []


def test_bot_paused_and_resumed_tell_its_owner(django_capture_on_commit_callbacks):
    from league.events import emit
    from league.services.players import create_external_bot

    owner = get_user_model().objects.create_user("author")
    bot = create_external_bot(name="mybot")
    type(bot).objects.filter(pk=bot.pk).update(owner=owner)
    with django_capture_on_commit_callbacks(execute=True):
        emit("bot.paused", player_id=bot.pk, reason="it timed out 3 times")
        emit("bot.resumed", player_id=bot.pk)
    texts = list(Notification.objects.filter(recipient=owner).order_by("pk").values_list("kind", "text"))
    assert [k for k, _ in texts] == ["bot_paused", "bot_resumed"]
    assert "mybot" in texts[0][1] and "it timed out 3 times" in texts[0][1]
    assert Notification.objects.exclude(recipient=owner).count() == 0
