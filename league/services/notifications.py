"""Notifications: who is told what when a league event concerns them (league.events' `league_event`, after the
event's transaction commits), marking them read, and pruning old ones.

Recipients: a person seated at a match, and for a bot (engine or external) its owner, if it has one. Nobody is told
about anyone else's match. "Your turn" is at most one unread notification per match and person: the next one
comes only after that one was read. Email: a notification is marked `email_pending` for a person who has an email
address and has not turned email off; the workers send it (workers.tasks.send_notification_emails), "your turn"
only if it is still unread and the turn still theirs after DIAMONDS_TURN_EMAIL_AFTER_SECONDS.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.dispatch import Signal
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Match, MatchSeat, Notification, NotificationKind, Player, Tournament, TournamentEntry
from ..selectors.prepared import PreparedQuery

log = logging.getLogger(__name__)

# Sent (no arguments) after notifications were stored that may need an email: the workers' relay listens
# (workers.apps), so the sending never happens in the request.
emails_pending = Signal()


def wants_email(user) -> bool:
    """Whether the person has an address and has not turned email off (Profile.email_notifications, if present)."""
    return bool(getattr(user, "email", "")) and bool(
        getattr(getattr(user, "profile", None), "email_notifications", True))


def notify(*, user_ids: Iterable[int], kind: str, text: str, link: str = "", match_id: int | None = None) -> int:
    """Store one notification for each of these accounts. Returns how many were stored."""
    users = get_user_model().objects.filter(pk__in=set(user_ids), is_active=True)
    if kind == NotificationKind.TURN and match_id is not None:
        # Those told already and who have not read it yet (the unique constraint stands behind this under races).
        users = users.exclude(notifications__kind=kind, notifications__match_id=match_id,
                              notifications__read_at__isnull=True)
    stored = 0
    emails = False
    for user in list(users):
        pending = wants_email(user)
        try:
            with transaction.atomic():
                Notification.objects.create(recipient=user, kind=kind, text=text[:300], link=link[:300],
                                            match_id=match_id, email_pending=pending)
        except IntegrityError:  # an unread "your turn" for this match exists already: one is enough
            continue
        stored += 1
        emails = emails or pending
    if emails:
        emails_pending.send(sender=Notification)
    return stored


# ---- who is concerned by a match ---------------------------------------------------------------------------------

# Every finished match runs it (a bot match too, in the worker that played it): compiled once per process.
_SEATS = PreparedQuery(lambda match_id: MatchSeat.objects.filter(match_id=match_id).select_related("player")
                       .order_by("seat"), 1)


def _seat_recipients(match_id: int) -> list[tuple[int, MatchSeat, bool]]:
    """(account, seat, as the owner of a bot) for every seat of the match that has someone to tell."""
    return _recipients_at(_SEATS(match_id))


def _recipients_at(seats: Iterable[MatchSeat]) -> list[tuple[int, MatchSeat, bool]]:
    out = []
    for ms in seats:
        p = ms.player
        if not p.bot_kind and p.user_id is not None:
            out.append((p.user_id, ms, False))
        elif p.bot_kind and p.owner_id is not None:
            out.append((p.owner_id, ms, True))
    return out


def _match_name(match: Match) -> str:
    rnd = match.tournament_round
    if rnd is not None:
        return _("%(tournament)s, round %(round)s, table %(table)s") % {
            "tournament": rnd.tournament.name, "round": rnd.index, "table": match.table_number or 1}
    return _("match %(id)s") % {"id": match.pk}


def _on_turn_awaited(payload: dict) -> None:
    match = Match.objects.filter(pk=payload["match_id"]).select_related("tournament_round__tournament").first()
    if match is None:
        return
    # People only: an external bot's own account plays through the API and has nobody to read a notification.
    people = Player.objects.filter(user_id__in=payload.get("user_ids", []), bot_kind="").values_list("user_id",
                                                                                                    flat=True)
    notify(user_ids=people, kind=NotificationKind.TURN, match_id=match.pk,
           text=_("It is your turn in %(match)s.") % {"match": _match_name(match)},
           link=reverse("web:match", args=[match.pk]))


# A match's seats, only if one of them has an account to tell (a person's, a bot's owner's): most matches the workers
# finish are of bots nobody owns, and then the answer is no rows at all (no seat and player to build).
_SEATS_IF_ANYONE_TO_TELL = PreparedQuery(lambda match_id: MatchSeat.objects.filter(match_id=match_id).filter(
    Exists(MatchSeat.objects.filter(match_id=OuterRef("match_id")).filter(
        Q(player__user__isnull=False) | Q(player__owner__isnull=False)))).select_related("player").order_by("seat"), 1)


def _on_match_finished(payload: dict) -> None:
    # The seats first (one query): most matches the workers finish are of bots nobody owns, with nobody to tell and
    # no "your turn" to close (only accounts are told of their turn), and then that is all this costs. A match gone
    # has no seats either.
    all_seats = _SEATS_IF_ANYONE_TO_TELL(payload["match_id"])
    if any(not ms.player.bot_kind for ms in all_seats):
        # A finished match's turn is nobody's any more: its unread "your turn" would only mislead. Only people are
        # told of their turn (_on_turn_awaited), so a table of bots has none.
        Notification.objects.filter(match_id=payload["match_id"], kind=NotificationKind.TURN,
                                    read_at__isnull=True).update(read_at=timezone.now(), email_pending=False)
    seats = _recipients_at(all_seats)
    if not seats:
        return
    match = Match.objects.filter(pk=payload["match_id"]).select_related("tournament_round__tournament").first()
    if match is None:
        return
    n = len(all_seats)
    for user_id, ms, as_owner in seats:
        values = {"match": _match_name(match), "place": ms.placement or "?", "of": n, "bot": ms.player.name}
        if as_owner:
            text = _("Your bot %(bot)s finished %(match)s: place %(place)s of %(of)s.") % values
        else:
            text = _("Your match finished (%(match)s): you placed %(place)s of %(of)s.") % values
        notify(user_ids=[user_id], kind=NotificationKind.MATCH_FINISHED, text=text, match_id=match.pk,
               link=reverse("web:match", args=[match.pk]))


def _on_round_seated(payload: dict) -> None:
    tournament = Tournament.objects.filter(pk=payload["tournament_id"]).first()
    if tournament is None:
        return
    for match in Match.objects.filter(pk__in=payload.get("match_ids", [])).order_by("table_number", "pk"):
        for user_id, ms, as_owner in _seat_recipients(match.pk):
            values = {"tournament": tournament.name, "round": payload["round_number"],
                      "table": match.table_number or 1, "seat": ms.seat + 1, "bot": ms.player.name}
            if as_owner:
                text = _("Your bot %(bot)s is seated in %(tournament)s, round %(round)s: table %(table)s, "
                         "seat %(seat)s.") % values
            else:
                text = _("Your table of round %(round)s in %(tournament)s is ready: table %(table)s, "
                         "seat %(seat)s.") % values
            notify(user_ids=[user_id], kind=NotificationKind.ROUND_SEATED, text=text, match_id=match.pk,
                   link=reverse("web:match", args=[match.pk]))


def _on_tournament_finished(payload: dict) -> None:
    tournament = Tournament.objects.filter(pk=payload["tournament_id"]).first()
    if tournament is None:
        return
    recipients = set()
    for p in Player.objects.filter(pk__in=TournamentEntry.objects.filter(tournament=tournament)
                                   .values("player_id")):
        if not p.bot_kind and p.user_id is not None:
            recipients.add(p.user_id)
        elif p.bot_kind and p.owner_id is not None:
            recipients.add(p.owner_id)
    notify(user_ids=recipients, kind=NotificationKind.TOURNAMENT_FINISHED,
           text=_("%(tournament)s is over: see the final standings.") % {"tournament": tournament.name},
           link=reverse("web:tournament", args=[tournament.pk]))


def _on_bot(payload: dict, paused: bool) -> None:
    bot = Player.objects.filter(pk=payload["player_id"]).first()
    if bot is None or bot.owner_id is None:
        return
    if paused:
        reason = payload.get("reason") or ""
        text = _("Your bot %(bot)s was paused.") % {"bot": bot.name}
        if reason:
            text = _("Your bot %(bot)s was paused: %(reason)s") % {"bot": bot.name, "reason": reason}
        kind = NotificationKind.BOT_PAUSED
    else:
        text, kind = _("Your bot %(bot)s plays again.") % {"bot": bot.name}, NotificationKind.BOT_RESUMED
    notify(user_ids=[bot.owner_id], kind=kind, text=text, link=reverse("web:player", args=[bot.pk]))


_HANDLERS = {
    "turn.awaited": _on_turn_awaited,
    "match.finished": _on_match_finished,
    "round.seated": _on_round_seated,
    "tournament.finished": _on_tournament_finished,
    "bot.paused": lambda payload: _on_bot(payload, paused=True),
    "bot.resumed": lambda payload: _on_bot(payload, paused=False),
}


def on_league_event(sender, *, name: str, payload: dict, **kwargs) -> None:
    """league_event's listener (connected in league.apps)."""
    handler = _HANDLERS.get(name)
    if handler is not None:
        handler(payload)


# ---- reading them: marking read, pruning -------------------------------------------------------------------------

def mark_read(*, user, notification_id: int) -> bool:
    """Mark one of the user's notifications read. False if it is not theirs (or does not exist)."""
    found = Notification.objects.filter(pk=notification_id, recipient=user)
    if not found.exists():
        return False
    found.filter(read_at__isnull=True).update(read_at=timezone.now(), email_pending=False)
    return True


def mark_all_read(*, user) -> int:
    return Notification.objects.filter(recipient=user, read_at__isnull=True).update(
        read_at=timezone.now(), email_pending=False)


def prune(*, now=None) -> int:
    """Delete read notifications older than DIAMONDS_NOTIFICATIONS_KEEP_DAYS, and unread ones older than twice
    that. Returns how many."""
    now = now or timezone.now()
    keep = timedelta(days=settings.DIAMONDS_NOTIFICATIONS_KEEP_DAYS)
    read = Notification.objects.filter(read_at__isnull=False, created_at__lt=now - keep).delete()[0]
    unread = Notification.objects.filter(created_at__lt=now - 2 * keep).delete()[0]
    return read + unread
