"""`diamoniak-record/1`: export a Diamoniak game, and replay a record's choices into a checked game.

A choices record (`engine.common.choices_record`): the seed fixes the shuffles and the first player; a game
given the first cards of its draw pile (`deck_top`) keeps them in the record, so it replays too, and so does one
given its first player (`first_player_given`). The ruleset's `buy_pays` says which K-BUY-1 the game was played by
(absent in records from before the correction: "discard").
"""

from __future__ import annotations

from ..common.choices_record import ChoicesRecordFormat, given_deck_top
from .game import Decision, Game
from .rules import Ruleset, card_name

RECORD_FORMAT: ChoicesRecordFormat[Game] = ChoicesRecordFormat(
    name="diamoniak-record/1", title="Diamoniak", ruleset=Ruleset, game=Game,
    decision=Decision, setup_rule="K-SETUP-1",
    given_setup={"deck_top": given_deck_top(card_name)},
)
FORMAT = RECORD_FORMAT.name
to_record = RECORD_FORMAT.to_record
from_record = RECORD_FORMAT.from_record
replay = RECORD_FORMAT.replay
check_deal = RECORD_FORMAT.check_deal
