"""Diamonds' cards, drawn here: one SVG sprite of all 60 faces (1–15 in four suits), the back, the crystals, the
vault's chest and the Dealer's and the Thief's tokens. The project's own drawings (no image from elsewhere).

A page holds the sprite once (`sprite()`, outside the table that is redrawn on every move); a card on the table is
then `<svg><use href="#card-d7"/></svg>` (`use_card`). A face tells its suit three ways: the suit's shape, its
letter in the reader's language (D H S C; Ca Co P T in French) and its colour. The corner index (rank, shape,
letter) sits in the card's left strip, the part that shows where cards overlap in a hand. The faces' text takes
the page's font (table_diamonds.css sets it on `.cardsvg`, whose <use> the text inherits from).

The symbols' ids are lower-case (`card-d7`), never a card's code (`D7`) or its spoken name: the sprite is the
same on every page and says nothing of anyone's hand; a card someone holds appears as a reference, `#card-d7`.
"""

from __future__ import annotations

from functools import lru_cache

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext

from engine.diamonds.cards import SUITS

RED, BLACK = "#b3261e", "#1d1d1f"
COLOURS = {"D": RED, "H": RED, "S": BLACK, "C": BLACK}
RANKS = range(1, 16)

# Each suit's shape in a 20 × 20 box: four outlines that differ in shape, not only in colour.
SUIT_SHAPES = {
    "D": '<path d="M 10 0.5 L 17.5 10 L 10 19.5 L 2.5 10 Z"/>',
    "H": '<path d="M 10 18.5 C 4 13.5 0.5 9.5 0.8 6 C 1.1 2.2 5.8 0.2 10 4.6 C 14.2 0.2 18.9 2.2 19.2 6 '
         'C 19.5 9.5 16 13.5 10 18.5 Z"/>',
    "S": '<path d="M 10 0.8 C 5 6 0.8 9.2 1 12.6 C 1.2 16 5.4 17.4 8.6 14.6 L 7.4 19.4 L 12.6 19.4 L 11.4 14.6 '
         'C 14.6 17.4 18.8 16 19 12.6 C 19.2 9.2 15 6 10 0.8 Z"/>',
    "C": '<circle cx="10" cy="5.2" r="4.4"/><circle cx="4.9" cy="11.6" r="4.4"/><circle cx="15.1" cy="11.6" r="4.4"/>'
         '<path d="M 8.8 10 L 7.3 19.4 L 12.7 19.4 L 11.2 10 Z"/>',
}


def suit_letter(suit: str) -> str:
    """The suit's letter on a card, in the reader's language."""
    return {
        "D": pgettext("letter of the suit diamonds on a card", "D"),
        "H": pgettext("letter of the suit hearts on a card", "H"),
        "S": pgettext("letter of the suit spades on a card", "S"),
        "C": pgettext("letter of the suit clubs on a card", "C"),
    }[suit]


def symbol_id(code: str) -> str:
    """The sprite's id of a card ("D7" -> "card-d7")."""
    return f"card-{code[0].lower()}{int(code[1:])}"


def _pips(suit: str, letter: str) -> str:
    """What every card of a suit shares: the corner's suit shape and letter, and the big shape in the middle."""
    s = suit.lower()
    return (f'<symbol id="pips-{s}" viewBox="0 0 60 84"><g fill="{COLOURS[suit]}">'
            f'<use href="#suit-{s}" x="3.5" y="22" width="15" height="15"/>'
            f'<text x="11" y="48" font-size="10" font-weight="700" text-anchor="middle">{letter}</text>'
            f'<use href="#suit-{s}" x="22" y="26" width="32" height="32"/></g></symbol>')


def _face(rank: int, suit: str) -> str:
    """A card: the blank face, its suit's pips, and its rank in the corner (large, in the strip that shows where
    cards overlap) and upside down in the opposite corner."""
    s = suit.lower()
    size = 17 if rank < 10 else 15
    return (f'<symbol id="card-{s}{rank}" viewBox="0 0 60 84"><use href="#card-blank"/><use href="#pips-{s}"/>'
            f'<g fill="{COLOURS[suit]}" font-weight="700" text-anchor="middle">'
            f'<text x="11" y="18" font-size="{size}">{rank}</text>'
            f'<text x="49" y="76" font-size="11" transform="rotate(180 49 72)">{rank}</text></g></symbol>')


