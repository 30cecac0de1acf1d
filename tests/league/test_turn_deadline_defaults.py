"""Issue 27, "no match waits for ever": every match with a seat that is not an engine bot has a turn deadline,
whoever created it, with a default per kind (league.services.matches.turn_deadline_for): a person's at a table with a
person, an external bot's at a table of bots, what the organiser set when they set one, never none but at a table
of real cards. Rows without one (stored before the rule, or edited by hand) get one from the beat task's sweep.
Before, every creator but a tournament with a deadline and the lobby's timed tables left the deadline empty."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from league.models import Match, MatchSeat
from league.services import create_bot_player, create_match, create_person_player, register_players
from league.services.advancing import start_tournament
from league.services.comparisons import create_comparison
from league.services.decisions import advance_match, give_deadlines, set_turn_deadline
from league.services.ladders import create_ladder, join_ladder, seat_ladder_tables
from league.services.matches import default_turn_deadline, turn_deadline_for
from league.services.offline_results import set_offline
from league.services.players import create_external_bot
from league.services.tournament_setup import create_tournament

pytestmark = pytest.mark.django_db

PERSON, BOT = 240, 20


@pytest.fixture(autouse=True)
def _defaults(settings):
    settings.DIAMONDS_PERSON_TURN_DEADLINE_SECONDS = PERSON
    settings.DIAMONDS_BOT_TURN_DEADLINE_SECONDS = BOT


def person(name: str):
    return create_person_player(user=get_user_model().objects.create_user(name), name=name)


def engines(count: int, prefix: str = "engine"):
    return [create_bot_player(name=f"{prefix}-{i}", kind="random") for i in range(count)]


def test_the_default_is_chosen_by_who_sits_at_the_table():
    """Issue 27: a person's default with a person, an external bot's with external bots only, none for engine bots."""
    ann, ext, field = person("ann"), create_external_bot(name="ext"), engines(2)
    assert default_turn_deadline([ann, ext, *field]) == PERSON
    assert default_turn_deadline([ext, *field]) == BOT
    assert default_turn_deadline(field) is None


def test_an_organiser_sets_longer_or_shorter_but_none_is_the_default_unless_the_cards_are_real():
    """Issue 27: a deadline asked for is kept; none asked for is the default; a table of real cards keeps none."""
    ext, field = create_external_bot(name="ext"), engines(3)
    assert turn_deadline_for([ext, *field], 7 * 24 * 3600) == 7 * 24 * 3600
    assert turn_deadline_for([ext, *field], 5) == 5
    assert turn_deadline_for([ext, *field], None) == BOT
    assert turn_deadline_for([ext, *field], None, offline=True) is None
    with pytest.raises(ValueError):
        turn_deadline_for([ext, *field], 0)


def test_create_match_gives_every_table_with_someone_to_wait_for_a_deadline():
    """Issue 27: the one place matches are made applies the rule, so no caller can forget it."""
    ann, ext, field = person("ann"), create_external_bot(name="ext"), engines(3)
    assert create_match(players=[ann, *field], ruleset=4).turn_deadline_seconds == PERSON
    assert create_match(players=[ext, *field], ruleset=4).turn_deadline_seconds == BOT
    assert create_match(players=field + engines(1, "more"), ruleset=4).turn_deadline_seconds is None
    asked = create_match(players=[ext, *field], ruleset=4, turn_deadline_seconds=3600, deadline_action="forfeit")
    assert (asked.turn_deadline_seconds, asked.deadline_action) == (3600, "forfeit")
    with pytest.raises(ValueError):
        create_match(players=[ext, *field], ruleset=4, deadline_action="resign")
    assert Match.objects.count() == 4  # the refused one stored nothing


def test_a_ladder_table_with_an_external_bot_has_the_bots_deadline():
    """Issue 27: the newcomer's ladder table had `turn_deadline_seconds` null."""
    ladder = create_ladder(name="ladder", table_size=4)
    ext = create_external_bot(name="ext")
    join_ladder(ladder=ladder, players=[ext, *engines(3)])
    ext.__class__.objects.filter(pk=ext.pk).update(last_seen_at=timezone.now())  # it polls
    [match] = seat_ladder_tables(ladder=ladder)
    assert match.turn_deadline_seconds == BOT


def test_a_tournament_without_a_deadline_gives_its_tables_the_default_and_one_with_a_deadline_its_own():
    """Issue 27: a tournament's null deadline was "no deadline" on every table; it is now the default for who sits
    there, and an organiser's (a correspondence week, say) is copied as it was."""
    for name, asked, expected in (("open", None, PERSON), ("correspondence", 7 * 24 * 3600, 7 * 24 * 3600)):
        tournament = create_tournament(name=name, rounds=1, table_size=4, turn_deadline_seconds=asked)
        register_players(tournament=tournament, players=[person(f"{name}-pat"), *engines(3, name)])
        rnd = start_tournament(tournament=tournament)
        assert Match.objects.get(tournament_round=rnd).turn_deadline_seconds == expected


def test_a_comparison_of_an_external_bot_has_the_bots_deadline_and_one_of_engine_bots_none():
    """Issue 27: comparisons seat external bots too; their games waited without a deadline."""
    owner = get_user_model().objects.create_user("author")
    ext = create_external_bot(name="candidate", owner=owner)
    greedy = create_bot_player(name="baseline", kind="greedy")
    comparison = create_comparison(user=owner, candidate=ext, baseline=greedy, ruleset=4)
    pair = comparison.pair_set.get()
    assert Match.objects.get(pk=pair.candidate_match_id).turn_deadline_seconds == BOT
    # The baseline's game has engine bots only: the workers play it, nobody waits.
    assert Match.objects.get(pk=pair.baseline_match_id).turn_deadline_seconds is None


def test_clearing_a_tables_deadline_gives_it_the_default_not_none():
    """Issue 27: an organiser may lengthen a deadline, not take it away."""
    ann = person("ann")
    match = create_match(players=[ann, *engines(3)], ruleset=4, turn_deadline_seconds=60)
    assert set_turn_deadline(match=match, turn_deadline_seconds=None).turn_deadline_seconds == PERSON
    assert set_turn_deadline(match=match, turn_deadline_seconds=86400).turn_deadline_seconds == 86400


def test_a_table_switched_from_real_cards_to_online_play_gets_the_default():
    """Issue 27: a table of real cards may have none; played online it may not."""
    match = create_match(players=[person("ann"), *engines(3)], ruleset=4, offline=True)
    assert match.turn_deadline_seconds is None
    assert set_offline(match=match, offline=False).turn_deadline_seconds == PERSON


def test_the_sweep_gives_live_rows_without_a_deadline_the_default_and_their_awaited_decision_a_clock(
        django_capture_on_commit_callbacks):
    """Issue 27: rows stored before the rule (or edited by hand) get a deadline, and the decision they await a
    deadline_at, from the beat task's sweep; engine bots' tables and tables of real cards are left alone."""
    ann = person("ann")
    live = create_match(players=[ann, *engines(3)], ruleset=4)
    advance_match(match_id=live.pk)
    offline = create_match(players=[person("bob"), *engines(3, "other")], ruleset=4, offline=True)
    Match.objects.filter(pk=live.pk).update(turn_deadline_seconds=None, deadline_at=None)  # as stored before
    assert MatchSeat.objects.get(match=live, player=ann).awaiting
    assert give_deadlines() == [live.pk]
    live.refresh_from_db()
    assert live.turn_deadline_seconds == PERSON and live.deadline_at is not None
    assert Match.objects.get(pk=offline.pk).turn_deadline_seconds is None
    assert give_deadlines() == []  # nothing left to give
