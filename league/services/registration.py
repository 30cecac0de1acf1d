"""Entering players in a tournament (a team of two in a partnership tournament), and taking them out again.

An entry made after round 1 is seated is a late entry: it joins at the next round not seated yet
(Tournament.late_entry_points says what it scores for the rounds it missed). A withdrawn entry keeps its results so
far and is left out of the rounds seated from then on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ..events import emit
from ..models import Player, Tournament, TournamentEntry, TournamentRound, TournamentStatus
from .competition import TournamentError, check_entrants_can_play, check_guests_may_enter, check_not_paused


class AlreadyEntered(TournamentError):
    """A player registered twice (or twice in one request)."""


def _check_not_entered(tournament: Tournament, players: Sequence[Player]) -> None:
    ids = [p.pk for p in players]
    twice = sorted({p.name for p in players if ids.count(p.pk) > 1})
    if twice:
        raise AlreadyEntered(_("%(names)s named more than once") % {"names": ", ".join(twice)})
    entered = Player.objects.filter(pk__in=ids, tournament_entries__tournament=tournament).order_by("name")
    names = list(entered.values_list("name", flat=True))
    if names:
        raise AlreadyEntered(_("%(names)s already entered in %(tournament)s") % {"names": ", ".join(names),
                                                                                  "tournament": tournament})


def _create_entries(entries: Iterable[TournamentEntry]) -> list[TournamentEntry]:
    """The entries, or AlreadyEntered when a concurrent registration of one of them won the race (the unique
    constraint is the last word; the savepoint keeps the caller's transaction usable)."""
    entries = list(entries)
    try:
        with transaction.atomic():
            made = TournamentEntry.objects.bulk_create(entries)
    except IntegrityError:
        raise AlreadyEntered(_("a player was entered at the same moment by another request")) from None
    for tournament_id in sorted({e.tournament_id for e in made}):
        emit("tournament.changed", tournament_id=tournament_id)  # its open pages list the entrants (web.push)
    return made


def _open_for_registration(tournament: Tournament) -> tuple[Tournament, int]:
    """The tournament locked, and the round a new entry is first seated in: the next round not seated yet (never
    one seated or in play), while qualifying rounds are left; an entry joining after round 1 is a late entry."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        raise TournamentError(_("%(tournament)s is %(status)s: registration is closed") % {
            "tournament": tournament, "status": tournament.get_status_display()})
    seated = TournamentRound.objects.filter(tournament=tournament, stage=0).count()
    if seated >= tournament.rounds:
        raise TournamentError(_("every qualifying round of %(tournament)s is seated: too late to enter")
                              % {"tournament": tournament})
    return tournament, seated + 1


@transaction.atomic
def register_players(*, tournament: Tournament, players: Iterable[Player]) -> list[TournamentEntry]:
    """Register players for a tournament without partnerships."""
    tournament, joins = _open_for_registration(tournament)
    if tournament.partnerships:
        raise TournamentError(_("a partnership tournament registers teams (register_team)"))
    players = list(players)
    check_entrants_can_play(tournament.game, players)
    check_not_paused(players)
    check_guests_may_enter(players, club_id=tournament.club_id, offline=tournament.offline_tables)
    _check_not_entered(tournament, players)
    return _create_entries(TournamentEntry(tournament=tournament, player=p, joined_round=joins) for p in players)


def register_player(*, tournament: Tournament, player: Player) -> TournamentEntry:
    return register_players(tournament=tournament, players=[player])[0]


@transaction.atomic
def register_team(*, tournament: Tournament, players: Sequence[Player]) -> list[TournamentEntry]:
    """Register two partners as one team of a partnership tournament (R-TEAM-1)."""
    tournament, joins = _open_for_registration(tournament)
    if not tournament.partnerships:
        raise TournamentError(_("teams are for partnership tournaments"))
    if len(players) != 2 or players[0].pk == players[1].pk:
        raise TournamentError(_("a team is two different players"))
    check_entrants_can_play(tournament.game, players)
    check_not_paused(players)
    check_guests_may_enter(players, club_id=tournament.club_id, offline=tournament.offline_tables)
    _check_not_entered(tournament, players)
    last = TournamentEntry.objects.filter(tournament=tournament).order_by("-team").values_list("team", flat=True)
    team = (last.first() or 0) + 1
    return _create_entries(TournamentEntry(tournament=tournament, player=p, team=team, joined_round=joins)
                           for p in players)


@transaction.atomic
def withdraw_player(*, tournament: Tournament, player: Player) -> None:
    """Drop the player (with their partner, at partnership tables): left out of the rounds seated from now on (a
    table already seated plays on), their results so far stay in the standings, marked dropped."""
    entry = TournamentEntry.objects.select_for_update().get(tournament=tournament, player=player)
    if entry.team is not None:
        TournamentEntry.objects.filter(tournament=tournament, team=entry.team).update(active=False)
    else:
        TournamentEntry.objects.filter(pk=entry.pk).update(active=False)
    emit("tournament.changed", tournament_id=tournament.pk)


@transaction.atomic
def take_out(*, tournament: Tournament, player: Player) -> None:
    """Take a player out: before the tournament starts its entry goes (it may be entered again); once it runs, it is
    withdrawn from the rounds seated from now on (withdraw_player). Nothing for a player not entered."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = TournamentEntry.objects.filter(tournament=tournament, player=player).first()
    if entry is None:
        return
    if tournament.status != TournamentStatus.REGISTERING:
        withdraw_player(tournament=tournament, player=player)
    elif entry.team is not None:  # a partnership is entered together and leaves together
        TournamentEntry.objects.filter(tournament=tournament, team=entry.team).delete()
        emit("tournament.changed", tournament_id=tournament.pk)
    else:
        entry.delete()
        emit("tournament.changed", tournament_id=tournament.pk)

