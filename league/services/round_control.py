"""The organiser's hand on a round's seating: swap two players between tables, or seat a round again, while nothing of
it has been played that the change would undo.

A table may change while it has no result and no card has been played at it: any table of a round seated and not
started yet, and a table played with real cards (Match.offline) until a result is entered for it. An online table
of a started round is being dealt and played by then, so it is never changed. Both steps rewrite the round's
stored seating (`TournamentRound.tables`) and the tables' seats together, in one transaction under the tournament's
lock, and announce the round seated again so the players moved are told.

Partnership tables are not swapped player by player (a team sits together); they are re-seated whole.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..events import emit
from ..models import (
    Match,
    MatchSeat,
    MatchStatus,
    Player,
    ResultEntry,
    RoundStatus,
    Tournament,
    TournamentEntry,
    TournamentRound,
    TournamentStatus,
)
from .advancing import seat_next_round, start_round
from .competition import TournamentError


def _locked(tournament_round: TournamentRound) -> tuple[Tournament, TournamentRound]:
    # Tournament row first, then the round: every path takes them in this order (league.services.advancing).
    tournament = Tournament.objects.select_for_update().get(pk=tournament_round.tournament_id)
    rnd = TournamentRound.objects.select_for_update().get(pk=tournament_round.pk)
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise TournamentError(_("%(tournament)s is over: its seating no longer changes") % {"tournament": tournament})
    if rnd.status == RoundStatus.CLOSED:
        raise TournamentError(_("round %(number)s is over: its seating no longer changes") % {"number": rnd.index})
    return tournament, rnd


def _unplayed(rnd: TournamentRound, match: Match) -> bool:
    """Nothing has happened at the table that a change of seats would undo."""
    if match.status not in (MatchStatus.PENDING, MatchStatus.RUNNING) or match.move_number:
        return False
    if ResultEntry.objects.filter(match=match).exists():
        return False
    return rnd.status == RoundStatus.SEATED or match.offline


@transaction.atomic
def swap_players(*, tournament_round: TournamentRound, first: Player, second: Player) -> TournamentRound:
    """Exchange two players' seats (at two tables, or two seats of one table). TournamentError, changing nothing,
    when either is not seated in the round or a table concerned has begun (see the module docstring)."""
    tournament, rnd = _locked(tournament_round)
    if tournament.partnerships:
        raise TournamentError(_("partners sit together: re-seat the round instead of swapping one player"))
    if first.pk == second.pk:
        raise TournamentError(_("choose two different players to swap"))
    seats = {ms.player_id: ms for ms in MatchSeat.objects.select_related("match").filter(
        match__tournament_round=rnd, player_id__in=(first.pk, second.pk))}
    for player in (first, second):
        if player.pk not in seats:
            raise TournamentError(_("%(name)s has no seat in round %(number)s") % {"name": player.name,
                                                                                 "number": rnd.index})
    a, b = seats[first.pk], seats[second.pk]
    for ms in (a, b):
        if not _unplayed(rnd, ms.match):
            raise TournamentError(_("table %(table)s has begun or has a result: its players stay where they are")
                                  % {"table": ms.match.table_number})
    a_player, b_player = a.player_id, b.player_id
    MatchSeat.objects.filter(pk=a.pk).update(player_id=b_player)
    MatchSeat.objects.filter(pk=b.pk).update(player_id=a_player)
    rnd.tables = [_swapped(table, a_player, b_player) for table in rnd.tables]
    rnd.save(update_fields=["tables"])
    emit("round.seated", tournament_id=tournament.pk, round_number=rnd.index,
         match_ids=sorted({a.match_id, b.match_id}))
    return rnd


def _swapped(table: dict, one: int, other: int) -> dict:
    def exchange(ids: list) -> list:
        return [other if pid == one else one if pid == other else pid for pid in ids]
    return {**table, "seats": exchange(table["seats"]), "units": exchange(table["units"])}


@transaction.atomic
def reseat_round(*, tournament_round: TournamentRound) -> TournamentRound:
    """Seat the round again from the entrants present now (a late arrival, someone gone home): its tables go and new
    ones are planned as seating the round afresh would. Only while no table of it has begun or has a result; a round
    that was started is started again."""
    tournament, rnd = _locked(tournament_round)
    matches = list(Match.objects.filter(tournament_round=rnd))
    begun = [m for m in matches if not _unplayed(rnd, m)]
    if begun:
        raise TournamentError(_("round %(number)s has tables that have begun or have a result: it cannot be seated "
                                "again") % {"number": rnd.index})
    was_running = rnd.status == RoundStatus.RUNNING
    # Whoever entered once this round was seated was put down for the round after it (a round seated is never
    # joined: league.services.registration). Nothing of this round was played, so they sit down in it now.
    TournamentEntry.objects.filter(tournament=tournament, joined_round=rnd.index + 1,
                                   created_at__gte=rnd.created_at).update(joined_round=rnd.index)
    Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
    rnd.delete()
    fresh = seat_next_round(tournament=tournament)
    if was_running:
        start_round(tournament_round=fresh)
    return fresh
