"""Turn deadlines set on a tournament: seat_round copies them onto every table, and the beat task
(workers.tasks.enforce_turn_deadlines) enforces them. Under "fallback" the fallback bot makes the late seat's
overdue decision; under "forfeit" the seat forfeits, the fallback bot plays it to the end of a legal game, and the
standings place it last at its table whatever its score. Time moves by setting `deadline_at` in the past.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from engine import SeatView, replay
from engine.diamonds.bots import make_bot
from league.models import Match, MatchSeat, MatchStatus, TournamentStatus
from league.selectors.live import match_game
from league.selectors.records import match_record
from league.selectors.standings import tournament_standings
from league.services import create_person_player, register_players, register_team
from league.services.advancing import start_tournament
from league.services.corrections import correct_result
from league.services.decisions import SeatForfeited, submit_decision
from league.services.tournament_setup import create_tournament
from league.standings import forfeit_places
from workers.tasks import enforce_turn_deadlines

from .tournament_support import bot_field

# Committed for real: a stored step hands the engine bots' turns to the (eager) worker task after commit.
pytestmark = pytest.mark.django_db(transaction=True)


def person(name: str):
    return create_person_player(user=get_user_model().objects.create_user(name), name=name)


def seated_table(people: list, *, seed: str, **deadline):
    """A one-round tournament of four: `people` and random engine bots; started, so its single table waits for the
    first person's decision. Returns the tournament and the table's match."""
    tournament = create_tournament(name="Deadline cup", rounds=1, table_size=4, seed=seed, turn_deadline_seconds=60,
                                   **deadline)
    register_players(tournament=tournament, players=[*people, *bot_field(4 - len(people), kind="random")])
    rnd = start_tournament(tournament=tournament)
    return tournament, Match.objects.get(tournament_round=rnd)


def overdue(match: Match) -> None:
    """The match's pending deadline passes (no sleeping: the stored deadline is moved into the past)."""
    Match.objects.filter(pk=match.pk, deadline_at__isnull=False).update(
        deadline_at=timezone.now() - timedelta(seconds=1))


def stored_state(match: Match) -> tuple:
    m = Match.objects.get(pk=match.pk)
    seats = list(MatchSeat.objects.filter(match=m).order_by("seat").values_list("seat", "awaiting", "forfeited",
                                                                                "forfeited_at_move", "placement"))
    return m.status, m.move_number, m.deadline_at, seats


def seat_of(match: Match, player) -> MatchSeat:
    return MatchSeat.objects.get(match=match, player=player)


def test_seat_round_copies_the_tournaments_deadline_onto_its_tables():
    pat = person("pat")
    _, match = seated_table([pat], seed="copy", deadline_action="forfeit", deadline_fallback="greedy")
    assert (match.turn_deadline_seconds, match.deadline_action, match.deadline_fallback) == (60, "forfeit", "greedy")
    # The first person's decision is awaited, so the clock runs.
    assert seat_of(match, pat).awaiting and match.deadline_at is not None and match.deadline_at > timezone.now()
    assert enforce_turn_deadlines() == []  # nothing overdue yet


def test_a_late_seat_is_played_by_the_fallback_bot_and_the_match_ends(settings):
    # A seat that never decides would have left the table after DIAMONDS_FORFEIT_AFTER_MISSES deadlines in a row
    # and forfeit (tested below); here only what "fallback" does alone is watched.
    settings.DIAMONDS_FORFEIT_AFTER_MISSES = 100_000
    pat = person("pat")
    tournament, match = seated_table([pat], seed="fallback", deadline_fallback="greedy")
    assert match.deadline_action == "fallback"
    for _ in range(1000):
        overdue(match)
        before = stored_state(match)
        assert enforce_turn_deadlines() == [match.pk]
        # Run twice in a row, the beat task finds nothing more to do: the step set the next deadline.
        after = stored_state(match)
        assert after != before
        assert enforce_turn_deadlines() == [] and stored_state(match) == after
        if after[0] != MatchStatus.RUNNING:
            break
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.deadline_at is None
    # Under "fallback" the seat never forfeits: its place is the game's own (R-WIN-1).
    row = seat_of(match, pat)
    assert not row.forfeited and row.forfeited_at_move is None
    # R-WIN-1: places by score, then the vault (tiebreak); the deal is fresh each run, so ties happen.
    better = [r for r in MatchSeat.objects.filter(match=match) if (r.score, r.tiebreak) > (row.score, row.tiebreak)]
    assert row.placement == 1 + len(better)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED


