"""Webhooks: which endpoints hear of an event, their delivery rows, and sending them in order with retries.

Delivery rows are written by `on_event_stored` in the event's own transaction (league.events' `league_event_stored`),
so an event that is stored is never lost for webhooks, whatever dies after the commit. The workers send them
(workers.tasks.deliver_webhooks, right after the commit with a broker, and the periodic sweep, which the embedded beat
runs too): `deliver_endpoint` takes the endpoint (one sender at a time), sends its pending deliveries oldest first,
and stops at the first failure, which is tried again after 10 s, 1 min, 5 min, 30 min and 2 h, then given up
(`failed`). So one endpoint's deliveries arrive in event order: a later event waits while an earlier one is retried,
and goes out once it was delivered or given up.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
import uuid
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    ClubAdmin,
    DeliveryStatus,
    Match,
    MatchSeat,
    Player,
    Tournament,
    TournamentEntry,
    WebhookDelivery,
    WebhookEndpoint,
)
from ..models.webhook import PING_EVENT, WEBHOOK_EVENTS
from ..selectors.prepared import PreparedQuery
from ..webhook_http import WebhookURLError, check_url, post, signature
from .caps import hold_account

log = logging.getLogger(__name__)

# Seconds to wait after the 1st, 2nd ... failed attempt; after the last, the delivery is given up.
RETRY_SCHEDULE = (10, 60, 300, 1800, 7200)
# How long a sender holds an endpoint at most (a few timeouts): if it dies, another takes over after this.
HOLD_SECONDS = 60
MAX_ENDPOINTS_PER_OWNER = 10

# Sent (no arguments) after a transaction that wrote deliveries commits: the workers send them (workers.apps).
deliveries_pending = Signal()


class WebhookError(ValueError):
    """A refused endpoint: the message says why, for the user; `field` is the form's field at fault."""

    def __init__(self, message: str, field: str = "url"):
        super().__init__(message)
        self.field = field


# ---- endpoints ---------------------------------------------------------------------------------------------------

def new_secret() -> str:
    return "whsec_" + secrets.token_urlsafe(32)


def _checked_events(events: Iterable[str]) -> list[str]:
    chosen = sorted(set(events))
    unknown = [e for e in chosen if e not in WEBHOOK_EVENTS]
    if unknown:
        raise WebhookError(_("Unknown events: %(events)s.") % {"events": ", ".join(unknown)}, field="events")
    if not chosen:
        raise WebhookError(_("Choose at least one event."), field="events")
    return chosen


def create_endpoint(*, owner, url: str, events: Iterable[str]) -> WebhookEndpoint:
    """A new active endpoint with a fresh secret (show it to the owner now: it is not shown again). The owner's
    account is locked while the endpoints are counted, so MAX_ENDPOINTS_PER_OWNER holds under simultaneous requests
    (league.services.caps)."""
    if len(url) > 500:
        raise WebhookError(_("The URL is too long (500 characters at most)."))
    try:
        check_url(url)
    except WebhookURLError as e:
        raise WebhookError(str(e)) from e
    chosen = _checked_events(events)
    with transaction.atomic():
        hold_account(owner)
        if WebhookEndpoint.objects.filter(owner=owner).count() >= MAX_ENDPOINTS_PER_OWNER:
            raise WebhookError(_("You have %(n)s webhooks already, the most one account may have.")
                               % {"n": MAX_ENDPOINTS_PER_OWNER}, field="url")
        return WebhookEndpoint.objects.create(owner=owner, url=url, secret=new_secret(), events=chosen)


def set_active(*, endpoint: WebhookEndpoint, active: bool) -> None:
    """Disable (nothing more is written or sent to it; what waits stays in its log) or enable it again."""
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=active)
    endpoint.active = active


@transaction.atomic
def send_ping(*, endpoint: WebhookEndpoint) -> WebhookDelivery:
    """Queue a "ping" delivery to the endpoint, to try it."""
    data = {"endpoint_id": endpoint.pk, "message": "ping"}
    delivery = _write(endpoint, uuid.uuid4(), PING_EVENT, data, timezone.now())
    transaction.on_commit(lambda: deliveries_pending.send(sender=WebhookDelivery, endpoint_ids=[endpoint.pk]))
    return delivery


# ---- who hears of an event, and what they are told ----------------------------------------------------------------

def _organisers(club_id: int | None) -> set[int]:
    if club_id is None:
        return set()
    return set(ClubAdmin.objects.filter(club_id=club_id).values_list("user_id", flat=True))


def _bot_owners(player_ids) -> set[int]:
    return set(Player.objects.filter(pk__in=player_ids, owner__isnull=False).exclude(bot_kind="")
               .values_list("owner_id", flat=True))


