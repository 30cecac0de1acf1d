"""A record format made of choices: export a game, and replay a record's choices into a checked game.

A record holds the ruleset, the seed, the seats, the first player, any set-up given instead of drawn from the
seed, every choice in order, and what the rules derived from them: the events and the result. Replaying feeds
the choices to a fresh game, so the referee's own checks are the checks; the derived parts of the given record
are then compared with the replayed ones, path by path (`engine.common.records.differences`).

The seed draws the first player (K-SETUP-1, G-SETUP-1 Decisions). A game given another one is exported with
`"first_player_given": true`; a record carrying its seed and a first player that seed never drew, unmarked, is
refused (so a record cannot quietly move the first turn to another seat).

A game describes its format once with a `ChoicesRecordFormat` and exposes its `to_record`, `from_record` and
`replay`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..errors import IllegalDecision, InvalidRuleset
from .records import ReplayError, carry_attestation, differences
from .referee import result_json

GameT = TypeVar("GameT")

# The record's mark of a game whose first player was given rather than drawn from the seed (the league seats
# one when asked, tests set up tables): present, and true, only then.
FIRST_PLAYER_GIVEN = "first_player_given"


@dataclass(frozen=True)
class ChoicesRecordFormat(Generic[GameT]):
    """One game's choices record.

    `name`: the record's "format"; `title`: the game's name for people; `ruleset`, `game`, `decision`: the
    game's classes (`Ruleset.from_dict`, `Game(ruleset, seed, seats, first_player=..., **given set-up)`,
    `Decision.from_json`); `setup_rule`: the rule id of a record whose ruleset or set-up the game refuses;
    `given_setup`: per record field (also the game's keyword argument), the game's given value as JSON, or None
    when the game drew it from the seed (tests and puzzles give set-ups; the record keeps them, so their games
    replay).
    """

    name: str
    title: str
    ruleset: Any
    game: Callable[..., GameT]
    decision: Any
    setup_rule: str
    given_setup: Mapping[str, Callable[[GameT], Any]]

    def to_record(self, game: GameT) -> dict[str, Any]:
        """The whole record of `game` (finished or not) as a JSON-ready dict."""
        g: Any = game
        record: dict[str, Any] = {
            "format": self.name,
            "ruleset": g.ruleset.to_dict(),
            "seed": g.seed,
            "seats": list(g.seats),
            "first_player": g.first_player,
            **({FIRST_PLAYER_GIVEN: True} if g.first_player != g.drawn_first_player else {}),
            **self._setup_of(game),
            "choices": [{"seat": seat, **d.to_json()} for seat, d in g.choices],
            "events": [dict(e) for e in g.events],
        }
        if g.result is not None:
            record["result"] = result_json(g.result)
        return record

    def _setup_of(self, game: GameT) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for field, export in self.given_setup.items():
            value = export(game)
            if value is not None:
                out[field] = value
        return out

    def _setup_given(self, record: dict[str, Any]) -> dict[str, Any]:
        return {field: record[field] for field in self.given_setup if record.get(field) is not None}

    def from_record(self, record: dict[str, Any]) -> GameT:
        """Replay a record's choices into a game, checking each against the rules. Raises ReplayError."""
        if not isinstance(record, dict):
            raise ReplayError("a record is a JSON object")
        if record.get("format") != self.name:
            raise ReplayError(f"unknown format {record.get('format')!r}; expected {self.name!r}")
        try:
            ruleset = self.ruleset.from_dict(dict(record["ruleset"]))
        except (KeyError, TypeError, ValueError, InvalidRuleset) as e:
            raise ReplayError(f"bad ruleset: {e}", rule=self.setup_rule) from None
        try:
            game = self.game(ruleset, str(record.get("seed", "")), record.get("seats"),
                             first_player=record.get("first_player"), **self._setup_given(record))
        except (ValueError, TypeError) as e:
            raise ReplayError(str(e), rule=self.setup_rule) from None
        self._check_first_player(record, game)
        choices = record.get("choices") or []
        if not isinstance(choices, list):
            raise ReplayError("choices must be a list")
        for index, choice in enumerate(choices):
            seat = choice.get("seat") if isinstance(choice, dict) else None
            try:
                decision = self.decision.from_json(choice)
                game.apply(seat, decision)  # type: ignore[attr-defined]
            except IllegalDecision as e:
                raise ReplayError(f"choice {index}: {e.message}", rule=e.rule, seat=seat) from None
            except (ValueError, TypeError) as e:
                raise ReplayError(f"choice {index}: {e}", seat=seat) from None
        return game

    def _check_first_player(self, record: dict[str, Any], game: GameT) -> None:
        """The seed draws the first player (the setup rule's Decision): a record carrying its seed and a first
        player the seed does not draw is refused, unless it says the game was given its first player."""
        g: Any = game
        if record.get("seed") is None or g.first_player == g.drawn_first_player:
            return
        if record.get(FIRST_PLAYER_GIVEN) is True:
            return
        raise ReplayError(f"first_player is seat {g.first_player}, but the seed draws seat {g.drawn_first_player} "
                          f"(a game given its first player says \"{FIRST_PLAYER_GIVEN}\": true)",
                          rule=self.setup_rule)

    def check_deal(self, record: dict[str, Any], seed: str) -> tuple[list[str], list[str]]:
        """For engine.fairness.verify_record: (problems, notes) about the record's set-up and `seed`. The draw pile
        or board is drawn from the seed while the record replays, and the replay compares every drawn card and
        board space the record shows; a set-up given instead of drawn (a puzzle's deck_top, a fixed board) does
        not come from the seed at all."""
        given = [name for name in self.given_setup if record.get(name) is not None]
        if given:
            return [f"the record gives its set-up ({', '.join(given)}) instead of drawing it from the seed"], []
        return [], [f"{self.title}: the set-up is drawn from the seed during the replay"]

    def replay(self, record: dict[str, Any]) -> tuple[GameT, dict[str, Any], list[str]]:
        """Replay and check: the game, its whole derived record, and where the given record disagrees with it."""
        game = self.from_record(record)
        derived = carry_attestation(record, self.to_record(game))
        return game, derived, differences(record, derived)


def given_deck_top(card_name: Callable[[int], str]) -> Callable[[Any], list[str] | None]:
    """The `deck_top` set-up field: the cards a game was given to draw first, by name; None when not given."""
    return lambda game: [card_name(c) for c in game.deck_top] if game.deck_top else None
