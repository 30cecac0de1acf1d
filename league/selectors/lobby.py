"""Reads of the lobby: the open public tables, a table as its viewer may see it, who sits at it, and the table a
match was played at.

The invitation token is a private table's only secret: it is shown to the people seated at the table (who share the
link) and to nobody else. A private table is seen only by those seated or holding its token.
"""

from __future__ import annotations

import secrets

from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone

from engine.games import game_type

from ..models import LobbySeat, LobbyStatus, LobbyTable

# How many open tables the lobby lists at most (the newest first): a page, not the whole table.
LIST_LIMIT = 100


def _with_seats(qs: QuerySet) -> QuerySet:
    return qs.select_related("host").prefetch_related(
        Prefetch("lobby_seats", queryset=LobbySeat.objects.select_related("player").order_by("seat")))


def open_public_tables() -> list[LobbyTable]:
    """The open public tables that have not expired, the newest first."""
    qs = LobbyTable.objects.filter(status=LobbyStatus.OPEN, public=True, expires_at__gt=timezone.now())
    return list(_with_seats(qs.annotate(taken=Count("lobby_seats")))[:LIST_LIMIT])


def my_open_tables(user) -> list[LobbyTable]:
    """The open tables the signed-in user sits at, public or private."""
    if not user.is_authenticated:
        return []
    qs = LobbyTable.objects.filter(status=LobbyStatus.OPEN, lobby_seats__player__user=user,
                                   expires_at__gt=timezone.now())
    return list(_with_seats(qs.distinct()))


def seated(table: LobbyTable, user) -> bool:
    return user.is_authenticated and any(s.player.user_id == user.pk for s in table.lobby_seats.all())


def table_for(table_id: int, user, token: str = "") -> LobbyTable | None:
    """The table if the viewer may see it: a public one, or a private one they sit at or hold the token of. None
    otherwise (so a private table's id tells a stranger nothing)."""
    table = _with_seats(LobbyTable.objects.filter(pk=table_id)).first()
    if table is None:
        return None
    if table.public or seated(table, user) or (token and secrets.compare_digest(str(token), table.token)):
        return table
    return None


def table_by_token(token: str) -> LobbyTable | None:
    if not token:
        return None
    return _with_seats(LobbyTable.objects.filter(token=token)).first()


def status_of(table: LobbyTable) -> str:
    """Its status, counting an open table past its time as expired before the sweep closes it."""
    if table.status == LobbyStatus.OPEN and table.expires_at <= timezone.now():
        return LobbyStatus.EXPIRED
    return table.status


def table_summary(table: LobbyTable, user) -> dict:
    """The table as JSON for the lobby's page script and the API: the invitation token for those seated only."""
    seats = list(table.lobby_seats.all())
    is_seated = seated(table, user)
    data = {
        "id": table.pk, "game": table.game, "game_title": game_type(table.game).title, "seats": table.seats,
        "ruleset": table.ruleset, "rated": table.rated, "public": table.public, "bot_kind": table.bot_kind,
        "turn_deadline_seconds": table.turn_deadline_seconds,
        "clock_bank_seconds": table.clock_bank_seconds, "clock_increment_seconds": table.clock_increment_seconds,
        "host": table.host.name,
        "players": [s.player.name for s in seats], "free_seats": table.seats - len(seats),
        "status": status_of(table), "match": table.match_id, "created_at": table.created_at,
        "expires_at": table.expires_at, "seated": is_seated,
        "is_host": user.is_authenticated and table.host.user_id == user.pk,
    }
    data["token"] = table.token if is_seated else None
    return data


def lobby_table_of(match) -> LobbyTable | None:
    """The lobby table the match was played at, if any (its id and whether it is rated only)."""
    return LobbyTable.objects.filter(match=match).only("pk", "rated").first()
