"""Comparisons (league.services.comparisons): who may create and stop them, what a pair is (two unrated matches
sharing a deal, the tested seat rotating, the field alike), recording a pair once however often its end is
announced, and whole comparisons played in-process to a decision."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.limits import MAX_COMPARISON_PAIRS, MAX_RUNNING_COMPARISONS_PER_ACCOUNT
from league.models import (
    Comparison,
    ComparisonPair,
    ComparisonStatus,
    Match,
    MatchStatus,
    OutboxMessage,
    PairStatus,
    Rating,
    RatingHistory,
)
from league.selectors.deals import deal_revealed
from league.selectors.records import match_record
from league.services import play_bot_match
from league.services.cancellation import stop_comparison
from league.services.comparisons import (
    ComparisonInvalid,
    ComparisonRefused,
    close_pair,
    create_comparison,
    on_match_finished,
    pair_seed,
)
from league.services.matches import create_bot_player, create_club
from league.services.players import add_club_admin, create_external_bot

pytestmark = pytest.mark.django_db

FAST = {"players": 4, "rounds": 1}  # one round a game: the tests are about pairs, not about long games


@pytest.fixture
def people(db):
    User = get_user_model()
    club = create_club(name="Comparers")
    author = User.objects.create_user("alice")
    other = User.objects.create_user("eve")
    organiser = User.objects.create_user("olga")
    add_club_admin(club=club, user=organiser)
    return {
        "author": author, "other": other, "organiser": organiser,
        "greedy": create_bot_player(name="greedy-a", kind="greedy"),
        "greedy2": create_bot_player(name="greedy-b", kind="greedy"),
        "random": create_bot_player(name="random-a", kind="random"),
        "mine": create_external_bot(name="alice-bot", owner=author),
        "hers": create_external_bot(name="eve-bot", owner=other),
    }


def _create(people, user="author", candidate="greedy", baseline="random", **kw):
    params = {"ruleset": FAST, "elo0": 0, "elo1": 100, "max_pairs": 40, **kw}
    return create_comparison(user=people[user], candidate=people[candidate], baseline=people[baseline], **params)


def _play(match_id: int) -> None:
    assert play_bot_match(match_id=match_id).status == "finished"


# ---- who may create, and what is refused ---------------------------------------------------------------------------

def test_anyone_signed_in_compares_engine_bots_and_authors_their_own_external_bots(people):
    assert _create(people, user="other").status == ComparisonStatus.RUNNING
    assert _create(people, candidate="mine", baseline="greedy").candidate == people["mine"]
    assert _create(people, user="organiser", candidate="hers", baseline="mine").owner == people["organiser"]


@pytest.mark.parametrize("user,candidate,baseline", [("author", "hers", "greedy"), ("other", "greedy", "mine")])
def test_somebody_elses_external_bot_is_refused_and_nothing_is_stored(people, user, candidate, baseline):
    with pytest.raises(ComparisonRefused, match="somebody else's bot"):
        _create(people, user=user, candidate=candidate, baseline=baseline)
    assert not Comparison.objects.exists() and not Match.objects.exists()


def test_anonymous_and_people_are_refused(people):
    from django.contrib.auth.models import AnonymousUser

    people["anon"] = AnonymousUser()
    with pytest.raises(ComparisonRefused):
        _create(people, user="anon")
    person = get_user_model().objects.create_user("pat")
    from league.services.matches import create_person_player

    people["pat"] = create_person_player(user=person)
    with pytest.raises(ComparisonRefused, match="person"):
        _create(people, candidate="pat")


@pytest.mark.parametrize("params,message", [
    ({"elo0": 10, "elo1": 5}, "elo0 must be below elo1"),
    ({"alpha": 0.7}, "alpha and beta"),
    ({"max_pairs": 0}, "max_pairs"),
    ({"max_pairs": MAX_COMPARISON_PAIRS + 1}, "max_pairs"),
    ({"max_pairs": True}, "max_pairs"),
    ({"ruleset": {"players": 4, "partnerships": True}}, "partnerships"),
    ({"ruleset": {"players": 9}}, "players"),
    ({"game": "chess"}, "unknown game"),
    ({"field_kind": "external"}, "field"),
    ({"field_kind": "greedy", "field_settings": {"nonsense": 1}}, "nonsense"),
    ({"game": "ringrace", "ruleset": 3}, "does not play"),  # greedy is a Diamonds bot only
])
def test_bad_parameters_are_invalid_and_store_nothing(people, params, message):
    with pytest.raises(ComparisonInvalid, match=message):
        _create(people, **params)
    assert not Comparison.objects.exists() and not Match.objects.exists()


def test_running_comparisons_per_account_are_limited(people):
    for _ in range(MAX_RUNNING_COMPARISONS_PER_ACCOUNT):
        _create(people)
    with pytest.raises(ComparisonRefused, match="running"):
        _create(people)
    stop_comparison(user=people["author"], comparison_id=Comparison.objects.first().pk)
    _create(people)  # a stopped one frees its place


# ---- a pair ----------------------------------------------------------------------------------------------------------

def test_a_pair_is_two_unrated_matches_sharing_a_secret_deal_with_the_field_alike(people):
    comparison = _create(people)
    pair = ComparisonPair.objects.get(comparison=comparison)
    a, b = pair.candidate_match, pair.baseline_match
    assert pair.index == 0 and pair.tested_seat == 0
    assert a.seed == b.seed == pair_seed(comparison, 0) and comparison.salt not in a.seed
    assert a.first_dealer == b.first_dealer and a.ruleset == b.ruleset
    seats_a = {s.seat: s.player for s in a.match_seats.all()}
    seats_b = {s.seat: s.player for s in b.match_seats.all()}
    assert seats_a[0] == people["greedy"] and seats_b[0] == people["random"]
    assert all(seats_a[s] == seats_b[s] and seats_a[s].bot_kind == "greedy" for s in (1, 2, 3))
    assert a.ladder_id is None and a.tournament_round_id is None and b.ladder_id is None
    # Both matches are sent to the workers, and the deal stays secret until both have ended.
    assert set(OutboxMessage.objects.values_list("match_id", flat=True)) == {a.pk, b.pk}
    _play(a.pk)
    a.refresh_from_db()
    assert not deal_revealed(a)  # its twin is still to play
    _play(b.pk)
    a.refresh_from_db()
    b.refresh_from_db()  # its stored play is on its row
    assert deal_revealed(a)
    # The same deal, and the field's passes (chosen before the tested seat has shown anything) identical: the league
    # seeds each engine bot decision from the match seed, the seat and the move number (services.play.bot_seed).
    ra, rb = match_record(a), match_record(b)
    assert ra["rounds"][0]["hands"] == rb["rounds"][0]["hands"]
    first_a, first_b = ra["rounds"][0], rb["rounds"][0]
    if first_a["dealer"] != pair.tested_seat:  # a field bot dealt: it chose the same pass count in both games
        assert first_a["pass_count"] == first_b["pass_count"]
    if first_a["pass_count"] == first_b["pass_count"]:  # (the tested seat, dealing, may choose another count)
        assert all(first_a["passes"][s] == first_b["passes"][s] for s in (1, 2, 3))
    assert not Rating.objects.exists() and not RatingHistory.objects.exists()


def test_twin_bots_in_the_tested_seat_play_identical_games(people):
    """Two players of the same engine bot: the pair's games are the same game move for move, so the only
    difference between the two games of any pair is the tested bot's own choices."""
    comparison = _create(people, candidate="greedy", baseline="greedy2")
    pair = ComparisonPair.objects.get(comparison=comparison)
    _play(pair.candidate_match_id)
    _play(pair.baseline_match_id)
    ra, rb = match_record(pair.candidate_match), match_record(pair.baseline_match)
    assert ra["seats"] != rb["seats"]
    ra.pop("seats"), rb.pop("seats")
    assert ra == rb


