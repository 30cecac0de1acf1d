"""A club started by a person on the website (`found_club`: they organise it from then on), and its details, changed by
its organisers (who may is league.permissions'; the caller checks): its name, a few
lines about it, where it meets and its own website. Every value is checked here, for the website's form and the
API alike: stored normalised (league.names), refused with a message per field when it is empty, too long, a name
another club has or one that looks like it, or a website that is not an http(s) address."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..models import Club, ClubAdmin, Membership
from ..models.club import (
    CLUB_DESCRIPTION_MAX_LENGTH,
    CLUB_LOCATION_MAX_LENGTH,
    CLUB_NAME_MAX_LENGTH,
    CLUB_WEBSITE_MAX_LENGTH,
)
from ..names import name_key, normalised, plain_text

# A link on the club's page: the web's own schemes only (no javascript:, data: or file: a visitor would follow).
_WEBSITE = URLValidator(schemes=["http", "https"])


class ClubDetailsRefused(ValueError):
    """Details a club may not have: `errors` says why, field by field (name, description, location, website)."""

    def __init__(self, errors: dict[str, str]):
        super().__init__(" ".join(errors.values()))
        self.errors = errors


def _name(club: Club, value: str) -> str:
    name = normalised(value)
    if not name or len(name) > CLUB_NAME_MAX_LENGTH:
        raise ValueError(_("A club's name has 1 to %(max)d visible characters.") % {"max": CLUB_NAME_MAX_LENGTH})
    # Clubs are few: each one's look-alike key is worked out here rather than stored. A name that looks like
    # another club's (Cyrillic letters, zero for O...) would let one club pass for the other.
    key = name_key(name)
    for other in Club.objects.exclude(pk=club.pk).only("name"):
        if name_key(other.name) == key:
            if other.name.casefold() == name.casefold():
                raise ValueError(_("Another club is already called %(name)s.") % {"name": other.name})
            raise ValueError(_("The name %(name)s looks too much like %(other)s, another club's name.")
                             % {"name": name, "other": other.name})
    return name


def _bounded(text: str, most: int) -> str:
    if len(text) > most:
        raise ValueError(_("At most %(max)d characters (this has %(length)d).") % {"max": most, "length": len(text)})
    return text


def _website(value: str) -> str:
    address = normalised(value)
    if not address:
        return ""
    if "://" not in address:
        address = f"https://{address}"  # "club.example.org" as people write it
    _bounded(address, CLUB_WEBSITE_MAX_LENGTH)
    try:
        _WEBSITE(address)
    except ValidationError:
        raise ValueError(_("Give the website's address, such as https://club.example.org.")) from None
    return address


def checked_club_details(club: Club, changes: dict[str, object]) -> dict[str, str]:
    """`changes` (any of name, description, location, website) as they would be stored, or ClubDetailsRefused
    naming each refused field. A value that is not text is refused too (the API passes what it was sent)."""
    checks = {
        "name": lambda v: _name(club, v),
        "description": lambda v: _bounded(plain_text(v), CLUB_DESCRIPTION_MAX_LENGTH),
        "location": lambda v: _bounded(normalised(v), CLUB_LOCATION_MAX_LENGTH),
        "website": _website,
    }
    cleaned, errors = {}, {}
    for field, value in changes.items():
        if field not in checks:
            errors[field] = _("A club has no such detail.")
            continue
        if not isinstance(value, str):
            errors[field] = _("Give text.")
            continue
        try:
            cleaned[field] = checks[field](value)
        except ValueError as e:
            errors[field] = str(e)
    if errors:
        raise ClubDetailsRefused(errors)
    return cleaned


@transaction.atomic
def update_club_details(*, club: Club, changes: dict[str, object]) -> Club:
    """Change the club's details given in `changes` (the others stay). ClubDetailsRefused, nothing changed, for any
    refused value."""
    cleaned = checked_club_details(club, changes)
    club = Club.objects.select_for_update().get(pk=club.pk)
    if not cleaned:
        return club
    for field, value in cleaned.items():
        setattr(club, field, value)
    try:
        with transaction.atomic():
            club.save(update_fields=list(cleaned))
    except IntegrityError:  # another club took the name at the same moment
        raise ClubDetailsRefused({"name": _("Another club is already called %(name)s.")
                                  % {"name": cleaned.get("name", club.name)}}) from None
    return club


@transaction.atomic
def found_club(*, user, name: str, membership: str = Membership.OPEN, details: dict[str, object] | None = None) -> Club:
    """A new club started by `user`, who organises it from now on (who may is league.permissions.
    refusal_to_found_club; the caller checks). Its name and details (description, location, website) are checked as
    a change of details is: ClubDetailsRefused, nothing created, naming each refused field; "membership" too when it
    is neither open nor on request."""
    if membership not in Membership.values:
        raise ClubDetailsRefused({"membership": _("A club is joined at once (open) or on request.")})
    cleaned = checked_club_details(Club(), {"name": name, **(details or {})})
    try:
        with transaction.atomic():
            club = Club.objects.create(membership=membership, **cleaned)
    except IntegrityError:  # another club took the name at the same moment
        raise ClubDetailsRefused({"name": _("Another club is already called %(name)s.")
                                  % {"name": cleaned["name"]}}) from None
    ClubAdmin.objects.create(club=club, user=user)
    return club
