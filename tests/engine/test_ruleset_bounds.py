"""Every ruleset field of every game is bounded and typed: whatever a request sends, the engine refuses it with an
InvalidRuleset naming the field and its bound (never a TypeError, never a game that runs for ever), and a game with
every field at its bound still ends within a bounded number of decisions."""

from __future__ import annotations

import pytest

from engine import InvalidRuleset
from engine.diamonds.ruleset import MAX_DECK_RANKS, MAX_HAND_SIZE, MAX_ROUNDS, Ruleset
from engine.diamoniak.rules import TURN_LIMIT_BOUND
from engine.games import GAMES, game_type

HOSTILE = [10**6, 10**9, 10**30, -1, 0, True, False, "4", 4.0, None, [4], {"n": 4}]


def refused(game: str, ruleset: object) -> str:
    with pytest.raises(InvalidRuleset) as caught:
        game_type(game).make_ruleset(ruleset)
    return str(caught.value)


@pytest.mark.parametrize("value", [10**6, 10**9, 0, -3, True, "6", 6.0])  # None: the rulebook's count
def test_R_ROUNDS_1_rounds_override_is_bounded(value):
    """R-ROUNDS-1: "a ruleset may override this" within 1..MAX_ROUNDS; the issue's 10^6 and 10^9 are refused with
    a message naming the field and the bound."""
    message = refused("diamonds", {"players": 4, "rounds": value})
    assert "R-ROUNDS-1" in message and "rounds" in message and f"from 1 to {MAX_ROUNDS}" in message


def test_R_ROUNDS_1_every_round_count_up_to_the_bound_is_allowed():
    """R-ROUNDS-1: the rulebook's counts (4, 6, 4, 5, 6) and every override from 1 to the bound stay playable."""
    for n, rounds in {2: 4, 3: 6, 4: 4, 5: 5, 6: 6}.items():
        assert Ruleset(n).rounds == rounds
    assert [Ruleset(4, rounds=r).rounds for r in (1, MAX_ROUNDS)] == [1, MAX_ROUNDS]


@pytest.mark.parametrize("field, value, bound", [
    ("hand_size", 0, f"from 1 to {MAX_HAND_SIZE}"), ("hand_size", 10**6, f"from 1 to {MAX_HAND_SIZE}"),
    ("hand_size", "10", f"from 1 to {MAX_HAND_SIZE}"), ("hand_size", 2.5, f"from 1 to {MAX_HAND_SIZE}"),
    ("deck_ranks", 16, f"from 1 to {MAX_DECK_RANKS}"), ("deck_ranks", 0, f"from 1 to {MAX_DECK_RANKS}"),
    ("deck_ranks", "15", f"from 1 to {MAX_DECK_RANKS}"), ("deck_ranks", False, f"from 1 to {MAX_DECK_RANKS}"),
])
def test_R_DEAL_1_hand_size_and_deck_ranks_are_bounded_whole_numbers(field, value, bound):
    """R-DEAL-1: `hand_size` cards dealt from a deck of `deck_ranks` ranks; both are whole numbers in bounds."""
    message = refused("diamonds", {"players": 4, field: value})
    assert "R-DEAL-1" in message and field in message and bound in message


def test_R_DEAL_1_hands_must_fit_in_the_deck():
    """R-DEAL-1: each field may be in bounds and still not deal: the message says why."""
    assert "do not fit" in refused("diamonds", {"players": 6, "hand_size": 11})
    assert Ruleset(2, hand_size=MAX_HAND_SIZE).tricks_per_round == MAX_HAND_SIZE // 2  # the whole deck, dealt


