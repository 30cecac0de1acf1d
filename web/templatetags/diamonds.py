"""Template tags for cards and suits: `{% card "H7" %}` shows ♥ 7 hearts with an aria-label."""

from functools import lru_cache

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from ..cards import face, suit_name, suit_symbol
from ..games.diamonds_cards import sprite, use_card, use_symbol

register = template.Library()


@register.simple_tag
def card(code: str, css: str = ""):
    return _card(code, css, get_language())


@lru_cache(maxsize=4096)  # a card's chip is the same wherever it appears, in one language (web.cards.face)
def _card(code: str, css: str, language: str | None):
    f = face(code)
    return format_html(
        '<span class="card s-{} {}" role="img" aria-label="{}" title="{}">'
        '<span class="sym" aria-hidden="true">{}</span>&nbsp;<span aria-hidden="true">{}</span>'
        '&nbsp;<small aria-hidden="true">{}</small></span>',
        f.suit, css, f.label, f.label, f.symbol, f.rank, f.suit_name,
    )


@register.simple_tag
def drawn(code, css: str = ""):
    """A card drawn from the page's sprite: `{% drawn "D7" %}`, or its back: `{% drawn None %}`."""
    return use_card(code or None, css)


@register.simple_tag
def drawing(name: str, css: str = ""):
    """Another of the sprite's drawings: `{% drawing "gem" "gem" %}` (gem, chest, token-dealer, token-thief)."""
    return use_symbol(name, css)


@register.simple_tag
def card_sprite():
    """Every card and token drawn, once per page, for `drawn` and `drawing` to use."""
    return sprite()


@register.simple_tag
def suit(letter: str):
    return format_html('<span class="suit s-{}"><span aria-hidden="true">{}</span> {}</span>',
                       letter, suit_symbol(letter), suit_name(letter))


@register.filter
def card_label(code: str) -> str:
    return face(code).label


@register.filter
def get(mapping, key):
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


# The standings' metrics (league.standings.METRICS) as column headings, in the reader's language.
METRIC_WORDS = {"points": _("points"), "score": _("score"), "tiebreak": _("tie-break"), "vault": _("vault"),
                "wins": _("wins"), "average_points": _("average points"), "opponent_points": _("opponent points"),
                "average_opponent_points": _("average opponent points"), "head_to_head": _("head to head"),
                "duplicate": _("duplicate"), "games": _("games")}


@register.filter
def words(name: str) -> str:
    """A metric's name as words: head_to_head -> head to head (translated when it is one of the known metrics)."""
    return str(METRIC_WORDS.get(str(name), str(name).replace("_", " ")))


# The columns of the standings a phone keeps in view: what ranks (points, or a duplicate's total) and the game's
# tie-break (Diamonds' vault); the others move into each line's disclosure (web/_standings.html).
KEY_METRICS = {"points", "duplicate", "tiebreak", "vault"}


@register.filter
def key_metric(name: str) -> bool:
    return str(name) in KEY_METRICS


# A round's table as the room reads it (league.selectors.round_tables.TableState).
TABLE_STATE_WORDS = {"waiting": _("waiting"), "playing": _("playing"), "entered": _("result entered"),
                     "disputed": _("disputed"), "done": _("done"), "stopped": _("stopped")}


@register.filter
def table_state(state: str) -> str:
    return str(TABLE_STATE_WORDS.get(str(state), state))
