"""Cards as small ints: suit index * 16 + rank, so a card is one int and its suit is `card >> 4`."""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "DHSC"  # diamonds, hearts, spades, clubs: also the order of end-of-round actions (R-END-2)
DIAMONDS, HEARTS, SPADES, CLUBS = range(4)
SUIT_NAMES = ("diamonds", "hearts", "spades", "clubs")
SUIT_SYMBOLS = ("\u2666", "\u2665", "\u2660", "\u2663")

Card = int


def card(suit: int, rank: int) -> Card:
    return (suit << 4) | rank


def suit_of(c: Card) -> int:
    return c >> 4


def rank_of(c: Card) -> int:
    return c & 15


def card_str(c: Card) -> str:
    return f"{SUITS[c >> 4]}{c & 15}"


def parse_card(text: object) -> Card:
    """`"D7"` -> card; raises ValueError on anything that is not a card of the full deck."""
    if not isinstance(text, str) or len(text) < 2 or text[0] not in SUITS or not text[1:].isdigit():
        raise ValueError(f"{text!r} is not a card (a suit letter D H S C and a rank 1-15, like 'D7')")
    rank = int(text[1:])
    if not 1 <= rank <= 15 or text[1] == "0":
        raise ValueError(f"{text!r} is not a card: ranks run from 1 to 15")
    return card(SUITS.index(text[0]), rank)


def deck(deck_ranks: int = 15) -> list[Card]:
    """The cards in play: every suit from 1 to `deck_ranks` (R-PERFECT-1 shortens it)."""
    return [card(s, r) for s in range(4) for r in range(1, deck_ranks + 1)]


_STR = {card(s, r): f"{SUITS[s]}{r}" for s in range(4) for r in range(1, 16)}
_PARSE = {v: k for k, v in _STR.items()}


def cards_str(cards: Iterable[Card]) -> list[str]:
    return [_STR[c] for c in cards]


def parse_cards(texts: Iterable[object]) -> list[Card]:
    out: list[Card] = []
    for t in texts:
        c = _PARSE.get(t) if isinstance(t, str) else None
        out.append(parse_card(t) if c is None else c)
    return out
