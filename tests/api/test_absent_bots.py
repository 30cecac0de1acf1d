"""Issue 27, "no match waits for ever": the newcomer's first bot (examples/external_bot.py --matches 1) plays one
ladder match and exits. The ladder must not seat it again, a match it was seated at before it left must end by the
deadline policy (the fallback bot plays its late decisions, and after DIAMONDS_FORFEIT_AFTER_MISSES in a row it
forfeits), and its page must say it is absent and show the deadlines it missed. Before, the ladder seated it again
20 s later at a table without a deadline, which stayed "running" for ever with three engine bots stuck in it, and
its page said "Active, 0 missed turn deadlines".

Time moves without sleeping: a deadline passes by moving the stored `deadline_at` into the past, and the process's
clock for presence notes (league.services.presence) is a fake that only moves when a test says so.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from api.tokens import issue_token
from league.models import LadderEntry, Match, MatchSeat, MatchStatus, Player
from league.services import create_bot_player
from league.services import presence as presence_notes
from league.services.ladders import create_ladder, join_ladder, seat_ladder_tables
from league.services.players import create_external_bot
from workers.tasks import enforce_turn_deadlines

from .conftest import client_for
from .support import choose

pytestmark = pytest.mark.django_db(transaction=True)


class FakeClock:
    """time.monotonic for league.services.presence: still unless moved."""

    def __init__(self):
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(presence_notes, "time", fake)
    return fake


@pytest.fixture
def newcomer(settings):
    """The demo's ladder of Diamonds with three engine bots, and the newcomer's external bot in it (with a token)."""
    settings.DIAMONDS_BOT_TURN_DEADLINE_SECONDS = 30
    settings.DIAMONDS_FORFEIT_AFTER_MISSES = 3
    ladder = create_ladder(name="Demo ladder", table_size=4, ruleset={"rounds": 1})  # one round: quicker
    engines = [create_bot_player(name=f"demo-random-{i}", kind="random") for i in range(3)]
    bot = create_external_bot(name="my-first-bot")
    join_ladder(ladder=ladder, players=[*engines, bot])
    return {"ladder": ladder, "bot": bot, "client": client_for(token=issue_token(bot.user))}


def poll(client) -> list[dict]:
    response = client.get("/api/v1/me/turns/?wait=0&legal=1")
    assert response.status_code == 200, response.content
    return response.json()["turns"]


def play_while_awaited(client, rng: random.Random) -> int:
    """What examples/external_bot.py does with each poll: decide for every turn, as long as its seat is awaited."""
    made = 0
    for turn in poll(client):
        legal = turn["legal"]
        while legal and legal["my_turn"]:
            answer = client.post(f"/api/v1/matches/{turn['match']}/decisions/",
                                 {"move_number": legal["move_number"], "decision": choose(legal, rng),
                                  "seat": legal["seat"]}, format="json")
            assert answer.status_code == 201, answer.content
            made += 1
            legal = answer.json()["legal"]
    return made


def overdue(match: Match) -> None:
    Match.objects.filter(pk=match.pk, deadline_at__isnull=False).update(
        deadline_at=timezone.now() - timedelta(seconds=1))


def bot_page(bot: Player) -> str:
    response = Client().get(f"/players/{bot.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_a_bot_that_played_one_ladder_match_and_stopped_polling_is_not_seated_again(newcomer, clock):
    """Issue 27: the bot polls, is seated (at a table with the external bots' deadline), plays its match to the end
    and stops polling, as --matches 1 does. The next ticks seat nothing: it has not asked for work since its match
    ended. Its page says it is absent. Back to polling, it is seated again."""
    ladder, bot, client = newcomer["ladder"], newcomer["bot"], newcomer["client"]
    assert seat_ladder_tables(ladder=ladder) == []  # never seen: not there
    assert poll(client) == []  # the bot starts: its first poll
    [match] = seat_ladder_tables(ladder=ladder)
    match.refresh_from_db()
    assert match.turn_deadline_seconds == 30  # the external bots' default: no table without one
    rng = random.Random(27)
    for _ in range(2000):
        play_while_awaited(client, rng)
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
    assert match.status == MatchStatus.FINISHED
    assert MatchSeat.objects.get(match=match, player=bot).placement is not None
    # The bot exits. The ladder's next ticks (the engine bots alone cannot fill a table of four) seat nothing.
    assert seat_ladder_tables(ladder=ladder) == []
    assert not Match.objects.filter(match_seats__player=bot, status__in=["pending", "running"]).exists()
    page = bot_page(bot)
    assert "Absent: not seated" in page and "since its last match ended" in page
    # Started again, it polls and is seated at the next tick (its entry stayed active all along).
    assert LadderEntry.objects.get(ladder=ladder, player=bot).active
    clock.now += presence_notes.SETTLING_SECONDS
    poll(client)
    assert len(seat_ladder_tables(ladder=ladder)) == 1


def test_a_match_the_bot_left_ends_by_the_deadline_policy_and_the_bot_is_not_seated_again(newcomer, clock):
    """Issue 27: seated while it still polled, the bot never decides. Each overdue decision is made by the fallback
    bot; after DIAMONDS_FORFEIT_AFTER_MISSES in a row its seat forfeits and the fallback bot plays it to the end, so
    the match finishes (placed last) instead of running for ever. It is not seated again, and its page says absent
    and counts the missed deadlines."""
    ladder, bot, client = newcomer["ladder"], newcomer["bot"], newcomer["client"]
    poll(client)
    [match] = seat_ladder_tables(ladder=ladder)  # and then the bot exits
    match.refresh_from_db()
    assert match.status == MatchStatus.RUNNING and match.turn_deadline_seconds == 30
    assert match.deadline_at is not None and match.deadline_at > timezone.now()
    seat = MatchSeat.objects.get(match=match, player=bot)
    assert seat.awaiting
    moves = []
    for _ in range(10):
        overdue(match)
        enforce_turn_deadlines()
        match.refresh_from_db()
        moves.append(match.move_number)
        if match.status != MatchStatus.RUNNING:
            break
    seat.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.deadline_at is None
    assert len(moves) == 3 and moves == sorted(set(moves))  # three deadlines, each one moved the game on
    assert seat.timeouts == 3 and seat.forfeited and seat.placement == 4
    assert seat_ladder_tables(ladder=ladder) == []
    page = bot_page(bot)
    assert "Absent: not seated" in page and "3 missed turn deadlines in 1 matches" in page
