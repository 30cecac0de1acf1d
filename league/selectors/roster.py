"""Reading a club's roster of guests (people without accounts, Player.guest_club) and who an organiser may enter in
the club's tournaments."""

from __future__ import annotations

import hashlib

from django.db.models import Count, QuerySet

from ..models import ClaimCode, Club, Player, Tournament

# The most entrants the entering form lists at once (a club evening's people, not a whole city).
ENTERABLE_SHOWN = 300


def guests_of(club: Club) -> QuerySet[Player]:
    """The club's guests by name, each with how many matches they sat at."""
    return Player.objects.filter(guest_club=club).annotate(seat_count=Count("match_seats")).order_by("name")


def guest_of(club: Club, pk: int) -> Player | None:
    return Player.objects.filter(guest_club=club, pk=pk).first()


def enterable(tournament: Tournament) -> list[Player]:
    """The people an organiser may enter in the club's tournament and has not: its guests (when its tables are played
    with real cards: a guest plays no online table) and its members who are people, by name (the club's bots have
    their own list: competitions.bots_to_register)."""
    if tournament.club_id is None:
        return []
    pool = Player.objects.filter(clubs=tournament.club_id, bot_kind="")
    if not tournament.offline_tables:
        pool = pool.filter(guest_club__isnull=True)
    return list(pool.exclude(tournament_entries__tournament=tournament).exclude(paused_at__isnull=False)
                .order_by("name").distinct()[:ENTERABLE_SHOWN])


def code_digest(code: str) -> str:
    """What a claim code is stored as: its SHA-256, hex."""
    return hashlib.sha256(code.encode()).hexdigest()


def claim_code(code: str) -> ClaimCode | None:
    """The claim code, with its guest and the guest's club, or None."""
    if not code or len(code) > 100:
        return None
    return ClaimCode.objects.select_related("guest__guest_club").filter(digest=code_digest(code)).first()
