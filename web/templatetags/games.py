"""Template filters that name a game and its results in its own words: `{{ match.game|game_title }}`,
`{{ match.game|score_label }}`, `{{ match.game|tiebreak_label }}` (engine.games.GameType), and `{{ 3000|money }}`
for the ring race's dollars."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template

from ..games import presenter_for
from ..games.ringrace import money as dollars

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

register = template.Library()


@register.filter
def game_title(game_name: str) -> StrOrPromise:
    return presenter_for(game_name).title


@register.filter
def score_label(game_name: str) -> StrOrPromise:
    return presenter_for(game_name).score_label


@register.filter
def tiebreak_label(game_name: str) -> StrOrPromise:
    return presenter_for(game_name).tiebreak_label


@register.filter
def money(value) -> str:
    return dollars(int(value))
