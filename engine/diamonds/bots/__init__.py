"""Bots: each sees only its seat's `SeatView` and returns a legal `Decision`.

`make_bot("greedy", seed=...)` builds one by name; `BOTS` lists the names the league and CLI accept.
"""

from __future__ import annotations

from typing import Any

from ...common.bot import Bot
from .greedy import GreedyBot
from .play import play_game
from .random_bot import RandomBot
from .search import SearchBot

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}


def make_bot(name: str, seed: str | int = 0, **settings: Any) -> Bot:
    try:
        cls = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}") from None
    return cls(seed=seed, **settings)


__all__ = ["BOTS", "Bot", "GreedyBot", "RandomBot", "SearchBot", "make_bot", "play_game"]
