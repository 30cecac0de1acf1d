"""Email for notifications: sent by the workers' sweep (workers.tasks.send_notification_emails), never in a request.

A notification marked `email_pending` (league.services.notifications: the person has an address and wants email)
is sent once. "Your turn" is the exception, being too frequent: it is sent only if, DIAMONDS_TURN_EMAIL_AFTER_SECONDS
after it was made, it is still unread and the decision is still awaited from that person; otherwise it is dropped.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core.mail import send_mail
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from ..models import MatchSeat, Notification, NotificationKind
from .notifications import wants_email

log = logging.getLogger(__name__)


def _absolute(link: str) -> str:
    base = settings.DIAMONDS_SITE_URL.rstrip("/")
    return f"{base}{link}" if link and base else link


def send_due_emails(*, now=None, limit: int = 200) -> int:
    """Send the emails that are due. Returns how many were sent."""
    now = now or timezone.now()
    turn_after = now - timedelta(seconds=settings.DIAMONDS_TURN_EMAIL_AFTER_SECONDS)
    due = list(
        Notification.objects.filter(email_pending=True)
        .filter(~Q(kind=NotificationKind.TURN) | Q(created_at__lte=turn_after))
        .select_related("recipient").order_by("pk")[:limit]
    )
    sent = 0
    for n in due:
        # Take it: another sweep running at the same moment does not send it too.
        if not Notification.objects.filter(pk=n.pk, email_pending=True).update(email_pending=False):
            continue
        user = n.recipient
        if not wants_email(user) or n.read_at is not None:
            continue
        if n.kind == NotificationKind.TURN and (n.match_id is None or not MatchSeat.objects.filter(
                match_id=n.match_id, awaiting=True, player__user=user).exists()):
            continue  # played since (or the match ended): no need to remind them
        with translation.override(settings.LANGUAGE_CODE):
            subject = _("Diamonds League: %(text)s") % {"text": n.text}
            body = render_to_string("league/email/notification.txt",
                                    {"recipient": user, "notification": n, "link": _absolute(n.link)})
        try:
            send_mail(subject[:150], body, None, [user.email])
        except Exception as e:  # noqa: BLE001 - a mail server down: try again at the next sweep
            log.warning("could not email notification %s: %s", n.pk, e)
            Notification.objects.filter(pk=n.pk).update(email_pending=True)
            continue
        Notification.objects.filter(pk=n.pk).update(emailed_at=timezone.now())
        sent += 1
    return sent
