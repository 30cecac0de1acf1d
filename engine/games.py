"""The engine's games by name: "diamonds", "diamoniak", "ringrace". The one place the league looks a game up.

Every game has the same shape (OpenSpiel's): a ruleset (the parameters; `Ruleset.from_dict`/`to_dict`, the
first field `players`), a `Game(ruleset, seed, seats)` that says what is `pending` and what is `legal`,
takes `apply(seat, decision)` or refuses with `IllegalDecision(rule, message)` changing nothing, and ends
`over` with a `result`; a `SeatView(game, seat)` with `to_dict()`; a `Decision` with `to_json`/`from_json`;
a record format with `to_record`, `from_record` and `replay`; and bots (`decide(view) -> Decision`).

`standing(game)` gives a finished game's result in one shape for every game: per seat its `places` (1 = best,
ties share), its `score` and its `tiebreak` (named by `score_label`/`tiebreak_label`), and the `winners`.
`new_game(..., first_seat=s)` seats the first to act (Diamonds' first dealer, the newer games' first player;
`first_seat_of(game)` reads it back). `type_of(game)` finds the GameType of a game object.

    from engine.games import game_type, by_format
    kind = game_type("diamoniak")
    game = kind.new_game({"players": 3}, seed="night/1", seats=["ann", "bob", "cy"])
    bots = [kind.make_bot("heuristic", seed=f"night/1/{s}") for s in range(3)]
    kind.play_game(game, bots)
    record = kind.to_record(game)
    game2, derived, disagreements = by_format(record["format"]).replay(record)

Diamonds keeps its own modules (engine.game, engine.view, engine.record, engine.bots); its entry points at
them. One difference stays visible: Diamonds' `legal(seat)` lists the options of the pending kind (cards,
counts, seats), the newer games list complete `Decision`s; `standing(game)` gives all three games' results
in one shape.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from . import diamoniak, ringrace
from .bots import BOTS as DIAMONDS_BOTS
from .bots import Bot
from .bots import play_game as diamonds_play_game
from .common.compact import INT, INTS, NONE, ChoiceCodec
from .common.decision_bots import make_named_bot
from .common.referee import ranked_places
from .game import Decision as DiamondsDecision
from .game import Game as DiamondsGame
from .record import FORMAT as DIAMONDS_FORMAT
from .record import from_record as diamonds_from_record
from .record import replay as diamonds_replay
from .record import to_record as diamonds_to_record
from .ruleset import Ruleset as DiamondsRuleset
from .view import SeatView as DiamondsSeatView


@dataclass(frozen=True)
class GameType:
    """Everything the league needs to create, drive, show, record and replay one game, found by name."""

    name: str
    title: str
    record_format: str
    min_players: int
    max_players: int
    ruleset: type
    game: type
    view: type
    decision: type
    to_record: Callable[[Any], dict[str, Any]]
    from_record: Callable[[dict[str, Any]], Any]
    replay: Callable[[dict[str, Any]], tuple[Any, dict[str, Any], list[str]]]
    bots: Mapping[str, type[Bot]]
    play_game: Callable[[Any, Sequence[Bot]], Any]
    standing: Callable[[Any], dict[str, list[int]]]
    # What standing's `score` and `tiebreak` are in this game's own words (Diamonds: "score" and "vault").
    score_label: str
    tiebreak_label: str
    # The Game's keyword for the seat that acts first: Diamonds' first dealer, the newer games' first player.
    first_seat_keyword: str
    # Whether legal(seat) lists complete decisions (the newer games) or Diamonds' options of the pending kind.
    legal_is_complete: bool
    # How the league stores a game's choices (engine.common.compact): never reorder its kinds.
    codec: ChoiceCodec

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
        return getattr(game, self.first_seat_keyword)

    def make_bot(self, name: str, seed: str | int = 0, **settings) -> Bot:
        return make_named_bot(self.bots, self.name, name, seed, settings)

    def parse_decision(self, data: object) -> Any:
        """A decision from its JSON (ValueError when malformed)."""
        return self.decision.from_json(data)


def _diamonds_standing(game: DiamondsGame) -> dict[str, list[int]]:
    """R-SCORE-1, R-WIN-1 per seat: a seat's place, score and vault are its team's (score, then vault)."""
    r = game.result
    if r is None:
        raise ValueError("the game is not over")
    team_places = ranked_places(list(zip(r.score, r.vault)))
    teams = [game.team_of(s) for s in range(game.n)]
    places = [team_places[t] for t in teams]
    return {"places": places, "winners": [s for s in range(game.n) if places[s] == 1],
            "score": [r.score[t] for t in teams], "tiebreak": [r.vault[t] for t in teams]}


def _diamoniak_standing(game: Any) -> dict[str, list[int]]:
    """K-WIN-1: places as the referee gives them (the first to complete a castle is first, whatever the others
    hold); score is the castle's size, tiebreak the diamond cards (the order after a game cut short by turns)."""
    r = game.result
    if r is None:
        raise ValueError("the game is not over")
    return {"places": list(r.places), "winners": list(r.winners), "score": list(r.castle),
            "tiebreak": list(r.diamonds)}


