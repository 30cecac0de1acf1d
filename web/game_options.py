"""Each game's ruleset options as form fields, for the organiser's tournament and ladder forms (web.forms_tournament,
web.forms_competitions): one fieldset per game, whose fields are named `option_<game>_<field>`.

The options are the fields of each game's engine ruleset (the frozen dataclasses of engine/diamonds/ruleset.py,
engine/diamoniak/rules.py and engine/ringrace/rules.py) except `players`, which is each table's size; their bounds
and choices are the engine's own constants. The engine keeps no words for them (no Django there), so each one's
label and help, in the reader's language, are here; tests/web/test_organiser_create.py checks that every field of
every game's ruleset has its line, so a new engine option cannot be missed. The engine still judges the whole
ruleset when the tournament is created (league.services.competition.competition_game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.diamonds.ruleset import CLUBS_MODES, MAX_DECK_RANKS, MAX_HAND_SIZE, MAX_ROUNDS
from engine.diamoniak.rules import DISCARD_PILE, MAX_TURNS, SELLER, TURN_LIMIT_BOUND
from engine.games import GAME_TYPES, game_type

from .games import presenter_for

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

YES_NO, NUMBER, CHOICE = "yes_no", "number", "choice"


@dataclass(frozen=True)
class GameOption:
    """One field of a game's ruleset. A number or a choice left blank (or at `initial`, the engine's default) is
    left out of the ruleset: the engine then takes the rulebook's value (`blank` says which)."""

    name: str
    kind: str
    label: StrOrPromise
    help: StrOrPromise = ""
    low: int = 0
    high: int = 0
    choices: tuple[tuple[str, StrOrPromise], ...] = ()
    blank: StrOrPromise = ""
    initial: Any = None


GAME_OPTIONS: Mapping[str, tuple[GameOption, ...]] = {
    "diamonds": (
        GameOption("partnerships", YES_NO, _("Partnerships"),
                   _("Teams of two partners sitting opposite, at tables of 4 or 6 (R-TEAM-1).")),
        GameOption("perfect", YES_NO, _("Perfect Diamonds"),
                   _("The deck and the hands change with the number of players, 2 to 5 (R-PERFECT-1).")),
        GameOption("clubs", CHOICE, _("The clubs action"),
                   _("Who is robbed when clubs win a round (R-ACT-C). The rulebook's: the Thief's holder with 3 to 6 "
                     "players without partners, else a player the winner chooses."),
                   choices=((CLUBS_MODES[0], _("the Thief's holder (second edition)")),
                            (CLUBS_MODES[1], _("a player the winner chooses (first edition)"))),
                   blank=_("the rulebook's")),
        GameOption("rounds", NUMBER, _("Rounds in each game"),
                   _("A game's rounds (deals), not the tournament's. Blank: the rulebook's, 4 to 6 by the number "
                     "of players (R-ROUNDS-1)."), low=1, high=MAX_ROUNDS),
        GameOption("hand_size", NUMBER, _("Cards in each hand"),
                   _("Blank: the rulebook's (10, or Perfect Diamonds' own)."), low=1, high=MAX_HAND_SIZE),
        GameOption("deck_ranks", NUMBER, _("Ranks in the deck"),
                   _("Blank: the rulebook's (15, or Perfect Diamonds' own)."), low=1, high=MAX_DECK_RANKS),
    ),
    "diamoniak": (
        GameOption("max_turns", NUMBER, _("Turn limit"),
                   _("Turns after which a game without a complete castle ends (K-WIN-1)."), low=1,
                   high=TURN_LIMIT_BOUND, initial=MAX_TURNS),
        GameOption("buy_pays", CHOICE, _("A purchase pays"), _("Where the three diamond cards of a purchase go "
                                                               "(K-BUY-1)."),
                   choices=((SELLER, _("the seller (the rulebook)")),
                            (DISCARD_PILE, _("the discard pile (the reading before the rule was corrected)"))),
                   initial=SELLER),
    ),
    "ringrace": (
        GameOption("debts", YES_NO, _("Debts"), _("An empty ring scores minus its value (G-SCORE-1).")),
    ),
}


def field_name(game: str, option: GameOption) -> str:
    return f"option_{game}_{option.name}"


def option_field(option: GameOption) -> forms.Field:
    if option.kind == YES_NO:
        return forms.BooleanField(required=False, label=option.label, help_text=option.help)
    if option.kind == NUMBER:
        return forms.IntegerField(required=False, min_value=option.low, max_value=option.high, label=option.label,
                                  help_text=option.help)
    return forms.ChoiceField(required=False, label=option.label, help_text=option.help,
                             choices=[("", option.blank or "—"), *option.choices])


def add_option_fields(form: forms.BaseForm) -> None:
    """Every game's option fields, in the order of engine.games."""
    for kind in GAME_TYPES:
        for option in GAME_OPTIONS.get(kind.name, ()):
            form.fields[field_name(kind.name, option)] = option_field(option)


def option_names(game: str) -> list[str]:
    return [field_name(game, option) for option in GAME_OPTIONS.get(game, ())]


def other_games_fields(game: str) -> list[str]:
    return [name for kind in GAME_TYPES if kind.name != game for name in option_names(kind.name)]


def ruleset_of(game: str, cleaned: Mapping[str, Any]) -> dict[str, Any]:
    """The game's shared ruleset from a form's cleaned options: what differs from the rulebook (a yes, a number or
    a choice neither blank nor the engine's default); the rest the engine fills in for each table."""
    ruleset: dict[str, Any] = {}
    for option in GAME_OPTIONS.get(game, ()):
        value = cleaned.get(field_name(game, option))
        if option.kind == YES_NO:
            if value:
                ruleset[option.name] = True
        elif value is not None and value != "" and value != option.initial:
            ruleset[option.name] = value
    return ruleset


def options_initial(game: str | None, ruleset: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every game's option fields as a form shows them: `game`'s from `ruleset`, every other game's at its initial
    value (so switching games starts from the game's usual rules)."""
    initial: dict[str, Any] = {}
    for kind in GAME_TYPES:
        for option in GAME_OPTIONS.get(kind.name, ()):
            value = option.initial
            if kind.name == game and ruleset and option.name in ruleset:
                value = ruleset[option.name]
            initial[field_name(kind.name, option)] = False if option.kind == YES_NO and value is None else value
    return initial


def option_groups(form: forms.BaseForm) -> list[dict[str, Any]]:
    """The option fields by game, for the template: [{"game": name, "fields": [bound fields]}]."""
    return [{"game": kind.name, "fields": [form[name] for name in option_names(kind.name) if name in form.fields]}
            for kind in GAME_TYPES]


def check_game(form: forms.BaseForm, data: Mapping[str, Any]) -> None:
    """In a form's clean(): forget the errors of the other games' options (their fields are on the page, without
    JavaScript every game's are, but only the chosen game's are taken) and check that the game seats the table
    size."""
    game = data.get("game")
    if not game:
        return
    for name in other_games_fields(game):
        form.errors.pop(name, None)
    kind = game_type(game)
    size = data.get("table_size")
    if size is not None and not kind.min_players <= size <= kind.max_players:
        form.add_error("table_size", gettext("%(game)s seats %(least)s to %(most)s players at a table.") % {
            "game": presenter_for(game).title, "least": kind.min_players, "most": kind.max_players})
