"""Turn deadlines: an overdue decision is made by the match's fallback bot (workers.tasks.enforce_turn_deadlines),
the engine bots play on to the next person's turn, and the late seat's old move number is then stale."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from league.models import Match, MatchStatus
from workers.tasks import enforce_turn_deadlines

from .conftest import live_match
from .support import take_turn

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_overdue_decision_is_made_by_the_fallback_bot(accounts):
    match = live_match(accounts, ["ann", "greedy-1", "bob"], turn_deadline_seconds=30, deadline_fallback="greedy")
    assert match.deadline_at is not None and match.deadline_at > timezone.now()
    assert enforce_turn_deadlines() == []  # nothing overdue yet
    waiting = list(match.match_seats.filter(awaiting=True).values_list("seat", flat=True))
    moved = match.move_number
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert enforce_turn_deadlines() == [match.pk]
    match.refresh_from_db()
    assert match.move_number > moved and match.deadline_at > timezone.now()
    late = {0: "ann", 2: "bob"}[waiting[0]]
    r = accounts["clients"][late].post(f"/api/v1/matches/{match.pk}/decisions/",
                                       {"move_number": moved, "decision": {"kind": "pass_count", "count": 1}},
                                       format="json")
    assert r.status_code == 409


def test_deadlines_alone_finish_a_match_nobody_plays(accounts):
    match = live_match(accounts, ["ann", "ext-1"], {"players": 2}, turn_deadline_seconds=5)
    for _ in range(1000):
        Match.objects.filter(pk=match.pk, deadline_at__isnull=False).update(
            deadline_at=timezone.now() - timedelta(seconds=1))
        enforce_turn_deadlines()
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
    assert match.status == MatchStatus.FINISHED and match.deadline_at is None
    assert not match.match_seats.filter(awaiting=True).exists()


def test_a_live_match_made_without_a_deadline_has_the_default_and_nothing_is_overdue_before_it(accounts, settings):
    """Issue 27, no match waits for ever: a table with a person gets the league's default deadline when nobody gave
    one (before, it had none and waited for ever)."""
    settings.DIAMONDS_PERSON_TURN_DEADLINE_SECONDS = 240
    match = live_match(accounts, ["ann", "greedy-1"], {"players": 2})
    assert match.turn_deadline_seconds == 240
    assert match.deadline_at is not None and match.deadline_at > timezone.now()
    assert enforce_turn_deadlines() == []


def test_organisers_set_and_clear_a_tables_deadline(accounts, settings):
    match = live_match(accounts, ["ann", "greedy-1"], {"players": 2})
    url = f"/api/v1/matches/{match.pk}/deadline/"
    assert accounts["clients"]["ann"].post(url, {"turn_deadline_seconds": 5}, format="json").status_code == 403
    assert accounts["clients"]["organiser"].post(url, {"turn_deadline_seconds": 0},
                                                 format="json").status_code == 400
    r = accounts["clients"]["organiser"].post(url, {"turn_deadline_seconds": 5, "deadline_fallback": "greedy"},
                                              format="json")
    assert r.status_code == 200 and r.json()["deadline_at"] is not None
    match.refresh_from_db()
    assert match.turn_deadline_seconds == 5 and match.deadline_fallback == "greedy"
    # Cleared, a table with a person gets the league's default back, never none (issue 27: no match waits for ever).
    settings.DIAMONDS_PERSON_TURN_DEADLINE_SECONDS = 240
    r = accounts["clients"]["organiser"].post(url, {"turn_deadline_seconds": None}, format="json")
    assert r.status_code == 200 and r.json()["turn_deadline_seconds"] == 240 and r.json()["deadline_at"] is not None


def test_organisers_make_a_tables_deadline_forfeit_and_a_bad_action_changes_nothing(accounts):
    match = live_match(accounts, ["ann", "greedy-1"], {"players": 2})
    url = f"/api/v1/matches/{match.pk}/deadline/"
    organiser = accounts["clients"]["organiser"]
    r = organiser.post(url, {"turn_deadline_seconds": 5, "deadline_action": "resign"}, format="json")
    assert r.status_code == 400 and "deadline_action" in r.json()["errors"]
    before = match.turn_deadline_seconds
    match.refresh_from_db()
    assert (match.turn_deadline_seconds, match.deadline_action) == (before, "fallback")
    r = organiser.post(url, {"turn_deadline_seconds": 5, "deadline_action": "forfeit"}, format="json")
    assert r.status_code == 200 and r.json()["deadline_action"] == "forfeit"
    # Left out, the action stays as it is.
    r = organiser.post(url, {"turn_deadline_seconds": 10}, format="json")
    assert r.status_code == 200 and r.json()["deadline_action"] == "forfeit"
    match.refresh_from_db()
    assert (match.turn_deadline_seconds, match.deadline_action) == (10, "forfeit")


def test_a_live_match_whose_bots_stopped_is_advanced_again(accounts, settings):
    from league.services import create_match

    p = accounts["players"]
    match = create_match(players=[p["greedy-1"], p["ann"]], ruleset={"players": 2}, seed="lost", first_dealer=0)
    # As if its advance_match task were lost: the engine bot deals, nobody is awaited, nothing moves.
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(hours=1))
    settings.DIAMONDS_STALLED_AFTER_SECONDS = 60
    enforce_turn_deadlines()
    match.refresh_from_db()
    assert match.move_number > 0 and match.match_seats.get(seat=1).awaiting


def test_a_seat_that_misses_deadlines_in_a_row_forfeits_even_under_fallback(accounts, settings):
    """Issue 27, a bound on the whole match: under "fallback" each missed deadline cost one bot decision, so a seat
    that had left kept its table waiting a deadline per decision (a whole game of them). After
    DIAMONDS_FORFEIT_AFTER_MISSES in a row it forfeits and the fallback bot plays it to the end at once."""
    settings.DIAMONDS_FORFEIT_AFTER_MISSES = 3
    match = live_match(accounts, ["ext-1", "greedy-1"], {"players": 2}, turn_deadline_seconds=5)
    assert match.deadline_action == "fallback"
    seat = match.match_seats.get(player=accounts["players"]["ext-1"])
    for missed in (1, 2):
        Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
        assert enforce_turn_deadlines() == [match.pk]
        seat.refresh_from_db()
        match.refresh_from_db()
        assert (seat.timeouts, seat.late_in_row, seat.forfeited) == (missed, missed, False)
        assert match.status == MatchStatus.RUNNING
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    enforce_turn_deadlines()
    seat.refresh_from_db()
    match.refresh_from_db()
    assert seat.forfeited and seat.timeouts == 3 and seat.placement == 2
    assert match.status == MatchStatus.FINISHED and match.deadline_at is None


def test_a_decision_of_its_own_starts_the_seats_misses_in_a_row_again(accounts, settings):
    """Issue 27: only misses in a row mean the seat has left; one decision of its own between them resets the count."""
    settings.DIAMONDS_FORFEIT_AFTER_MISSES = 2
    match = live_match(accounts, ["ext-1", "greedy-1"], {"players": 2}, turn_deadline_seconds=5)
    seat = match.match_seats.get(player=accounts["players"]["ext-1"])
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    enforce_turn_deadlines()
    seat.refresh_from_db()
    assert seat.late_in_row == 1
    assert take_turn(accounts["clients"]["ext-1"], match.pk, random.Random(1))
    seat.refresh_from_db()
    assert (seat.timeouts, seat.late_in_row) == (1, 0)
    Match.objects.filter(pk=match.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    enforce_turn_deadlines()
    seat.refresh_from_db()
    assert (seat.timeouts, seat.late_in_row, seat.forfeited) == (2, 1, False)


def test_a_match_made_through_the_api_without_a_deadline_has_the_default(accounts, settings):
    """Issue 27: the API's match creation left a table of an external bot without a deadline."""
    settings.DIAMONDS_BOT_TURN_DEADLINE_SECONDS = 20
    p = accounts["players"]
    r = accounts["clients"]["organiser"].post("/api/v1/matches/", {
        "players": [p["ext-1"].pk, p["greedy-1"].pk], "ruleset": {"players": 2}, "club": accounts["club"].pk},
        format="json")
    assert r.status_code == 201, r.content
    assert r.json()["turn_deadline_seconds"] == 20
