"""Reading private links (league.models.PrivateLink): the token a link's row stands for, the live link a token opens,
and what its page shows: the entrant's table and seat in the latest round, and nothing of anyone else's."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

from django.conf import settings
from django.db.models import QuerySet

from ..models import Match, MatchSeat, PrivateLink, Tournament, TournamentEntry

# What a token looks like (base64url of 32 bytes): anything else is no link, answered without a query.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")


def link_token(link: PrivateLink) -> str:
    """The token of the link's URL: HMAC-SHA256 under the server's key of the link's salt, base64url (256 bits)."""
    mac = hmac.new(settings.DIAMONDS_DEAL_KEY.encode(), f"private-link/{link.salt}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def live_link(token: str) -> PrivateLink | None:
    """The link the token opens, with its entrant, player and tournament; None when there is none or it is revoked."""
    if not _TOKEN.match(token or ""):
        return None
    return (PrivateLink.objects.select_related("entry__player", "entry__tournament__club")
            .filter(digest=token_digest(token), revoked_at__isnull=True).first())


def links_of(tournament: Tournament) -> dict[int, PrivateLink]:
    """The tournament's live links by entry id."""
    return {link.entry_id: link for link in PrivateLink.objects.filter(entry__tournament=tournament,
                                                                       revoked_at__isnull=True)}


def entries_with_links(tournament: Tournament) -> QuerySet[TournamentEntry]:
    return (TournamentEntry.objects.filter(tournament=tournament).select_related("player", "private_link")
            .order_by("player__name"))


@dataclass(frozen=True)
class LinkTable:
    """The entrant's table in a round: its match, their seat and who sits where (names only)."""
    match: Match
    seat: MatchSeat
    seats: list[MatchSeat]
    first_dealer: MatchSeat | None


def tables_of_entrant(entry: TournamentEntry) -> list[LinkTable]:
    """The entrant's tables in the tournament, the latest round first."""
    mine = (MatchSeat.objects.filter(player_id=entry.player_id, match__tournament_round__tournament_id=entry
                                     .tournament_id)
            .select_related("match__tournament_round").order_by("-match__tournament_round__index"))
    out = []
    for seat in mine:
        seats = sorted(MatchSeat.objects.filter(match_id=seat.match_id).select_related("player"),
                       key=lambda s: s.seat)
        first = next((s for s in seats if s.seat == seat.match.first_dealer), None)
        out.append(LinkTable(seat.match, seat, seats, first))
    return out


def links_for_sheet(tournament: Tournament) -> dict[int, str]:
    """The live links' tokens by player id, for the organisers' printed sheets and slips."""
    return {link.entry.player_id: link_token(link) for link in
            PrivateLink.objects.filter(entry__tournament=tournament, revoked_at__isnull=True).select_related("entry")}
