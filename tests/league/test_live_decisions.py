"""league.services.decisions: engine bots' turns thought out before the lock come out exactly as under it, and a
plan made from a state that has moved on is not used."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from engine import Decision
from league.models import Match
from league.services import create_bot_player, create_match, create_person_player
from league.services.decisions import _advance, _plan, advance_match, submit_decision

from .matches_support import stored_play

pytestmark = pytest.mark.django_db


def stored(match: Match):
    """The move number and everything stored of the match's play."""
    return Match.objects.get(pk=match.pk).move_number, stored_play(match.pk)


@pytest.fixture
def table():
    person = create_person_player(user=get_user_model().objects.create_user("pat"), name="pat")
    bots = [create_bot_player(name=f"b{i}", kind=k) for i, k in enumerate(("greedy", "search", "random"))]
    return [bots[0], person, bots[1], bots[2]]


def test_planned_bot_turns_are_the_locked_ones(table):
    a = create_match(players=table, ruleset={"players": 4}, seed="plan", first_dealer=0)
    b = create_match(players=table, ruleset={"players": 4}, seed="plan", first_dealer=0)
    assert _plan(a.pk) is not None
    advance_match(match_id=a.pk)  # with the plan
    _advance(b.pk, overdue=False, plan=None)  # all under the lock
    assert stored(a) == stored(b) and stored(a)[0] > 0


def test_a_plan_from_a_state_that_moved_on_is_not_used(table):
    match = create_match(players=table, ruleset={"players": 4}, seed="stale-plan", first_dealer=1)  # pat deals
    advance_match(match_id=match.pk)
    submit_decision(match=match, player=table[1], move_number=0, decision_json={"kind": "pass_count", "count": 1})
    plan = _plan(match.pk)  # the bots' passes from move 1
    assert plan is not None and plan[0] == 1
    bogus = (0, [(0, Decision.pass_count(3))])  # planned for move 0, where it would not even be legal now
    outcome = _advance(match.pk, overdue=False, plan=bogus)
    assert outcome.status == "played" and outcome.decisions == 3
    assert Match.objects.get(pk=match.pk).move_number == 4