def test_the_pair_is_recorded_once_and_the_next_starts_once_under_repeated_announcements(people):
    comparison = _create(people)
    pair = ComparisonPair.objects.get(comparison=comparison)
    _play(pair.candidate_match_id)
    on_match_finished(match_id=pair.candidate_match_id)  # its twin still plays: nothing yet
    assert ComparisonPair.objects.get(pk=pair.pk).status == PairStatus.PLAYING
    _play(pair.baseline_match_id)
    assert close_pair(pair_id=pair.pk) is True
    for match_id in (pair.candidate_match_id, pair.baseline_match_id, pair.baseline_match_id):
        on_match_finished(match_id=match_id)  # a redelivery, the other game's worker...
        assert close_pair(pair_id=pair.pk) is False
    pair.refresh_from_db()
    comparison.refresh_from_db()
    assert pair.status == PairStatus.DONE and pair.outcome is not None and pair.candidate_place is not None
    assert comparison.pairs == 1 and comparison.llr == pair.llr
    nxt = ComparisonPair.objects.get(comparison=comparison, index=1)
    assert list(ComparisonPair.objects.filter(comparison=comparison).values_list("index", flat=True)) == [0, 1]
    assert nxt.tested_seat == 1  # the tested seat rotates
    assert not Rating.objects.exists()


