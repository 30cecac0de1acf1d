"""The rule for every name a player is given (sign-up, profile, bots made on the API, the website or by command):
stored normalised (league.names), refused when empty, too long, reserved for the house's bots, or when it looks
like another player's name."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..models import Player
from ..models.player import NAME_MAX_LENGTH
from ..names import name_key, normalised

# The house's bots that fill lobby tables are called "house-<kind>-<n>" (players.house_bots): no one else may take a
# name that begins like that, whatever bot kinds come later.
HOUSE_PREFIX = "house-"


class NameRefused(ValueError):
    """A name a player may not have; the message says why, for the person who chose it. `taken`: another player has
    the name or one that looks like it (a conflict with what exists, not a malformed name)."""

    def __init__(self, message: str, *, taken: bool = False):
        super().__init__(message)
        self.taken = taken


def house_bot_name(slot: str) -> str:
    return f"{HOUSE_PREFIX}{slot}"


def kept_for_the_house(name: str) -> bool:
    """Whether the name begins like a house bot's (in any look-alike form)."""
    return name_key(name).startswith(name_key(HOUSE_PREFIX))


def checked_name(name: str, *, except_player: Player | None = None) -> str:
    """The name as it is stored (league.names.normalised), or NameRefused. `except_player` is the player being
    renamed, whose own name is no obstacle."""
    name = normalised(name)
    if not name or len(name) > NAME_MAX_LENGTH:
        raise NameRefused(_("A name has 1 to %(max)d visible characters.") % {"max": NAME_MAX_LENGTH})
    if kept_for_the_house(name):
        raise NameRefused(_("Names that begin like “%(prefix)s” are kept for the house's bots.")
                          % {"prefix": HOUSE_PREFIX})
    others = Player.objects.filter(name_key=name_key(name))
    if except_player is not None:
        others = others.exclude(pk=except_player.pk)
    other = others.only("name").first()
    if other is not None:
        if other.name.casefold() == name.casefold():
            raise NameRefused(_("Another player is already called %(name)s.") % {"name": other.name}, taken=True)
        raise NameRefused(_("The name %(name)s is taken: it looks too much like %(other)s, another player's name.")
                          % {"name": name, "other": other.name}, taken=True)
    return name


@contextmanager
def name_written(name: str, *, except_player: Player | None = None) -> Iterator[None]:
    """Around the write of a player's `name` (checked first with checked_name): the write in a savepoint, and a clash
    with the unique look-alike key, a look-alike name stored by another request since the check, refused as the
    check refuses it (NameRefused, taken, naming the other player). Any other IntegrityError goes on up."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        # The clashing row is committed by now (PostgreSQL makes the second writer wait for the first), so the
        # check finds it and says whose name it is.
        checked_name(name, except_player=except_player)
        raise


def name_is_free(name: str) -> bool:
    """Whether `name` could be given to a new player now."""
    try:
        checked_name(name)
    except NameRefused:
        return False
    return True
