"""The bot interface every game's bots share: a player that decides from its seat's view alone."""

from __future__ import annotations

import random
from typing import Any


class Bot:
    """A player that decides from its seat's view alone. Subclasses implement `decide`."""

    name = "bot"

    def __init__(self, seed: str | int = 0, **settings: Any):
        if settings:
            raise ValueError(f"{type(self).__name__} takes no settings {sorted(settings)}")
        self.rng = random.Random(seed)

    def decide(self, view: Any) -> Any:
        raise NotImplementedError
