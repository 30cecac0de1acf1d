"""Bots for games whose `legal(seat)` lists complete decisions (Diamoniak, the ring race): the random bot,
bots found by name, and the loop that lets bots play a game to its end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from ..fastrandom import below
from .bot import Bot
from .pending import Pending


class DecidedGame(Protocol):
    """What the play loop needs of a game: its seats, the decision it waits for, and the way to make one."""

    @property
    def n(self) -> int: ...
    @property
    def pending(self) -> Pending | None: ...
    def apply(self, seat: int, decision: Any) -> None: ...


PlayedGame = TypeVar("PlayedGame", bound=DecidedGame)


class RandomBot(Bot):
    """A uniformly random legal decision: the baseline."""

    name = "random"

    def decide(self, view: Any) -> Any:
        legal = view.legal
        return legal[below(self.rng, len(legal))]  # self.rng.randrange(len(legal))


def make_named_bot(bots: Mapping[str, type[Bot]], game_title: str, name: str, seed: str | int = 0,
                   settings: Mapping[str, Any] | None = None) -> Bot:
    """The bot `bots[name]` with `seed` and `settings`; ValueError naming `game_title` and the known bots."""
    try:
        cls = bots[name]
    except KeyError:
        raise ValueError(f"unknown {game_title} bot {name!r}; known bots: {', '.join(sorted(bots))}") from None
    return cls(seed=seed, **(settings or {}))


def play_until_over(game: PlayedGame, bots: Sequence[Bot], seat_view: Callable[[PlayedGame, int], Any]) -> PlayedGame:
    """Let `bots[seat]` make every pending decision, seeing `seat_view(game, seat)`, until the game is over."""
    views = [seat_view(game, s) for s in range(game.n)]
    deciders = [bot.decide for bot in bots]
    apply = game.apply  # bound once, not once a decision
    while (pending := game.pending) is not None:
        seat = pending.seats[0]
        apply(seat, deciders[seat](views[seat]))
    return game
