"""Entering tournaments, and a person leaving them. A tournament takes entries on the entrants' own side (a
person's; a bot's by its owner or its own token) while it is registering and before its registration_closes_at, its
self-entry window; leaving then removes the entry. The club's organisers register late entries too, until every
qualifying round is seated (league.services.registration). Which of the two an entry is, is who asks
(league.permissions.keeps_to_self_entry_window), never whether the entrant is a person or a bot. Once registration
has closed a person leaves by withdrawing (they are seated in no later round; results so far stay). Ladders: joining
puts the player in the pool, leaving takes them out before the next seating tick (a match in play is played to its
end).

Who may enter whom and the membership rules are league.permissions' (refusal_to_enter): the caller checks them.
These check the competition's state, under a lock on it."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..events import emit
from ..models import Player, Tournament, TournamentEntry
from ..selectors.accounts import open_for_self_entry
from .competition import TournamentError
from .registration import register_players, register_team, withdraw_player


def refusal_to_self_enter(tournament: Tournament) -> str | None:
    """Why entries on the entrants' own side (people, and bots by their owners or their own tokens) are closed now,
    and people no longer leave by removing their entry (None: the self-entry window is open)."""
    now = timezone.now()
    if open_for_self_entry(tournament, now):
        return None
    closes_at = tournament.registration_closes_at
    # Not open for entry: it started (or seated its first round), or its registration closed (open_for_self_entry).
    if tournament.status != "registering" or closes_at is None or now < closes_at:
        return _("%(tournament)s has started: registration is closed.") % {"tournament": tournament.name}
    return _("Registration for %(tournament)s closed at %(when)s.") % {
        "tournament": tournament.name, "when": closes_at.strftime("%Y-%m-%d %H:%M UTC")}


@transaction.atomic
def register_entrants(*, tournament: Tournament, players: Sequence[Player] = (),
                      teams: Sequence[Sequence[Player]] = (), self_entry_window: bool) -> list[TournamentEntry]:
    """The one way the API and the website enter players (or, with `teams`, partnership teams) in a tournament, all
    or none. With `self_entry_window` (league.permissions.keeps_to_self_entry_window) the entry keeps to the
    tournament's self-entry window, a person's and a bot's alike; without, it is the organisers' registration, open
    until every qualifying round is seated. TournamentError: the window closed, already entered, the wrong kind of
    entry."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if self_entry_window:
        refusal = refusal_to_self_enter(tournament)
        if refusal:
            raise TournamentError(refusal)
    if teams:
        return [entry for pair in teams for entry in register_team(tournament=tournament, players=pair)]
    return register_players(tournament=tournament, players=players)


def enter_tournament(*, tournament: Tournament, player: Player, self_entry_window: bool = True) -> TournamentEntry:
    """Enter the player on their own (TournamentError: registration closed, a partnership tournament, already
    entered)."""
    if tournament.partnerships:
        raise TournamentError(_("A partnership tournament takes teams: ask its organisers to enter yours."))
    return register_entrants(tournament=tournament, players=[player], self_entry_window=self_entry_window)[0]


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
        emit("tournament.changed", tournament_id=tournament.pk)
        return "removed"
    if tournament.status in ("finished", "cancelled"):
        raise TournamentError(_("%(tournament)s is over.") % {"tournament": tournament.name})
    withdraw_player(tournament=tournament, player=player)
    return "withdrawn"
