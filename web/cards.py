"""How a card is shown: a suit symbol AND the suit's name, so suits never depend on colour alone."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS


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
        return f"{self.rank} of {self.suit_name}"


def face(code: str) -> CardFace:
    suit = code[0]
    index = SUITS.index(suit)
    return CardFace(code, suit, SUIT_SYMBOLS[index], SUIT_NAMES[index], int(code[1:]))


def suit_name(letter_or_index) -> str:
    index = SUITS.index(letter_or_index) if isinstance(letter_or_index, str) else letter_or_index
    return SUIT_NAMES[index]


def suit_symbol(letter_or_index) -> str:
    index = SUITS.index(letter_or_index) if isinstance(letter_or_index, str) else letter_or_index
    return SUIT_SYMBOLS[index]
