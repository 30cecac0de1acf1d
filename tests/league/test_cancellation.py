"""Cancelling a match or a tournament (league.services.cancellation), and play loops that stop when their match
leaves play under them (league.services.stopping).

The issue's finding first: a match whose status was set to failed while its worker played it went on being played
and stored. Each loop test changes the status from inside the loop (a hook on the bots' construction, so at an exact
decision), then checks that the loop stopped within one decision and wrote nothing after the change."""

from __future__ import annotations

import pytest

import league.services.play as play_module
from league.models import (
    Match,
    MatchSeat,
    MatchStatus,
    RoundStatus,
    TournamentRound,
    TournamentStatus,
)
from league.selectors.standings import tournament_standings
from league.services import create_bot_player, create_match, play_bot_match, stopping
from league.services.advancing import start_round
from league.services.cancellation import NotCancellable, cancel_match, cancel_tournament
from league.services.competition import TournamentError
from league.services.decisions import MatchNotInPlay, advance_match, submit_decision
from league.services.match_finished import catch_up_finished_matches
from league.services.players import create_external_bot
from league.services.registration import register_players
from league.services.rounds import seat_round
from league.services.tournament_setup import create_tournament

from .matches_support import bot_match, bot_players, stored_play, stored_tricks
from .tournament_support import bot_field

pytestmark = pytest.mark.django_db


def game_match(game: str, seed: str) -> Match:
    if game == "diamonds":
        return bot_match({"players": 4, "clubs": "choose"}, seed=seed)
    return create_match(players=bot_players(3), ruleset={"players": 3}, seed=seed, game=game)


def stored_rows(match: Match) -> tuple:
    """Everything a play loop writes for a match: its rows of play and its row's move number and status."""
    match.refresh_from_db()
    return (stored_play(match.pk), match.move_number, match.status, match.result)


class StopAt:
    """Counts the decisions the play loops ask for (each seeds its bot with league.services.play.bot_seed, once per
    decision, just before the bot decides) and, at decision `at`, runs `stop`; then counts the decisions asked for
    after it."""

    def __init__(self, monkeypatch, at: int, stop):
        self.at, self.stop, self.made, self.after = at, stop, 0, 0
        self.rows = None
        real = play_module.bot_seed

        def bot_seed(match, seat, move_number):
            self.made += 1
            if self.made == self.at:
                self.stop()
            elif self.made > self.at:
                self.after += 1
            return real(match, seat, move_number)

        monkeypatch.setattr(play_module, "bot_seed", bot_seed)  # play.seeded_for, which every loop calls, reads it


@pytest.mark.parametrize("decision", [7, 30, 61])
def test_a_status_set_to_failed_mid_play_stops_the_loop_within_one_decision(monkeypatch, decision):
    """The issue's finding: setting a playing match's status to failed did not stop its play loop."""
    monkeypatch.setattr(stopping, "CHECK_EVERY_SECONDS", 0)  # look before every decision
    match = bot_match({"players": 4, "clubs": "choose"}, seed=f"stop/failed/{decision}")
    seen = {}

    def fail():
        Match.objects.filter(pk=match.pk).update(status=MatchStatus.FAILED, error="set by hand")
        seen["rows"] = stored_rows(match)

    hook = StopAt(monkeypatch, decision, fail)
    outcome = play_bot_match(match_id=match.pk)
    assert outcome.status == "failed"
    assert hook.after == 0  # the decision in hand was the last one made
    assert stored_rows(match) == seen["rows"]  # nothing written after the change
    assert match.status == MatchStatus.FAILED and match.result is None


@pytest.mark.parametrize("game", ["diamonds", "diamoniak", "ringrace"])
def test_cancel_mid_play_stops_the_loop_of_every_game_and_writes_nothing_more(monkeypatch, settings, game):
    monkeypatch.setattr(stopping, "CHECK_EVERY_SECONDS", 0)
    settings.DIAMONDS_BOT_CHECKPOINT_SECONDS = 0  # a checkpoint at every step, so there is play stored to keep
    match = game_match(game, seed=f"stop/cancel/{game}")
    seen = {}

    def cancel():
        cancel_match(match_id=match.pk, by="ann", reason="wrong table")
        seen["rows"] = stored_rows(match)

    hook = StopAt(monkeypatch, 12, cancel)
    outcome = play_bot_match(match_id=match.pk)
    assert outcome.status == "cancelled" and "cancelled by ann: wrong table" in outcome.error
    assert hook.after == 0
    assert stored_rows(match) == seen["rows"]
    assert seen["rows"][1] > 0  # it had stored play before the cancel: the loop really was mid-match