def test_a_forfeiting_seat_is_played_to_the_end_and_placed_last_whatever_its_score():
    pat = person("pat")
    tournament, match = seated_table([pat], seed="forfeit-2", deadline_action="forfeit", deadline_fallback="greedy")
    missed = match.move_number
    overdue(match)
    assert enforce_turn_deadlines() == [match.pk]
    after = stored_state(match)
    assert enforce_turn_deadlines() == [] and stored_state(match) == after  # idempotent

    match.refresh_from_db()
    # Nobody else is awaited, so the fallback bot played pat's seat (and the bots theirs) to the game's end.
    assert match.status == MatchStatus.FINISHED and match.deadline_at is None
    row = seat_of(match, pat)
    assert row.forfeited and row.forfeited_at_move == missed and not row.awaiting
    assert row.placement == 4 and not row.is_winner
    others = MatchSeat.objects.filter(match=match).exclude(pk=row.pk)
    # The others take places 1-3 among themselves (the deal is fresh each run: two of them may share a place).
    assert min(o.placement for o in others) == 1 and all(1 <= o.placement <= 3 for o in others)
    # The record is the whole game as the engine played it, and replays without a difference.
    record = match_record(match)
    assert record["result"]["score"][row.seat] == row.score
    assert replay(record)[2] == []
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED

    # Whatever the fallback bot scored for pat, even the table's best score leaves a forfeit last: an organiser's
    # correction makes it so, and the places and standings keep the forfeit.
    vault = [0 if seat != row.seat else 20 for seat in range(4)]
    showroom = [5, 6, 7, 8]
    correct_result(match=match, user=get_user_model().objects.create_user("olga"), reason="pat's top score",
                   vault=vault, showroom=showroom)
    row.refresh_from_db()
    assert row.score == 40 + showroom[row.seat] > max(o.score for o in others.all())
    assert row.placement == 4 and not row.is_winner
    assert sorted(o.placement for o in others.all()) == [1, 2, 3]
    standings = tournament_standings(tournament=tournament)
    last = standings[-1]
    assert last.player_ids == (pat.pk,) and last.rank == 4 and last.metrics["points"] == 0
    assert last.metrics["score"] == row.score == max(r.metrics["score"] for r in standings)  # only the place is lost


def test_after_a_forfeit_the_other_people_play_on_and_the_late_seat_is_refused():
    pat, ann = person("pat"), person("ann")
    tournament, match = seated_table([pat, ann], seed="two-people", deadline_action="forfeit")
    # Ann plays her own decisions (as a greedy bot would, through submit_decision); pat lets every deadline pass.
    forfeited_at, refusals = None, 0
    for _ in range(2000):
        match.refresh_from_db()
        if match.status != MatchStatus.RUNNING:
            break
        ann_row, pat_row = seat_of(match, ann), seat_of(match, pat)
        if ann_row.awaiting:
            game = match_game(match)
            bot = make_bot("greedy", seed=f"ann-{game.move_number}")
            decision = bot.decide(SeatView(game, ann_row.seat))
            submit_decision(match=match, player=ann, move_number=game.move_number,
                            decision_json=decision.to_json())
        elif pat_row.awaiting:
            overdue(match)
            assert enforce_turn_deadlines() == [match.pk]
            pat_row.refresh_from_db()
            assert pat_row.forfeited and not pat_row.awaiting
            forfeited_at = pat_row.forfeited_at_move
        else:
            pytest.fail(f"match {match.pk} waits on nobody at move {match.move_number}")
        now = Match.objects.get(pk=match.pk)
        if forfeited_at is not None and now.status == MatchStatus.RUNNING:
            # From now on pat is never awaited again, and a decision from pat is refused.
            with pytest.raises(SeatForfeited):
                submit_decision(match=match, player=pat, move_number=now.move_number,
                                decision_json={"kind": "pass_count", "count": 1})
            refusals += 1
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and forfeited_at is not None and refusals > 0
    pat_row, ann_row = seat_of(match, pat), seat_of(match, ann)
    assert pat_row.forfeited and pat_row.forfeited_at_move == forfeited_at and pat_row.placement == 4
    assert not ann_row.forfeited
    assert replay(match_record(match))[2] == []
    assert tournament_standings(tournament=tournament)[-1].player_ids == (pat.pk,)


def test_in_partnerships_a_forfeit_places_the_seats_team_last():
    pat = person("pat")
    partner, *rivals = bot_field(3, kind="random")
    tournament = create_tournament(name="Pairs cup", rounds=1, table_size=4, seed="pairs",
                                   ruleset={"partnerships": True}, turn_deadline_seconds=60, deadline_action="forfeit")
    register_team(tournament=tournament, players=[pat, partner])
    register_team(tournament=tournament, players=rivals)
    match = Match.objects.get(tournament_round=start_tournament(tournament=tournament))
    overdue(match)
    assert enforce_turn_deadlines() == [match.pk]
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    pat_row, partner_row = seat_of(match, pat), seat_of(match, partner)
    # The seat forfeited; its partner did not, but shares the team's place: last of the two teams.
    assert pat_row.forfeited and not partner_row.forfeited
    assert pat_row.placement == partner_row.placement == 2
    assert {r.placement for r in MatchSeat.objects.filter(match=match, player__in=rivals)} == {1}
    last = tournament_standings(tournament=tournament)[-1]
    assert set(last.player_ids) == {pat.pk, partner.pk} and last.metrics["points"] == 0


def test_forfeit_places_put_forfeits_after_everyone_who_played_on():
    keys = [(40, 10), (90, 30), (40, 10), (10, 0)]
    assert forfeit_places(keys, [False] * 4) == [2, 1, 2, 4]  # R-WIN-1 itself
    assert forfeit_places(keys, [False, True, False, False]) == [1, 4, 1, 3]
    assert forfeit_places(keys, [False, True, False, True]) == [1, 3, 1, 3]  # forfeits share the last places