@pytest.mark.parametrize("field, value, rule", [
    ("partnerships", 1, "R-TEAM-1"), ("partnerships", "yes", "R-TEAM-1"), ("perfect", "true", "R-PERFECT-1"),
    ("perfect", 0, "R-PERFECT-1"), ("clubs", "steal", "R-ACT-C"), ("clubs", 3, "R-ACT-C"), ("clubs", "", "R-ACT-C"),
])
def test_R_TEAM_1_R_PERFECT_1_R_ACT_C_flags_and_modes_take_only_their_values(field, value, rule):
    """R-TEAM-1, R-PERFECT-1, R-ACT-C: partnerships and perfect are true or false, clubs is thief or choose; a
    truthy number or a string is not quietly taken for one."""
    message = refused("diamonds", {"players": 4, field: value})
    assert rule in message and field in message


@pytest.mark.parametrize("value", HOSTILE)
def test_players_of_every_game_are_bounded(value):
    for name, kind in GAMES.items():
        if value in range(kind.min_players, kind.max_players + 1) and type(value) is int:
            continue
        message = refused(name, {"players": value})
        assert "players" in message and f"from {kind.min_players} to {kind.max_players}" in message


@pytest.mark.parametrize("value", [0, -1, TURN_LIMIT_BOUND + 1, 10**9, True, "200", 200.0, None])
def test_K_WIN_1_turn_limit_is_bounded(value):
    """K-WIN-1 (Decision): the turn limit that ends a game without a castle is a whole number up to the bound."""
    message = refused("diamoniak", {"players": 3, "max_turns": value})
    assert "K-WIN-1" in message and "max_turns" in message and f"from 1 to {TURN_LIMIT_BOUND}" in message


@pytest.mark.parametrize("value", [1, 0, "true", None, [True]])
def test_G_SCORE_1_debts_is_true_or_false(value):
    """G-SCORE-1: the `debts` variant is on or off; 1 or "true" are refused, not taken for true."""
    message = refused("ringrace", {"players": 3, "debts": value})
    assert "G-SCORE-1" in message and "debts" in message and "true or false" in message


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("ruleset", [[4], "players=4", 4.0, None, {"players": 3, "rounds_": 2}, {"rounds": 2},
                                     {"players": 3, "__class__": 1}])
def test_every_game_refuses_what_is_not_a_ruleset(game, ruleset):
    """Not an object, an unknown field or no players: InvalidRuleset (a ValueError the API answers with 400), not a
    TypeError."""
    message = refused(game, ruleset)
    assert "ruleset" in message or "players" in message


def test_unknown_fields_are_named_with_the_known_ones():
    message = refused("ringrace", {"players": 3, "rounds": 1000000})
    assert "['rounds']" in message and "debts" in message


@pytest.mark.parametrize("game, ruleset, most", [
    # R-ROUNDS-1 at its bound, 2 players dealt the whole deck: every decision is a play, a pass or a clubs target
    ("diamonds", {"players": 2, "rounds": MAX_ROUNDS, "hand_size": MAX_HAND_SIZE}, MAX_ROUNDS * (1 + 2 * 3 + 60 * 3)),
    ("diamonds", {"players": 6, "rounds": MAX_ROUNDS}, MAX_ROUNDS * (1 + 6 * 3 + 60 * 3)),
    # K-WIN-1 at its bound: each turn is at most 55 draws and a witch's discards
    ("diamoniak", {"players": 4, "max_turns": TURN_LIMIT_BOUND}, TURN_LIMIT_BOUND * 60),
    ("ringrace", {"players": 6, "debts": True}, 49),
])
def test_R_ROUNDS_1_K_WIN_1_a_game_at_its_bounds_ends_in_bounded_decisions(game, ruleset, most):
    """R-ROUNDS-1, K-WIN-1, G-END-1: with every field at its bound, random bots still finish the game, within the
    number of decisions the bounds allow."""
    kind = game_type(game)
    played = kind.new_game(ruleset, seed=f"bounds/{game}")
    bots = [kind.make_bot("random", seed=f"bounds/{s}") for s in range(played.n)]
    kind.play_game(played, bots)
    assert played.result is not None
    assert 0 < played.move_number <= most
