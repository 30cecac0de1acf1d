"""Reads about players and accounts: players by id, an account's own players, and the bots an account may pick."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet

from ..models import Player
from ..models.player import EXTERNAL_BOT


def players() -> QuerySet[Player]:
    return Player.objects.all()


def player(player_id: int | None) -> Player | None:
    """The player with this id, or None (an id of None is no player)."""
    if player_id is None:
        return None
    return Player.objects.filter(pk=player_id).first()


def players_with_ids(ids: list[int]) -> list[Player]:
    """The players found among `ids`, in no particular order (an unknown id is left out)."""
    return list(Player.objects.filter(pk__in=ids))


def players_by_id(ids: list[int]) -> dict[int, Player]:
    """The players found among `ids`, by id (an unknown id is left out)."""
    return Player.objects.in_bulk(ids)


def bots() -> QuerySet[Player]:
    """Engine and external bots: players without a person."""
    return Player.objects.exclude(bot_kind="")


def players_of_kind(found: QuerySet[Player], kind: str) -> QuerySet[Player]:
    """Those of `found` of one kind: person, external_bot, or engine_bot (any other)."""
    if kind == "person":
        return found.filter(bot_kind="")
    if kind == "external_bot":
        return found.filter(bot_kind=EXTERNAL_BOT)
    return found.exclude(bot_kind__in=["", EXTERNAL_BOT])


def players_listed() -> QuerySet[Player]:
    """Players as the API lists them: with their owner and their clubs."""
    return Player.objects.select_related("owner").prefetch_related("clubs")


def players_of_account(user) -> QuerySet[Player]:
    """The account's own players (its person, or its bot), with their clubs."""
    return Player.objects.filter(user=user).prefetch_related("clubs")


def is_bot_account(user) -> bool:
    """Whether the account is an external bot's own (a bot's token must not make bots)."""
    return Player.objects.filter(user=user, bot_kind=EXTERNAL_BOT).exists()


def account_named(username: str):
    """The account with this username, or None."""
    return get_user_model().objects.filter(username=username).first()


def bots_to_compare(user, *, every_bot: bool) -> QuerySet[Player]:
    """The bots the account may compare, by name: every engine bot and its own external bots (with `every_bot`, as
    for organisers, every bot), never a comparison's field bots."""
    bots = Player.objects.exclude(bot_kind="").exclude(name__startswith="field ")
    if not every_bot:
        bots = bots.filter(~Q(bot_kind=EXTERNAL_BOT) | Q(owner=user) | Q(user=user))
    return bots.order_by("name")


def player_pages() -> QuerySet[Player]:
    """Players with their owner (a bot's author), as their page shows them."""
    return Player.objects.select_related("owner")
