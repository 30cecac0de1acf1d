"""A club evening's changing field: who is present for the next round (check-in), who joined late, who dropped.

Check-in: with Tournament.check_in_required, only the active entries checked in for a round are seated in it. A
check-in is always for the *next* round (the first not seated yet): once the organiser seats it, its check-ins are
closed, and checking in then is for the round after. The club's organisers check anyone in or out; with
`self_check_in`, a player's own account checks that player in or out, nobody else's. A dropped entry cannot check in.

`present_entries` is the one place that says who a round seats (league.services.rounds.seat_round): the active
entries that have joined by then (late entries from their `joined_round`) and, with check-in, are checked in.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..events import emit
from ..models import CheckIn, Player, Tournament, TournamentEntry, TournamentRound, TournamentStatus


class CheckInError(ValueError):
    """A check-in the tournament's state does not allow (not required, over, the entry dropped)."""


def next_round_index(tournament: Tournament) -> int:
    """The index of the first round not seated yet (qualifying or final stage)."""
    last = TournamentRound.objects.filter(tournament=tournament).order_by("-index").values_list("index", flat=True)
    return (last.first() or 0) + 1


def present_entries(tournament: Tournament, round_index: int) -> list[TournamentEntry]:
    """The entries a round seats, in registration order (see the module docstring)."""
    entries = TournamentEntry.objects.filter(tournament=tournament, active=True, joined_round__lte=round_index)
    if tournament.check_in_required:
        entries = entries.filter(check_ins__round_index=round_index)
    return list(entries.select_related("player").order_by("id"))


def checked_in_ids(tournament: Tournament, round_index: int) -> set[int]:
    """The player ids checked in for the round."""
    return set(CheckIn.objects.filter(entry__tournament=tournament, round_index=round_index)
               .values_list("entry__player_id", flat=True))


def _open_entry(tournament: Tournament, player: Player) -> tuple[Tournament, TournamentEntry, int]:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not tournament.check_in_required:
        raise CheckInError(_("%(tournament)s seats every active entry: it takes no check-in")
                           % {"tournament": tournament})
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise CheckInError(_("%(tournament)s is %(status)s: check-in is closed")
                           % {"tournament": tournament, "status": tournament.get_status_display()})
    entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
    if entry is None:
        raise TournamentEntry.DoesNotExist(_("%(player)s is not entered in %(tournament)s")
                                          % {"player": player, "tournament": tournament})
    if not entry.active:
        raise CheckInError(_("%(player)s has dropped out of %(tournament)s")
                           % {"player": player, "tournament": tournament})
    # Under the tournament's row lock: a round being seated at the same moment takes the check-ins before or after.
    return tournament, entry, next_round_index(tournament)


@transaction.atomic
def check_in(*, tournament: Tournament, player: Player, by=None) -> CheckIn:
    """Check the player in for the next round (again: the same check-in). Who may is the caller's to decide
    (league.permissions.refusal_to_check_in)."""
    tournament, entry, index = _open_entry(tournament, player)
    try:
        with transaction.atomic():
            made, _ = CheckIn.objects.get_or_create(entry=entry, round_index=index,
                                                    defaults={"by": by if getattr(by, "pk", None) else None})
    except IntegrityError:  # a double tap that raced: the other one made it
        made = CheckIn.objects.get(entry=entry, round_index=index)
    emit("tournament.changed", tournament_id=tournament.pk)  # the organiser's page counts who is here
    return made


@transaction.atomic
def check_out(*, tournament: Tournament, player: Player) -> None:
    """Undo the player's check-in for the next round (a mistaken tap, or they left before it was seated)."""
    tournament, entry, index = _open_entry(tournament, player)
    CheckIn.objects.filter(entry=entry, round_index=index).delete()
    emit("tournament.changed", tournament_id=tournament.pk)
