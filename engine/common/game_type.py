"""What a game of the engine is to the rest of the repository: the `GameType` each game's folder provides one of.

Every game has the same shape (OpenSpiel's): a ruleset (the parameters; `Ruleset.from_dict`/`to_dict`, the
first field `players`), a `Game(ruleset, seed, seats)` that says what is `pending` and what is `legal`,
takes `apply(seat, decision)` or refuses with `IllegalDecision(rule, message)` changing nothing, and ends
`over` with a `result`; a `SeatView(game, seat)` with `to_dict()`; a `Decision` with `to_json`/`from_json`;
a record format with `to_record`, `from_record` and `replay`; and bots (`decide(view) -> Decision`).

A game declares its parts in a `GameDefinition` (engine/<game>/game_type.py) and engine.games lists it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .bot import Bot
from .compact import ChoiceCodec
from .decision_bots import make_named_bot
from .offline import OfflineResult

# The fallback bots an organiser may choose to play overdue decisions, by their league names: every game says
# which of its bots plays each ("greedy" is Diamonds' fast heuristic bot; the newer games' is "heuristic").
FALLBACK_BOTS = ("random", "greedy")

Standing = dict[str, list[int]]
DealCheck = tuple[list[str], list[str]]


class GameType(Protocol):
    """Everything the league needs to create, drive, show, record, replay and check one game, found by name."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def rule_prefix(self) -> str:
        """What every rule id of the game starts with ("R-" for Diamonds)."""
    @property
    def record_format(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def ruleset(self) -> Any: ...
    @property
    def game(self) -> type: ...
    @property
    def view(self) -> type: ...
    @property
    def decision(self) -> Any: ...
    @property
    def bots(self) -> Mapping[str, type[Bot]]: ...
    @property
    def fallback_bots(self) -> Mapping[str, str]:
        """Per fallback bot name (FALLBACK_BOTS), the name of the game's bot that plays it."""
    @property
    def refusals(self) -> Mapping[str, str]:
        """Per rule id the game refuses with, one English sentence (marked with gettext_noop) saying what the rule
        asks; the league translates it at display time."""
    @property
    def score_label(self) -> str: ...
    @property
    def tiebreak_label(self) -> str: ...
    @property
    def first_seat_keyword(self) -> str: ...
    @property
    def legal_is_complete(self) -> bool: ...
    @property
    def codec(self) -> ChoiceCodec: ...
    @property
    def offline_figures(self) -> tuple[str, ...]: ...

    def make_ruleset(self, ruleset: Any) -> Any: ...
    def stored_ruleset(self, ruleset: Any) -> Any: ...
    def new_game(self, ruleset: Any, seed: str, seats: Sequence[str] | None = None, *,
                 first_seat: int | None = None) -> Any: ...
    def first_seat_of(self, game: Any) -> int: ...
    def make_bot(self, name: str, seed: str | int = 0, **settings: Any) -> Bot: ...
    def parse_decision(self, data: object) -> Any: ...
    def to_record(self, game: Any) -> dict[str, Any]: ...
    def from_record(self, record: dict[str, Any]) -> Any: ...
    def replay(self, record: dict[str, Any]) -> tuple[Any, dict[str, Any], list[str]]: ...
    def play_game(self, game: Any, bots: Sequence[Bot]) -> Any: ...
    def standing(self, game: Any) -> Standing: ...
    def check_offline_result(self, ruleset: Any, entry: object) -> OfflineResult: ...
    def check_deal(self, record: dict[str, Any], seed: str) -> DealCheck: ...


@dataclass(frozen=True)
class GameDefinition:
    """A GameType from its parts: what each game's folder declares.

    `standing(game)` gives a finished game's result in one shape for every game: per seat its `places` (1 = best,
    ties share), its `score` and its `tiebreak` (named by `score_label`/`tiebreak_label`), and the `winners`.
    `first_seat_keyword` is the Game's keyword for the seat that acts first (Diamonds' first dealer, the newer
    games' first player); `legal_is_complete` whether legal(seat) lists complete decisions (the newer games) or
    Diamonds' options of the pending kind; `codec` how the league stores a game's choices (engine.common.compact:
    never reorder its kinds); `check_offline_result` checks a result entered by hand (engine.common.offline),
    `check_deal` a record's deal against its seed (engine.fairness).
    """

    name: str
    title: str
    rule_prefix: str
    record_format: str
    min_players: int
    max_players: int
    ruleset: Any  # the ruleset class: `Ruleset(players)`, `Ruleset.from_dict(data, new=...)`
    game: type
    view: type
    decision: Any  # the decision class: `Decision.from_json(data)`
    to_record: Callable[[Any], dict[str, Any]]
    from_record: Callable[[dict[str, Any]], Any]
    replay: Callable[[dict[str, Any]], tuple[Any, dict[str, Any], list[str]]]
    bots: Mapping[str, type[Bot]]
    fallback_bots: Mapping[str, str]
    refusals: Mapping[str, str]
    play_game: Callable[[Any, Sequence[Bot]], Any]
    standing: Callable[[Any], Standing]
    score_label: str
    tiebreak_label: str
    first_seat_keyword: str
    legal_is_complete: bool
    codec: ChoiceCodec
    check_offline_result: Callable[[Any, object], OfflineResult]
    offline_figures: tuple[str, ...]
    check_deal: Callable[[dict[str, Any], str], DealCheck]

    def make_ruleset(self, ruleset: Any) -> Any:
        """A new game's ruleset from a dict, an int (players) or a ruleset of this game (returned as is). What the
        dict leaves out takes today's rules (a corrected rule in its corrected form); a stored ruleset is read
        with `stored_ruleset`. Anything else, or a field unknown or out of its bounds, is refused with
        InvalidRuleset naming it."""
        if isinstance(ruleset, self.ruleset):
            return ruleset
        if isinstance(ruleset, int) and not isinstance(ruleset, bool):
            return self.ruleset(ruleset)
        return self.ruleset.from_dict(dict(ruleset) if isinstance(ruleset, Mapping) else ruleset, new=True)

    def stored_ruleset(self, ruleset: Any) -> Any:
        """The ruleset of a stored game (a match's row, a record) from its dict: a field it lacks because its rule
        was corrected after it was stored reads as the rule it was played under (engine.common.ruleset_dict)."""
        if isinstance(ruleset, self.ruleset):
            return ruleset
        return self.ruleset.from_dict(dict(ruleset) if isinstance(ruleset, Mapping) else ruleset)

    def new_game(self, ruleset: Any, seed: str, seats: Sequence[str] | None = None, *,
                 first_seat: int | None = None) -> Any:
        """A fresh game; `first_seat` (None: drawn from the seed) is the first dealer or first player. A `ruleset`
        dict is read as a new game's (`make_ruleset`): pass a stored one through `stored_ruleset` first."""
        if first_seat is None:
            return self.game(self.make_ruleset(ruleset), seed, seats)
        return self.game(self.make_ruleset(ruleset), seed, seats, **{self.first_seat_keyword: first_seat})

    def first_seat_of(self, game: Any) -> int:
        """The seat that acted first in `game` (what new_game's `first_seat` sets)."""
        seat: int = getattr(game, self.first_seat_keyword)
        return seat

    def make_bot(self, name: str, seed: str | int = 0, **settings: Any) -> Bot:
        return make_named_bot(self.bots, self.name, name, seed, settings)

    def parse_decision(self, data: object) -> Any:
        """A decision from its JSON (ValueError when malformed)."""
        return self.decision.from_json(data)
