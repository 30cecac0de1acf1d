"""What follows the end of a match, wherever it ended (a worker's play, a result entered for a table of real cards, a
cancellation): its rating, its bots' conduct, its tournament round closing, its comparison's pair. The top of
league.services: this module may call any other, and none below it calls it (those that end matches,
league.services.cancellation and league.services.offline_results, call it once their transaction commits).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from ..models import ComparisonPair, LobbyTable, Match, MatchStatus, RoundStatus, TournamentRound
from ..models.match import ENDED
from ..selectors.prepared import PreparedValues
from ..selectors.standings_cache import warm_tournament_standings
from .advancing import close_round_if_over
from .bot_pausing import count_match_conduct
from .comparisons import on_match_finished as close_comparison_pair
from .ratings import apply_match_ratings, is_rated


def on_match_finished(*, match_id: int) -> None:
    """What follows the end of a match (finished or failed). Safe to call any number of times.

    Rates it if it is rated (once: league.services.ratings); if it is a tournament table and the last of its round
    to end, closes the round and then finishes the tournament, or, with auto_advance, seats and starts the next round;
    if it is a comparison's match and the last of its pair to end, records the pair and starts the next one.
    """
    found = _FINISHED_FACTS(match_id)
    if not found:
        return
    (status, ratings_applied, conduct_counted, ladder_id, round_id, tournament_id, tournament_rated, lobby_rated,
     in_comparison) = found[0]
    if status not in ENDED:
        return
    rated = is_rated(ladder_id=ladder_id, round_id=round_id, tournament_rated=tournament_rated,
                     in_rated_table=lobby_rated)
    if status == MatchStatus.FINISHED and not ratings_applied and rated:
        apply_match_ratings(match_id=match_id)
    if status == MatchStatus.FINISHED and not conduct_counted:
        count_match_conduct(match_id=match_id)
    if round_id is not None:
        close_round_if_over(round_id)
        # Its readers find the new table ready instead of waiting for it (a tournament somebody reads only).
        warm_tournament_standings(tournament_id=tournament_id)
    if in_comparison:  # a comparison's pair may be complete (league.services.comparisons; idempotent like the rest)
        close_comparison_pair(match_id=match_id)


# What on_match_finished needs to know of the match, in one query compiled once per process: every match the workers
# finish runs it, and most are neither rated nor in a tournament nor a comparison's.
_FINISHED_FACTS = PreparedValues(lambda pk: Match.objects.filter(pk=pk).values_list(
    "status", "ratings_applied", "conduct_counted", "ladder_id", "tournament_round_id",
    "tournament_round__tournament_id", "tournament_round__tournament__rated",
    Exists(LobbyTable.objects.filter(match_id=OuterRef("pk"), rated=True)),
    Exists(ComparisonPair.objects.filter(Q(candidate_match_id=OuterRef("pk")) | Q(baseline_match_id=OuterRef("pk")))),
), 1)


def catch_up_finished_matches(*, limit: int = 500) -> int:
    """Run `on_match_finished` for ended matches whose follow-up was lost (a task acknowledged, then its worker
    gone before the call): rated ones not rated yet, and rounds still running whose matches have all ended.
    Returns how many calls were made; each is harmless if another process makes it too."""
    unrated = list(
        Match.objects.filter(status=MatchStatus.FINISHED, ratings_applied=False)
        .filter(Q(ladder__isnull=False) | Q(tournament_round__tournament__rated=True))
        .values_list("pk", flat=True)[:limit]
    )
    # and finished ones whose bots' missed deadlines have not counted towards pausing them yet
    uncounted = list(Match.objects.filter(status=MatchStatus.FINISHED, conduct_counted=False)
                     .exclude(pk__in=unrated).values_list("pk", flat=True)[:limit])
    for match_id in unrated + uncounted:
        on_match_finished(match_id=match_id)
    open_matches = Match.objects.filter(tournament_round=OuterRef("pk")).exclude(status__in=ENDED)
    stuck = list(
        TournamentRound.objects.filter(status=RoundStatus.RUNNING).exclude(Exists(open_matches))
        .values_list("pk", flat=True)[:limit]
    )
    for round_id in stuck:
        close_round_if_over(round_id)
    return len(unrated) + len(uncounted) + len(stuck)
