"""Register players beyond the basics of league.services.matches: external bots, club membership, a signed-in
person's own Player (made on first use) and the house's engine bots that fill tables."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from ..models import Club, ClubAdmin, Player
from ..models.player import EXTERNAL_BOT
from .matches import create_bot_player, create_person_player


@transaction.atomic
def create_external_bot(*, name: str, clubs: Iterable[Club] = (), owner=None) -> Player:
    """A bot that plays through the API: a user account of its own (no password; it signs in with an API token)
    and a Player of kind "external" on it. `owner` is the account that created it (Player.acts_for)."""
    user = get_user_model().objects.create_user(username=f"bot-{name}")
    user.set_unusable_password()
    user.save(update_fields=["password"])
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


def person_player(user) -> Player:
    """The signed-in person's own Player (their first), created under their username on first use; if that name is
    another player's, under the username and a number."""
    player = Player.objects.filter(user=user, bot_kind="").order_by("pk").first()
    if player is not None:
        return player
    name = user.get_username()
    for attempt in range(5):
        try:
            with transaction.atomic():
                return create_person_player(user=user, name=name if attempt == 0 else f"{name}-{attempt + 1}")
        except IntegrityError:
            continue  # the name is another player's (or a concurrent first use made it: looked up again below)
    player = Player.objects.filter(user=user, bot_kind="").order_by("pk").first()
    return player or create_person_player(user=user, name=f"{name}-{secrets.token_hex(3)}")


def house_bots(kind: str, count: int) -> list[Player]:
    """`count` engine bots of the kind, shared by every table that needs bots (made the first time needed)."""
    bots = []
    for i in range(1, count + 1):
        name = f"house-{kind}-{i}"
        player = Player.objects.filter(name=name, bot_kind=kind).first()
        if player is None:
            try:
                with transaction.atomic():
                    player = create_bot_player(name=name, kind=kind)
            except IntegrityError:  # made meanwhile by another table
                player = Player.objects.get(name=name, bot_kind=kind)
        bots.append(player)
    return bots
