"""Issue 27: an external bot counts as there only while it polls: seen (Player.last_seen_at) in the last
DIAMONDS_BOT_PRESENT_MINUTES and not before its last match ended (league.selectors.presence). Seeing it costs at
most a write about a minute per process (league.services.presence), a little more often just after it played, so a
bot that asks for its next table is seated at the next tick. Before, no presence was kept and a bot that had left
was seated again and again. Time moves without sleeping: stored times are set, and the notes' clock is a fake."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league.models import Match, MatchStatus, Player
from league.selectors.presence import absent_bot_ids, presence_of
from league.services import create_bot_player, create_match, create_person_player
from league.services import presence as notes
from league.services.players import create_external_bot

pytestmark = pytest.mark.django_db


class FakeClock:
    def __init__(self):
        self.now = 5000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(notes, "time", fake)
    return fake


def seen(bot: Player, ago: timedelta | None) -> None:
    Player.objects.filter(pk=bot.pk).update(last_seen_at=None if ago is None else timezone.now() - ago)
    bot.refresh_from_db()


def test_a_bot_is_there_only_if_seen_within_the_window(settings):
    """Issue 27: never seen, or not seen for longer than the window, is absent; seen within it is there."""
    settings.DIAMONDS_BOT_PRESENT_MINUTES = 3
    bot = create_external_bot(name="ext")
    assert absent_bot_ids([bot.pk]) == {bot.pk} and not presence_of(bot).there
    seen(bot, timedelta(minutes=2, seconds=50))
    assert absent_bot_ids([bot.pk]) == set() and presence_of(bot).there
    seen(bot, timedelta(minutes=3, seconds=10))
    presence = presence_of(bot)
    assert absent_bot_ids([bot.pk]) == {bot.pk} and not presence.there and not presence.since_match
    settings.DIAMONDS_BOT_PRESENT_MINUTES = 5  # the window is the operator's
    assert absent_bot_ids([bot.pk]) == set()


def test_a_bot_last_seen_before_its_last_match_ended_is_absent_until_it_polls_again(settings):
    """Issue 27: the bot that exits when its match ends was seen only during it: not there, though within the
    window. Seen after the match ended (it asked for its next turns), it is there."""
    bot = create_external_bot(name="ext")
    field = [create_bot_player(name=f"engine-{i}", kind="random") for i in range(3)]
    match = create_match(players=[bot, *field], ruleset=4)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, updated_at=timezone.now()
                                             - timedelta(seconds=30))
    seen(bot, timedelta(seconds=40))
    presence = presence_of(bot)
    assert absent_bot_ids([bot.pk]) == {bot.pk} and not presence.there and presence.since_match
    seen(bot, timedelta(seconds=20))
    assert absent_bot_ids([bot.pk]) == set() and presence_of(bot).there


def test_people_and_engine_bots_are_always_there():
    ann = create_person_player(user=get_user_model().objects.create_user("ann"), name="ann")
    engine = create_bot_player(name="engine", kind="random")
    assert absent_bot_ids([ann.pk, engine.pk]) == set()
    assert presence_of(ann) is None and presence_of(engine) is None


def test_seeing_a_bot_writes_at_most_about_once_a_minute(clock, django_assert_num_queries):
    """Issue 27: presence is not a write on every request: one per SEEN_EVERY_SECONDS per process."""
    bot = create_external_bot(name="ext")
    with django_assert_num_queries(1):
        assert notes.note_seen(bot.user_id, playing=True)
    first = Player.objects.get(pk=bot.pk).last_seen_at
    assert first is not None
    with django_assert_num_queries(0):
        for _ in range(100):  # a hundred decisions in the same minute: no write
            clock.now += 0.5
            assert not notes.note_seen(bot.user_id, playing=True)
    clock.now += notes.SEEN_EVERY_SECONDS
    assert notes.note_seen(bot.user_id, playing=True)
    assert Player.objects.get(pk=bot.pk).last_seen_at >= first


def test_just_after_it_played_a_polling_bot_is_noted_sooner(clock):
    """Issue 27: after its match, the bot's poll for more work is noted within SETTLING_SECONDS, so the ladder hears it
    at its next tick rather than a minute later; a bot that has not played lately is noted once a minute."""
    bot = create_external_bot(name="ext")
    idle = create_external_bot(name="idle")
    assert notes.note_seen(bot.user_id, playing=True) and notes.note_seen(idle.user_id, playing=False)
    clock.now += notes.SETTLING_SECONDS
    assert notes.note_seen(bot.user_id, playing=False)
    assert not notes.note_seen(idle.user_id, playing=False)
    clock.now += notes.SETTLING_FOR  # long after it last played: back to once a minute
    assert notes.note_seen(bot.user_id, playing=False)
    clock.now += notes.SETTLING_SECONDS
    assert not notes.note_seen(bot.user_id, playing=False)
