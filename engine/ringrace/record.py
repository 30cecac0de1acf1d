"""`ringrace-record/1`: export a ring race, and replay a record's choices into a checked game.

A choices record (`engine.common.choices_record`): the seed fixes the board, the deck and the first player; a
game given the first cards of its deck (`deck_top`) or its fixed positions (`fixed`) keeps them in the record,
so it replays too, and so does one given its first player (`first_player_given`).
"""

from __future__ import annotations

from ..common.choices_record import ChoicesRecordFormat, given_deck_top
from .game import Decision, Game
from .rules import Ruleset, card_name

RECORD_FORMAT: ChoicesRecordFormat[Game] = ChoicesRecordFormat(
    name="ringrace-record/1", title="The ring-card diamond race", ruleset=Ruleset, game=Game,
    decision=Decision, setup_rule="G-SETUP-1",
    given_setup={
        "deck_top": given_deck_top(card_name),
        "fixed": lambda game: None if game.given_fixed is None else list(game.given_fixed),
    },
)
FORMAT = RECORD_FORMAT.name
to_record = RECORD_FORMAT.to_record
from_record = RECORD_FORMAT.from_record
replay = RECORD_FORMAT.replay
check_deal = RECORD_FORMAT.check_deal
