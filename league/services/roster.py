"""A club's roster of guests: people without accounts who play at the club's evenings (Player.guest_club).

Organisers add guests by name (pasted one a line, or from a CSV file with a `name` column), each name going through
league.services.names like every player's, after a preview that names each bad line: nothing is created until every
line is good and the organiser confirms. They rename a guest and merge two guests who are the same person.

A guest claims their history with a one-time code (league.models.ClaimCode) an organiser hands them: signed in to
their own verified account, they confirm on a form, and the guest's seats, entries, results and rating become their
account's person player (`claim_guest`). Nobody's account is bound by anyone else's action: the code alone does
nothing until its holder, signed in, posts the confirmation.

Merging (two guests, or a guest into the person claiming it) moves the history: seats, tournament entries (with their
private links and check-ins), places in a season's divisions, ratings and rating history, result versions entered
through a link, club memberships. It is refused when the two sat at the same match, are entered in the same
tournament or are in divisions of the same season (one person cannot have held two seats), and when both have rated
results in the same context: ratings are updated match by match (OpenSkill, league.services.ratings), so two
histories cannot be added up after the fact, and recomputing them would change every opponent's rating since; one
side's rating simply carries over when the other has none there.
"""

from __future__ import annotations

import csv
import io
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import (
    ClaimCode,
    Club,
    DivisionMember,
    LadderEntry,
    LobbySeat,
    MatchSeat,
    MembershipRequest,
    Player,
    Rating,
    RatingHistory,
    ResultEntry,
    TournamentEntry,
)
from ..names import name_key
from ..selectors.accounts import person_player
from ..selectors.roster import code_digest
from .names import NameRefused, checked_name, name_written

# At most this many names at once (pasted or in a file): a club's roster, not a phone book.
ROSTER_LINES_MAX = 500
# A roster file is a few kilobytes; anything much bigger is not one.
ROSTER_FILE_BYTES_MAX = 100_000
# What a spreadsheet would run as a formula if the name were exported to one (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# How long a claim code stays good.
CLAIM_CODE_DAYS = 30


class RosterError(ValueError):
    """A roster change that cannot be made (a bad file, a bad line, a merge refused); the message says why."""


@dataclass(frozen=True)
class RosterLine:
    """One line of a paste or a file as the preview shows it: its number, the name as typed, the name as it would be
    stored, and what is wrong with it (None: it is good)."""
    number: int
    typed: str
    name: str
    problem: str | None


def pasted_names(text: str) -> list[tuple[int, str]]:
    """The pasted lines that hold something, with their line numbers (blank lines between names are no mistake)."""
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


