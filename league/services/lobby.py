"""The lobby: tables a signed-in person opens for others to join, which become a live match when full.

Every change to a table locks its row first (select_for_update), so joins, leaves, a cancel and the start of one
table happen one after the other: two people taking the last seat at once get it one each in turn (the second finds
the table started and is told so), and a full table starts exactly one match. The LobbySeat constraints are the
last word where the database cannot lock a row (SQLite serialises writers instead).

Refusals are LobbyRefused with the HTTP status the API and the website answer with and a sentence saying why.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import InvalidRuleset
from engine.games import GAMES, game_type

from ..events import emit
from ..limits import check_clock, check_turn_deadline
from ..models import LobbySeat, LobbyStatus, LobbyTable, Player
from ..models.player import EXTERNAL_BOT
from ..permissions import refusal_at_rated_table, refusal_to_take_part
from .accounts import ensure_person
from .caps import hold_player
from .decisions import start_live_match
from .matches import create_match
from .players import house_bots

# Engine bots too slow to sit at a live table with people (Diamonds' search bot thinks for seconds per card).
SLOW_BOTS = frozenset({"search"})
# How many open tables one person may sit at (hosting or joined) at once: enough to wait at a few, too few to flood
# the lobby.
MAX_OPEN_TABLES_PER_PERSON = 3


class LobbyRefused(Exception):
    def __init__(self, message: str, status: int = 409, code: str = "conflict"):
        super().__init__(message)
        self.message, self.status, self.code = message, status, code


def _invalid(message: str) -> LobbyRefused:
    return LobbyRefused(message, 400, "invalid")


def table_bot_kinds(game: str) -> list[str]:
    """The engine bots that may fill a table of the game."""
    return sorted(set(game_type(game).bots) - SLOW_BOTS)


def _person(user) -> Player:
    """The signed-in user's person: an external bot's account has none (bots meet people through ladders and
    tournaments, not the lobby)."""
    if user is None or not user.is_authenticated:
        raise LobbyRefused(_("Sign in to sit at a table."), 401, "not_authenticated")
    if Player.objects.filter(user=user, bot_kind=EXTERNAL_BOT).exists():
        raise LobbyRefused(_("A bot's account cannot sit at a lobby table."), 403, "permission_denied")
    person = ensure_person(user)[1]
    if person is None:  # a bot's account: only external bots have one, refused above
        raise LobbyRefused(_("A bot's account cannot sit at a lobby table."), 403, "permission_denied")
    return person


def _refuse_unless_verified_for(rated: bool, user) -> None:
    """A rated table's result moves ratings: only verified people sit at one (league.selectors.accounts.verified),
    so throw-away accounts cannot farm or sink ratings. Anyone signed in may sit at an unrated table."""
    refusal = refusal_to_take_part(user) if rated else None
    if refusal:
        raise LobbyRefused(refusal, 403, "permission_denied")


def _check_room(player: Player) -> None:
    """Refuse a seat past MAX_OPEN_TABLES_PER_PERSON. The player's row stays locked until the caller's transaction
    ends, so two seats taken at once by one person are counted one after the other (league.services.caps)."""
    hold_player(player)
    # Tables past their time count no more, swept or not.
    open_seats = LobbySeat.objects.filter(player=player, table__status=LobbyStatus.OPEN,
                                          table__expires_at__gt=timezone.now()).count()
    if open_seats >= MAX_OPEN_TABLES_PER_PERSON:
        raise LobbyRefused(_("You already sit at %(n)d open tables: leave one before you take another seat.")
                           % {"n": MAX_OPEN_TABLES_PER_PERSON})


@transaction.atomic
def create_table(*, user, game: str, seats: int, options: dict | None = None, rated: bool = False,
                 public: bool = True, bot_kind: str = "", turn_deadline_seconds: int | None = None,
                 clock_bank_seconds: int | None = None, clock_increment_seconds: int = 0) -> LobbyTable:
    """An open table of `game` with `seats` seats, the signed-in `user`'s person at the first. `options` are the
    game's ruleset fields (players aside), checked by the game's engine. `bot_kind` lets the host start before the
    table is full, engine bots of that kind taking the empty seats; a rated table is for verified people only.
    `clock_bank_seconds` and `clock_increment_seconds` give its match a chess clock (league.services.clocks)."""
    if game not in GAMES:
        raise _invalid(_("Unknown game %(game)r; the games are %(games)s.") % {"game": game,
                                                                            "games": ", ".join(sorted(GAMES))})
    kind = game_type(game)
    if isinstance(seats, bool) or not isinstance(seats, int) or not kind.min_players <= seats <= kind.max_players:
        raise _invalid(_("%(title)s is for %(low)d to %(high)d players.")
                       % {"title": kind.title, "low": kind.min_players, "high": kind.max_players})
    options = dict(options or {})
    if "players" in options:
        raise _invalid(_("The number of players is the table's seats; leave it out of the options."))
    try:
        ruleset = kind.make_ruleset({**options, "players": seats})
    except (InvalidRuleset, TypeError, ValueError) as e:
        raise _invalid(str(e)) from None
    if bot_kind:
        if bot_kind not in table_bot_kinds(game):
            raise _invalid(_("%(title)s tables can be filled with %(bots)s bots, not %(bot)r.")
                           % {"title": kind.title, "bots": ", ".join(table_bot_kinds(game)), "bot": bot_kind})
        if rated:  # house bots would fill its empty seats (league.permissions.refusal_at_rated_table)
            raise _invalid(_("A rated table is for people only: it cannot be filled with bots."))
    try:
        check_turn_deadline(turn_deadline_seconds)
        clock_bank_seconds, clock_increment_seconds = check_clock(clock_bank_seconds, clock_increment_seconds)
    except ValueError as e:
        raise _invalid(str(e)) from None
    host = _person(user)
    _refuse_unless_verified_for(rated, user)
    _check_room(host)
    table = LobbyTable.objects.create(
        game=game, seats=seats, ruleset=ruleset.to_dict(), rated=bool(rated), public=bool(public), bot_kind=bot_kind,
        turn_deadline_seconds=turn_deadline_seconds, clock_bank_seconds=clock_bank_seconds,
        clock_increment_seconds=clock_increment_seconds, host=host, token=secrets.token_urlsafe(24),
        expires_at=timezone.now() + timedelta(minutes=settings.DIAMONDS_LOBBY_OPEN_MINUTES),
    )
    LobbySeat.objects.create(table=table, seat=0, player=host)
    emit("lobby.changed", table_id=table.pk)
    return table


def _locked(table_id: int) -> LobbyTable:
    table = LobbyTable.objects.select_for_update().filter(pk=table_id).first()
    if table is None:
        raise LobbyRefused(_("No such table."), 404, "not_found")
    return table


def _refuse_unless_open(table: LobbyTable) -> None:
    if table.status == LobbyStatus.STARTED:
        raise LobbyRefused(_("This table has started its game already."))
    if table.status == LobbyStatus.CANCELLED:
        raise LobbyRefused(_("This table was cancelled by its host."))
    if table.status == LobbyStatus.EXPIRED or table.expires_at <= timezone.now():
        raise LobbyRefused(_("This table expired: nobody filled it in time."))


def join_table(*, user, table_id: int, token: str = "") -> LobbyTable:
    """Seat the signed-in `user`'s person at the open table (a private one only with its invitation `token`; a rated
    one only a verified person); the table's last seat starts its match."""
    try:
        with transaction.atomic():
            table = _locked(table_id)
            if not table.public and not secrets.compare_digest(str(token or ""), table.token):
                # Without the link a private table does not exist as far as the asker can tell.
                raise LobbyRefused(_("No such table."), 404, "not_found")
            _refuse_unless_open(table)
            player = _person(user)
            _refuse_unless_verified_for(table.rated, user)
            taken = {s.seat: s.player_id for s in table.lobby_seats.all()}
            if player.pk in taken.values():
                raise LobbyRefused(_("You already sit at this table."))
            if len(taken) >= table.seats:
                raise LobbyRefused(_("This table is full."))
            _check_room(player)
            free = min(s for s in range(table.seats) if s not in taken)
            LobbySeat.objects.create(table=table, seat=free, player=player)
            if len(taken) + 1 == table.seats:
                _start(table)
            emit("lobby.changed", table_id=table.pk)
            return table
    except IntegrityError:
        # Only where rows cannot be locked: someone took the seat (or this person joined) at the same moment.
        raise LobbyRefused(_("Someone took that seat at the same moment: look at the table again.")) from None


