"""The rules' refusals in the reader's language.

The engine (pure Python, no Django) refuses an illegal decision with the rule id it breaks and a precise English
sentence (engine.errors.IllegalDecision). The API and the website show that refusal through `refusal_text`: in
English, the engine's own sentence; in another language, the sentence each game gives per rule id (its GameType's
`refusals`, marked with the engine's gettext_noop), which says what the rule asks, translated here by gettext like
every other string. The rule id itself is always shown beside it.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext

from engine.games import refusal_of


def refusal_text(rule: str | None, message: str) -> str:
    """What to show for a refusal by `rule` whose engine text is `message`, in the active language."""
    language = (translation.get_language() or "en").split("-")[0]
    if not rule or language == "en":
        return message
    known = refusal_of(rule)
    return gettext(known) if known is not None else gettext("This decision breaks rule %(rule)s.") % {"rule": rule}