def _match_data(match: Match) -> dict:
    rnd = match.tournament_round
    seats = []
    for ms in MatchSeat.objects.filter(match=match).select_related("player").order_by("seat"):
        seat = {"seat": ms.seat, "player_id": ms.player_id, "player": ms.player.name}
        if match.status == "finished":
            seat.update(score=ms.score, placement=ms.placement, is_winner=ms.is_winner)
        seats.append(seat)
    return {"match_id": match.pk, "game": match.game, "status": match.status, "club_id": match.club_id,
            "tournament_id": rnd.tournament_id if rnd else None, "round_number": rnd.index if rnd else None,
            "table_number": match.table_number, "ladder_id": match.ladder_id, "seats": seats,
            "started_at": match.started_at, "finished_at": match.finished_at}


def _audience(name: str, payload: dict) -> tuple[set[int], dict] | None:
    """The accounts whose endpoints may hear of the event (its scope), and the event's data; None: nobody."""
    if name in ("match.started", "match.finished"):
        match = Match.objects.filter(pk=payload["match_id"]).select_related("tournament_round").first()
        if match is None:
            return None
        players: Iterable[int] = MatchSeat.objects.filter(match=match).values_list("player_id", flat=True)
        club_id = match.club_id
        if match.tournament_round is not None:  # selected with the match
            club_id = Tournament.objects.filter(pk=match.tournament_round.tournament_id).values_list(
                "club_id", flat=True).first()
        return _bot_owners(players) | _organisers(club_id), _match_data(match)
    if name in ("round.seated", "tournament.finished"):
        tournament = Tournament.objects.filter(pk=payload["tournament_id"]).first()
        if tournament is None:
            return None
        data = {"tournament_id": tournament.pk, "tournament": tournament.name, "club_id": tournament.club_id}
        if name == "round.seated":
            players = MatchSeat.objects.filter(match_id__in=payload["match_ids"]).values_list("player_id", flat=True)
            tables = [{"match_id": m.pk, "table_number": m.table_number, "seats": m.seats}
                      for m in Match.objects.filter(pk__in=payload["match_ids"]).order_by("table_number", "pk")]
            data.update(round_number=payload["round_number"], tables=tables)
        else:
            players = TournamentEntry.objects.filter(tournament=tournament).values_list("player_id", flat=True)
            data.update(finished_at=tournament.finished_at)
        return _bot_owners(players) | _organisers(tournament.club_id), data
    if name == "bot.paused":
        bot = Player.objects.filter(pk=payload["player_id"]).first()
        if bot is None or bot.owner_id is None:
            return None
        return {bot.owner_id}, {"player_id": bot.pk, "player": bot.name, "reason": payload.get("reason", "")}
    return None


def on_event_stored(sender, *, name: str, payload: dict, **kwargs) -> None:
    """league_event_stored's listener (league.apps): write the event's deliveries in its transaction.

    The deliveries are written in a savepoint of their own (`_write_deliveries`): a fault there is logged and loses
    the deliveries, never the change that emitted (a match's last trick, a round's seating). Finding that no endpoint
    listens, which is what most events of most leagues find, is one plain query: it writes nothing, so it needs no
    savepoint (a bot match's end costs one statement here, not three)."""
    if name not in WEBHOOK_EVENTS:
        return
    try:
        _write_deliveries(name, payload)
    except Exception:
        log.exception("webhook deliveries of %s %s could not be written", name, payload)


# Every event runs it: compiled once per process (league.selectors.prepared).
_ACTIVE_ENDPOINTS = PreparedQuery(lambda: WebhookEndpoint.objects.filter(active=True), 0)


def _write_deliveries(name: str, payload: dict) -> None:
    endpoints = [e for e in _ACTIVE_ENDPOINTS() if name in e.events]  # few: most leagues have none at all
    if not endpoints:
        return
    with transaction.atomic():  # the deliveries of one event are written together or not at all
        _write_event(name, payload, endpoints)


def _write_event(name: str, payload: dict, endpoints: list[WebhookEndpoint]) -> None:
    found = _audience(name, payload)
    if found is None:
        return
    owners, data = found
    now = timezone.now()
    event_id = uuid.uuid4()
    chosen = [e for e in endpoints if name in e.events and e.owner_id in owners]
    for endpoint in chosen:
        _write(endpoint, event_id, name, data, now)
    if chosen:
        ids = [e.pk for e in chosen]
        transaction.on_commit(lambda: deliveries_pending.send(sender=WebhookDelivery, endpoint_ids=ids))


def _write(endpoint: WebhookEndpoint, event_id, name: str, data: dict, now) -> WebhookDelivery:
    body = {"id": str(event_id), "event": name, "created_at": now, "data": data}
    # Stored as the exact JSON that is sent (dates as ISO strings), so a retry sends the same bytes.
    return WebhookDelivery.objects.create(endpoint=endpoint, event_id=event_id, event=name, created_at=now,
                                          payload=json.loads(json.dumps(body, cls=DjangoJSONEncoder)))


