"""An organiser stops a match or a whole tournament: its status becomes "cancelled", for good. A comparison's
author stops their comparison the same way (stop_comparison: its pair in play is cancelled).

A cancelled match is ended like a finished or failed one (league.models.match.ENDED): its round can close without
it, the sweeps leave it alone, decisions on it are refused (409), and nothing counts it: standings, ratings and
public records read finished matches only. What it stored stays, for the record of what happened.

A match being played stops by itself: the stores write a step only while the match is in play, and the play
loops look at its status between decisions (league.services.stopping). So cancelling is one write here, and no
message to a worker that might be down.

Cancelling a tournament cancels every match of it still in play, closes its rounds that are not closed and seats
no round any more (league.services.rounds refuses to); what its finished matches earned stays in its
standings. Both are safe to repeat: a second cancel changes nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..events import emit
from ..models import (
    Comparison,
    ComparisonStatus,
    Match,
    MatchSeat,
    MatchStatus,
    PairStatus,
    RoundStatus,
    Tournament,
    TournamentRound,
    TournamentStatus,
)
from ..models.match import IN_PLAY
from .comparisons import ComparisonRefused, close_pair, refusal_to_stop
from .match_finished import on_match_finished


class NotCancellable(Exception):
    """The match or tournament has already ended (finished or failed): there is nothing left to stop."""


def _note(by: str, reason: str) -> str:
    note = f"cancelled by {by}" if by else "cancelled"
    return f"{note}: {reason}" if reason else note


def _cancel_in_play(matches, note: str, now) -> list[int]:
    """Cancel the matches of the queryset still in play, in the caller's transaction; returns their ids."""
    ids = list(matches.filter(status__in=IN_PLAY).values_list("pk", flat=True))
    # The status filter again on the write: a match that finished since it was read keeps its result.
    Match.objects.filter(pk__in=ids, status__in=IN_PLAY).update(
        status=MatchStatus.CANCELLED, error=note, updated_at=now, deadline_at=None, lease_expires_at=None)
    MatchSeat.objects.filter(match_id__in=ids).update(awaiting=False)
    return ids


def cancel_match(*, match_id: int, by: str = "", reason: str = "") -> Match:
    """Cancel a match in play (pending or running); a cancelled one is returned as it is. NotCancellable for a
    finished or failed match, Match.DoesNotExist for no match. Its tournament round closes once its other matches
    have ended (on_match_finished, after the commit)."""
    with transaction.atomic():
        # The row lock orders this with a decision being stored (league.services.decisions holds it per step).
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status == MatchStatus.CANCELLED:
            return match
        if match.status not in IN_PLAY:
            raise NotCancellable(_("match %(match)s is %(status)s: only a match in play can be cancelled") % {
                "match": match_id, "status": match.get_status_display()})
        _cancel_in_play(Match.objects.filter(pk=match_id), _note(by, reason), timezone.now())
        # Its tournament round or comparison pair may close now (does nothing for any other match).
        transaction.on_commit(lambda: on_match_finished(match_id=match_id))
        emit("match.moved", match_id=match_id, move_number=match.move_number)  # its open pages show it cancelled
        if match.tournament_round_id is not None:
            tournament_id = TournamentRound.objects.filter(pk=match.tournament_round_id).values_list(
                "tournament_id", flat=True).first()
            if tournament_id is not None:
                emit("tournament.changed", tournament_id=tournament_id)
    match.refresh_from_db()
    return match


def cancel_tournament(*, tournament_id: int, by: str = "", reason: str = "") -> Tournament:
    """Cancel a tournament that has not finished: its matches in play are cancelled, its open rounds closed, and no
    round is seated any more. A cancelled one is returned as it is; NotCancellable for a finished one."""
    with transaction.atomic():
        # The tournament row first, as every path that closes rounds takes it (league.services.advancing).
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status == TournamentStatus.CANCELLED:
            return tournament
        if tournament.status == TournamentStatus.FINISHED:
            raise NotCancellable(_("%(tournament)s is finished: its results stand") % {"tournament": tournament})
        now = timezone.now()
        _cancel_in_play(Match.objects.filter(tournament_round__tournament=tournament), _note(by, reason), now)
        TournamentRound.objects.filter(tournament=tournament).exclude(status=RoundStatus.CLOSED).update(
            status=RoundStatus.CLOSED, closed_at=now)
        tournament.status, tournament.finished_at = TournamentStatus.CANCELLED, now
        tournament.save(update_fields=["status", "finished_at"])
        emit("tournament.changed", tournament_id=tournament.pk)
    return tournament


def stop_comparison(*, user, comparison_id: int) -> Comparison:
    """Stop a running comparison: no pair starts any more and the pair in play is cancelled (it becomes void).
    A comparison that has ended already is returned as it is."""
    with transaction.atomic():
        comparison = Comparison.objects.select_for_update().get(pk=comparison_id)
        refusal = refusal_to_stop(user, comparison)
        if refusal:
            raise ComparisonRefused(refusal)
        if comparison.status != ComparisonStatus.RUNNING:
            return comparison
        comparison.status, comparison.finished_at = ComparisonStatus.STOPPED, timezone.now()
        comparison.stop_reason = f"stopped by {user.get_username()}"
        comparison.save(update_fields=["status", "finished_at", "stop_reason"])
        emit("comparison.changed", comparison_id=comparison.pk)
        ours = Q(comparison_pair_as_candidate__comparison=comparison) | Q(
            comparison_pair_as_baseline__comparison=comparison)
        in_play = list(Match.objects.filter(ours, status__in=[MatchStatus.PENDING, MatchStatus.RUNNING])
                       .values_list("pk", flat=True))
    for match_id in in_play:
        try:
            cancel_match(match_id=match_id, by=user.get_username(), reason="the comparison was stopped")
        except NotCancellable:
            pass  # it ended meanwhile: its pair is recorded as it stands
    for pair_id in comparison.pair_set.filter(status=PairStatus.PLAYING).values_list("pk", flat=True):
        close_pair(pair_id=pair_id)  # void now (cancel_match's own follow-up does it too, after its commit)
    comparison.refresh_from_db()
    return comparison
