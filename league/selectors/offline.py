"""Reads for tables played with real cards: a round's seating as printed, a table's result versions, the tables
waiting for an organiser, and the figure boxes an entry form or a score slip has for a game."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from engine.games import game_type

from ..models import EntryStatus, Match, MatchSeat, ResultEntry, Tournament, TournamentRound


@dataclass(frozen=True)
class Unit:
    """What a row of a result form or a slip is about: a seat, or a Diamonds partnership (its seats)."""

    index: int
    seats: tuple[int, ...]
    names: tuple[str, ...]


def result_units(match: Match, seats: list[MatchSeat]) -> list[Unit]:
    """The rows an entry has one figure each for: every seat, or every team with Diamonds partnerships."""
    ruleset = game_type(match.game).stored_ruleset(match.ruleset)
    names = {ms.seat: ms.player.name for ms in seats}
    teams = getattr(ruleset, "teams", None) or tuple((s,) for s in range(len(seats)))
    return [Unit(t, tuple(members), tuple(names[s] for s in members)) for t, members in enumerate(teams)]


def figure_names(game: str) -> tuple[str, ...]:
    return game_type(game).offline_figures


@dataclass(frozen=True)
class SheetTable:
    number: int
    match: Match
    seats: list[MatchSeat]
    units: list[Unit]
    first_dealer: MatchSeat | None


def round_sheet(tournament_round: TournamentRound) -> list[SheetTable]:
    """The round's tables in number order, with who sits where and who deals (or plays) first."""
    matches = (Match.objects.filter(tournament_round=tournament_round).order_by("table_number")
               .prefetch_related("match_seats__player"))
    out = []
    for match in matches:
        seats = sorted(match.match_seats.all(), key=lambda ms: ms.seat)
        first = next((ms for ms in seats if ms.seat == match.first_dealer), None)
        out.append(SheetTable(match.table_number or 0, match, seats, result_units(match, seats), first))
    return out


def offline_matches() -> QuerySet[Match]:
    """The tables played with real cards, with their round's tournament and their club."""
    return Match.objects.select_related("tournament_round__tournament", "club").filter(offline=True)


def result_trail(match: Match) -> list[ResultEntry]:
    """Every version entered for the table, oldest first."""
    return list(ResultEntry.objects.filter(match=match).select_related("entered_by", "decided_by",
                                                                          "entered_by_player", "decided_by_player"))


def result_entry(match: Match, entry_id: int) -> ResultEntry | None:
    """One version entered for the table, or None."""
    return ResultEntry.objects.filter(match=match, pk=entry_id).first()


def disputed_matches(tournament: Tournament) -> list[Match]:
    """The tournament's tables whose players disagree about the result: the organiser settles them."""
    ids = (ResultEntry.objects.filter(match__tournament_round__tournament=tournament, status=EntryStatus.DISPUTED)
           .values_list("match_id", flat=True))
    return list(Match.objects.filter(pk__in=ids).select_related("tournament_round").order_by("tournament_round__index",
                                                                                            "table_number"))


def awaiting_confirmation(tournament: Tournament) -> set[int]:
    """The ids of the tournament's tables with an entered result nobody has confirmed yet."""
    return set(ResultEntry.objects.filter(match__tournament_round__tournament=tournament, status=EntryStatus.ENTERED)
               .values_list("match_id", flat=True))
