"""A person's account in the league: the Profile and the person Player every account that signs up gets (made here,
or later for accounts made before sign-up existed), and the profile's changes."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..models import Language, Player, Profile
from ..models.player import EXTERNAL_BOT
from ..models.player import NAME_MAX_LENGTH as PLAYER_NAME_MAX
from ..names import normalised
from ..selectors.accounts import person_player
from ..selectors.standings_cache import player_renamed
from .names import NameRefused, checked_name, kept_for_the_house, name_is_free, name_written

# How many names a first use tries when other requests keep taking them at the same moment.
_NAME_ATTEMPTS = 5


class AccountError(ValueError):
    """A change the account cannot make (a display name refused by league.services.names); the message says why."""


def is_bot_account(user) -> bool:
    """An external bot's own account (it signs in with a token and plays; it is no person)."""
    return Player.objects.filter(user=user, bot_kind=EXTERNAL_BOT).exists()


def _free_name(base: str) -> str:
    """`base`, or `base-2`, `base-3`... the first a new player may have (for accounts older than sign-up, whose
    username a bot may already use as its name, or one that looks like another's)."""
    base = normalised(base)[:PLAYER_NAME_MAX - 6]
    if not base or kept_for_the_house(base):
        base = "player"
    name, n = base, 1
    while not name_is_free(name):
        n += 1
        name = f"{base}-{n}"
    return name


@transaction.atomic
def ensure_person(user, *, name: str | None = None) -> tuple[Profile, Player | None]:
    """The account's profile and person player, made if missing. `name` (sign-up's display name) is used when it is
    free, else the username or a numbered variant of it. A bot's account gets a profile but never a person player."""
    profile, _created = Profile.objects.get_or_create(user=user)
    if is_bot_account(user):
        return profile, None
    player = person_player(user)
    wanted = name or ""
    chosen = normalised(wanted) if name_is_free(wanted) else ""
    for _attempt in range(_NAME_ATTEMPTS):
        if player is not None:
            break
        try:
            with transaction.atomic():
                player = Player.objects.create(name=chosen or _free_name(user.get_username()), user=user)
        except IntegrityError:
            # A concurrent first use of the same account made its player, or another request took the name (or
            # one that looks like it: the unique look-alike key) between the check and the write: take the
            # account's player, or the next free name.
            player, chosen = person_player(user), ""
    if player is None:
        raise AccountError(_("No free name could be found for this account: try again."))
    return profile, player


@transaction.atomic
def mark_made_by_administrator(user) -> Profile:
    """Say that an administrator made the account (createsuperuser, the admin, a command or a tool): it takes part
    without a confirmed email address (league.selectors.accounts.verified). Never called on sign-up."""
    profile, _created = Profile.objects.get_or_create(user=user)
    if not profile.made_by_administrator:
        profile.made_by_administrator = True
        profile.save(update_fields=["made_by_administrator"])
    return profile


def on_account_saved(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    """A new staff or superuser account (createsuperuser, or the admin with the boxes ticked) is an administrator's
    doing: no sign-up makes one. Connected in league.apps."""
    if created and not raw and (instance.is_staff or instance.is_superuser):
        mark_made_by_administrator(instance)


@transaction.atomic
def update_profile(*, user, display_name: str | None = None, language: str | None = None,
                   email_notifications: bool | None = None) -> Profile:
    """Change what the person chose: their display name (their player's name: league.services.names' rule), their
    language ("" follows the browser) and whether the league emails them. AccountError, nothing changed, for a name
    refused or a language the site does not offer."""
    profile, player = ensure_person(user)
    if language is not None:
        if language not in Language.values:
            raise AccountError(_("Unknown language: %(language)s.") % {"language": language})
        profile.language = language
    if email_notifications is not None:
        profile.email_notifications = bool(email_notifications)
    profile.save()
    if display_name is not None and player is not None:
        try:
            display_name = checked_name(display_name, except_player=player)
        except NameRefused as e:
            raise AccountError(str(e)) from e
        renamed = display_name != player.name
        player.name = display_name
        try:
            with name_written(display_name, except_player=player):
                player.save(update_fields=["name"])
        except NameRefused as e:  # taken (or a look-alike of it) at the same moment by another request
            raise AccountError(str(e)) from e
        if renamed:
            transaction.on_commit(player_renamed)  # the standings show the new name at once
    return profile


@transaction.atomic
def account_made_by_command(*, username: str, password: str):
    """An account a management command makes for a person to sign in with (the demo's organiser), with its profile
    and person player; an existing one of that username gets `password` as its new password. The one place such
    accounts are made, so what marks them as made by an administrator is added here."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        user = get_user_model().objects.create_user(username=username, password=password)
    else:
        user.set_password(password)
        user.is_active = True
        user.save(update_fields=["password", "is_active"])
    mark_made_by_administrator(user)  # it signs in and takes part without an email address: the command vouches
    ensure_person(user, name=username)
    return user
