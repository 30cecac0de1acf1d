"""Diamoniak's parameters and cards (OTHER-GAMES.md, K-SETUP-1): the ruleset, the 55 card ids and their names.

One int per card, as in the Diamonds engine: 0-23 are castle cards (colour = id // 6), 24-43 diamonds,
44-51 witches, 52-54 fairies. A card's name is what records and views show: "red-3", "diamond-7", "witch-2".
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.ruleset_dict import RulesetDict
from ..common.ruleset_fields import whole_number
from ..errors import InvalidRuleset

COLOURS = ("red", "blue", "green", "yellow")  # the seed does not name the four colours; these are ours
CASTLE_SIZE = 6  # K-WIN-1
CASTLE_CARDS = len(COLOURS) * CASTLE_SIZE
DIAMOND_CARDS, WITCH_CARDS, FAIRY_CARDS = 20, 8, 3
FIRST_DIAMOND = CASTLE_CARDS
FIRST_WITCH = FIRST_DIAMOND + DIAMOND_CARDS
FIRST_FAIRY = FIRST_WITCH + WITCH_CARDS
CARD_COUNT = FIRST_FAIRY + FAIRY_CARDS  # 55
PRICE = 3  # K-BUY-1: diamond cards paid for one castle card
WITCH_TOLL = 3  # K-WITCH-1: cards a witch takes
MAX_TURNS = 200  # K-WIN-1 (Decision)
# K-BUY-1: where a purchase's three diamond cards go. The rulebook's "en échange" pays the seller (their side
# pile); until the spec was corrected they went to the discard pile, and games stored then replay that way.
SELLER, DISCARD_PILE = "seller", "discard"
BUY_PAYS = (SELLER, DISCARD_PILE)
# Decision: a ruleset may shorten or lengthen the K-WIN-1 turn limit up to 2,000 turns (ten times the rulebook's),
# which keeps every game within a bounded number of decisions: a turn ends with a witch, a purchase, a stop or a
# pass, and only a witch (which ends the turn) refills the draw pile, so one turn draws at most the 55 cards.
TURN_LIMIT_BOUND = 2000

CASTLE, DIAMOND, WITCH, FAIRY = "castle", "diamond", "witch", "fairy"


def kind_of(card: int) -> str:
    if card < FIRST_DIAMOND:
        return CASTLE
    if card < FIRST_WITCH:
        return DIAMOND
    if card < FIRST_FAIRY:
        return WITCH
    return FAIRY


def colour_of(card: int) -> int:
    """The colour index of a castle card."""
    return card // CASTLE_SIZE


def card_name(card: int) -> str:
    kind = kind_of(card)
    if kind == CASTLE:
        return f"{COLOURS[card // CASTLE_SIZE]}-{card % CASTLE_SIZE + 1}"
    first = {DIAMOND: FIRST_DIAMOND, WITCH: FIRST_WITCH, FAIRY: FIRST_FAIRY}[kind]
    return f"{kind}-{card - first + 1}"


# Every card's kind and name, by id: the referee reads kinds and names cards in its events on every draw, and a
# lookup costs less than a call. kind_of and card_name stay the definitions (and take any int, as the messages
# about a wrong card need).
CARD_KINDS = tuple(kind_of(c) for c in range(CARD_COUNT))
CARD_NAMES = tuple(card_name(c) for c in range(CARD_COUNT))
_BY_NAME = {name: c for c, name in enumerate(CARD_NAMES)}


def parse_card(name: object) -> int:
    """"red-3" -> its id; ValueError for anything that is not one of the 55 cards."""
    if isinstance(name, str) and name in _BY_NAME:
        return _BY_NAME[name]
    raise ValueError(f"{name!r} is not a Diamoniak card (like 'red-3', 'diamond-7', 'witch-1', 'fairy-2')")


@dataclass(frozen=True)
class Ruleset(RulesetDict):
    """2-4 players (K-SETUP-1); `max_turns` is the turn limit of the K-WIN-1 Decision; `buy_pays` is who gets a
    purchase's diamond cards (K-BUY-1): "seller" (the rulebook, every new game) or "discard" (the spec before its
    correction; a stored ruleset without the field was played so and reads so)."""

    BEFORE_CORRECTION = {"buy_pays": DISCARD_PILE}

    players: int
    max_turns: int = MAX_TURNS
    buy_pays: str = SELLER

    def __post_init__(self) -> None:
        whole_number("players", self.players, 2, 4, rule="K-SETUP-1")
        whole_number("max_turns", self.max_turns, 1, TURN_LIMIT_BOUND, rule="K-WIN-1")
        if self.buy_pays not in BUY_PAYS:
            raise InvalidRuleset(f"K-BUY-1: buy_pays is {' or '.join(map(repr, BUY_PAYS))}, not {self.buy_pays!r}")
