"""How a card is shown: a suit symbol AND the suit's name, so suits never depend on colour alone."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import get_language, gettext
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
    suit_name: str  # "hearts", in the reader's language
    rank: int
    label: str  # what a screen reader says: "7 of hearts"


def face(code: str) -> CardFace:
    """The card's face in the active language. A table names each of its cards several times (in its hands, its
    trick, its steps' words) and gettext is the larger part of that: faces are made once per card and language."""
    return _face(code, get_language())


@lru_cache(maxsize=1024)  # 60 cards (and backs' codes) in each of the site's languages
def _face(code: str, language: str | None) -> CardFace:
    suit = code[0]
    index = SUITS.index(suit)
    suit_name, rank = str(SUIT_WORDS[SUIT_NAMES[index]]), int(code[1:])
    return CardFace(code, suit, SUIT_SYMBOLS[index], suit_name, rank,
                    gettext("%(rank)s of %(suit)s") % {"rank": rank, "suit": suit_name})


def suit_name(letter_or_index) -> str:
    index = SUITS.index(letter_or_index) if isinstance(letter_or_index, str) else letter_or_index
    return str(SUIT_WORDS[SUIT_NAMES[index]])


def suit_symbol(letter_or_index) -> str:
    index = SUITS.index(letter_or_index) if isinstance(letter_or_index, str) else letter_or_index
    return SUIT_SYMBOLS[index]