@pytest.mark.parametrize("game", ["diamonds", "diamoniak", "ringrace"])
def test_a_cancel_landing_just_before_the_last_store_keeps_the_match_cancelled(monkeypatch, game):
    """Without any look between decisions (a long interval), the conditional store alone refuses the step: the
    last step, which would have finished the match, writes nothing and the match stays cancelled, unscored."""
    monkeypatch.setattr(stopping, "CHECK_EVERY_SECONDS", 10**9)
    match = game_match(game, seed=f"stop/last/{game}")
    counted = StopAt(monkeypatch, 10**9, lambda: None)
    play_bot_match(match_id=game_match(game, seed=f"stop/last/{game}").pk)  # a twin, played: its bots' decisions
    total = counted.made  # (a decision the rules force is made without a bot)
    seen = {}

    def cancel():
        cancel_match(match_id=match.pk)
        seen["rows"] = stored_rows(match)

    StopAt(monkeypatch, total, cancel)  # the very last decision of the game
    outcome = play_bot_match(match_id=match.pk)
    assert outcome.status == "cancelled"
    assert stored_rows(match) == seen["rows"]
    assert match.status == MatchStatus.CANCELLED and match.result is None and match.finished_at is None
    assert not MatchSeat.objects.filter(match=match, placement__isnull=False).exists()


def test_a_match_cancelled_before_its_worker_starts_is_not_played():
    match = bot_match({"players": 4}, seed="stop/pending")
    cancel_match(match_id=match.pk)
    outcome = play_bot_match(match_id=match.pk)
    assert outcome.status == "cancelled" and outcome.tricks_written == 0
    match.refresh_from_db()
    assert match.status == MatchStatus.CANCELLED and match.started_at is None
    assert stored_play(match.pk) == (b"", [])


def test_cancelling_is_idempotent_and_refused_once_the_match_has_ended():
    match = bot_match({"players": 4, "rounds": 1}, seed="stop/twice")
    cancel_match(match_id=match.pk, reason="first")
    again = cancel_match(match_id=match.pk, reason="second")
    assert again.status == MatchStatus.CANCELLED and again.error == "cancelled: first"
    finished = bot_match({"players": 4, "rounds": 1}, seed="stop/finished")
    assert play_bot_match(match_id=finished.pk).status == "finished"
    with pytest.raises(NotCancellable, match="finished"):
        cancel_match(match_id=finished.pk)
    finished.refresh_from_db()
    assert finished.status == MatchStatus.FINISHED and finished.result is not None
    with pytest.raises(Match.DoesNotExist):
        cancel_match(match_id=10**9)


def test_a_cancelled_live_match_refuses_decisions_and_its_bots_stop(run_on_commit):
    person = create_external_bot(name="ext-cancel")
    match = create_match(players=[person, *bot_players(3)], ruleset={"players": 4, "rounds": 1}, seed="stop/live")
    run_on_commit(advance_match, match_id=match.pk)
    assert MatchSeat.objects.filter(match=match, seat=0, awaiting=True).exists()
    match.refresh_from_db()
    cancel_match(match_id=match.pk, by="org")
    assert not MatchSeat.objects.filter(match=match, awaiting=True).exists()  # nobody's turn any more
    with pytest.raises(MatchNotInPlay):
        submit_decision(match=match, player=person, move_number=match.move_number,
                        decision_json={"kind": "pass_count", "count": 1})
    assert advance_match(match_id=match.pk).status == "not_in_play:cancelled"


def test_a_cancelled_table_never_counts_and_its_round_still_closes(run_on_commit):
    players = bot_field(8)
    t = create_tournament(name="cancel cup", rounds=2, table_size=4, seed="cancel-cup", ruleset={"rounds": 1})
    register_players(tournament=t, players=players)
    rnd = seat_round(tournament=t)
    cancelled = rnd.matches.order_by("table_number").first()
    cancel_match(match_id=cancelled.pk, by="org")
    run_on_commit(start_round, tournament_round=rnd)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED  # round 1 closed without the cancelled table, round 2 was played
    assert list(TournamentRound.objects.filter(tournament=t).values_list("status", flat=True)) == ["closed"] * 2
    cancelled.refresh_from_db()
    assert cancelled.status == MatchStatus.CANCELLED and not cancelled.ratings_applied
    games = {row.player_ids[0]: row.games for row in tournament_standings(tournament=t)}
    at_cancelled = set(MatchSeat.objects.filter(match=cancelled).values_list("player_id", flat=True))
    assert {games[p] for p in at_cancelled} == {1} and {games[p] for p in set(games) - at_cancelled} == {2}