@transaction.atomic
def leave_table(*, user, table_id: int) -> LobbyTable:
    """Take the signed-in `user`'s person from an open table. The host cancels instead."""
    table = _locked(table_id)
    _refuse_unless_open(table)
    seat = LobbySeat.objects.filter(table=table, player__user=user).first()
    if seat is None:
        raise LobbyRefused(_("You have no seat at this table."), 403, "permission_denied")
    if seat.player_id == table.host_id:
        raise LobbyRefused(_("You host this table: cancel it instead of leaving."))
    seat.delete()
    emit("lobby.changed", table_id=table.pk)
    return table


def _refuse_unless_host(table: LobbyTable, user) -> None:
    if not (user.is_staff or table.host.user_id == user.pk):
        raise LobbyRefused(_("Only the table's host may do this."), 403, "permission_denied")


@transaction.atomic
def cancel_table(*, user, table_id: int) -> LobbyTable:
    """The host (or staff) closes an open table: nobody plays it."""
    table = _locked(table_id)
    _refuse_unless_host(table, user)
    if table.status == LobbyStatus.CANCELLED:
        return table  # cancelling twice changes nothing
    _refuse_unless_open(table)
    table.status, table.closed_at = LobbyStatus.CANCELLED, timezone.now()
    table.save(update_fields=["status", "closed_at"])
    emit("lobby.changed", table_id=table.pk)
    return table