def test_a_failed_match_voids_its_pair_and_the_next_pair_starts(people):
    comparison = _create(people)
    pair = ComparisonPair.objects.get(comparison=comparison)
    Match.objects.filter(pk=pair.candidate_match_id).update(status=MatchStatus.FAILED, error="a bot broke")
    _play(pair.baseline_match_id)
    on_match_finished(match_id=pair.baseline_match_id)
    pair.refresh_from_db()
    comparison.refresh_from_db()
    assert pair.status == PairStatus.VOID and pair.outcome is None
    assert comparison.pairs == 0 and comparison.status == ComparisonStatus.RUNNING
    assert ComparisonPair.objects.filter(comparison=comparison, index=1).exists()


def test_stop_by_the_author_cancels_the_pair_in_play_and_starts_nothing(people):
    comparison = _create(people)
    with pytest.raises(ComparisonRefused):
        stop_comparison(user=people["other"], comparison_id=comparison.pk)
    stopped = stop_comparison(user=people["author"], comparison_id=comparison.pk)
    assert stopped.status == ComparisonStatus.STOPPED and stopped.finished_at is not None
    pair = ComparisonPair.objects.get(comparison=comparison)
    assert pair.status == PairStatus.VOID
    assert set(Match.objects.values_list("status", flat=True)) == {MatchStatus.CANCELLED}
    assert ComparisonPair.objects.count() == 1
    assert stop_comparison(user=people["organiser"], comparison_id=comparison.pk).status == ComparisonStatus.STOPPED


# ---- whole comparisons, in-process (nothing set) ------------------------------------------------------------------

def test_the_same_engine_bot_against_itself_accepts_h0(people, run_on_commit):
    comparison = run_on_commit(_create, people, candidate="greedy", baseline="greedy2")
    comparison.refresh_from_db()
    assert comparison.status == ComparisonStatus.DECIDED and comparison.decision == "H0"
    outcomes = set(comparison.pair_set.values_list("outcome", flat=True))
    assert outcomes == {0.5} and comparison.mean_difference == 0.0
    assert comparison.llr <= comparison.lower_bound
    assert not Rating.objects.exists()


def test_greedy_against_random_is_decided_in_process(people, run_on_commit, monkeypatch):
    # A fixed salt, so that the deals (and the test's course) are the same on every run: no flaky decision.
    monkeypatch.setattr("league.services.comparisons.new_seed", lambda: "0123456789abcdef0123456789abcdef")
    # Whole games: one round is mostly the luck of the deal (greedy then hardly beats random), a game is not.
    comparison = run_on_commit(_create, people, candidate="greedy", baseline="random", ruleset={"players": 4})
    comparison.refresh_from_db()
    pairs = list(comparison.pair_set.order_by("index"))
    assert comparison.status == ComparisonStatus.DECIDED and comparison.decision == "H1", comparison.llr
    assert comparison.llr >= comparison.upper_bound and comparison.mean_difference > 0
    assert comparison.pairs == len(pairs) and all(p.status == PairStatus.DONE for p in pairs)
    assert [p.tested_seat for p in pairs] == [i % 4 for i in range(len(pairs))]
    assert pairs[-1].llr == comparison.llr
    # Nothing is left playing, and no rating moved.
    assert not Match.objects.exclude(status=MatchStatus.FINISHED).exists()
    assert not Rating.objects.exists() and not RatingHistory.objects.exists()


