"""A person entering and leaving competitions themselves (the organisers' registration is league.services
.tournaments'). A tournament takes self-entries while it is registering and before its registration_closes_at;
leaving then removes the entry. Once registration has closed a person leaves by withdrawing (they are seated in no
later round; results so far stay). Ladders: joining puts the player in the pool, leaving takes them out before the
next seating tick (a match in play is played to its end).

Who may enter whom (only oneself) and the membership rules are league.permissions' (refusal_to_enter): the caller
checks them. These check the competition's state, under a lock on it."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Player, Tournament, TournamentEntry
from ..selectors.accounts import open_for_self_entry
from .competition import TournamentError
from .registration import register_players, withdraw_player


def refusal_to_self_enter(tournament: Tournament) -> str | None:
    """Why people may not enter or leave the tournament themselves now (None: they may)."""
    if open_for_self_entry(tournament, timezone.now()):
        return None
    closes_at = tournament.registration_closes_at
    # Still registering and not open for entry: its registration closed (open_for_self_entry).
    if tournament.status != "registering" or closes_at is None:
        return _("%(tournament)s has started: registration is closed.") % {"tournament": tournament.name}
    return _("Registration for %(tournament)s closed at %(when)s.") % {
        "tournament": tournament.name, "when": closes_at.strftime("%Y-%m-%d %H:%M UTC")}


@transaction.atomic
def enter_tournament(*, tournament: Tournament, player: Player) -> TournamentEntry:
    """Enter the player (TournamentError: registration closed, a partnership tournament, already entered)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    refusal = refusal_to_self_enter(tournament)
    if refusal:
        raise TournamentError(refusal)
    if tournament.partnerships:
        raise TournamentError(_("A partnership tournament takes teams: ask its organisers to enter yours."))
    return register_players(tournament=tournament, players=[player])[0]


@transaction.atomic
def leave_tournament(*, tournament: Tournament, player: Player) -> str:
    """Take the player out: before registration closes the entry goes ("removed"); afterwards, while it runs, they
    are withdrawn from later rounds ("withdrawn"). TournamentError when they are not in it or it is over."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
    if entry is None or not entry.active:
        raise TournamentError(_("%(player)s is not entered in %(tournament)s.") % {
            "player": player.name, "tournament": tournament.name})
    if open_for_self_entry(tournament, timezone.now()):
        # A partnership entered by its organisers leaves whole: half a team cannot be seated.
        entries = TournamentEntry.objects.filter(tournament=tournament)
        (entries.filter(team=entry.team) if entry.team is not None else entries.filter(pk=entry.pk)).delete()
        return "removed"
    if tournament.status in ("finished", "cancelled"):
        raise TournamentError(_("%(tournament)s is over.") % {"tournament": tournament.name})
    withdraw_player(tournament=tournament, player=player)
    return "withdrawn"
