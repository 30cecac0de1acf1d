"""The rules' refusals in the reader's language.

The engine (pure Python, no Django) refuses an illegal decision with the rule id it breaks and a precise English
sentence (engine.errors.IllegalDecision). The API and the website show that refusal through `refusal_text`: in
English, the engine's own sentence; in another language, this catalogue's sentence for the rule id (translated by
gettext like every other string), which says what the rule asks. The rule id itself is always shown beside it.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# One sentence per rule id the engine refuses with (engine/game.py, engine/diamoniak, engine/ringrace, and the
# league's own R-ROUNDS-1 for a match no longer in play): what the rule asks, addressed to the player.
RULE_REFUSALS = {
    # Diamonds (RULES.md)
    "R-ACT-C": _("The clubs action robs another player's showroom, chosen by the player entitled to the action."),
    "R-DEAL-1": _("That card is not in your hand."),
    "R-FOLLOW-1": _("You hold a card of the suit led: you must follow suit."),
    "R-LEAD-1": _("It is not your turn: the player left of the dealer leads the first trick."),
    "R-PASS-1": _("Only the dealer chooses how many cards are passed: 1, 2 or 3."),
    "R-PASS-2": _("Pass exactly the number of cards the dealer chose, all different, from your own hand."),
    "R-PERFECT-1": _("That card is not in this game's deck."),
    "R-ROUNDS-1": _("The game is over, or the match is not in play."),
    "R-TEAM-5": _("The clubs action robs another team's showroom, never your partner's."),
    "R-TRICK-2": _("It is not your turn: the winner of the last trick leads the next one."),
    "R-TWO-1": _("It is not your turn, or you must follow suit: with two players each trick has four plays."),
    # Diamoniak (OTHER-GAMES.md)
    "K-BUY-1": _("This purchase is not allowed: buy one castle card of your colour from another player's side "
                 "pile, instead of drawing, with enough diamond cards."),
    "K-CASTLE-1": _("That castle card cannot leave the side pile now."),
    "K-DECK-1": _("The draw pile and the discard pile do not allow that: pass only when no card can be drawn."),
    "K-TURN-1": _("It is not your turn, or that is not a decision of this game: a drawing player draws at least "
                  "once before stopping."),
    "K-WIN-1": _("The game is over."),
    "K-WITCH-1": _("A witch was drawn: discard one of your cards or use a fairy."),
    # The ring race (OTHER-GAMES.md)
    "G-END-1": _("The game is over."),
    "G-RING-1": _("A ring card was drawn: try one board position that still holds a diamond."),
    "G-STEAL-1": _("A steal card was drawn: take a diamond from another player's set ring."),
    "G-TURN-1": _("It is not your turn, or that is not a decision of this game."),
}


def refusal_text(rule: str | None, message: str) -> str:
    """What to show for a refusal by `rule` whose engine text is `message`, in the active language."""
    language = (translation.get_language() or "en").split("-")[0]
    if not rule or language == "en":
        return message
    known = RULE_REFUSALS.get(rule)
    return str(known) if known is not None else gettext("This decision breaks rule %(rule)s.") % {"rule": rule}
