"""Two matches of one bot finishing at the same moment each count towards pausing it: no count is lost and the
pause is announced once (league.services.bot_pausing updates with F() and a conditional UPDATE). PostgreSQL only:
SQLite runs one writer at a time, so nothing there can race."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, connections

from league.events import league_event
from league.models import Match, MatchSeat, MatchStatus, Player
from league.services import create_bot_player, create_match
from league.services.bot_pausing import count_match_conduct
from league.services.players import create_external_bot

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_matches_finishing_at_once_lose_no_count(settings):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (DATABASE_URL)")
    settings.DIAMONDS_BOT_PAUSE_AFTER = 2
    bot = create_external_bot(name="racer", owner=get_user_model().objects.create_user("author"))
    others = [create_bot_player(name=f"g{i}", kind="greedy") for i in range(3)]
    matches = []
    for _ in range(2):
        m = create_match(players=[bot, *others], ruleset=4)
        Match.objects.filter(pk=m.pk).update(status=MatchStatus.FINISHED)
        MatchSeat.objects.filter(match=m, player=bot).update(timeouts=1)
        matches.append(m)
    heard = []
    league_event.connect(lambda sender, name, payload, **kw: heard.append(name), weak=False, dispatch_uid="race")
    start = threading.Barrier(2)

    def finish(match_id):
        try:
            start.wait()
            count_match_conduct(match_id=match_id)
        finally:
            connections.close_all()

    try:
        threads = [threading.Thread(target=finish, args=(m.pk,)) for m in matches]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=30)
    finally:
        league_event.disconnect(dispatch_uid="race")
    bot = Player.objects.get(pk=bot.pk)
    assert bot.missed_in_row == 2 and bot.is_paused
    assert heard == ["bot.paused"]