def test_a_player_named_like_a_field_seat_is_never_seated_in_the_field(people):
    """Player names are anybody's: an external bot called "field greedy #2" must not take the field's seat."""
    impostor = create_external_bot(name="field greedy #2", owner=people["other"])
    lookalike = create_bot_player(name="field greedy #3", kind="random")
    comparison = _create(people)
    pair = ComparisonPair.objects.get(comparison=comparison)
    for match in (pair.candidate_match, pair.baseline_match):
        field = [s.player for s in match.match_seats.all() if s.seat != pair.tested_seat]
        assert impostor not in field and lookalike not in field
        assert all(p.is_engine_bot and p.bot_kind == "greedy" and p.bot_settings == {} for p in field)


def test_the_beat_catch_up_closes_a_pair_whose_follow_up_was_lost(people):
    """Both games ended but the worker died before closing the pair: the beat's catch-up closes it, once."""
    from league.services.comparisons import catch_up_comparisons

    comparison = _create(people)
    pair = ComparisonPair.objects.get(comparison=comparison)
    _play(pair.candidate_match_id)
    _play(pair.baseline_match_id)  # and nobody called on_match_finished
    assert catch_up_comparisons() == 1
    assert catch_up_comparisons() == 0  # the next pair is still playing: nothing to catch up
    assert ComparisonPair.objects.get(pk=pair.pk).status == PairStatus.DONE
    assert ComparisonPair.objects.filter(comparison=comparison).count() == 2


def test_a_field_player_compared_itself_never_sits_twice_at_a_table(people, run_on_commit):
    from league.services.comparisons import field_player

    people["field2"] = field_player("greedy", {}, 1)  # the field's own seat-2 player, as the candidate
    comparison = _create(people, candidate="field2", baseline="greedy", ruleset={"players": 4, "rounds": 1})
    for index in range(2):  # pair 1 tests seat 1; pair 2 tests seat 2, the candidate's own field name
        if index:
            pair = ComparisonPair.objects.get(comparison=comparison, index=0)
            _play(pair.candidate_match_id)
            _play(pair.baseline_match_id)
            on_match_finished(match_id=pair.baseline_match_id)
        pair = ComparisonPair.objects.get(comparison=comparison, index=index)
        players = [s.player_id for s in pair.candidate_match.match_seats.all()]
        assert len(set(players)) == 4 and people["field2"].pk in players


def _first_divergence(ra: dict, rb: dict) -> int | None:
    """The seat whose decision first differs between two games of one deal (None if none does): the dealer's pass
    count, then the passes (simultaneous: a differing field pass counts as the field's), then the plays in order."""
    a, b = ra["rounds"][0], rb["rounds"][0]
    if a["pass_count"] != b["pass_count"]:
        return a["dealer"]
    differing = [s for s, (pa, pb) in enumerate(zip(a["passes"] or [], b["passes"] or [])) if pa != pb]
    if differing:
        return differing[0] if len(differing) == 1 else -1  # -1: more than one seat at once, never the tested alone
    plays_a = [(p["seat"], p["card"]) for t in a["tricks"] for p in t["plays"]]
    plays_b = [(p["seat"], p["card"]) for t in b["tricks"] for p in t["plays"]]
    for (seat_a, card_a), (seat_b, card_b) in zip(plays_a, plays_b):
        if (seat_a, card_a) != (seat_b, card_b):
            return seat_a if seat_a == seat_b else -1
    return None


def test_the_two_games_of_every_pair_differ_first_by_a_choice_of_the_tested_seat(people, run_on_commit):
    """Same deal, same field seeds: whatever differs between a pair's games starts with the tested bot's own
    decision (the dealer's pass count, its passes or a card it played), never with a field bot's."""
    # Hypotheses 10 Elo apart with small error rates: no 8 pairs reach a bound, so all 8 are played.
    comparison = run_on_commit(_create, people, candidate="greedy", baseline="random", max_pairs=8,
                               elo0=-5, elo1=5, alpha=0.001, beta=0.001)
    pairs = list(comparison.pair_set.order_by("index"))
    assert len(pairs) == 8
    diverged = 0
    for pair in pairs:
        ra, rb = match_record(pair.candidate_match), match_record(pair.baseline_match)
        assert ra["rounds"][0]["hands"] == rb["rounds"][0]["hands"]
        seat = _first_divergence(ra, rb)
        assert seat in (None, pair.tested_seat), (pair.index, pair.tested_seat, seat)
        diverged += seat is not None
    assert diverged  # greedy and random do choose differently: the check above was not vacuous
