"""Player names: the form a name is stored in, and the key two names share when they look alike.

A name is stored in Unicode's NFKC form with its invisible characters taken out (format characters such as the
zero-width space and the bidi controls, controls, and the other default-ignorable code points), its spaces collapsed.
Its `name_key` is Unicode's confusable skeleton (UTS #39), case-folded: "bob", "BOB", "bоb" with a Cyrillic о and
"b0b" share one key, so a name whose key another player has is refused (league.services.names). The confusables
table is Unicode's, as the confusable-homoglyphs package ships it.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data

# Default-ignorable code points (Unicode's DerivedCoreProperties) that are not in the general categories dropped
# below (Cc, Cf, Cs, Co, Cn): the combining grapheme joiner, Hangul fillers, Khmer inherent vowels, Mongolian and
# other variation selectors. They show nothing, so a name with one looks like the name without it.
_IGNORABLE_MARKS = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164, 0xFFA0,
     *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)]
)
_DROPPED_CATEGORIES = frozenset(["Cc", "Cf", "Cs", "Co", "Cn"])


def _visible(char: str) -> bool:
    return unicodedata.category(char) not in _DROPPED_CATEGORIES and ord(char) not in _IGNORABLE_MARKS


def plain_text(text: str) -> str:
    """Free text written by a person (a club's description), as it is stored: NFC, invisible characters out, each
    line's spaces collapsed, at most one empty line between paragraphs, no empty line at the ends. It is shown as
    text (escaped), never as HTML."""
    lines = []
    for line in unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n")).split("\n"):
        kept = (" " if char.isspace() else char for char in line if char.isspace() or _visible(char))
        lines.append(" ".join("".join(kept).split()))
    text = "\n".join(lines)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip("\n")


def normalised(name: str) -> str:
    """The name as it is stored: NFKC, invisible characters out, every run of spaces one space, no space at the
    ends. May be empty (a name of invisible characters only)."""
    kept = (" " if char.isspace() else char
            for char in unicodedata.normalize("NFKC", name) if char.isspace() or _visible(char))
    return " ".join("".join(kept).split())


@cache
def _prototype(char: str) -> str:
    """What a character looks like, by Unicode's confusables table: its prototype, or itself when it is one.

    The package keeps the table both ways: a confusable character lists its one prototype, and a prototype lists
    every character confusable with it. A pair whose both sides list only each other is one prototype and one
    confusable character, either way round: the smaller of the two stands for both."""
    homoglyphs = [entry["c"] for entry in confusables_data.get(char, ())]
    if len(homoglyphs) != 1:
        return char
    other = homoglyphs[0]
    others_homoglyphs = [entry["c"] for entry in confusables_data.get(other, ())]
    if char not in others_homoglyphs:
        return char
    if len(others_homoglyphs) > 1:
        return other
    return min(char, other)


def _skeleton(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(_prototype(c) for c in decomposed))


def name_key(name: str) -> str:
    """The key two names share when they look alike: the skeleton of the normalised name, case-folded (and the
    skeleton again, since folding can make new confusables of old ones)."""
    return _skeleton(_skeleton(normalised(name)).casefold())