_PARTS = (
    # The blank face every card is drawn on.
    '<symbol id="card-blank" viewBox="0 0 60 84"><rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" '
    'fill="#fff" stroke="#7b7b88" stroke-width="1.5"/><rect x="21.5" y="6" width="0.8" height="72" fill="#e4e4ea"/>'
    "</symbol>"
    # The back: a lattice of little diamonds on navy, the same for every card.
    '<pattern id="back-lattice" width="10" height="10" patternUnits="userSpaceOnUse">'
    '<path d="M 5 0 L 10 5 L 5 10 L 0 5 Z" fill="#2f4f82"/></pattern>'
    '<symbol id="card-back" viewBox="0 0 60 84"><rect x="0.75" y="0.75" width="58.5" height="82.5" rx="5" '
    'fill="#1c2f52" stroke="#0e1a30" stroke-width="1.5"/><rect x="5" y="5" width="50" height="74" rx="3" '
    'fill="url(#back-lattice)" stroke="#c9a227" stroke-width="1.2"/>'
    '<path d="M 30 30 L 38 42 L 30 54 L 22 42 Z" fill="#c9a227"/></symbol>'
    # A crystal (the game's diamonds): a cut gem.
    '<symbol id="gem" viewBox="0 0 20 20"><path d="M 3.5 7.5 L 7 3 L 13 3 L 16.5 7.5 L 10 18 Z" fill="#52c0e0" '
    'stroke="#0f5870" stroke-width="1.1" stroke-linejoin="round"/><path d="M 3.5 7.5 H 16.5 M 7 3 L 8.5 7.5 L 10 18 '
    'L 11.5 7.5 L 13 3" fill="none" stroke="#0f5870" stroke-width=".7"/></symbol>'
    # The vault: a closed chest with its lock.
    '<symbol id="chest" viewBox="0 0 26 22"><path d="M 2 9 C 2 3.5 6 2 13 2 C 20 2 24 3.5 24 9 Z" fill="#a0662e" '
    'stroke="#4a2d12" stroke-width="1.2"/><rect x="2" y="9" width="22" height="11.5" rx="1.2" fill="#8a5424" '
    'stroke="#4a2d12" stroke-width="1.2"/><path d="M 2 12 H 24" stroke="#d9a21b" stroke-width="1.6"/>'
    '<rect x="10.5" y="9.5" width="5" height="6.5" rx="1" fill="#e8c04a" stroke="#4a2d12" stroke-width=".8"/>'
    '<circle cx="13" cy="12.3" r="1" fill="#4a2d12"/></symbol>'
    # The Dealer's token: a small deck of cards.
    '<symbol id="token-dealer" viewBox="0 0 24 24"><circle cx="12" cy="12" r="11" fill="#fff" stroke="#1f5fa8" '
    'stroke-width="2"/><rect x="6" y="7.5" width="8" height="11" rx="1.3" fill="#dfe9f7" stroke="#1f5fa8"/>'
    '<rect x="9.5" y="5.5" width="8" height="11" rx="1.3" fill="#fff" stroke="#1f5fa8"/></symbol>'
    # The Thief's token: a mask.
    '<symbol id="token-thief" viewBox="0 0 24 24"><circle cx="12" cy="12" r="11" fill="#fff" stroke="#8a5a00" '
    'stroke-width="2"/><path d="M 4 10.5 C 7 8.5 10 9 12 10.5 C 14 9 17 8.5 20 10.5 C 20 14.5 16.5 15.5 14 14 '
    'C 13 13.3 11 13.3 10 14 C 7.5 15.5 4 14.5 4 10.5 Z" fill="#2b2b2b"/><ellipse cx="8.3" cy="11.7" rx="1.8" '
    'ry="1.2" fill="#fff"/><ellipse cx="15.7" cy="11.7" rx="1.8" ry="1.2" fill="#fff"/></symbol>'
)


@lru_cache(maxsize=8)
def _sprite(language: str) -> str:
    suits = "".join(f'<symbol id="suit-{s.lower()}" viewBox="0 0 20 20">{shape}</symbol>'
                    for s, shape in SUIT_SHAPES.items())
    pips = "".join(_pips(suit, suit_letter(suit)) for suit in SUITS)
    faces = "".join(_face(rank, suit) for suit in SUITS for rank in RANKS)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="sprite" width="0" height="0" aria-hidden="true" '
            f'focusable="false"><defs>{suits}{_PARTS}{pips}{faces}</defs></svg>')


def sprite() -> SafeString:
    """Every drawing of the table, once per page (the suits' letters in the reader's language)."""
    return mark_safe(_sprite(get_language() or "en"))  # noqa: S308 (built here from constants and our own words)


def use_card(code: str | None, css: str = "") -> SafeString:
    """A card drawn from the sprite (its face, or the back for None), hidden from screen readers: the element
    holding it names the card in words."""
    href = "card-back" if code is None else symbol_id(code)
    return format_html('<svg class="cardsvg {}" viewBox="0 0 60 84" aria-hidden="true" focusable="false">'
                       '<use href="#{}"/></svg>', css, href)


def use_symbol(name: str, css: str = "") -> SafeString:
    """One of the sprite's other drawings (gem, chest, token-dealer, token-thief), hidden from screen readers."""
    return format_html('<svg class="{}" aria-hidden="true" focusable="false"><use href="#{}"/></svg>', css, name)
