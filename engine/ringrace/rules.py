"""The ring race's parameters and cards (OTHER-GAMES.md, G-SETUP-1): the ruleset, card ids and names, the board.

One int per card: 0-41 are ring cards (value = (id // 7 + 1) * 1000 dollars, seven of each value), 42-48
steal cards. A card's name is what records and views show: "ring-3000-2", "steal-5". Board positions are
0-41; which 16 are fixed is drawn from the seed and secret until a try reveals one.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.ruleset_dict import RulesetDict
from ..common.ruleset_fields import whole_number, yes_no

POSITIONS = 42  # G-SETUP-1
FIXED = 16
LOOSE = POSITIONS - FIXED  # 26
VALUES = tuple(1000 * k for k in range(1, 7))  # G-SETUP-1 (Decision)
RINGS_PER_VALUE = 7
RING_CARDS = len(VALUES) * RINGS_PER_VALUE  # 42
STEAL_CARDS = 7
CARD_COUNT = RING_CARDS + STEAL_CARDS  # 49


def is_ring(card: int) -> bool:
    return card < RING_CARDS


def value_of(card: int) -> int:
    """A ring card's value in dollars."""
    return VALUES[card // RINGS_PER_VALUE]


def card_name(card: int) -> str:
    if is_ring(card):
        return f"ring-{value_of(card)}-{card % RINGS_PER_VALUE + 1}"
    return f"steal-{card - RING_CARDS + 1}"


# Every card's name, by id: the referee names cards in its events on every turn, and a lookup costs less than
# building the string again. card_name stays the one definition (and names any int, as error messages need).
CARD_NAMES = tuple(card_name(c) for c in range(CARD_COUNT))
_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}
RING_VALUES = tuple(value_of(c) for c in range(RING_CARDS))  # value_of by id, for the referee's steal checks


def parse_card(name: object) -> int:
    if isinstance(name, str) and name in _BY_NAME:
        return _BY_NAME[name]
    raise ValueError(f"{name!r} is not a ring race card (like 'ring-3000-2' or 'steal-1')")


@dataclass(frozen=True)
class Ruleset(RulesetDict):
    """2-6 players (G-SETUP-1, Decision); `debts`: an empty ring scores minus its value (G-SCORE-1 variant).

    No turn limit is needed: every turn draws a card from a deck of 49 that is never refilled, and the game ends
    when it is used up (G-END-1), so a game is at most 49 turns of one decision each."""

    players: int
    debts: bool = False

    def __post_init__(self) -> None:
        whole_number("players", self.players, 2, 6, rule="G-SETUP-1")
        yes_no("debts", self.debts, rule="G-SCORE-1")
