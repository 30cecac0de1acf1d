"""The ring race as a GameType of engine.games: its parts, its standing, its fallback bots and its refusal texts."""

from __future__ import annotations

from ..common.compact import INT, INTS, ChoiceCodec
from ..common.game_type import GameDefinition, Standing
from ..common.translation import gettext_noop
from . import offline
from .bots import BOTS, play_game
from .game import Decision, Game
from .record import FORMAT, check_deal, from_record, replay, to_record
from .rules import Ruleset
from .view import SeatView

# One sentence per rule id the game refuses with: what the rule asks, addressed to the player.
REFUSALS = {
    "G-END-1": gettext_noop("The game is over."),
    "G-RING-1": gettext_noop("A ring card was drawn: try one board position that still holds a diamond."),
    "G-STEAL-1": gettext_noop("A steal card was drawn: take a diamond from another player's set ring."),
    "G-TURN-1": gettext_noop("It is not your turn, or that is not a decision of this game."),
}


def standing(game: Game) -> Standing:
    """G-SCORE-1: places by dollars, then set rings; score is the dollars, tiebreak the set rings."""
    r = game.result
    if r is None:
        raise ValueError("the game is not over")
    return {"places": list(r.places), "winners": list(r.winners), "score": list(r.totals),
            "tiebreak": list(r.set_rings)}


GAME_TYPE = GameDefinition(
    name="ringrace", title="The ring-card diamond race", rule_prefix="G-", record_format=FORMAT, min_players=2,
    max_players=6, ruleset=Ruleset, game=Game, view=SeatView, decision=Decision,
    to_record=to_record, from_record=from_record, replay=replay,
    bots=BOTS, fallback_bots={"random": "random", "greedy": "heuristic"}, refusals=REFUSALS,
    play_game=play_game, standing=standing,
    score_label="dollars", tiebreak_label="set rings", first_seat_keyword="first_player", legal_is_complete=True,
    codec=ChoiceCodec(Decision, (("try", INT), ("steal", INTS))),
    check_offline_result=offline.check_result, offline_figures=offline.FIGURES, check_deal=check_deal,
)
