"""Issuing and revoking tournament entrants' private links (league.models.PrivateLink says how the token is made and
why only its digest is stored). Who may: the tournament's club's organisers (league.permissions, the caller)."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from ..models import PrivateLink, Tournament, TournamentEntry
from ..selectors.private_links import link_token, token_digest


def _fresh(link: PrivateLink) -> PrivateLink:
    link.salt = secrets.token_hex(32)
    link.digest = token_digest(link_token(link))
    link.issued_at, link.revoked_at = timezone.now(), None
    return link


@transaction.atomic
def issue_link(*, entry: TournamentEntry) -> str:
    """A new link for the entrant (their old one, if any, answers nothing from now on); its token."""
    link = PrivateLink.objects.select_for_update().filter(entry=entry).first() or PrivateLink(entry=entry)
    _fresh(link).save()
    return link_token(link)


@transaction.atomic
def issue_links(*, tournament: Tournament) -> int:
    """A link for every entrant who has no live one (live links stay as they are, so slips already printed still
    open); how many were issued."""
    entries = list(TournamentEntry.objects.select_for_update().filter(tournament=tournament))
    links = {link.entry_id: link for link in PrivateLink.objects.filter(entry__in=entries)}
    issued = 0
    for entry in entries:
        link = links.get(entry.pk)
        if link is not None and link.revoked_at is None:
            continue
        _fresh(link or PrivateLink(entry=entry)).save()
        issued += 1
    return issued


@transaction.atomic
def revoke_link(*, entry: TournamentEntry) -> bool:
    """The entrant's link answers nothing from now on; whether there was a live one."""
    return bool(PrivateLink.objects.filter(entry=entry, revoked_at__isnull=True).update(revoked_at=timezone.now()))
