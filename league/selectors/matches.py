"""Reads about matches: one match, its seats, matches as lists show them, the corrections of its result, and
the bot matches a worker should pick up again."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from ..models import (
    Club,
    Ladder,
    Match,
    MatchSeat,
    MatchStatus,
    ResultCorrection,
    TournamentRound,
)


def get_match(*, match_id: int) -> Match:
    return Match.objects.get(pk=match_id)


def match_seats(match: Match) -> QuerySet[MatchSeat]:
    return MatchSeat.objects.filter(match=match).select_related("player").order_by("seat")


@dataclass(frozen=True)
class PlayedAs:
    """A seat whose player is called otherwise now than in the match's record (Match.seats): renamed since, or a
    guest whose history was merged into another player or claimed by an account (league.services.roster)."""
    seat: int
    then: str
    now: str


def seat_names(match: Match, seats: Iterable[MatchSeat] | None = None) -> list[str]:
    """Each seat's player's name as it is now, in seat order, for pages to show. The record keeps the names the
    match was made with (Match.seats: its exports, replays' input and their caches stay as played); a page shows
    who sat there by their name of today. `seats`: the match's seats with their players, if the caller has them."""
    now = {ms.seat: ms.player.name for ms in (seats if seats is not None else match_seats(match))}
    return [now.get(i, name) for i, name in enumerate(match.seats)]


def played_as(match: Match, seats: Iterable[MatchSeat] | None = None) -> list[PlayedAs]:
    """The seats whose record name differs from their player's name now (seat_names)."""
    return [PlayedAs(i, then, now) for i, (then, now) in enumerate(zip(match.seats, seat_names(match, seats),
                                                                       strict=True)) if then != now]


def matches() -> QuerySet[Match]:
    return Match.objects.all()


def match_pages() -> QuerySet[Match]:
    """Matches with what their page shows of them: the tournament of their round, the ladder and the club."""
    return Match.objects.select_related("tournament_round__tournament", "ladder", "club")


def matches_with_round() -> QuerySet[Match]:
    return Match.objects.select_related("tournament_round")


def matches_with_players() -> QuerySet[Match]:
    """Matches as the API shows them: their round and their seats' players."""
    return Match.objects.select_related("tournament_round").prefetch_related("match_seats__player")


def match_with_players(match_id: int) -> Match:
    """One match as the API shows it (matches_with_players). Raises Match.DoesNotExist."""
    return matches_with_players().get(pk=match_id)


def match_with_seat_players(match_id: int) -> Match:
    """One match with its seats' players. Raises Match.DoesNotExist."""
    return Match.objects.prefetch_related("match_seats__player").get(pk=match_id)


def listed(queryset: QuerySet[Match]) -> QuerySet[Match]:
    """Matches as the website's lists show them: their tournament, ladder and seats (with players, in seat
    order)."""
    return queryset.select_related("tournament_round__tournament", "ladder").prefetch_related(
        Prefetch("match_seats", queryset=MatchSeat.objects.select_related("player").order_by("seat")))


def matches_in_play_of(user) -> QuerySet[Match]:
    """The matches in play at which the account holds a seat, listed."""
    return listed(Match.objects.filter(match_seats__player__user=user,
                                       status__in=[MatchStatus.PENDING, MatchStatus.RUNNING]).distinct())


def finished_matches(*, club: Club | None = None) -> QuerySet[Match]:
    """Finished matches of league play (of the club, if given), listed. A comparison's games are left out: they are
    an experiment between two bots, read on the comparison's own pages (web/comparisons.py), and hundreds of them
    would bury the evening's tables."""
    found = Match.objects.filter(status=MatchStatus.FINISHED, comparison_pair_as_candidate__isnull=True,
                                 comparison_pair_as_baseline__isnull=True)
    return listed(found.filter(club=club) if club is not None else found)


def ladder_matches(ladder: Ladder) -> QuerySet[Match]:
    return listed(Match.objects.filter(ladder=ladder))


def round_matches(rnd: TournamentRound) -> QuerySet[Match]:
    return listed(Match.objects.filter(tournament_round=rnd))


def corrections_of(match: Match) -> QuerySet[ResultCorrection]:
    """The corrections of the match's result (its audit trail), with who made them."""
    return ResultCorrection.objects.filter(match=match).select_related("corrected_by")


def stalled_bot_match_ids(*, idle_seconds: int) -> list[int]:
    """Running matches with only bots at the table whose stored play has not moved for `idle_seconds`:
    their worker died without its task being delivered again."""
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    return list(
        Match.objects.filter(status=MatchStatus.RUNNING, updated_at__lt=cutoff)
        .exclude(match_seats__player__user__isnull=False)
        .order_by("updated_at")
        .values_list("pk", flat=True)
    )
