"""Diamoniak as a GameType of engine.games: its parts, its standing, its fallback bots and its refusal texts."""

from __future__ import annotations

from ..common.compact import INT, INTS, NONE, ChoiceCodec
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
    "K-BUY-1": gettext_noop("This purchase is not allowed: buy one castle card of your colour from another "
                            "player's side pile, instead of drawing, with enough diamond cards."),
    "K-CASTLE-1": gettext_noop("That castle card cannot leave the side pile now."),
    "K-DECK-1": gettext_noop("The draw pile and the discard pile do not allow that: pass only when no card can be "
                             "drawn."),
    "K-TURN-1": gettext_noop("It is not your turn, or that is not a decision of this game: a drawing player draws "
                             "at least once before stopping."),
    "K-WIN-1": gettext_noop("The game is over."),
    "K-WITCH-1": gettext_noop("A witch was drawn: discard one of your cards or use a fairy."),
}


def standing(game: Game) -> Standing:
    """K-WIN-1: places as the referee gives them (the first to complete a castle is first, whatever the others
    hold); score is the castle's size, tiebreak the diamond cards (the order after a game cut short by turns)."""
    r = game.result
    if r is None:
        raise ValueError("the game is not over")
    return {"places": list(r.places), "winners": list(r.winners), "score": list(r.castle),
            "tiebreak": list(r.diamonds)}


GAME_TYPE = GameDefinition(
    name="diamoniak", title="Diamoniak", rule_prefix="K-", record_format=FORMAT, min_players=2, max_players=4,
    ruleset=Ruleset, game=Game, view=SeatView, decision=Decision,
    to_record=to_record, from_record=from_record, replay=replay,
    bots=BOTS, fallback_bots={"random": "random", "greedy": "heuristic"}, refusals=REFUSALS,
    play_game=play_game, standing=standing,
    score_label="castle cards", tiebreak_label="diamond cards", first_seat_keyword="first_player",
    legal_is_complete=True,
    codec=ChoiceCodec(Decision, (("draw", NONE), ("stop", NONE), ("buy", INTS), ("pass", NONE), ("fairy", NONE),
                                 ("discard", INT))),
    check_offline_result=offline.check_result, offline_figures=offline.FIGURES, check_deal=check_deal,
)
