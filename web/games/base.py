"""What the website needs from one game's presentation: `GamePresenter`, one instance per game (web.games).

The views never branch on the game: they look its presenter up by the match's `game` and ask it for the table
(built from the engine view's dict the selectors give), the template that draws it, the decision JSON a posted
form means, and the replay's steps (a page shows one window of them: web.games.replay).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from engine.games import GameType, game_type

from .replay import ReplaySteps, ReplayWindow, every_frame, window_of

if TYPE_CHECKING:  # the stubs' name for "a str or a lazy translation"; nothing to import at run time
    from django_stubs_ext import StrOrPromise


@dataclass(frozen=True)
class GamePresenter:
    name: str  # the engine's game name (engine.games.GAMES), which a match stores in `game`
    table_template: str  # draws `table` (what build_table returns) inside the live page's <div class="table-view">
    replay_template: str  # draws one frame `f` of the replay (inside its step's <section>)
    # (a seat's or the public view's dict, the seat names) -> the object table_template draws
    build_table: Callable[[dict[str, Any], list[str]], Any]
    decision_json: Callable[[QueryDict], Any]  # a posted decision form -> the game's decision JSON
    replay_steps: ReplaySteps  # a finished match's record -> its steps, each drawn on demand (web.games.replay)
    replay_step: StrOrPromise  # what one replay step is, in words: "trick", "turn"
    default_bot: str  # the house bots' kind when the visitor does not choose one
    # the "play against bots" form's cleaned data -> the ruleset of a table of four at this game
    bot_table_ruleset: Callable[[dict[str, Any]], dict[str, Any]]
    blurb: StrOrPromise  # one line on what the game is, for the page where a visitor picks one
    # static files the game's live and replay pages load besides the site's (its board's stylesheet and scripts)
    stylesheets: tuple[str, ...] = ()
    scripts: tuple[str, ...] = ()
    # Drawn once on the live page and the replay page, outside the table that is redrawn on every move: the game's
    # drawings (an SVG sprite the table refers to) and its scripts. `live` is true on the live page.
    page_template: str | None = None
    stylesheet: str | None = None  # the game's own stylesheet (a static path), in the live and replay pages' head

    def replay_window(self, record: dict[str, Any], step: int) -> ReplayWindow:
        return window_of(self.replay_steps, record, step)

    def replay_frames(self, record: dict[str, Any]) -> list[Any]:
        return every_frame(self.replay_steps, record)

    @property
    def kind(self) -> GameType:
        return game_type(self.name)

    @property
    def title(self) -> StrOrPromise:
        return _translated(self.kind.title)

    @property
    def score_label(self) -> StrOrPromise:
        return _translated(self.kind.score_label)

    @property
    def tiebreak_label(self) -> StrOrPromise:
        return _translated(self.kind.tiebreak_label)

    @property
    def bot_kinds(self) -> list[str]:
        return sorted(self.kind.bots)


# The engine's words for its games (engine.games: titles, what a score and a tie-break count), which the engine
# keeps in English (no Django there): their translations, found by the English word.
ENGINE_WORDS = {
    "Diamonds": _("Diamonds"),
    "Diamoniak": _("Diamoniak"),
    "The ring-card diamond race": _("The ring-card diamond race"),
    "score": _("score"),
    "vault": _("vault"),
    "castle cards": _("castle cards"),
    "diamond cards": _("diamond cards"),
    "dollars": _("dollars"),
    "set rings": _("set rings"),
}


def _translated(word: str) -> StrOrPromise:
    """The engine's word in the reader's language (lazy: a form's choices are made once, shown in each request's)."""
    return ENGINE_WORDS.get(word, word)


def table_of_four(form_data: dict[str, Any]) -> dict[str, Any]:
    """The ruleset of a table against bots at a game with no options on that form: four players, else its defaults."""
    return {"players": 4}


def number_or_text(value):
    """A number from a form, or the text as posted, so the decisions service refuses it with its own reason."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return value
