"""engine/<game>/offline.py: a table's result entered by hand is checked against what the rules allow, game by game."""

import pytest

from engine import Ruleset
from engine.common.offline import InvalidResult
from engine.diamoniak import Ruleset as DiamoniakRuleset
from engine.games import game_type
from engine.ringrace import Ruleset as RingRaceRuleset


def check_result(game, ruleset, entry):
    return game_type(game).check_offline_result(ruleset, entry)


def problems(game, ruleset, entry):
    with pytest.raises(InvalidResult) as e:
        check_result(game, ruleset, entry)
    return {p.field: p for p in e.value.problems}


# ---- Diamonds ------------------------------------------------------------------------------------------------

def test_diamonds_totals_give_the_score_places_and_winner_by_the_rules():
    r = check_result("diamonds", Ruleset(players=3), {"vault": [10, 12, 4], "showroom": [8, 4, 20]})
    assert r.score == [28, 28, 28]  # R-SCORE-1
    assert r.places == [2, 1, 3] and r.winners == [1]  # R-WIN-1: tied scores, more in the vault wins
    assert r.result == {"score": [28, 28, 28], "vault": [10, 12, 4], "showroom": [8, 4, 20], "winners": [1]}


def test_diamonds_partnerships_take_one_figure_per_team_and_give_it_to_both_partners():
    r = check_result("diamonds", Ruleset(players=4, partnerships=True), {"vault": [5, 9], "showroom": [6, 6]})
    assert r.score == [16, 24, 16, 24] and r.winners == [1, 3] and r.places == [2, 1, 2, 1]
    assert problems("diamonds", Ruleset(players=4, partnerships=True),
                    {"vault": [5, 9, 1, 1], "showroom": [6, 6]})["vault"].message.startswith("vault needs one figure "
                                                                                                "per team: 2")


def test_diamonds_a_full_tie_is_shared():
    r = check_result("diamonds", Ruleset(players=2), {"vault": [5, 5], "showroom": [3, 3]})
    assert r.winners == [0, 1] and r.places == [1, 1]


@pytest.mark.parametrize("entry, field, rule", [
    ({"vault": [-1, 2, 3, 4], "showroom": [3, 3, 3, 3]}, "vault.0", None),            # negative
    ({"vault": [100, 100, 20, 10], "showroom": [3, 3, 3, 3]}, "vault", "R-ACT-D"),   # over the supply of 235
    ({"vault": [0, 0, 0, 0], "showroom": [1, 1, 1, 1]}, "showroom", "R-SETUP-1"),    # fewer than they started with
    ({"vault": [1, 2, 3], "showroom": [3, 3, 3, 3]}, "vault", None),                 # a seat missing
    ({"vault": [1, 2, None, 4], "showroom": [3, 3, 3, 3]}, "vault.2", None),         # a box left blank
    ({"vault": [1, 2, 3, 4], "showroom": [3, 3, 3, "x"]}, "showroom.3", None),       # not a number
    ({"vault": [1, 2, 3, 4], "showroom": [3, 3, 3, 3], "castle": [1, 1, 1, 1]}, "castle", None),  # another game's
    ({"vault": [1, 2, 3, 4], "showroom": [3, 3, 3, 3], "score": [5, 7, 9, 1]}, "score", "R-SCORE-1"),
    ({"showroom": [3, 3, 3, 3]}, "vault", None),
])
def test_diamonds_refusals_name_the_field_and_the_rule(entry, field, rule):
    found = problems("diamonds", Ruleset(players=4), entry)
    assert field in found and found[field].rule == rule


def test_every_problem_is_listed_at_once():
    found = problems("diamonds", Ruleset(players=4), {"vault": [-1, 2, 3, 4], "showroom": [3, -3, 3, 3]})
    assert set(found) == {"vault.0", "showroom.1"}


# ---- Diamoniak -----------------------------------------------------------------------------------------------

def test_diamoniak_castle_win_places_the_castle_first_whatever_the_others_hold():
    r = check_result("diamoniak", DiamoniakRuleset(players=3), {"castle": [6, 5, 5], "diamonds": [0, 9, 2]})
    assert r.winners == [0] and r.places == [1, 2, 3] and r.result["reason"] == "castle"
    assert check_result("diamoniak", DiamoniakRuleset(players=3),
                        {"castle": [6, 5, 5], "diamonds": [0, 9, 2], "winner": 0}).winners == [0]


def test_diamoniak_turn_limit_ranks_castle_then_diamonds_and_shares_ties():
    r = check_result("diamoniak", DiamoniakRuleset(players=4), {"castle": [4, 4, 2, 4], "diamonds": [3, 3, 9, 1]})
    assert r.places == [1, 1, 4, 3] and r.winners == [0, 1] and r.result["reason"] == "turns"


@pytest.mark.parametrize("entry, field", [
    ({"castle": [6, 6, 1], "diamonds": [0, 0, 0]}, "castle"),                   # two winners
    ({"castle": [7, 1, 1], "diamonds": [0, 0, 0]}, "castle.0"),                 # over a castle's size
    ({"castle": [6, 1, 1], "diamonds": [0, 0, 0], "winner": 1}, "winner"),      # the wrong winner
    ({"castle": [5, 1, 1], "diamonds": [0, 0, 0], "winner": 0}, "winner"),      # a winner without a castle
    ({"castle": [1, 1, 1], "diamonds": [10, 10, 1]}, "diamonds"),               # over the 20 diamond cards
    ({"castle": [1, 1, 1], "diamonds": [0, 0, 0], "winner": 3}, "winner"),      # no such seat
    ({"castle": [6, 1, 1], "diamonds": [0, 0, 0], "winner": "1"}, "winner"),    # not a seat number, beside a castle
    ({"castle": [6, 1, 1], "diamonds": [0, 0, 0], "winner": 1.5}, "winner"),
    ({"castle": [6, 1, 1], "diamonds": [0, 0, 0], "winner": True}, "winner"),
])
def test_diamoniak_refusals(entry, field):
    found = problems("diamoniak", DiamoniakRuleset(players=3), entry)
    assert field in found and found[field].rule in ("K-WIN-1", "K-SETUP-1", None)
    if field == "castle":
        assert "only one" in found[field].message


