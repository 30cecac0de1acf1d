"""How a card is shown: a suit symbol AND the suit's name, so suits never depend on colour alone."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.diamonds.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS

# The suits' names in the reader's language, by the engine's (English) name: the French rulebook's carreau, cœur,
# pique and trèfle.
SUIT_WORDS = {"diamonds": _("diamonds"), "hearts": _("hearts"), "spades": _("spades"), "clubs": _("clubs")}


@dataclass(frozen=True)
class CardFace:
    code: str  # "H7", what the engine and the API call the card
    suit: str  # "H"
    symbol: str  # "♥"
    suit_name: str  # "hearts"
    rank: int

    @property
    def label(self) -> str:
        """What a screen reader says: "7 of hearts"."""
        return gettext("%(rank)s of %(suit)s") % {"rank": self.rank, "suit": self.suit_name}


def face(code: str) -> CardFace:
    suit = code[0]
    index = SUITS.index(suit)
    return CardFace(code, suit, SUIT_SYMBOLS[index], str(SUIT_WORDS[SUIT_NAMES[index]]), int(code[1:]))


def suit_name(letter_or_index) -> str:
    index = SUITS.index(letter_or_index) if isinstance(letter_or_index, str) else letter_or_index
    return str(SUIT_WORDS[SUIT_NAMES[index]])


def suit_symbol(letter_or_index) -> str:
    index = SUITS.index(letter_or_index) if isinstance(letter_or_index, str) else letter_or_index
    return SUIT_SYMBOLS[index]
