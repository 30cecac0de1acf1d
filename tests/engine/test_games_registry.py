"""The games registry's generic parts the league relies on (engine.games): `standing` in one shape for every game
(places, winners, score, tie-break, each game in its own terms), the labels naming them, seating the first seat,
finding a game's type, and `clone` for the newer games (the league keeps live games in a cache of clones)."""

from __future__ import annotations

import pytest

from engine.games import GAMES, game_type, type_of

PLAYERS = {"diamonds": 4, "diamoniak": 3, "ringrace": 5}


def played(name: str, seed: str, ruleset: dict | None = None):
    kind = game_type(name)
    ruleset = ruleset or {"players": PLAYERS[name]}
    game = kind.new_game(ruleset, seed)
    bot = "greedy" if name == "diamonds" else "heuristic"
    kind.play_game(game, [kind.make_bot(bot, seed=f"{seed}/{s}") for s in range(game.n)])
    return game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_standing_has_one_shape_for_every_game(name):
    game = played(name, "shape")
    standing = game_type(name).standing(game)
    assert set(standing) == {"places", "winners", "score", "tiebreak"}
    assert all(len(standing[k]) == game.n for k in ("places", "score", "tiebreak"))
    assert standing["winners"] == [s for s in range(game.n) if standing["places"][s] == 1]
    assert min(standing["places"]) == 1


def test_standing_diamonds_r_win_1_score_and_vault_per_seat_are_the_teams():
    """R-SCORE-1, R-WIN-1, R-TEAM-3: with partnerships every seat shows its team's score and vault."""
    game = played("diamonds", "teams", {"players": 4, "partnerships": True})
    standing = game_type("diamonds").standing(game)
    for s in range(4):
        t = game.team_of(s)
        assert standing["score"][s] == game.result.score[t] and standing["tiebreak"][s] == game.result.vault[t]
    # places rank the teams (two competitors), not the seats
    team_keys = list(zip(game.result.score, game.result.vault))
    team_places = [1 + sum(k > mine for k in team_keys) for mine in team_keys]
    assert standing["places"] == [team_places[game.team_of(s)] for s in range(4)]


def test_standing_diamoniak_k_win_1_places_are_the_referees_score_is_the_castle():
    """K-WIN-1: the first complete castle places first whatever the others hold; score = castle cards,
    tie-break = diamond cards."""
    kind = game_type("diamoniak")
    for i in range(20):
        game = played("diamoniak", f"castle-{i}")
        standing = kind.standing(game)
        assert standing["places"] == game.result.places
        assert standing["score"] == game.result.castle and standing["tiebreak"] == game.result.diamonds
        if game.result.reason == "castle":
            winner = game.result.winners[0]
            assert standing["places"][winner] == 1 and standing["score"][winner] == max(standing["score"])
            return
    pytest.fail("no game of 20 ended with a complete castle")


def test_standing_ringrace_g_score_1_dollars_then_set_rings_with_debts():
    """G-SCORE-1 (with debts an empty ring counts minus its value): score = dollars, tie-break = set rings."""
    game = played("ringrace", "debts", {"players": 4, "debts": True})
    standing = game_type("ringrace").standing(game)
    assert standing["score"] == game.result.totals and standing["tiebreak"] == game.result.set_rings
    keys = list(zip(standing["score"], standing["tiebreak"]))
    assert standing["places"] == [1 + sum(k > mine for k in keys) for mine in keys]


def test_standing_refuses_an_unfinished_game():
    for name in GAMES:
        kind = game_type(name)
        with pytest.raises(ValueError, match="not over"):
            kind.standing(kind.new_game({"players": PLAYERS[name]}, "early"))


def test_labels_name_score_and_tiebreak_in_each_games_terms():
    assert (GAMES["diamonds"].score_label, GAMES["diamonds"].tiebreak_label) == ("score", "vault")
    assert (GAMES["diamoniak"].score_label, GAMES["diamoniak"].tiebreak_label) == ("castle cards", "diamond cards")
    assert (GAMES["ringrace"].score_label, GAMES["ringrace"].tiebreak_label) == ("dollars", "set rings")
    assert [k.legal_is_complete for k in GAMES.values()] == [False, True, True]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_first_seat_is_given_or_drawn_and_type_of_finds_the_game(name):
    """R-SETUP-1 / K-SETUP-1 / G-SETUP-1: the first dealer or first player is drawn from the seed unless given."""
    kind = game_type(name)
    drawn = kind.new_game({"players": PLAYERS[name]}, "seat")
    assert kind.first_seat_of(drawn) == kind.first_seat_of(kind.new_game({"players": PLAYERS[name]}, "seat"))
    given = kind.new_game({"players": PLAYERS[name]}, "seat", first_seat=1)
    assert kind.first_seat_of(given) == 1
    assert type_of(given) is kind
    with pytest.raises(ValueError):
        type_of(object())


@pytest.mark.parametrize("name", ["diamoniak", "ringrace"])
def test_clone_is_independent_and_plays_on_as_the_original(name):
    kind = game_type(name)
    game = kind.new_game({"players": 3}, "clone")
    bots = [kind.make_bot("random", seed=s) for s in range(3)]
    for _ in range(10):
        seat = game.pending.seats[0]
        game.apply(seat, bots[seat].decide(kind.view(game, seat)))
    before = kind.to_record(game)
    copy = game.clone()
    assert kind.to_record(copy) == before and copy.ruleset is game.ruleset
    kind.play_game(copy, [kind.make_bot("random", seed=s) for s in range(3)])
    assert copy.over and kind.to_record(game) == before and not game.over
    kind.play_game(game, [kind.make_bot("random", seed=s) for s in range(3)])
    assert kind.to_record(game) == kind.to_record(copy)
