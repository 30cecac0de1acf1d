"""Moving a tournament on: start a seated round (its matches to the workers), close a round once its last match has
ended, then finish the tournament or, with auto_advance, seat and start what comes next: a qualifying round
(league.services.rounds) or the final's next stage (league.services.finals). league.services.match_finished closes
the round when one of its matches ends; advance_tournament is the organiser's step when auto_advance is off.

Starting a round records a `play_match` outbox row per table in the round's own transaction
(league.services.outbox), and closing a round seats and starts the next one in the closing transaction: no step of a
tournament depends on a message sent after a commit, so a broker outage or a killed process between two steps
loses nothing. Eager mode (no broker): the rows are relayed in this process once the transaction commits, which
plays the matches here; the relay is one flat loop (workers.outbox), so a tournament of many rounds keeps the
stack flat.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from ..events import emit
from ..models import Match, MatchStatus, OutboxKind, RoundStatus, Tournament, TournamentRound, TournamentStatus
from ..models.match import ENDED
from . import outbox
from .finals import seat_final_stage
from .rounds import seat_round


def start_round(*, tournament_round: TournamentRound) -> None:
    """Start a seated round: mark it running and record a `play_match` outbox row for each of its matches, in one
    transaction (the caller's, if any). Starting a round that is not seated does nothing."""
    _start_round(tournament_round.pk)


@transaction.atomic
def _start_round(round_id: int) -> None:
    rnd = TournamentRound.objects.select_for_update().get(pk=round_id)
    if rnd.status != RoundStatus.SEATED:
        return
    now = timezone.now()
    rnd.status, rnd.started_at = RoundStatus.RUNNING, now
    rnd.save(update_fields=["status", "started_at"])
    Tournament.objects.filter(pk=rnd.tournament_id, status=TournamentStatus.REGISTERING).update(
        status=TournamentStatus.RUNNING, started_at=now)
    # Tables played with real cards get no worker: their results are entered (league.services.offline_results).
    ids = list(Match.objects.filter(tournament_round=rnd, status=MatchStatus.PENDING, offline=False)
               .values_list("pk", flat=True))
    for match_id in ids:
        outbox.record(kind=OutboxKind.PLAY_MATCH, match_id=match_id)
    emit("tournament.changed", tournament_id=rnd.tournament_id)  # its pages show the round running
    if not Match.objects.filter(tournament_round=rnd).exclude(status__in=ENDED).exists():
        transaction.on_commit(lambda: close_round_if_over(round_id))


def start_tournament(*, tournament: Tournament) -> TournamentRound:
    """Seat and start the first round, in one transaction. With auto_advance on and no broker, this plays the whole
    tournament (as the transaction commits)."""
    with transaction.atomic():
        rnd = seat_round(tournament=tournament)
        start_round(tournament_round=rnd)
    return rnd


def close_round_if_over(round_id: int) -> None:
    """Close the running round once every match of it has ended (finished, failed or cancelled:
    league.services.cancellation), then finish the tournament or start what comes next. Safe to call any number of
    times: a round closed already, or one with a match still in play, is left as it is."""
    with transaction.atomic():
        # Tournament row first, then the round: every path takes them in this order.
        tournament_id = TournamentRound.objects.filter(pk=round_id).values_list("tournament_id", flat=True).get()
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        rnd = TournamentRound.objects.select_for_update().get(pk=round_id)
        if rnd.status != RoundStatus.RUNNING or tournament.status == TournamentStatus.CANCELLED:
            return  # closed already (this is a repeated call), not started, or the tournament was cancelled
        if Match.objects.filter(tournament_round=rnd).exclude(status__in=ENDED).exists():
            return
        rnd.status, rnd.closed_at = RoundStatus.CLOSED, timezone.now()
        rnd.save(update_fields=["status", "closed_at"])
        emit("tournament.changed", tournament_id=tournament.pk)
        if _is_last_round(tournament, rnd):
            tournament.status, tournament.finished_at = TournamentStatus.FINISHED, rnd.closed_at
            tournament.save(update_fields=["status", "finished_at"])
            emit("tournament.finished", tournament_id=tournament.pk)
            return
        # With check-in the organiser seats each round once the players present have checked in.
        if not tournament.auto_advance or tournament.check_in_required:
            return
        # Seated and started in the transaction that closes this round: no moment when a crash leaves it seated only.
        start_round(tournament_round=_seat_next(tournament, rnd))


@transaction.atomic
def advance_tournament(*, tournament: Tournament) -> TournamentRound | None:
    """The organiser's step when auto_advance is off: seat and start the next round once the last one closed.
    Returns the new round, or None when the tournament is over."""
    tournament.refresh_from_db()
    if tournament.status == TournamentStatus.FINISHED:
        return None
    last = TournamentRound.objects.filter(tournament=tournament).order_by("-index").first()
    if last is not None and last.status == RoundStatus.SEATED:
        rnd = last  # seated beforehand for the organiser to check (seat_next_round): this step starts it
    else:
        rnd = seat_next_round(tournament=tournament)
    start_round(tournament_round=rnd)
    return rnd


@transaction.atomic
def seat_next_round(*, tournament: Tournament) -> TournamentRound:
    """Seat what comes next without starting it (the first round, the next qualifying round, or the final's next
    stage), so the organiser sees the seating, swaps players if need be (league.services.round_control), and then
    starts it (advance_tournament)."""
    last = TournamentRound.objects.filter(tournament=tournament).order_by("-index").first()
    return _seat_next(tournament, last) if last is not None else seat_round(tournament=tournament)


def _is_last_round(tournament: Tournament, rnd: TournamentRound) -> bool:
    """Whether closing `rnd` ends the tournament: the last qualifying round without a final, or the final's last
    stage."""
    if rnd.stage:
        return rnd.stage >= tournament.final_stages
    return rnd.index >= tournament.rounds and not tournament.final_size


def _seat_next(tournament: Tournament, last: TournamentRound) -> TournamentRound:
    """The round after `last`: a qualifying round, or the final's next stage once the qualifying rounds are over."""
    if last.stage or last.index >= tournament.rounds:
        return seat_final_stage(tournament=tournament)
    return seat_round(tournament=tournament)
