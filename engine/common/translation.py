"""Marks the engine's texts for the league's translations without importing Django.

`gettext_noop(text)` returns `text` unchanged; xgettext (which Django's makemessages runs) treats `gettext_noop`
as a keyword, so every text marked with it lands in the catalogue, and the league translates it when it shows it.
"""

from __future__ import annotations


def gettext_noop(text: str) -> str:
    """`text` as it is: the mark that puts it in the translation catalogue."""
    return text
