"""The migration that dates club memberships (league/migrations/0024_club_organisers.py): Player.clubs keeps its
table and its rows; members from before have no date, except those whose request was accepted, who get the
answer's date; a membership made afterwards is dated; and going back keeps the members."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("league", "0023_unique_name_key")]
AFTER = [("league", "0024_club_organisers")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_members_keep_their_clubs_and_accepted_ones_get_the_answers_date():
    old = _migrate(BEFORE)
    try:
        Club, Player = old.get_model("league", "Club"), old.get_model("league", "Player")
        User = old.get_model("auth", "User")
        club = Club.objects.create(name="Old Club", membership="request")
        asked = Player.objects.create(name="asked", name_key="asked",
                                      user=User.objects.create(username="asked", password="!"))
        bot = Player.objects.create(name="bot", name_key="bot", bot_kind="random")
        asked.clubs.add(club)
        bot.clubs.add(club)
        answered = datetime(2024, 3, 5, 20, 0, tzinfo=UTC)
        old.get_model("league", "MembershipRequest").objects.create(
            club=club, player=asked, status="accepted", decided_at=answered)

        # The models as they stand after this migration (later migrations add columns the current models read).
        after = _migrate(AFTER)
        ClubMember, NewPlayer = after.get_model("league", "ClubMember"), after.get_model("league", "Player")

        dates = {m.player.name: m.joined_at for m in ClubMember.objects.select_related("player")}
        assert dates == {"asked": answered, "bot": None}
        late = NewPlayer.objects.create(name="late", name_key="late", bot_kind="random")
        late.clubs.add(club.pk)
        assert ClubMember.objects.get(player=late).joined_at is not None

        back = _migrate(BEFORE)
        members = back.get_model("league", "Player").objects.filter(clubs__name="Old Club")
        assert set(members.values_list("name", flat=True)) == {"asked", "bot", "late"}
    finally:
        _migrate(AFTER)
        call_command("migrate", verbosity=0)
