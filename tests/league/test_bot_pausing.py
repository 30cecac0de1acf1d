"""Pausing bots that stop answering (league.services.bot_pausing): N finished matches in a row with a missed
deadline or a forfeit pause a bot, a clean match resets the count, the owner resumes it, and a paused bot is neither
seated by a ladder nor entered anywhere (a running tournament keeps it)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.events import league_event
from league.models import LadderEntry, Match, MatchSeat, MatchStatus, Player
from league.services import create_bot_player, create_match, create_tournament, register_players
from league.services.bot_pausing import NotPaused, count_match_conduct, resume_bot
from league.services.competition import TournamentError
from league.services.ladders import create_ladder, join_ladder, seat_ladder_tables
from league.services.match_finished import on_match_finished
from league.services.players import create_external_bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def events():
    heard = []

    def listen(sender, name, payload, **kwargs):
        heard.append((name, payload))

    league_event.connect(listen)
    yield heard
    league_event.disconnect(listen)


@pytest.fixture
def table():
    owner = get_user_model().objects.create_user("author")
    bot = create_external_bot(name="sleepy", owner=owner)
    others = [create_bot_player(name=f"greedy-{i}", kind="greedy") for i in range(3)]
    return bot, others


def finish(players, *, missed: Player | None = None, forfeited: Player | None = None) -> Match:
    """A finished match of `players` in which `missed` let one deadline pass and `forfeited` forfeited, followed up
    as the workers do."""
    match = create_match(players=players, ruleset=len(players))
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    if missed is not None:
        MatchSeat.objects.filter(match=match, player=missed).update(timeouts=1)
    if forfeited is not None:
        MatchSeat.objects.filter(match=match, player=forfeited).update(forfeited=True, forfeited_at_move=3)
    on_match_finished(match_id=match.pk)
    return match


def test_n_matches_in_a_row_with_a_miss_pause_the_bot_once(table, settings, events, django_capture_on_commit_callbacks):
    settings.DIAMONDS_BOT_PAUSE_AFTER = 3
    bot, others = table
    with django_capture_on_commit_callbacks(execute=True):
        finish([bot, *others], missed=bot)
        finish([bot, *others], forfeited=bot)
    bot.refresh_from_db()
    assert bot.missed_in_row == 2 and not bot.is_paused and events == []
    with django_capture_on_commit_callbacks(execute=True):
        last = finish([bot, *others], missed=bot)
    bot.refresh_from_db()
    assert bot.is_paused and bot.missed_in_row == 3
    assert "3 matches in a row" in bot.paused_reason and f"match {last.pk}" in bot.paused_reason
    assert events == [("bot.paused", {"player_id": bot.pk, "reason": bot.paused_reason})]
    # a fourth one, and the same match followed up again, pause nothing twice
    with django_capture_on_commit_callbacks(execute=True):
        again = finish([bot, *others], missed=bot)
        on_match_finished(match_id=again.pk)
    bot.refresh_from_db()
    assert bot.missed_in_row == 4 and len(events) == 1


def test_a_clean_match_in_between_resets_the_count(table, settings):
    settings.DIAMONDS_BOT_PAUSE_AFTER = 2
    bot, others = table
    finish([bot, *others], missed=bot)
    finish([bot, *others])  # played every turn in time
    finish([bot, *others], missed=bot)
    bot.refresh_from_db()
    assert bot.missed_in_row == 1 and not bot.is_paused


def test_a_match_counts_once_however_often_it_is_followed_up(table):
    bot, others = table
    match = finish([bot, *others], missed=bot)
    on_match_finished(match_id=match.pk)
    assert count_match_conduct(match_id=match.pk) == []
    bot.refresh_from_db()
    assert bot.missed_in_row == 1


def test_failed_and_cancelled_matches_count_neither_way(table):
    bot, others = table
    finish([bot, *others], missed=bot)
    for status in (MatchStatus.FAILED, MatchStatus.CANCELLED):
        match = create_match(players=[bot, *others], ruleset=4)
        Match.objects.filter(pk=match.pk).update(status=status)
        MatchSeat.objects.filter(match=match, player=bot).update(timeouts=2)
        on_match_finished(match_id=match.pk)
    bot.refresh_from_db()
    assert bot.missed_in_row == 1


def test_the_owner_resumes_a_paused_bot_and_its_count_starts_again(table, settings, events,
                                                                   django_capture_on_commit_callbacks):
    settings.DIAMONDS_BOT_PAUSE_AFTER = 1
    bot, others = table
    finish([bot, *others], forfeited=bot)
    bot.refresh_from_db()
    assert bot.is_paused
    with django_capture_on_commit_callbacks(execute=True):
        resume_bot(player=bot)
    bot.refresh_from_db()
    assert not bot.is_paused and bot.missed_in_row == 0 and bot.paused_reason == ""
    assert events == [("bot.resumed", {"player_id": bot.pk})]
    with pytest.raises(NotPaused):
        resume_bot(player=bot)
    assert len(events) == 1


def test_a_paused_bot_is_not_seated_by_a_ladder_tick_nor_entered_anywhere(table, settings):
    settings.DIAMONDS_BOT_PAUSE_AFTER = 1
    bot, others = table
    fourth = create_bot_player(name="random-x", kind="random")
    ladder = create_ladder(name="Pool", table_size=4)
    join_ladder(ladder=ladder, players=[bot, *others, fourth])
    finish([bot, *others], missed=bot)
    bot.refresh_from_db()
    assert bot.is_paused
    seated = seat_ladder_tables(ladder=ladder, seed="s")
    assert len(seated) == 1
    assert not MatchSeat.objects.filter(match__in=seated, player=bot).exists()
    assert LadderEntry.objects.get(ladder=ladder, player=bot).active  # kept: seated again once resumed
    other = create_ladder(name="Other", table_size=4)
    with pytest.raises(TournamentError, match="paused"):
        join_ladder(ladder=other, players=[bot])
    assert not LadderEntry.objects.filter(ladder=other).exists()
    tournament = create_tournament(name="Open", rounds=1)
    with pytest.raises(TournamentError, match="paused"):
        register_players(tournament=tournament, players=[bot, fourth])
    assert not tournament.entries.exists()
    resume_bot(player=bot)
    bot.refresh_from_db()
    join_ladder(ladder=other, players=[bot])
    register_players(tournament=tournament, players=[bot])
    assert tournament.entries.filter(player=bot).exists()


def test_a_lost_follow_up_still_counts_once_through_the_sweep(table, settings):
    from league.services.match_finished import catch_up_finished_matches

    settings.DIAMONDS_BOT_PAUSE_AFTER = 1
    bot, others = table
    match = create_match(players=[bot, *others], ruleset=4)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    MatchSeat.objects.filter(match=match, player=bot).update(timeouts=1)
    # the worker died before on_match_finished: the sweep does it
    assert catch_up_finished_matches() == 1
    bot.refresh_from_db()
    assert bot.is_paused and bot.missed_in_row == 1
    assert catch_up_finished_matches() == 0


def test_a_running_tournament_keeps_a_paused_bot_seated_until_the_organiser_withdraws_it(table, settings):
    from league.services import advance_tournament, start_tournament
    from league.services.registration import withdraw_player

    from .tournament_support import store_result

    settings.DIAMONDS_BOT_PAUSE_AFTER = 1
    bot, others = table
    tournament = create_tournament(name="Cup", rounds=3, table_size=4, auto_advance=False, seed="cup")
    register_players(tournament=tournament, players=[bot, *others])
    first = start_tournament(tournament=tournament)
    (match,) = first.matches.all()
    MatchSeat.objects.filter(match=match, player=bot).update(timeouts=3)
    store_result(match, {0: (30, 1), 1: (20, 2), 2: (10, 3), 3: (5, 4)})
    on_match_finished(match_id=match.pk)
    bot.refresh_from_db()
    assert bot.is_paused
    second = advance_tournament(tournament=tournament)
    assert second.matches.get().match_seats.filter(player=bot).exists()  # the schedule stands
    store_result(second.matches.get(), {0: (30, 1), 1: (20, 2), 2: (10, 3), 3: (5, 4)})
    on_match_finished(match_id=second.matches.get().pk)
    withdraw_player(tournament=tournament, player=bot)
    third = advance_tournament(tournament=tournament)
    assert not MatchSeat.objects.filter(match__tournament_round=third, player=bot).exists()
