"""The lobby's services: open a table, join, leave, cancel, start when full (exactly once), invitations to private
tables, expiry, and rated tables counting for ratings while unrated ones do not."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league.models import LobbySeat, LobbyStatus, LobbyTable, Match, MatchStatus, Player, Rating
from league.selectors.live import legal_decisions, match_game
from league.selectors.lobby import open_public_tables, table_for, table_summary
from league.services.accounts import ensure_person, mark_made_by_administrator
from league.services.decisions import submit_decision
from league.services.lobby import (
    MAX_OPEN_TABLES_PER_PERSON,
    LobbyRefused,
    cancel_table,
    create_table,
    expire_open_tables,
    join_table,
    leave_table,
    start_with_bots,
)
from workers.tasks import expire_lobby_tables

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(db):
    """Accounts as an administrator makes them: verified without an email address (rated tables need it)."""
    User = get_user_model()
    made = {name: User.objects.create_user(name) for name in ("ann", "bob", "cy", "di")}
    for user in made.values():
        mark_made_by_administrator(user)
    return made


def refused(call, status: int, words: str):
    with pytest.raises(LobbyRefused) as e:
        call()
    assert e.value.status == status, e.value.message
    assert words in e.value.message
    return e.value


def test_a_person_gets_a_player_on_first_use_and_the_same_one_after(people):
    assert not Player.objects.filter(user=people["ann"]).exists()
    first = ensure_person(people["ann"])[1]
    assert first.name == "ann" and first.bot_kind == ""
    assert ensure_person(people["ann"])[1] == first


def test_a_person_whose_name_is_taken_gets_a_numbered_player(people):
    Player.objects.create(name="bob", bot_kind="random")  # a bot took the name
    assert ensure_person(people["bob"])[1].name == "bob-2"


def test_open_join_and_start_when_full(people, run_on_commit, settings):
    settings.DIAMONDS_PERSON_TURN_DEADLINE_SECONDS = 240
    table = create_table(user=people["ann"], game="diamonds", seats=2, options={"rounds": 1})
    assert table.status == LobbyStatus.OPEN and table.ruleset["players"] == 2 and table.ruleset["rounds"] == 1
    assert list(table.lobby_seats.values_list("player__name", flat=True)) == ["ann"]
    assert [t.pk for t in open_public_tables()] == [table.pk]
    table = run_on_commit(join_table, user=people["bob"], table_id=table.pk)
    table.refresh_from_db()
    assert table.status == LobbyStatus.STARTED
    match = Match.objects.get(pk=table.match_id)
    assert {ms.player.name for ms in match.match_seats.all()} == {"ann", "bob"}
    assert match.status in (MatchStatus.PENDING, MatchStatus.RUNNING)
    # A table opened without a time per decision plays under the league's default for people (issue 27).
    assert match.turn_deadline_seconds == 240 and match.ruleset["rounds"] == 1
    assert open_public_tables() == []
    # Someone late finds it started; nothing more is created.
    refused(lambda: join_table(user=people["cy"], table_id=table.pk), 409, "started")
    assert Match.objects.count() == 1


def test_joining_twice_a_full_or_a_cancelled_table(people):
    table = create_table(user=people["ann"], game="diamoniak", seats=3)
    join_table(user=people["bob"], table_id=table.pk)
    refused(lambda: join_table(user=people["bob"], table_id=table.pk), 409, "already sit")
    refused(lambda: join_table(user=people["ann"], table_id=table.pk), 409, "already sit")
    assert LobbySeat.objects.filter(table=table).count() == 2
    cancel_table(user=people["ann"], table_id=table.pk)
    refused(lambda: join_table(user=people["cy"], table_id=table.pk), 409, "cancelled")
    refused(lambda: join_table(user=people["cy"], table_id=999_999), 404, "No such table")


def test_leave_frees_the_seat_and_the_host_cancels_instead(people):
    table = create_table(user=people["ann"], game="diamonds", seats=3)
    join_table(user=people["bob"], table_id=table.pk)
    refused(lambda: leave_table(user=people["ann"], table_id=table.pk), 409, "cancel it")
    refused(lambda: leave_table(user=people["cy"], table_id=table.pk), 403, "no seat")
    leave_table(user=people["bob"], table_id=table.pk)
    assert list(table.lobby_seats.values_list("player__name", flat=True)) == ["ann"]
    join_table(user=people["cy"], table_id=table.pk)  # takes the freed seat
    assert sorted(table.lobby_seats.values_list("seat", flat=True)) == [0, 1]


def test_only_the_host_cancels_and_cancelling_twice_changes_nothing(people):
    table = create_table(user=people["ann"], game="ringrace", seats=4)
    join_table(user=people["bob"], table_id=table.pk)
    refused(lambda: cancel_table(user=people["bob"], table_id=table.pk), 403, "host")
    cancel_table(user=people["ann"], table_id=table.pk)
    assert cancel_table(user=people["ann"], table_id=table.pk).status == LobbyStatus.CANCELLED
    refused(lambda: leave_table(user=people["bob"], table_id=table.pk), 409, "cancelled")


def test_a_private_table_needs_its_invitation(people, run_on_commit):
    table = create_table(user=people["ann"], game="diamonds", seats=2, public=False, options={"rounds": 1})
    assert open_public_tables() == []
    assert table_for(table.pk, people["bob"]) is None  # a stranger cannot even see it
    refused(lambda: join_table(user=people["bob"], table_id=table.pk), 404, "No such table")
    refused(lambda: join_table(user=people["bob"], table_id=table.pk, token="guess"), 404, "No such table")
    run_on_commit(join_table, user=people["bob"], table_id=table.pk, token=table.token)
    table.refresh_from_db()
    assert table.status == LobbyStatus.STARTED


def test_the_invitation_token_is_shown_to_those_seated_only(people):
    table = create_table(user=people["ann"], game="diamonds", seats=3)
    seen = table_for(table.pk, people["ann"])
    assert table_summary(seen, people["ann"])["token"] == table.token
    assert table_summary(table_for(table.pk, people["bob"]), people["bob"])["token"] is None


def test_bad_tables_are_refused_and_nothing_is_created(people):
    bad = [
        dict(game="chess", seats=2), dict(game="diamonds", seats=7), dict(game="diamonds", seats=1),
        dict(game="diamonds", seats="4"), dict(game="diamonds", seats=4, options={"rounds": 0}),
        dict(game="diamonds", seats=4, options={"rounds": 10_000}), dict(game="diamonds", seats=4,
                                                                          options={"players": 5}),
        dict(game="diamonds", seats=4, options={"colour": "red"}), dict(game="diamonds", seats=4, bot_kind="search"),
        dict(game="diamoniak", seats=3, bot_kind="greedy"), dict(game="diamonds", seats=4, bot_kind="random",
                                                                  rated=True),
        dict(game="diamonds", seats=4, turn_deadline_seconds=0),
    ]
    for kwargs in bad:
        refused(lambda kwargs=kwargs: create_table(user=people["ann"], **kwargs), 400, "")
    assert LobbyTable.objects.count() == 0


def test_a_person_sits_at_a_few_open_tables_at_most(people):
    for _ in range(MAX_OPEN_TABLES_PER_PERSON):
        create_table(user=people["ann"], game="diamonds", seats=4)
    refused(lambda: create_table(user=people["ann"], game="diamonds", seats=4), 409, "open tables")
    # A table past its time frees its seat at once, before the sweep closes it.
    LobbyTable.objects.filter(pk=LobbyTable.objects.first().pk).update(expires_at=timezone.now())
    assert create_table(user=people["ann"], game="diamonds", seats=4).status == LobbyStatus.OPEN


def test_the_host_starts_with_bots_in_the_empty_seats(people, run_on_commit):
    table = create_table(user=people["ann"], game="diamonds", seats=4, bot_kind="greedy", options={"rounds": 1})
    join_table(user=people["bob"], table_id=table.pk)
    refused(lambda: start_with_bots(user=people["bob"], table_id=table.pk), 403, "host")
    run_on_commit(start_with_bots, user=people["ann"], table_id=table.pk)
    table.refresh_from_db()
    seats = list(Match.objects.get(pk=table.match_id).match_seats.order_by("seat").select_related("player"))
    assert [s.player.name for s in seats[:2]] == ["ann", "bob"]
    assert all(s.player.bot_kind == "greedy" for s in seats[2:])
    no_bots = create_table(user=people["cy"], game="diamonds", seats=4)
    refused(lambda: start_with_bots(user=people["cy"], table_id=no_bots.pk), 409, "people only")


def test_open_tables_expire_in_the_sweep(people):
    old = create_table(user=people["ann"], game="diamonds", seats=4)
    fresh = create_table(user=people["bob"], game="diamonds", seats=4)
    LobbyTable.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    refused(lambda: join_table(user=people["cy"], table_id=old.pk), 409, "expired")  # even before the sweep
    assert expire_lobby_tables() == 1
    old.refresh_from_db()
    fresh.refresh_from_db()
    assert old.status == LobbyStatus.EXPIRED and old.closed_at is not None
    assert fresh.status == LobbyStatus.OPEN
    assert expire_open_tables() == 0
    assert [t.pk for t in open_public_tables()] == [fresh.pk]


def _play_to_the_end(match: Match) -> None:
    """Each person decides the first legal decision until the match ends (the bots' turns run after commit)."""
    for _ in range(500):
        match.refresh_from_db()
        if match.status not in (MatchStatus.PENDING, MatchStatus.RUNNING):
            return
        seat = match.match_seats.filter(awaiting=True).select_related("player").first()
        game = match_game(match)
        legal = legal_decisions(game, seat.seat)
        submit_decision(match=match, player=seat.player, move_number=legal["move_number"],
                        decision_json=legal["decisions"][0], seat=seat.seat)
    raise AssertionError("the match did not end")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("rated", [True, False])
def test_rated_tables_count_for_ratings_and_unrated_do_not(people, rated):
    table = create_table(user=people["ann"], game="ringrace", seats=2, rated=rated)
    join_table(user=people["bob"], table_id=table.pk)
    table.refresh_from_db()
    match = Match.objects.get(pk=table.match_id)
    _play_to_the_end(match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.ratings_applied is rated
    ratings = Rating.objects.filter(player__user__in=[people["ann"], people["bob"]], ladder=None, game="ringrace")
    assert ratings.count() == (2 if rated else 0)


def test_the_embedded_beat_runs_the_lobby_sweep(people):
    from django.conf import settings

    from workers.embedded_beat import EmbeddedBeat

    table = create_table(user=people["ann"], game="diamonds", seats=4)
    LobbyTable.objects.filter(pk=table.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    beat = EmbeddedBeat({"expire-lobby-tables": settings.CELERY_BEAT_SCHEDULE["expire-lobby-tables"]})
    beat.run_due()  # never run here: due at once
    assert LobbyTable.objects.get(pk=table.pk).status == LobbyStatus.EXPIRED
