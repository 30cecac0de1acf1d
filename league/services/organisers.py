"""Who organises a club, changed by its organisers on the website or through the API (who may is
league.permissions'; the caller checks that `by` organises the club).

- **By username**: an existing account becomes an organiser at once (not a bot's account).
- **By invitation**: an email to an address with a one-time link. The link's token is random (256 bits) and only its
  digest is stored (league.models.OrganiserInvitation); it works for DIAMONDS_ORGANISER_INVITATION_DAYS, until it is
  used or revoked, and a new invitation to the same address replaces it. Whoever opens it must be signed in, and the
  account must have confirmed that very address (allauth's confirmation): a link forwarded, leaked or opened by
  someone else's account binds nobody. Accepting is the invited person's own action (a POST from the page the link
  opens; opening the link changes nothing, so a mail scanner that follows links accepts nothing).
- **Removing**: any organiser removes any other, or themselves, but a club keeps at least one organiser: the last
  one cannot leave (site staff, who organise every club anyway, may still remove them).
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Club, ClubAdmin, InvitationStatus, OrganiserInvitation
from ..models.organiser_invitation import token_digest
from ..selectors.accounts import has_confirmed_email
from ..selectors.clubs import invitation_for_token
from .accounts import is_bot_account
from .players import add_club_admin

log = logging.getLogger(__name__)

# At most this many invitations of one club wait for an answer: invitations are emails to any address, and a club's
# organisers have no need to flood anyone's mailbox.
MAX_OPEN_INVITATIONS = 20


class OrganiserError(ValueError):
    """A change to a club's organisers that cannot be made; the message says why. `conflict`: the club's state
    does not allow it (the last organiser, an invitation no longer open), rather than a bad request."""

    def __init__(self, message: str, *, conflict: bool = False):
        super().__init__(message)
        self.conflict = conflict


def add_organiser(*, club: Club, username: str) -> tuple[ClubAdmin, bool]:
    """Make the account called `username` an organiser of the club. Returns the row and whether it is new (False:
    they organised it already). OrganiserError for no such account, an inactive one, or a bot's account."""
    user = get_user_model().objects.filter(username=username.strip()).first() if isinstance(username, str) else None
    if user is None or not user.is_active:
        raise OrganiserError(_("There is no account called %(name)s.") % {"name": str(username)[:150]})
    if is_bot_account(user):
        raise OrganiserError(_("%(name)s is a bot's account: a bot does not organise a club.")
                             % {"name": user.get_username()})
    existed = ClubAdmin.objects.filter(club=club, user=user).exists()
    return add_club_admin(club=club, user=user), not existed


