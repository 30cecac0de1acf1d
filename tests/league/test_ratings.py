"""Ratings (league.services.ratings): OpenSkill Plackett-Luce from stored placements, ties as shared ranks,
partnerships as teams, one history row per player per match however often the match's end is reported."""

from __future__ import annotations

import pytest

from league.models import Match, Rating, RatingHistory
from league.services import create_match
from league.services.ladders import create_ladder
from league.services.match_finished import on_match_finished
from league.services.ratings import apply_match_ratings, initial_ordinal
from league.services.registration import register_players
from league.services.rounds import seat_round
from league.services.tournament_setup import create_tournament

from .tournament_support import bot_field, store_result

pytestmark = pytest.mark.django_db


def ladder_match(players, ruleset=None, ladder=None):
    ladder = ladder or create_ladder(name="rated", table_size=len(players), ruleset=ruleset)
    match = create_match(players=players, ruleset={"players": len(players), **(ruleset or {})}, seed="r")
    Match.objects.filter(pk=match.pk).update(ladder=ladder)
    match.refresh_from_db()
    return match


def ratings(ladder):
    return {r.player_id: r for r in Rating.objects.filter(ladder=ladder)}


def test_placements_with_a_tie_become_shared_ranks():
    players = bot_field(4)
    match = ladder_match(players)
    store_result(match, {0: (40, 10), 1: (30, 10), 2: (30, 10), 3: (10, 2)})
    assert apply_match_ratings(match_id=match.pk)
    r = ratings(match.ladder)
    mu = [r[p.pk].mu for p in players]
    assert mu[0] > mu[1] == mu[2] > mu[3]
    assert all(r[p.pk].ordinal == pytest.approx(r[p.pk].mu - 3 * r[p.pk].sigma) for p in players)
    assert all(r[p.pk].matches == 1 for p in players) and r[players[0].pk].ordinal > initial_ordinal()
    history = {h.player_id: h for h in RatingHistory.objects.filter(match=match)}
    assert set(history) == {p.pk for p in players}
    assert history[players[0].pk].mu_before == 25 and history[players[0].pk].mu == r[players[0].pk].mu


def test_partners_are_rated_as_one_team():
    players = bot_field(4)
    match = ladder_match(players, ruleset={"partnerships": True})
    store_result(match, {0: (50, 20), 2: (50, 20), 1: (30, 10), 3: (30, 10)})
    apply_match_ratings(match_id=match.pk)
    r = ratings(match.ladder)
    assert r[players[0].pk].mu == r[players[2].pk].mu > 25 > r[players[1].pk].mu == r[players[3].pk].mu


def test_rating_history_is_written_once_when_the_end_of_a_match_is_reported_twice():
    players = bot_field(3)
    match = ladder_match(players)
    store_result(match, {0: (40, 10), 1: (30, 10), 2: (10, 2)})
    on_match_finished(match_id=match.pk)
    before = {r.player_id: (r.mu, r.sigma, r.matches) for r in Rating.objects.all()}
    on_match_finished(match_id=match.pk)
    assert not apply_match_ratings(match_id=match.pk)
    assert RatingHistory.objects.filter(match=match).count() == 3
    assert {r.player_id: (r.mu, r.sigma, r.matches) for r in Rating.objects.all()} == before
    match.refresh_from_db()
    assert match.ratings_applied


def test_a_second_match_starts_from_the_first_ones_ratings():
    players = bot_field(2)
    ladder = create_ladder(name="two", table_size=2)
    first, second = ladder_match(players, ladder=ladder), ladder_match(players, ladder=ladder)
    store_result(first, {0: (40, 10), 1: (30, 10)})
    store_result(second, {0: (40, 10), 1: (30, 10)})
    on_match_finished(match_id=first.pk)
    on_match_finished(match_id=second.pk)
    h = list(RatingHistory.objects.filter(player=players[0]).order_by("id"))
    assert h[1].mu_before == h[0].mu and h[1].mu > h[0].mu and ratings(ladder)[players[0].pk].matches == 2


def test_tournament_matches_rate_globally_only_when_the_tournament_is_rated():
    players = bot_field(4)
    for rated in (False, True):
        t = create_tournament(name=f"rated-{rated}", rounds=1, table_size=4, rated=rated, seed="g")
        register_players(tournament=t, players=players)
        match = seat_round(tournament=t).matches.get()
        store_result(match, {0: (40, 10), 1: (30, 10), 2: (20, 5), 3: (10, 2)})
        on_match_finished(match_id=match.pk)
        assert RatingHistory.objects.filter(match=match).count() == (4 if rated else 0)
    assert Rating.objects.filter(ladder__isnull=True).count() == 4
    assert all(h.ladder_id is None for h in RatingHistory.objects.all())


def test_an_unfinished_or_unrated_match_is_not_rated():
    players = bot_field(2)
    match = create_match(players=players, ruleset={"players": 2}, seed="x")
    assert not apply_match_ratings(match_id=match.pk)
    store_result(match, {0: (40, 10), 1: (30, 10)})
    assert not apply_match_ratings(match_id=match.pk)  # neither a ladder's nor a rated tournament's
    assert not RatingHistory.objects.exists()
