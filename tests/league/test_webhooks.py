"""Webhooks: scope, signature, in-order delivery with backoff, SSRF refusal, the delivery log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league.models import DeliveryStatus, Match, WebhookDelivery, WebhookEndpoint
from league.services import create_bot_player, create_club
from league.services.advancing import start_tournament
from league.services.players import add_club_admin
from league.services.registration import register_players
from league.services.tournament_setup import create_tournament
from league.services.webhooks import RETRY_SCHEDULE, WebhookError, create_endpoint, deliver_due, send_ping
from league.webhook_http import signature

from .tournament_support import bot_field
from .webhook_receiver import Receiver, verify

pytestmark = pytest.mark.django_db

ALL = ["match.started", "match.finished", "round.seated", "tournament.finished", "bot.paused"]


@pytest.fixture
def allow_private(settings):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = True


def user(name):
    return get_user_model().objects.create_user(name)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/x", "http://localhost/x", "http://10.1.2.3/", "http://[::1]/",
                                 "http://169.254.169.254/latest/meta-data", "http://0.0.0.0/", "ftp://example.org/",
                                 "http://user:pw@example.org/", "not a url", "http://[::ffff:127.0.0.1]/"])
def test_private_and_odd_urls_are_refused(settings, url):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(WebhookError):
        create_endpoint(owner=user("o"), url=url, events=["match.finished"])
    assert not WebhookEndpoint.objects.exists()


# IPv6 forms that embed a loopback IPv4 address or are not globally routable: IPv4-compatible, NAT64, 6to4,
# IPv4-translated (SIIT), site-local, Teredo, documentation.
EMBEDDING_OR_NOT_GLOBAL = ["[::7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[::ffff:0:7f00:1]", "[fec0::1]",
                           "[2001:0:4136:e378:8000:63bf:3fff:fdd2]", "[2001:db8::1]", "[ff02::1]"]


@pytest.mark.parametrize("host", EMBEDDING_OR_NOT_GLOBAL)
def test_ipv6_forms_that_embed_ipv4_or_are_not_global_are_refused(settings, host):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(WebhookError, match="public addresses only"):
        create_endpoint(owner=user("o"), url=f"http://{host}/hook", events=["match.finished"])
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize("host", ["[2001:4860:4860::8888]", "[2606:4700:4700::1111]", "8.8.8.8",
                                  "[::ffff:8.8.8.8]"])
def test_global_addresses_are_accepted(settings, host):
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = False
    endpoint = create_endpoint(owner=user("o"), url=f"https://{host}/hook", events=["match.finished"])
    assert endpoint.url == f"https://{host}/hook"


def test_unknown_or_no_events_are_refused(allow_private):
    owner = user("o")
    for events in ([], ["turn.awaited"], ["match.finished", "nope"]):
        with pytest.raises(WebhookError):
            create_endpoint(owner=owner, url="http://127.0.0.1:9/", events=events)


def test_signature_is_hmac_of_timestamp_and_body():
    sig = signature("s3cret", 1700000000, b'{"a":1}')
    assert verify("s3cret", sig, b'{"a":1}') and not verify("s3cret", sig, b'{"a":2}')
    assert not verify("other", sig, b'{"a":1}')


def test_a_tournament_is_delivered_in_order_and_signed_to_its_organiser_only(allow_private, run_on_commit):
    club = create_club(name="club")
    organiser, stranger = user("olga"), user("stranger")
    add_club_admin(club=club, user=organiser)
    with Receiver() as mine, Receiver() as theirs:
        endpoint = create_endpoint(owner=organiser, url=mine.url, events=ALL)
        mine.secret = endpoint.secret
        create_endpoint(owner=stranger, url=theirs.url, events=ALL)
        t = create_tournament(name="cup", rounds=2, table_size=2, seed="wh", club=club, ruleset={"rounds": 1})
        register_players(tournament=t, players=bot_field(4))
        run_on_commit(start_tournament, tournament=t)
        assert deliver_due() == len(mine.received) > 0
    assert theirs.received == []  # not the stranger's tournament
    events = [r["event"] for r in mine.received]
    assert all(r["verified"] for r in mine.received)
    assert events[0] == "round.seated" and events[-1] == "tournament.finished"
    assert events.count("round.seated") == 2 and events.count("match.finished") == 4
    ids = [int(r["delivery"]) for r in mine.received]
    assert ids == sorted(ids)  # event order
    body = mine.received[-1]["body"]
    assert set(body) == {"id", "event", "created_at", "data"} and body["data"]["tournament_id"] == t.pk
    finished = [r["body"]["data"] for r in mine.received if r["event"] == "match.finished"]
    assert all(len(d["seats"]) == 2 and "seed" not in d and d["status"] == "finished" for d in finished)
    assert WebhookDelivery.objects.filter(status=DeliveryStatus.DELIVERED).count() == len(events)


def test_a_bot_owner_hears_of_its_bots_matches_only(allow_private, run_on_commit):
    author = user("author")
    mine = create_bot_player(name="mine", kind="random")
    type(mine).objects.filter(pk=mine.pk).update(owner=author)
    with Receiver() as rx:
        endpoint = create_endpoint(owner=author, url=rx.url, events=["match.finished"])
        rx.secret = endpoint.secret
        t = create_tournament(name="cup", rounds=1, table_size=2, seed="bo", ruleset={"rounds": 1})
        register_players(tournament=t, players=[*bot_field(3), mine])
        run_on_commit(start_tournament, tournament=t)
        deliver_due()
    assert [r["event"] for r in rx.received] == ["match.finished"]
    assert "mine" in [s["player"] for s in rx.received[0]["body"]["data"]["seats"]]


def test_failures_are_retried_with_backoff_and_later_events_wait(allow_private):
    owner = user("o")
    with Receiver(fail_first=2) as rx:
        endpoint = create_endpoint(owner=owner, url=rx.url, events=["match.finished"])
        rx.secret = endpoint.secret
        first, second = send_ping(endpoint=endpoint), send_ping(endpoint=endpoint)
        now = timezone.now()
        assert deliver_due(now=now) == 0
        first.refresh_from_db()
        assert (first.attempts, first.last_status_code, first.status) == (1, 500, "pending")
        assert first.next_attempt_at == now + timedelta(seconds=RETRY_SCHEDULE[0])
        assert deliver_due(now=now + timedelta(seconds=5)) == 0  # not due yet: nothing sent, the second waits
        assert WebhookDelivery.objects.get(pk=second.pk).attempts == 0
        later = now + timedelta(seconds=11)
        assert deliver_due(now=later) == 0  # fails again: now 60 s
        first.refresh_from_db()
        assert first.attempts == 2 and first.next_attempt_at == later + timedelta(seconds=RETRY_SCHEDULE[1])
        assert deliver_due(now=later + timedelta(seconds=61)) == 2  # both, in order
    assert [int(r["delivery"]) for r in rx.received] == [first.pk, second.pk]
    first.refresh_from_db()
    assert first.status == "delivered" and first.attempts == 3 and first.delivered_at is not None


def test_given_up_after_the_last_retry(allow_private):
    owner = user("o")
    endpoint = create_endpoint(owner=owner, url="http://127.0.0.1:9/nobody", events=["match.finished"])
    delivery = send_ping(endpoint=endpoint)
    now = timezone.now()
    for wait in (0, *RETRY_SCHEDULE):
        now += timedelta(seconds=wait)
        deliver_due(now=now)
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.FAILED and delivery.attempts == len(RETRY_SCHEDULE) + 1
    assert delivery.last_error


def test_an_endpoint_whose_name_now_resolves_privately_is_not_posted_to(settings, allow_private):
    endpoint = create_endpoint(owner=user("o"), url="http://127.0.0.1:9/", events=["bot.paused"])
    delivery = send_ping(endpoint=endpoint)
    settings.DIAMONDS_WEBHOOKS_ALLOW_PRIVATE = False
    deliver_due()
    delivery.refresh_from_db()
    assert delivery.last_status_code is None and "private" in delivery.last_error


def test_a_disabled_endpoint_gets_nothing(allow_private, run_on_commit):
    club = create_club(name="club")
    organiser = user("olga")
    add_club_admin(club=club, user=organiser)
    endpoint = create_endpoint(owner=organiser, url="http://127.0.0.1:9/", events=ALL)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=False)
    t = create_tournament(name="cup", rounds=1, table_size=2, seed="off", club=club)
    register_players(tournament=t, players=bot_field(2))
    run_on_commit(start_tournament, tournament=t)
    assert Match.objects.filter(tournament_round__tournament=t, status="finished").exists()
    assert not WebhookDelivery.objects.exists()


def test_a_rolled_back_event_writes_no_delivery(allow_private):
    from django.db import transaction

    from league.events import emit

    owner = user("author")
    bot = create_bot_player(name="paused-bot", kind="random")
    type(bot).objects.filter(pk=bot.pk).update(owner=owner)
    create_endpoint(owner=owner, url="http://127.0.0.1:9/", events=["bot.paused"])
    with pytest.raises(RuntimeError), transaction.atomic():
        emit("bot.paused", player_id=bot.pk, reason="x")
        assert WebhookDelivery.objects.count() == 1  # written with the change ...
        raise RuntimeError
    assert WebhookDelivery.objects.count() == 0  # ... and gone with it
    emit("bot.paused", player_id=bot.pk, reason="x")
    assert WebhookDelivery.objects.get().payload["data"] == {"player_id": bot.pk, "player": "paused-bot",
                                                             "reason": "x"}


def test_a_dead_senders_hold_lapses_and_another_sends(allow_private):
    owner = user("o")
    with Receiver() as rx:
        endpoint = create_endpoint(owner=owner, url=rx.url, events=["bot.paused"])
        rx.secret = endpoint.secret
        send_ping(endpoint=endpoint)
        now = timezone.now()
        WebhookEndpoint.objects.filter(pk=endpoint.pk).update(busy_until=now + timedelta(seconds=60))
        assert deliver_due(now=now) == 0  # held by a sender (that died while holding it)
        assert deliver_due(now=now + timedelta(seconds=61)) == 1
    assert [r["event"] for r in rx.received] == ["ping"] and rx.received[0]["verified"]


def test_a_fault_writing_deliveries_never_breaks_the_match(allow_private, run_on_commit, monkeypatch):
    from league.services import create_match, webhooks
    from league.services.play import play_bot_match

    author = user("author")
    bots = bot_field(2)
    type(bots[0]).objects.filter(pk=bots[0].pk).update(owner=author)
    create_endpoint(owner=author, url="http://127.0.0.1:9/", events=["match.started", "match.finished"])

    def broken(name, payload):
        raise RuntimeError("a bug in the audience")

    monkeypatch.setattr(webhooks, "_audience", broken)
    match = create_match(players=bots, ruleset={"players": 2, "rounds": 1}, seed="fault")
    run_on_commit(play_bot_match, match_id=match.pk)
    assert Match.objects.get(pk=match.pk).status == "finished"
    assert not WebhookDelivery.objects.exists()


def test_an_account_has_at_most_ten_endpoints(allow_private):
    from league.services.webhooks import MAX_ENDPOINTS_PER_OWNER

    owner = user("o")
    for i in range(MAX_ENDPOINTS_PER_OWNER):
        create_endpoint(owner=owner, url=f"http://127.0.0.1:9/{i}", events=["bot.paused"])
    with pytest.raises(WebhookError):
        create_endpoint(owner=owner, url="http://127.0.0.1:9/x", events=["bot.paused"])
    assert WebhookEndpoint.objects.filter(owner=owner).count() == MAX_ENDPOINTS_PER_OWNER
