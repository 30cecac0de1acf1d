"""A round's tables as the room sees them: who sits where, each table's state, and everyone by name.

The projector (web/projector.py) and the organiser's evening read these. A table's state is one word for the room:
waiting (seated, not started), playing, entered (a result waits for a second player), disputed (an organiser
settles it), done, or stopped (cancelled or failed)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from ..models import EntryStatus, MatchStatus, Player, ResultEntry, Tournament, TournamentRound
from .offline import SheetTable, round_sheet


class TableState:
    WAITING = "waiting"
    PLAYING = "playing"
    ENTERED = "entered"
    DISPUTED = "disputed"
    DONE = "done"
    STOPPED = "stopped"


@dataclass(frozen=True)
class RoundTable:
    sheet: SheetTable
    state: str

    @property
    def number(self) -> int:
        return self.sheet.number


@dataclass(frozen=True)
class Placement:
    """Where one entrant sits this round, for the alphabetical list: a table and seat (counted from 1), or a bye."""

    name: str
    table: int | None
    seat: int | None


def latest_round(tournament: Tournament) -> TournamentRound | None:
    return tournament.tournament_rounds.order_by("-index").first()


def round_tables(tournament_round: TournamentRound) -> list[RoundTable]:
    sheet = round_sheet(tournament_round)
    open_entries: dict[int, set[str]] = {}
    for match_id, status in (ResultEntry.objects.filter(match__tournament_round=tournament_round,
                                                        status__in=(EntryStatus.ENTERED, EntryStatus.DISPUTED))
                             .values_list("match_id", "status")):
        open_entries.setdefault(match_id, set()).add(status)
    return [RoundTable(table, _state(table, open_entries.get(table.match.pk, set()))) for table in sheet]


def _state(table: SheetTable, open_statuses: set[str]) -> str:
    status = table.match.status
    if status == MatchStatus.FINISHED:
        return TableState.DONE
    if status in (MatchStatus.CANCELLED, MatchStatus.FAILED):
        return TableState.STOPPED
    if EntryStatus.DISPUTED in open_statuses:
        return TableState.DISPUTED
    if EntryStatus.ENTERED in open_statuses:
        return TableState.ENTERED
    if status == MatchStatus.RUNNING or table.match.offline:
        return TableState.PLAYING  # a table with real cards is being played from the moment it is seated
    return TableState.WAITING


def placements(tournament_round: TournamentRound, tables: list[RoundTable]) -> list[Placement]:
    """Everyone of the round in alphabetical order (case and accents aside), with their table and seat or bye."""
    out = [Placement(seat.player.name, table.number, seat.seat + 1) for table in tables for seat in table.sheet.seats]
    bye_ids = [unit for unit in tournament_round.byes if isinstance(unit, int)]
    out += [Placement(name, None, None)
            for name in Player.objects.filter(pk__in=bye_ids).values_list("name", flat=True)]
    return sorted(out, key=lambda p: (_alphabetical(p.name), p.table or 0))


def _alphabetical(name: str) -> str:
    """Émile sorts with the Es: accents and case aside, as a printed list of names is read."""
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()


@dataclass(frozen=True)
class MovableSeat:
    player_id: int
    name: str
    table: int
    seat: int  # counted from 1


def movable_seats(tournament_round: TournamentRound) -> list[MovableSeat]:
    """The seats an organiser may still swap (league.services.round_control decides again when asked): every seat of
    a round not started; once started, the seats of tables with real cards that have no result yet."""
    seated = tournament_round.status == "seated"
    return [MovableSeat(ms.player_id, ms.player.name, table.number, ms.seat + 1)
            for table in round_tables(tournament_round)
            if (seated and table.state in (TableState.WAITING, TableState.PLAYING))
            or (table.state == TableState.PLAYING and table.sheet.match.offline)
            for ms in table.sheet.seats]
