"""A stored match holds its whole game: its export replays identically, for every variant of the rules, from a few
hundred bytes of choices (engine.common.compact) and no row per trick."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from engine import InvalidRuleset, Ruleset, from_record, to_record
from engine.games import game_type
from league.models import Match, MatchSeat, MatchStatus, MatchStep
from league.selectors import load_match_game, match_record
from league.services import create_match, play_bot_match

from .matches_support import VARIANTS, bot_match, bot_players, reference_record

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_stored_match_exports_a_record_the_engine_replays_identically(variant):
    match = bot_match(VARIANTS[variant], seed=f"store/{variant}")
    outcome = play_bot_match(match_id=match.pk)
    assert outcome.status == "finished"
    match.refresh_from_db()
    record = match_record(match)
    # The engine replays the export, checking every choice, and derives exactly what was stored.
    assert to_record(from_record(record)) == record
    # And it is the game an uninterrupted in-memory run plays.
    assert record == reference_record(match)
    ruleset = Ruleset.from_dict(match.ruleset)
    assert sum(len(r["tricks"]) for r in record["rounds"]) == ruleset.rounds * ruleset.tricks_per_round
    assert match.status == MatchStatus.FINISHED and match.finished_at is not None
    # What is stored is the choices alone, all in the match row: no step is left, and a choice takes under 3 bytes.
    assert not MatchStep.objects.filter(match=match).exists()
    choices = game_type("diamonds").codec.decode(match.moves)
    assert len(choices) == match.move_number
    assert len(bytes(match.moves)) < 3 * match.move_number


@pytest.mark.parametrize("variant", ["4p-thief", "6p-partners"])
def test_seat_results_follow_the_record_result(variant):
    match = bot_match(VARIANTS[variant], seed=f"seats/{variant}")
    play_bot_match(match_id=match.pk)
    match.refresh_from_db()
    result = match.result
    teams = Ruleset.from_dict(match.ruleset).teams
    for ms in MatchSeat.objects.filter(match=match):
        team = next(t for t, members in enumerate(teams) if ms.seat in members)
        assert ms.team == team
        assert (ms.score, ms.tiebreak, ms.showroom) == (result["score"][team], result["vault"][team],
                                                     result["showroom"][team])
        assert ms.is_winner == (team in result["winners"])
        assert (ms.placement == 1) == ms.is_winner  # R-WIN-1: winners are those best on score, then vault


def test_a_step_cannot_be_stored_twice():
    match = bot_match(VARIANTS["4p-thief"])
    play_bot_match(match_id=match.pk, max_tricks=1)
    first = MatchStep.objects.get(match=match, first=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchStep.objects.create(match=match, first=0, choices=first.choices)


def test_a_match_finished_after_a_pause_keeps_its_play_in_its_row_alone():
    match = bot_match(VARIANTS["4p-thief"], seed="paused then finished")
    play_bot_match(match_id=match.pk, max_tricks=3)
    assert MatchStep.objects.filter(match=match).count() == 1
    assert play_bot_match(match_id=match.pk).status == "finished"
    match.refresh_from_db()
    assert not MatchStep.objects.filter(match=match).exists()
    assert match_record(match) == reference_record(match)


def test_an_unfinished_match_exports_its_choices_so_far():
    match = bot_match(VARIANTS["5p-choose"], seed="unfinished")
    outcome = play_bot_match(match_id=match.pk, max_tricks=13)
    assert outcome.status == "paused" and outcome.tricks_written == 13
    match.refresh_from_db()
    record = match_record(match)
    assert "result" not in record
    assert sum(len(r["tricks"]) for r in record["rounds"]) == 13
    derived = to_record(from_record(record))
    # The replayed game has begun the next trick, which has no plays yet and so is not stored.
    for r in derived["rounds"]:
        r["tricks"] = [t for t in r["tricks"] if t["plays"]]
    assert derived == record
    game, _ = load_match_game(match)
    assert game.move_number == match.move_number


def test_create_match_checks_the_ruleset_and_fills_it_in():
    players = bot_players(5)
    with pytest.raises(InvalidRuleset):
        create_match(players=players, ruleset={"players": 5, "partnerships": True})
    with pytest.raises(InvalidRuleset):
        create_match(players=players[:3], ruleset={"players": 4})
    match = create_match(players=players[:4], ruleset={"players": 4}, seed="explicit")
    assert match.ruleset == {"players": 4, "partnerships": False, "perfect": False, "clubs": "thief",
                             "rounds": 4, "hand_size": 10, "deck_ranks": 15}
    assert match.seats == [p.name for p in players[:4]]
    assert match.status == MatchStatus.PENDING and match.game == "diamonds"
    assert Match.objects.get(pk=match.pk).first_dealer == match.first_dealer


def test_a_finished_record_is_replayed_once_and_a_correction_still_shows(monkeypatch):
    """league.selectors.records keeps finished matches' records (RECORD_CACHE): the second read replays nothing,
    a caller changing its copy changes no later read, and a corrected result is read from the match row."""
    from django.contrib.auth import get_user_model

    from league.selectors import records
    from league.services.corrections import correct_result

    records.RECORD_CACHE.clear()
    match = bot_match(VARIANTS["4p-thief"], seed="cached record")
    play_bot_match(match_id=match.pk)
    match.refresh_from_db()
    replays = []
    real = records.load_match_game
    monkeypatch.setattr(records, "load_match_game", lambda m: replays.append(m.pk) or real(m))
    first = match_record(match)
    first["rounds"][0]["tricks"].clear()  # the caller's own copy
    second = match_record(match)
    assert replays == [match.pk] and second == reference_record(match)
    staff = get_user_model().objects.create_user("corrector", is_staff=True)
    correct_result(match=match, user=staff, reason="miscounted", vault=[1, 2, 3, 4], showroom=[0, 0, 0, 0])
    match.refresh_from_db()
    assert match_record(match)["result"]["vault"] == [1, 2, 3, 4] and replays == [match.pk]


def test_a_match_read_before_a_worker_finished_it_still_gives_the_finished_record():
    """A reader holding the row from before the finish (its steps then moved into `moves`) reads the play again
    rather than a game cut short or empty."""
    from league.selectors.live import match_game

    match = bot_match(VARIANTS["4p-choose"], seed="finished under the reader")
    play_bot_match(match_id=match.pk, max_tricks=5)
    read_while_running = Match.objects.get(pk=match.pk)
    for_the_state = Match.objects.get(pk=match.pk)
    assert read_while_running.status == MatchStatus.RUNNING and MatchStep.objects.filter(match=match).exists()
    assert play_bot_match(match_id=match.pk).status == "finished"  # another worker, meanwhile
    assert match_record(read_while_running) == reference_record(match)
    assert read_while_running.status == MatchStatus.FINISHED
    assert match_game(for_the_state).over
