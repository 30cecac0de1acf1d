"""The bot interface every game's bots share: a player that decides from its seat's view alone."""

from __future__ import annotations

from typing import Any

from ..fastrandom import new_random


class Bot:
    """A player that decides from its seat's view alone. Subclasses implement `decide`."""

    name = "bot"

    def __init__(self, seed: str | int = 0, **settings: Any):
        if settings:
            raise ValueError(f"{type(self).__name__} takes no settings {sorted(settings)}")
        self.rng = new_random(seed)  # random.Random(seed), seeded in C in the compiled build

    def decide(self, view: Any) -> Any:
        raise NotImplementedError
