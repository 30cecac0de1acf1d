"""Turn deadlines: an overdue decision is made by the match's fallback bot (workers.tasks.enforce_turn_deadlines),
the engine bots play on to the next person's turn, and the late seat's old move number is then stale."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league.models import Match, MatchStatus
from workers.tasks import enforce_turn_deadlines

from .conftest import live_match

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