def test_cancelling_a_tournament_stops_its_matches_closes_its_rounds_and_seats_no_more():
    players = bot_field(8)
    t = create_tournament(name="stopped cup", rounds=3, table_size=4, seed="stopped-cup")
    register_players(tournament=t, players=players)
    rnd = seat_round(tournament=t)
    cancel_tournament(tournament_id=t.pk, by="org", reason="venue closed")
    t.refresh_from_db()
    assert t.status == TournamentStatus.CANCELLED and t.finished_at is not None
    assert set(rnd.matches.values_list("status", flat=True)) == {MatchStatus.CANCELLED}
    assert set(rnd.matches.values_list("error", flat=True)) == {"cancelled by org: venue closed"}
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.CLOSED
    with pytest.raises(TournamentError, match="cancelled"):
        seat_round(tournament=t)
    start_round(tournament_round=rnd)  # a start sent before the cancel plays nothing
    assert catch_up_finished_matches() == 0
    assert set(rnd.matches.values_list("status", flat=True)) == {MatchStatus.CANCELLED}
    assert cancel_tournament(tournament_id=t.pk).status == TournamentStatus.CANCELLED  # again: no change
    assert TournamentRound.objects.filter(tournament=t).count() == 1


def test_a_finished_tournament_cannot_be_cancelled(run_on_commit):
    t = create_tournament(name="done cup", rounds=1, table_size=4, seed="done-cup", ruleset={"rounds": 1})
    register_players(tournament=t, players=bot_field(4))
    run_on_commit(start_round, tournament_round=seat_round(tournament=t))
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    with pytest.raises(NotCancellable):
        cancel_tournament(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def test_the_bots_planning_a_live_match_stop_thinking_once_it_is_cancelled(monkeypatch):
    """The advance loop plans the engine bots' decisions before it takes the lock; a cancel meanwhile stops it."""
    monkeypatch.setattr(stopping, "CHECK_EVERY_SECONDS", 0)
    person = create_bot_player(name="slow-person-stand-in", kind="random")
    match = create_match(players=[create_external_bot(name="ext-plan"), person, *bot_players(2)],
                         ruleset={"players": 4, "rounds": 1}, seed="stop/plan", first_dealer=1)
    hook = StopAt(monkeypatch, 1, lambda: cancel_match(match_id=match.pk))
    outcome = advance_match(match_id=match.pk)
    assert outcome.status == "not_in_play:cancelled" and hook.after == 0
    assert stored_rows(match)[:2] == ((b"", []), 0)


@pytest.mark.django_db(transaction=True)
def test_a_match_played_by_another_thread_stops_when_cancelled_and_writes_nothing_after(settings):
    """Real concurrency (PostgreSQL: each thread its own connection): a long match played in a thread, cancelled from
    this one while it plays; the thread's loop ends with "cancelled" and no row is written after the cancel."""
    import threading
    import time

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("threads playing against an in-memory SQLite database share one connection")
    settings.DIAMONDS_BOT_CHECKPOINT_SECONDS = 0  # store at every trick, as a slow match would
    match = bot_match({"players": 4, "clubs": "choose", "rounds": 20}, seed="stop/thread")
    outcome = {}

    def play():
        try:
            outcome["played"] = play_bot_match(match_id=match.pk)
        finally:
            connection.close()

    worker = threading.Thread(target=play)
    worker.start()
    give_up = time.monotonic() + 60
    while stored_tricks(match.pk) < 5 and worker.is_alive() and time.monotonic() < give_up:
        time.sleep(0.005)  # polling the condition: the thread has stored a few tricks
    cancel_match(match_id=match.pk, by="ann")
    after_cancel = stored_rows(match)
    worker.join(timeout=60)
    assert not worker.is_alive()
    assert outcome["played"].status == "cancelled"
    assert stored_rows(match) == after_cancel
    assert stored_tricks(match.pk) >= 5 and after_cancel[2] == MatchStatus.CANCELLED and after_cancel[3] is None


def test_a_migration_fails_the_matches_in_play_whose_ruleset_is_now_out_of_bounds():
    """The issue's 10^6-round match, stored before the bounds: it can never be loaded again, so it is failed (and its
    round can close); matches within bounds, and ended ones, are left as they are."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("league.migrations.0011_fail_matches_out_of_bounds")
    huge = bot_match({"players": 4}, seed="huge")
    fine = bot_match({"players": 4}, seed="fine")
    done = bot_match({"players": 4}, seed="done")
    Match.objects.filter(pk__in=[huge.pk, done.pk]).update(ruleset={**huge.ruleset, "rounds": 10**6})
    Match.objects.filter(pk=done.pk).update(status=MatchStatus.CANCELLED)
    migration.fail_out_of_bounds(apps, None)
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert statuses == {huge.pk: MatchStatus.FAILED, fine.pk: MatchStatus.PENDING, done.pk: MatchStatus.CANCELLED}
    assert "rounds must be a whole number from 1 to 20" in Match.objects.get(pk=huge.pk).error