# ---- the ring race -------------------------------------------------------------------------------------------

def test_ringrace_places_by_dollars_then_set_rings():
    r = check_result("ringrace", RingRaceRuleset(players=3), {"dollars": [9000, 9000, 4000], "set_rings": [2, 3, 1]})
    assert r.places == [2, 1, 3] and r.winners == [1] and r.score == [9000, 9000, 4000] and r.tiebreak == [2, 3, 1]


@pytest.mark.parametrize("entry, field, rule", [
    ({"dollars": [-1000, 0, 0], "set_rings": [0, 0, 0]}, "dollars.0", "G-SCORE-1"),    # negative without debts
    ({"dollars": [1500, 0, 0], "set_rings": [1, 0, 0]}, "dollars.0", "G-SETUP-1"),     # not whole thousands
    ({"dollars": [13000, 0, 0], "set_rings": [2, 0, 0]}, "dollars.0", "G-SCORE-1"),    # more than 2 rings can be
    ({"dollars": [1000, 0, 0], "set_rings": [2, 0, 0]}, "dollars.0", "G-SCORE-1"),     # less than 2 rings are
    ({"dollars": [0, 0, 0], "set_rings": [10, 10, 10]}, "set_rings", "G-SETUP-1"),     # over the 26 loose diamonds
    ({"dollars": [0, 0, 0], "set_rings": [0, 0]}, "set_rings", None),                  # a seat missing
    ({"dollars": [0, 0, 0], "set_rings": [0, 0, 0], "vault": [1, 1, 1]}, "vault", None),  # another game's field
])
def test_ringrace_refusals(entry, field, rule):
    found = problems("ringrace", RingRaceRuleset(players=3), entry)
    assert field in found and found[field].rule == rule


def test_ringrace_debts_allow_negative_totals():
    r = check_result("ringrace", RingRaceRuleset(players=2, debts=True),
                     {"dollars": [-3000, 2000], "set_rings": [0, 1]})
    assert r.winners == [1]


def test_a_played_games_result_is_accepted_and_gives_the_same_standing():
    """Whatever a game played by the rules ends with, its figures pass and give the standing it gave."""
    figures = {"diamonds": lambda r: {"vault": r.vault, "showroom": r.showroom},
               "diamoniak": lambda r: {"castle": r.castle, "diamonds": r.diamonds},
               "ringrace": lambda r: {"dollars": r.totals, "set_rings": r.set_rings}}
    for name in ("diamonds", "diamoniak", "ringrace"):
        kind = game_type(name)
        for seed in range(3):
            game = kind.new_game({"players": 3}, seed=f"offline/{seed}")
            kind.play_game(game, [kind.make_bot("random", seed=s) for s in range(3)])
            standing = kind.standing(game)
            checked = check_result(name, game.ruleset, figures[name](game.result))
            assert (checked.places, checked.winners, checked.score, checked.tiebreak) == (
                standing["places"], standing["winners"], standing["score"], standing["tiebreak"]), (name, seed)


# ---- Diamonds round by round ---------------------------------------------------------------------------------

def rounds_of(*snapshots):
    return {"rounds": [{"vault": v, "showroom": s} for v, s in snapshots]}


def test_diamonds_round_by_round_ends_with_the_last_rounds_totals():
    entry = rounds_of(([0, 1], [4, 3]), ([2, 1], [4, 5]), ([2, 4], [6, 5]), ([5, 4], [6, 7]))
    r = check_result("diamonds", Ruleset(players=2), entry)
    assert r.result["vault"] == [5, 4] and r.score == [16, 15] and r.winners == [0]
    assert r.figures["rounds"][0] == {"vault": [0, 1], "showroom": [4, 3]}


@pytest.mark.parametrize("entry, field, rule", [
    (rounds_of(([0, 1], [4, 3]), ([2, 1], [4, 5]), ([2, 4], [6, 5])), "rounds", "R-ROUNDS-1"),           # one short
    (rounds_of(([0, 1], [4, 3]), ([2, 0], [4, 5]), ([2, 4], [6, 5]), ([5, 4], [6, 7])), "rounds.1.vault.1", None),
    (rounds_of(([3, 3], [4, 3]), ([3, 3], [1, 1]), ([3, 4], [6, 5]), ([5, 4], [6, 7])), "rounds.1", None),
    (rounds_of(([0, 1], [4, 3]), ([2, 1], [-4, 5]), ([2, 4], [6, 5]), ([5, 4], [6, 7])), "rounds.1.showroom.0",
     None),
    ({**rounds_of(*[([0, 1], [4, 3])] * 4), "vault": [1, 1]}, "rounds", None),                            # both kinds
    ({"rounds": [{"vault": [1, 1], "showroom": [3, 3], "castle": [1, 1]}] * 4}, "rounds.0.castle", None),
])
def test_diamonds_round_by_round_refusals(entry, field, rule):
    found = problems("diamonds", Ruleset(players=2), entry)
    assert field in found and found[field].rule == rule


def test_an_entry_that_is_no_object_is_refused_saying_so():
    assert set(problems("ringrace", RingRaceRuleset(players=3), ["dollars"])) == {"result"}