def csv_names(data: bytes) -> list[tuple[int, str]]:
    """The `name` column of a roster file, with each row's line number (RosterError when it is not such a file).
    Other columns are allowed and ignored; a row with an empty name is kept, so the preview names it."""
    if len(data) > ROSTER_FILE_BYTES_MAX:
        raise RosterError(_("The file is too big for a roster: at most %(kb)d kB.") % {
            "kb": ROSTER_FILE_BYTES_MAX // 1000})
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError(_("The file is not a CSV file in UTF-8 text.")) from None
    if "\x00" in text:
        raise RosterError(_("The file is not a CSV file in UTF-8 text."))
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        header = next(reader, None)
        if header is None:
            raise RosterError(_("The file is empty."))
        columns = [h.strip().casefold() for h in header]
        if "name" not in columns:
            raise RosterError(_("The file's first line names its columns, one of them “name”."))
        at = columns.index("name")
        rows = []
        for row in reader:
            if not any(cell.strip() for cell in row):
                continue
            rows.append((reader.line_num, row[at] if at < len(row) else ""))
            if len(rows) > ROSTER_LINES_MAX:
                break
    except csv.Error as e:
        raise RosterError(_("The file is not a CSV file the roster can read: %(error)s") % {"error": e}) from None
    return rows


def preview_guests(lines: list[tuple[int, str]]) -> list[RosterLine]:
    """Each line as it would be added, with what is wrong with it: empty, too long, reserved for the house's bots,
    another player's name or too like it, the same as an earlier line, or a spreadsheet formula. Creates nothing."""
    if len(lines) > ROSTER_LINES_MAX:
        raise RosterError(_("At most %(most)d names at once.") % {"most": ROSTER_LINES_MAX})
    seen: dict[str, int] = {}
    out = []
    for number, typed in lines:
        problem: str | None = None
        name = ""
        try:
            name = checked_name(typed)
        except NameRefused as e:
            problem = str(e)
        if problem is None and name.startswith(FORMULA_STARTS):
            problem = _("A name may not begin with = + - or @ (a spreadsheet would read it as a formula).")
        if problem is None:
            key = name_key(name)
            if key in seen:
                problem = _("The same name as line %(line)d, or too like it.") % {"line": seen[key]}
            else:
                seen[key] = number
        out.append(RosterLine(number, typed[:120], name, problem))
    return out


@transaction.atomic
def add_guests(*, club: Club, names: list[str]) -> list[Player]:
    """Guests on the club's roster (and members of the club), one per name: all of them, or none and RosterError
    naming the bad lines (the preview's rule, checked again: another request may have taken a name since)."""
    preview = preview_guests(list(enumerate(names, start=1)))
    bad = [line for line in preview if line.problem]
    if bad:
        raise RosterError("; ".join(f"{line.typed or '∅'}: {line.problem}" for line in bad))
    if not preview:
        raise RosterError(_("Give at least one name."))
    made = []
    for line in preview:
        try:
            with name_written(line.name):
                guest = Player.objects.create(name=line.name, guest_club=club)
        except NameRefused as e:
            raise RosterError(f"{line.name}: {e}") from None
        guest.clubs.add(club)
        made.append(guest)
    return made


@transaction.atomic
def rename_guest(*, guest: Player, name: str) -> Player:
    """The guest's new name (NameRefused, as for every player's name)."""
    if not guest.is_guest:
        raise RosterError(_("Only a guest is renamed on the roster: a person renames themselves."))
    name = checked_name(name, except_player=guest)
    with name_written(name, except_player=guest):
        guest.name = name
        guest.save(update_fields=["name"])
    return guest


# ---- merging ------------------------------------------------------------------------------------------------------

def _refusal_to_merge(source: Player, target: Player) -> str | None:
    if source.pk == target.pk:
        return _("A player is merged into another player.")
    shared = MatchSeat.objects.filter(player=source, match__match_seats__player=target).exists()
    if shared:
        return _("%(a)s and %(b)s sat at the same match: they are two people.") % {"a": source.name, "b": target.name}
    both = TournamentEntry.objects.filter(player=source, tournament__entries__player=target).exists()
    if both:
        return _("%(a)s and %(b)s are entered in the same tournament: take one of them out first.") % {
            "a": source.name, "b": target.name}
    if DivisionMember.objects.filter(player=source, season__division_members__player=target).exists():
        return _("%(a)s and %(b)s are both in a division of the same season: take one of them out first.") % {
            "a": source.name, "b": target.name}
    if (LadderEntry.objects.filter(player=source).exists() or LobbySeat.objects.filter(player=source).exists()
            or source.hosted_tables.exists() or source.comparisons_as_candidate.exists()
            or source.comparisons_as_baseline.exists()):
        return _("%(name)s plays ladders or the lobby: only a guest's history is moved.") % {"name": source.name}
    for rating in Rating.objects.filter(player=source, matches__gt=0):
        context = Q(ladder_id=rating.ladder_id) if rating.ladder_id else Q(ladder__isnull=True, game=rating.game)
        if Rating.objects.filter(context, player=target, matches__gt=0).exists():
            return _("%(a)s and %(b)s both have rated results (%(game)s): ratings are updated match by match, so two "
                     "histories cannot be added up.") % {"a": source.name, "b": target.name, "game": rating.game}
    return None


def _move_history(source: Player, target: Player) -> None:
    """Everything of `source`'s that a guest can have, moved to `target` (the refusals were checked)."""
    for rating in Rating.objects.filter(player=source):
        context = Q(ladder_id=rating.ladder_id) if rating.ladder_id else Q(ladder__isnull=True, game=rating.game)
        theirs = Rating.objects.filter(context, player=target).first()
        if theirs is None or theirs.matches == 0:
            if theirs is not None:
                theirs.delete()
            Rating.objects.filter(pk=rating.pk).update(player=target)
        else:
            rating.delete()  # it has no rated result (the refusal saw to that): the other's rating stands
    RatingHistory.objects.filter(player=source).update(player=target)
    MatchSeat.objects.filter(player=source).update(player=target)
    TournamentEntry.objects.filter(player=source).update(player=target)
    DivisionMember.objects.filter(player=source).update(player=target)
    ResultEntry.objects.filter(entered_by_player=source).update(entered_by_player=target)
    ResultEntry.objects.filter(decided_by_player=source).update(decided_by_player=target)
    for club in source.clubs.all():
        target.clubs.add(club)
    MembershipRequest.objects.filter(player=source).delete()
    ClaimCode.objects.filter(guest=source, used_at__isnull=True, revoked_at__isnull=True).update(
        revoked_at=timezone.now())


def _locked(*players: Player) -> list[Player]:
    rows = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[p.pk for p in players])
            .order_by("pk")}
    return [rows[p.pk] for p in players]