@transaction.atomic
def remove_organiser(*, club: Club, user, by) -> None:
    """Stop `user` organising the club. OrganiserError when they do not, or when they are its last organiser (unless
    `by` is site staff). The club's row is locked first, so two organisers removing each other at the same moment
    cannot leave it with none."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    admins = ClubAdmin.objects.filter(club=club)
    if not admins.filter(user=user).exists():
        raise OrganiserError(_("%(name)s does not organise %(club)s.") % {"name": user.get_username(),
                                                                          "club": club.name}, conflict=True)
    if admins.count() == 1 and not by.is_staff:
        raise OrganiserError(_("%(name)s is the club's last organiser: invite or add another organiser first, so "
                               "that the club always has one.") % {"name": user.get_username()}, conflict=True)
    admins.filter(user=user).delete()


def _cleaned_email(email: object) -> str:
    address = email.strip() if isinstance(email, str) else ""
    try:
        if len(address) > 254:
            raise ValidationError("too long")
        validate_email(address)
    except ValidationError:
        raise OrganiserError(_("Give an email address, such as name@example.org.")) from None
    # Addresses are compared in any case (as allauth does), and one open invitation per address and club.
    return address.lower()


def invitation_link(token: str, *, site_url: str) -> str:
    """The address of the page that accepts an invitation: on DIAMONDS_SITE_URL when it is set, else on
    `site_url` (the caller's own origin, e.g. "https://club.example.org")."""
    path = reverse("web:organiser-invitation", args=[token])
    base = (settings.DIAMONDS_SITE_URL or site_url).rstrip("/")
    return f"{base}{path}"


def invite_organiser(*, club: Club, email: object, by, site_url: str) -> OrganiserInvitation:
    """Send an invitation to organise the club to `email` (in the language active now: the inviting organiser's),
    its link on DIAMONDS_SITE_URL or else `site_url`, the site's address as the organiser reached it.
    A pending invitation to that address is replaced (its link stops working). OrganiserError for an address that
    is not one, too many invitations open, or an email that could not be sent (then nothing is kept)."""
    address = _cleaned_email(email)
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()  # one invitation at a time per club
        pending = OrganiserInvitation.objects.filter(club=club, status=InvitationStatus.PENDING)
        pending.filter(email=address).update(status=InvitationStatus.REVOKED, decided_at=now)
        if pending.filter(expires_at__gt=now).count() >= MAX_OPEN_INVITATIONS:
            raise OrganiserError(_("%(club)s has %(count)d invitations waiting for an answer: revoke some first.")
                                 % {"club": club.name, "count": MAX_OPEN_INVITATIONS}, conflict=True)
        invitation = OrganiserInvitation.objects.create(
            club=club, email=address, token_digest=token_digest(token), invited_by=by, created_at=now,
            expires_at=now + timedelta(days=settings.DIAMONDS_ORGANISER_INVITATION_DAYS))
    link = invitation_link(token, site_url=site_url)
    subject = _("Diamonds League: %(name)s invites you to organise %(club)s") % {
        "name": by.get_username(), "club": club.name}
    body = render_to_string("league/email/organiser_invitation.txt", {
        "club": club, "inviter": by.get_username(), "link": link, "expires_at": invitation.expires_at})
    try:
        send_mail(subject[:150], body, None, [address])
    except Exception as e:  # noqa: BLE001 - a mail server down: keep no invitation nobody received
        log.warning("could not email an invitation to organise club %s: %s", club.pk, e)
        invitation.delete()
        raise OrganiserError(_("The invitation could not be emailed just now: try again in a few minutes.")) from None
    return invitation


@transaction.atomic
def revoke_invitation(*, club: Club, invitation_id: int) -> OrganiserInvitation:
    """Withdraw a pending invitation of the club: its link stops working. OrganiserError when there is no such
    pending invitation (accepted, revoked already, or another club's)."""
    invitation = OrganiserInvitation.objects.select_for_update().filter(pk=invitation_id, club=club).first()
    if invitation is None or invitation.status != InvitationStatus.PENDING:
        raise OrganiserError(_("There is no such invitation waiting for an answer."), conflict=True)
    invitation.status = InvitationStatus.REVOKED
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    return invitation


def invitation_closed(invitation: OrganiserInvitation | None, *, accepted_by=None, now=None) -> str | None:
    """Why the invitation can no longer be accepted by anyone (None: it is open, or `accepted_by` accepted it
    already, which is no refusal). The link's holder learns nothing more than that it is not usable."""
    now = now or timezone.now()
    if invitation is None:
        return _("This invitation link is not valid: check that it was copied whole.")
    if invitation.status == InvitationStatus.ACCEPTED:
        if accepted_by is not None and invitation.accepted_by_id == accepted_by.pk:
            return None
        return _("This invitation has been used already: an invitation works once.")
    if invitation.status == InvitationStatus.REVOKED:
        return _("This invitation was withdrawn by the club's organisers (or replaced by a newer one).")
    if invitation.expires_at <= now:
        return _("This invitation has expired: ask the club's organisers for a new one.")
    return None


def refusal_to_accept(invitation: OrganiserInvitation | None, user, *, now=None) -> str | None:
    """Why `user` may not accept the invitation (None: they may, or did already)."""
    signed_in = user is not None and user.is_authenticated
    closed = invitation_closed(invitation, accepted_by=user if signed_in else None, now=now)
    if closed is not None:
        return closed
    assert invitation is not None  # invitation_closed refuses a missing one
    if not signed_in:
        return _("Sign in to accept the invitation.")
    if is_bot_account(user):
        return _("A bot's account cannot organise a club.")
    if not has_confirmed_email(user, invitation.email):
        return _("This invitation was sent to an email address your account has not confirmed. Sign in with the "
                 "account of that address, or add the address to your account and confirm it (Profile, Email "
                 "addresses), then open the link again.")
    return None


@transaction.atomic
def accept_invitation(*, token: str, user) -> OrganiserInvitation:
    """The signed-in `user` accepts the invitation the token opens and organises its club from now on.
    OrganiserError (refusal_to_accept's reason) otherwise, nothing changed. A second accept by the same account
    changes nothing."""
    found = invitation_for_token(token)
    invitation = (OrganiserInvitation.objects.select_for_update().select_related("club").get(pk=found.pk)
                  if found is not None else None)
    refusal = refusal_to_accept(invitation, user)
    if refusal is not None:
        raise OrganiserError(refusal, conflict=invitation is not None)
    assert invitation is not None  # refusal_to_accept refuses a missing one
    if invitation.status == InvitationStatus.PENDING:
        add_club_admin(club=invitation.club, user=user)
        invitation.status = InvitationStatus.ACCEPTED
        invitation.accepted_by = user
        invitation.decided_at = timezone.now()
        invitation.save(update_fields=["status", "accepted_by", "decided_at"])
    return invitation
