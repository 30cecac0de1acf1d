"""The engine's games by name: "diamonds", "diamoniak", "ringrace". The one place the league looks a game up.

Each game is a folder of the engine (engine/diamonds/, engine/diamoniak/, engine/ringrace/) that provides one
`GameType` (engine.common.game_type) as its `GAME_TYPE`; adding a game is adding its folder and its line in
`GAME_TYPES` below.

    from engine.games import game_type, by_format
    kind = game_type("diamoniak")
    game = kind.new_game({"players": 3}, seed="night/1", seats=["ann", "bob", "cy"])
    bots = [kind.make_bot("heuristic", seed=f"night/1/{s}") for s in range(3)]
    kind.play_game(game, bots)
    record = kind.to_record(game)
    game2, derived, disagreements = by_format(record["format"]).replay(record)

`new_game(..., first_seat=s)` seats the first to act (Diamonds' first dealer, the newer games' first player;
`first_seat_of(game)` reads it back). `type_of(game)` finds the GameType of a game object. One difference stays
visible: Diamonds' `legal(seat)` lists the options of the pending kind (cards, counts, seats), the newer games
list complete `Decision`s; `standing(game)` gives all three games' results in one shape.
"""

from __future__ import annotations

from typing import Any

from .common.bot import Bot
from .common.game_type import FALLBACK_BOTS, GameType
from .diamonds.game_type import GAME_TYPE as DIAMONDS
from .diamoniak.game_type import GAME_TYPE as DIAMONIAK
from .ringrace.game_type import GAME_TYPE as RINGRACE

GAME_TYPES: tuple[GameType, ...] = (DIAMONDS, DIAMONIAK, RINGRACE)

GAMES: dict[str, GameType] = {t.name: t for t in GAME_TYPES}

_BY_FORMAT = {t.record_format: t for t in GAME_TYPES}


def game_type(name: str) -> GameType:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; known games: {', '.join(GAMES)}") from None


def type_of(game: Any) -> GameType:
    """The GameType of a game object (ValueError for anything else)."""
    for kind in GAME_TYPES:
        if isinstance(game, kind.game):
            return kind
    raise ValueError(f"{type(game).__name__} is not a game of engine.games")


def by_format(record_format: str | None) -> GameType:
    """The game whose records carry `record_format` (a Diamonds record may leave it out)."""
    if record_format is None:
        return DIAMONDS
    try:
        return _BY_FORMAT[record_format]
    except KeyError:
        raise ValueError(f"unknown record format {record_format!r}; known: {', '.join(_BY_FORMAT)}") from None


def make_bot(game: str, name: str, seed: str | int = 0, **settings: Any) -> Bot:
    """A bot for `game` by name: `make_bot("ringrace", "heuristic", seed="x")`."""
    return game_type(game).make_bot(name, seed, **settings)


def refusal_of(rule: str) -> str | None:
    """The English sentence (marked for translation) saying what rule `rule` asks, None for a rule no game
    explains. The rule id's prefix names its game."""
    for kind in GAME_TYPES:
        if rule.startswith(kind.rule_prefix):
            return kind.refusals.get(rule)
    return None


__all__ = ["FALLBACK_BOTS", "GAMES", "GAME_TYPES", "GameType", "by_format", "game_type", "make_bot", "refusal_of",
           "type_of"]
