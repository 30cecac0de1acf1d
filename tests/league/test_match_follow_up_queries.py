"""What a finished match of engine bots nobody owns costs after its last store: the work every bot match the workers
play pays (league.services.match_finished.on_match_finished, and the notifications' listener of "match.finished"), held
to a few compiled queries, with no rows written for listeners that do not exist. A ladder's or a tournament's match
pays for its ratings and round on top (their own tests)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.events import league_event
from league.models import Match, MatchStatus, Notification, Player, WebhookDelivery
from league.services.match_finished import on_match_finished
from league.services.play import play_bot_match

from .matches_support import bot_match

pytestmark = pytest.mark.django_db


def _sql(captured) -> list[str]:
    return [q["sql"] for q in captured.captured_queries]


def test_the_follow_up_of_a_match_of_unowned_bots_reads_little_and_writes_one_flag():
    match = bot_match({"players": 4, "rounds": 1}, seed="follow-up/cost")
    assert play_bot_match(match_id=match.pk).status == "finished"
    Match.objects.filter(pk=match.pk).update(conduct_counted=False)  # as if its follow-up had not run yet
    with CaptureQueriesContext(connection) as first:
        on_match_finished(match_id=match.pk)
    # What the match is (rated? a round's? a comparison's?), its bots' seats, and the conduct flag: nothing written
    # for bots whose count is at zero already.
    assert len(first) == 3, _sql(first)
    assert [s.split()[0] for s in _sql(first)] == ["SELECT", "SELECT", "UPDATE"]
    assert Match.objects.get(pk=match.pk).conduct_counted
    with CaptureQueriesContext(connection) as again:
        on_match_finished(match_id=match.pk)
    assert len(again) == 1  # done once: a repeated call only looks


def test_the_match_finished_listeners_cost_one_query_each_for_a_match_of_unowned_bots(run_on_commit):
    match = bot_match({"players": 4, "rounds": 1}, seed="follow-up/listeners")
    assert play_bot_match(match_id=match.pk).status == "finished"
    with CaptureQueriesContext(connection) as captured:
        league_event.send(sender=None, name="match.finished", payload={"match_id": match.pk})
    assert len(captured) == 1, _sql(captured)  # the seats with their players: nobody to tell, no turn to close
    assert not Notification.objects.exists() and not WebhookDelivery.objects.exists()


def test_a_bots_count_not_at_zero_is_still_reset_by_a_clean_match():
    match = bot_match({"players": 4, "rounds": 1}, seed="follow-up/reset")
    assert play_bot_match(match_id=match.pk).status == "finished"
    Match.objects.filter(pk=match.pk).update(conduct_counted=False)
    bot = match.match_seats.order_by("seat").first().player
    Player.objects.filter(pk=bot.pk).update(missed_in_row=2)
    on_match_finished(match_id=match.pk)
    assert Player.objects.get(pk=bot.pk).missed_in_row == 0
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
