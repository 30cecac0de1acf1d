"""Partnerships: R-TEAM-1 to R-TEAM-5 (4 players in 2 teams, 6 players in 3 teams)."""

from __future__ import annotations

import pytest

from engine import Game, IllegalDecision, Ruleset, SeatView, card_str, to_record
from engine.diamonds.bots import play_game

from .support import bots_for, game_after_pass, play, snapshot

# Dealer 3, so seat 0 leads. Seat 3 holds only hearts and never wins a trick.
# Trick 0 (spades) goes to seat 0, trick 1 (clubs) to seat 1, trick 2 (diamonds) to seat 2; each of the three
# winners takes one of seat 3's hearts, so individually they tie on hearts while team 0+2 has two.
TEAMS = [
    ["S9", "C1", "D2"],
    ["S1", "C9", "D1"],
    ["S2", "C2", "D9"],
    ["H1", "H2", "H3"],
]


def partners(**kw) -> Game:
    return game_after_pass(Ruleset(4, partnerships=True, hand_size=3, rounds=1), TEAMS, first_dealer=3, **kw)


def test_R_TEAM_1_partners_sit_opposite_and_share_one_vault_and_one_showroom():
    four, six = Ruleset(4, partnerships=True), Ruleset(6, partnerships=True)
    assert four.teams == ((0, 2), (1, 3))
    assert six.teams == ((0, 3), (1, 4), (2, 5))
    game = Game(six, "six")
    assert to_record(game)["teams"] == [[0, 3], [1, 4], [2, 5]]
    assert [game.team_of(s) for s in range(6)] == [0, 1, 2, 0, 1, 2]
    assert game.partner_seats(4) == (1, 4)
    assert len(game.vault) == len(game.showroom) == 3
    assert to_record(Game(Ruleset(4), "solo"))["teams"] is None
    # an action by seat 2 lands in team 0's showroom and vault
    game = partners()
    play(game, "S9", "S1", "S2", "H1")
    assert game.showroom == [5, 7] and game.vault == [1, 0]  # seat 3's hearts offsuit; seat 0's spades trick
    # both partners see the team's vault
    assert SeatView(game, 0).to_dict()["vault"] == SeatView(game, 2).to_dict()["vault"] == 1
    with pytest.raises(ValueError, match="R-TEAM-1"):
        Ruleset(5, partnerships=True)


@pytest.mark.parametrize("players", [4, 6])
def test_R_TEAM_2_each_player_passes_to_their_partner(players):
    game = Game(Ruleset(players, partnerships=True), f"team-pass-{players}", first_dealer=1)
    dealt = [list(h) for h in game.hands]
    game.choose_pass_count(1, 2)
    for seat in range(players):
        game.pass_cards(seat, dealt[seat][:2])
    half = players // 2
    for seat in range(players):
        partner = (seat + half) % players
        assert sorted(game.hands[seat]) == sorted(dealt[seat][2:] + dealt[partner][:2])
        assert SeatView(game, seat).to_dict()["received"] == [card_str(c) for c in dealt[partner][:2]]


def test_R_TEAM_3_partners_won_cards_are_added_together_for_majorities():
    """R-TEAM-3: for R-END-2 the partners' won cards are added together."""
    game = partners()
    play(game, "S9", "S1", "S2", "H1", "C1", "C9", "C2", "H2")
    assert game.pending.kind == "clubs_target"  # seat 1 won the clubs trick
    game.choose_clubs_target(1, 2)
    play(game, "D1", "D9", "H3", "D2")
    # end of round: seats 0, 1 and 2 took one heart each; team 0 (seats 0 and 2) took two
    assert game.pending.kind == "clubs_target" and game.pending.seats == (1,), "team 1 took every club"
    game.choose_clubs_target(1, 0)
    end = [(a["seat"], a["suit"], a["cause"], a["target"]) for a in to_record(game)["rounds"][0]["actions"]
           if a["trick"] is None]
    assert end == [
        (0, "D", "majority", None), (0, "H", "majority", None), (0, "S", "majority", None),
        (1, "C", "majority", 0),  # recorded with the team's lowest seat
        (3, "D", "no_trick", None), (3, "D", "no_trick", None),
    ]
    assert game.over
    assert (game.vault, game.showroom) == ([4, 2], [3, 11])


def test_R_TEAM_4_a_player_who_won_no_trick_earns_two_diamonds_for_the_team():
    """R-TEAM-4: no trick won earns two diamonds actions even if the partner won tricks."""
    game = partners()
    play(game, "S9", "S1", "S2", "H1", "C1", "C9", "C2", "H2")
    game.choose_clubs_target(1, 2)
    vault_before = game.vault[1]
    play(game, "D1", "D9", "H3", "D2")
    game.choose_clubs_target(1, 0)
    no_trick = [a for a in to_record(game)["rounds"][0]["actions"] if a["cause"] == "no_trick"]
    assert [a["seat"] for a in no_trick] == [3, 3], "seat 3 won nothing although its partner won a trick"
    assert game.vault[1] == vault_before + 2


def test_R_TEAM_5_clubs_take_from_another_team_never_from_a_partner():
    game = partners()
    play(game, "S9", "S1", "S2", "H1", "C1", "C9", "C2", "H2")
    assert game.pending.seats == (1,)
    assert game.legal(1) == [0, 2]
    before = snapshot(game)
    with pytest.raises(IllegalDecision) as e:
        game.choose_clubs_target(1, 3)
    assert e.value.rule == "R-TEAM-5"
    assert snapshot(game) == before
    with pytest.raises(IllegalDecision) as e:
        game.choose_clubs_target(1, 1)
    assert e.value.rule == "R-ACT-C"
    assert snapshot(game) == before
    game.choose_clubs_target(1, 0)  # naming either seat of team 0 robs team 0's showroom
    assert game.showroom == [4, 9]


def test_R_TEAM_5_score_and_tie_break_are_per_team():
    game = partners()
    play(game, "S9", "S1", "S2", "H1", "C1", "C9", "C2", "H2")
    game.choose_clubs_target(1, 2)
    play(game, "D1", "D9", "H3", "D2")
    game.choose_clubs_target(1, 0)
    result = to_record(game)["result"]
    assert result == {"score": [11, 15], "vault": [4, 2], "showroom": [3, 11], "winners": [1]}


@pytest.mark.parametrize("players", [4, 6])
def test_R_TEAM_5_random_partnership_games_never_rob_a_partner(players):
    ruleset = Ruleset(players, partnerships=True)
    assert ruleset.clubs == "choose"
    with pytest.raises(ValueError, match="R-ACT-C"):
        Ruleset(players, partnerships=True, clubs="thief")
    for seed in range(15):
        game = Game(ruleset, f"teams-{players}-{seed}")
        play_game(game, bots_for(players, seed))
        record = to_record(game)
        team_of = {s: t for t, members in enumerate(record["teams"]) for s in members}
        for r in record["rounds"]:
            for a in r["actions"]:
                if a["suit"] == "C" and a["target"] is not None:
                    assert team_of[a["target"]] != team_of[a["seat"]]
                if a["cause"] == "majority":
                    assert a["seat"] == min(record["teams"][team_of[a["seat"]]])
        assert len(record["result"]["score"]) == players // 2
        assert all(w in range(players // 2) for w in record["result"]["winners"])