@transaction.atomic
def start_with_bots(*, user, table_id: int) -> LobbyTable:
    """The host starts a table that allows bots before it is full: engine bots of its kind take the empty seats."""
    table = _locked(table_id)
    _refuse_unless_host(table, user)
    _refuse_unless_open(table)
    if not table.bot_kind:
        raise LobbyRefused(_("This table waits for people only: it starts when its last seat is taken."))
    _start(table)
    emit("lobby.changed", table_id=table.pk)
    return table


def _start(table: LobbyTable) -> None:
    """Create and start the table's match (the table row is locked by the caller, so this runs once)."""
    taken = {s.seat: s.player for s in table.lobby_seats.select_related("player")}
    empty = [s for s in range(table.seats) if s not in taken]
    bots = iter(house_bots(table.bot_kind, len(empty)) if empty else [])
    players = [taken[s] if s in taken else next(bots) for s in range(table.seats)]
    # The last word on who sits at a rated table, whatever let the seats be taken (league.permissions).
    refusal = refusal_at_rated_table(players) if table.rated else None
    if refusal:
        raise LobbyRefused(refusal)
    match = create_match(players=players, ruleset=table.ruleset, game=table.game,
                         clock_bank_seconds=table.clock_bank_seconds,
                         clock_increment_seconds=table.clock_increment_seconds)
    start_live_match(match=match, turn_deadline_seconds=table.turn_deadline_seconds)
    table.status, table.match, table.closed_at = LobbyStatus.STARTED, match, timezone.now()
    table.save(update_fields=["status", "match", "closed_at"])
    # No event of its own: "match.started" is announced where play stores the match's first step (on main).


@transaction.atomic
def expire_open_tables(*, now=None) -> int:
    """Close every open table past its `expires_at` as expired (the lobby sweep, periodic). Returns how many."""
    now = now or timezone.now()
    expired = LobbyTable.objects.filter(status=LobbyStatus.OPEN, expires_at__lte=now).update(
        status=LobbyStatus.EXPIRED, closed_at=now)
    if expired:
        emit("lobby.changed", table_id=None)
    return expired
