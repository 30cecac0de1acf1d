"""Diamonds as a GameType of engine.games: its parts, its standing, its fallback bots and its refusal texts."""

from __future__ import annotations

from ..common.compact import INT, INTS, ChoiceCodec
from ..common.game_type import GameDefinition, Standing
from ..common.referee import ranked_places
from ..common.translation import gettext_noop
from . import offline
from .bots import BOTS, play_game
from .game import Decision, Game
from .record import FORMAT, check_deal, from_record, replay, to_record
from .ruleset import Ruleset
from .view import SeatView

# One sentence per rule id the game refuses with (and R-ROUNDS-1 also for a league match no longer in play):
# what the rule asks, addressed to the player.
REFUSALS = {
    "R-ACT-C": gettext_noop("The clubs action robs another player's showroom, chosen by the player entitled to the "
                            "action."),
    "R-DEAL-1": gettext_noop("That card is not in your hand."),
    "R-FOLLOW-1": gettext_noop("You hold a card of the suit led: you must follow suit."),
    "R-LEAD-1": gettext_noop("It is not your turn: the player left of the dealer leads the first trick."),
    "R-PASS-1": gettext_noop("Only the dealer chooses how many cards are passed: 1, 2 or 3."),
    "R-PASS-2": gettext_noop("Pass exactly the number of cards the dealer chose, all different, from your own hand."),
    "R-PERFECT-1": gettext_noop("That card is not in this game's deck."),
    "R-ROUNDS-1": gettext_noop("The game is over, or the match is not in play."),
    "R-TEAM-5": gettext_noop("The clubs action robs another team's showroom, never your partner's."),
    "R-TRICK-2": gettext_noop("It is not your turn: the winner of the last trick leads the next one."),
    "R-TWO-1": gettext_noop("It is not your turn, or you must follow suit: with two players each trick has four "
                            "plays."),
}


def standing(game: Game) -> Standing:
    """R-SCORE-1, R-WIN-1 per seat: a seat's place, score and vault are its team's (score, then vault)."""
    r = game.result
    if r is None:
        raise ValueError("the game is not over")
    team_places = ranked_places(list(zip(r.score, r.vault)))
    teams = [game.team_of(s) for s in range(game.n)]
    places = [team_places[t] for t in teams]
    return {"places": places, "winners": [s for s in range(game.n) if places[s] == 1],
            "score": [r.score[t] for t in teams], "tiebreak": [r.vault[t] for t in teams]}


GAME_TYPE = GameDefinition(
    name="diamonds", title="Diamonds", rule_prefix="R-", record_format=FORMAT, min_players=2, max_players=6,
    ruleset=Ruleset, game=Game, view=SeatView, decision=Decision,
    to_record=to_record, from_record=from_record, replay=replay,
    bots=BOTS, fallback_bots={"random": "random", "greedy": "greedy"}, refusals=REFUSALS,
    play_game=play_game, standing=standing,
    score_label="score", tiebreak_label="vault", first_seat_keyword="first_dealer", legal_is_complete=False,
    codec=ChoiceCodec(Decision, (("pass_count", INT), ("pass_cards", INTS), ("play", INT), ("clubs_target", INT))),
    check_offline_result=offline.check_result, offline_figures=offline.FIGURES, check_deal=check_deal,
)