@transaction.atomic
def merge_guests(*, club: Club, source: Player, target: Player) -> Player:
    """Merge two guests of the club's roster who are the same person: `source`'s history goes to `target`, and
    `source` is no more. RosterError when refused (module docstring)."""
    source, target = _locked(source, target)
    if source.guest_club_id != club.pk or target.guest_club_id != club.pk:
        raise RosterError(_("Only two guests of this club's roster are merged."))
    refusal = _refusal_to_merge(source, target)
    if refusal:
        raise RosterError(refusal)
    _move_history(source, target)
    source.delete()
    return target


# ---- claiming a guest's history ----------------------------------------------------------------------------------

@transaction.atomic
def issue_claim_code(*, guest: Player, by) -> str:
    """A new one-time code for the guest's history, to hand to them: shown once (only its digest is kept). The
    guest's earlier codes that are not used are revoked: one good code at a time."""
    if not guest.is_guest:
        raise RosterError(_("Only a guest's history is claimed."))
    now = timezone.now()
    ClaimCode.objects.filter(guest=guest, used_at__isnull=True, revoked_at__isnull=True).update(revoked_at=now)
    code = secrets.token_urlsafe(32)
    ClaimCode.objects.create(guest=guest, digest=code_digest(code), created_by=by,
                             expires_at=now + timedelta(days=CLAIM_CODE_DAYS))
    return code


@transaction.atomic
def revoke_claim_codes(*, guest: Player) -> int:
    """Revoke the guest's codes not used yet; how many."""
    return ClaimCode.objects.filter(guest=guest, used_at__isnull=True, revoked_at__isnull=True).update(
        revoked_at=timezone.now())


def refusal_of_code(claim: ClaimCode | None, now=None) -> str | None:
    """Why the code cannot be used (None: it can)."""
    now = now or timezone.now()
    if claim is None or claim.revoked_at is not None:
        return _("This claim code is not valid (it may have been revoked): ask the club's organisers for a new one.")
    if claim.used_at is not None:
        return _("This claim code has been used already.")
    if claim.expires_at <= now:
        return _("This claim code has expired: ask the club's organisers for a new one.")
    if claim.guest is None or not claim.guest.is_guest:
        return _("This history has been claimed already.")
    return None


@transaction.atomic
def claim_guest(*, user, code: str) -> Player:
    """Bind the guest's history to the signed-in `user`'s person player (made now if the account has none): the
    guest's seats, entries, results and rating become theirs (merged as merge_guests merges; RosterError when
    refused) and the guest is no more. The code is used once. The caller checked that `user` is signed in, verified,
    and is the one confirming (their own POST)."""
    # The code's row held (of itself only: its guest may be gone, the nullable side of the join) so a code sent by
    # two accounts at once is used once.
    claim = (ClaimCode.objects.select_for_update(of=("self",)).select_related("guest")
             .filter(digest=code_digest(code)).first())
    refusal = refusal_of_code(claim)
    if refusal:
        raise RosterError(refusal)
    assert claim is not None and claim.guest is not None
    person = person_player(user)
    guest = claim.guest
    now = timezone.now()
    if person is None:
        # No person player yet: the guest becomes the account's, history, rating and name as they are.
        guest = _locked(guest)[0]
        guest.user, guest.guest_club = user, None
        guest.save(update_fields=["user", "guest_club"])
        ClaimCode.objects.filter(pk=claim.pk).update(used_at=now, used_by=user)
        return guest
    guest, person = _locked(guest, person)
    refusal = _refusal_to_merge(guest, person)
    if refusal:
        raise RosterError(refusal)
    ClaimCode.objects.filter(pk=claim.pk).update(used_at=now, used_by=user)
    _move_history(guest, person)
    guest.delete()
    return person
