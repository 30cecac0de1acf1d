"""Register players beyond the basics of league.services.matches: external bots, club membership, a signed-in
person's own Player (made on first use) and the house's engine bots that fill tables."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token

from ..models import Club, ClubAdmin, Player
from ..models.player import EXTERNAL_BOT
from .caps import hold_account
from .matches import create_bot_player
from .names import checked_name, house_bot_name, name_written


@transaction.atomic
def create_external_bot(*, name: str, clubs: Iterable[Club] = (), owner=None) -> Player:
    """A bot that plays through the API: a user account of its own (no password; it signs in with an API token)
    and a Player of kind "external" on it. `owner` is the account that created it (Player.acts_for). The name
    follows league.services.names' rule (NameRefused)."""
    name = checked_name(name)
    user = get_user_model().objects.create_user(username=f"bot-{name}")
    user.set_unusable_password()
    user.save(update_fields=["password"])
    with name_written(name):
        player = Player.objects.create(name=name, user=user, bot_kind=EXTERNAL_BOT, owner=owner)
    player.clubs.set(list(clubs))
    return player


@transaction.atomic
def join_club(*, club: Club, player: Player) -> None:
    player.clubs.add(club)


@transaction.atomic
def add_club_admin(*, club: Club, user) -> ClubAdmin:
    admin, _ = ClubAdmin.objects.get_or_create(club=club, user=user)
    return admin


def _bot_user_id(player: Player) -> int:
    """The account an external bot's token belongs to (every external bot has one: create_external_bot)."""
    if not player.is_external_bot or player.user_id is None:
        raise ValueError(_("only an external bot has a token"))
    return player.user_id


@transaction.atomic
def regenerate_bot_token(*, player: Player) -> str:
    """A new API token for an external bot: the old one is refused from now on (tokens are read from the database
    on every request: api.authentication). Returns the new key, to be shown once."""
    user_id = _bot_user_id(player)
    # One token per account: two requests at once would both delete the old one and both create one.
    hold_account(player.user)
    Token.objects.filter(user_id=user_id).delete()
    return Token.objects.create(user_id=user_id).key


@transaction.atomic
def revoke_bot_token(*, player: Player) -> bool:
    """The bot can no longer sign in until its owner makes it a new token. Returns whether it had one."""
    deleted, _n = Token.objects.filter(user_id=_bot_user_id(player)).delete()
    return bool(deleted)

def house_bots(kind: str, count: int) -> list[Player]:
    """`count` engine bots of the kind, shared by every table that needs bots (made the first time needed). Found by
    their slot, never by name: a player who took the name "house-<kind>-<n>" before such names were kept for the
    house keeps it, and the house's bot gets a numbered variant of it."""
    return [_house_bot(kind, f"{kind}-{i}") for i in range(1, count + 1)]


def _house_bot(kind: str, slot: str) -> Player:
    player = Player.objects.filter(house_slot=slot).first()
    if player is not None:
        return player
    name, n = house_bot_name(slot), 1
    while True:
        try:
            with transaction.atomic():
                return create_bot_player(name=name, kind=kind, house_slot=slot)
        except IntegrityError:  # the slot made meanwhile by another table, or the name someone else's
            player = Player.objects.filter(house_slot=slot).first()
            if player is not None:
                return player
            n += 1
            name = f"{house_bot_name(slot)}-{n}"