# ---- sending ----------------------------------------------------------------------------------------------------

def due_endpoint_ids(*, now=None, limit: int = 500) -> list[int]:
    """Active endpoints with a pending delivery due now, not held by a sender."""
    now = now or timezone.now()
    return list(
        WebhookEndpoint.objects.filter(active=True, deliveries__status=DeliveryStatus.PENDING,
                                       deliveries__next_attempt_at__lte=now)
        .filter(Q(busy_until__isnull=True) | Q(busy_until__lt=now))
        .order_by("pk").values_list("pk", flat=True).distinct()[:limit]
    )


def _hold(endpoint_id: int, now) -> bool:
    return bool(WebhookEndpoint.objects.filter(pk=endpoint_id, active=True).filter(
        Q(busy_until__isnull=True) | Q(busy_until__lt=now)).update(busy_until=now + timedelta(seconds=HOLD_SECONDS)))


def body_bytes(delivery: WebhookDelivery) -> bytes:
    return json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True).encode()


def attempt(delivery: WebhookDelivery, *, now=None) -> bool:
    """One attempt at one delivery; records its outcome. True if delivered."""
    now = now or timezone.now()
    endpoint = delivery.endpoint
    body = body_bytes(delivery)
    headers = {"X-Diamonds-Event": delivery.event, "X-Diamonds-Delivery": str(delivery.pk),
               "X-Diamonds-Signature": signature(endpoint.secret, int(time.time()), body)}
    result = post(endpoint.url, body, headers, timeout=settings.DIAMONDS_WEBHOOK_TIMEOUT_SECONDS)
    delivery.attempts += 1
    delivery.last_status_code = result.status_code
    delivery.last_error = result.error
    if result.ok:
        delivery.status, delivery.delivered_at = DeliveryStatus.DELIVERED, now
    elif delivery.attempts > len(RETRY_SCHEDULE):
        delivery.status = DeliveryStatus.FAILED
    else:
        delivery.next_attempt_at = now + timedelta(seconds=RETRY_SCHEDULE[delivery.attempts - 1])
    delivery.save(update_fields=["attempts", "last_status_code", "last_error", "status", "delivered_at",
                                 "next_attempt_at"])
    return result.ok


def deliver_endpoint(*, endpoint_id: int, now=None, limit: int = 100) -> int:
    """Send the endpoint's pending deliveries in order while they succeed (or are given up), unless another sender
    holds it. Returns how many were delivered.

    A delivery written while another sender held the endpoint is not lost: its own send found the endpoint held and
    gave up, but the holder looks again once it has let go."""
    delivered = 0
    for _round in range(limit):
        sent, went_on = _deliver_held(endpoint_id, now or timezone.now(), limit)
        delivered += sent
        if not went_on:
            break
        due = WebhookDelivery.objects.filter(endpoint_id=endpoint_id, status=DeliveryStatus.PENDING).order_by("pk")
        first = due.values_list("next_attempt_at", flat=True).first()
        if first is None or first > (now or timezone.now()):
            break
    return delivered


def _deliver_held(endpoint_id: int, now, limit: int) -> tuple[int, bool]:
    """(delivered, whether this sender held the endpoint)."""
    if not _hold(endpoint_id, now):
        return 0, False
    delivered = 0
    try:
        for _n in range(limit):
            delivery = (WebhookDelivery.objects.filter(endpoint_id=endpoint_id, status=DeliveryStatus.PENDING)
                        .select_related("endpoint").order_by("pk").first())
            if delivery is None or delivery.next_attempt_at > now:
                break  # nothing left, or the oldest waits for its retry: the later ones wait behind it
            if attempt(delivery, now=now):
                delivered += 1
            elif delivery.status == DeliveryStatus.PENDING:
                break
    finally:
        WebhookEndpoint.objects.filter(pk=endpoint_id).update(busy_until=None)
    return delivered, True


def deliver_due(*, now=None) -> int:
    """The periodic sweep: every endpoint with a delivery due. Returns how many were delivered."""
    return sum(deliver_endpoint(endpoint_id=pk, now=now) for pk in due_endpoint_ids(now=now))


def prune_deliveries(*, now=None) -> int:
    """Delete finished deliveries (delivered or given up) older than DIAMONDS_NOTIFICATIONS_KEEP_DAYS."""
    now = now or timezone.now()
    cutoff = now - timedelta(days=settings.DIAMONDS_NOTIFICATIONS_KEEP_DAYS)
    return WebhookDelivery.objects.exclude(status=DeliveryStatus.PENDING).filter(created_at__lt=cutoff).delete()[0]