def _ringrace_standing(game: Any) -> dict[str, list[int]]:
    """G-SCORE-1: places by dollars, then set rings; score is the dollars, tiebreak the set rings."""
    r = game.result
    if r is None:
        raise ValueError("the game is not over")
    return {"places": list(r.places), "winners": list(r.winners), "score": list(r.totals),
            "tiebreak": list(r.set_rings)}


GAMES: dict[str, GameType] = {
    "diamonds": GameType(
        name="diamonds", title="Diamonds", record_format=DIAMONDS_FORMAT, min_players=2, max_players=6,
        ruleset=DiamondsRuleset, game=DiamondsGame, view=DiamondsSeatView, decision=DiamondsDecision,
        to_record=diamonds_to_record, from_record=diamonds_from_record, replay=diamonds_replay,
        bots=DIAMONDS_BOTS, play_game=diamonds_play_game, standing=_diamonds_standing,
        score_label="score", tiebreak_label="vault", first_seat_keyword="first_dealer", legal_is_complete=False,
        codec=ChoiceCodec(DiamondsDecision, (("pass_count", INT), ("pass_cards", INTS), ("play", INT),
                                             ("clubs_target", INT))),
    ),
    "diamoniak": GameType(
        name="diamoniak", title="Diamoniak", record_format=diamoniak.FORMAT, min_players=2, max_players=4,
        ruleset=diamoniak.Ruleset, game=diamoniak.Game, view=diamoniak.SeatView, decision=diamoniak.Decision,
        to_record=diamoniak.to_record, from_record=diamoniak.from_record, replay=diamoniak.replay,
        bots=diamoniak.BOTS, play_game=diamoniak.play_game, standing=_diamoniak_standing,
        score_label="castle cards", tiebreak_label="diamond cards", first_seat_keyword="first_player",
        legal_is_complete=True,
        codec=ChoiceCodec(diamoniak.Decision, (("draw", NONE), ("stop", NONE), ("buy", INTS), ("pass", NONE),
                                               ("fairy", NONE), ("discard", INT))),
    ),
    "ringrace": GameType(
        name="ringrace", title="The ring-card diamond race", record_format=ringrace.FORMAT, min_players=2,
        max_players=6, ruleset=ringrace.Ruleset, game=ringrace.Game, view=ringrace.SeatView,
        decision=ringrace.Decision, to_record=ringrace.to_record, from_record=ringrace.from_record,
        replay=ringrace.replay, bots=ringrace.BOTS, play_game=ringrace.play_game, standing=_ringrace_standing,
        score_label="dollars", tiebreak_label="set rings", first_seat_keyword="first_player", legal_is_complete=True,
        codec=ChoiceCodec(ringrace.Decision, (("try", INT), ("steal", INTS))),
    ),
}

_BY_FORMAT = {t.record_format: t for t in GAMES.values()}


def game_type(name: str) -> GameType:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None


def type_of(game: Any) -> GameType:
    """The GameType of a game object (ValueError for anything else)."""
    for kind in GAMES.values():
        if isinstance(game, kind.game):
            return kind
    raise ValueError(f"{type(game).__name__} is not a game of engine.games")


def by_format(record_format: str | None) -> GameType:
    """The game whose records carry `record_format` (a Diamonds record may leave it out)."""
    if record_format is None:
        return GAMES["diamonds"]
    try:
        return _BY_FORMAT[record_format]
    except KeyError:
        raise ValueError(f"unknown record format {record_format!r}; known: {', '.join(_BY_FORMAT)}") from None


def make_bot(game: str, name: str, seed: str | int = 0, **settings) -> Bot:
    """A bot for `game` by name: `make_bot("ringrace", "heuristic", seed="x")`."""
    return game_type(game).make_bot(name, seed, **settings)


__all__ = ["GAMES", "GameType", "by_format", "game_type", "make_bot", "type_of"]
