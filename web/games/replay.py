"""A finished game's replay, shown one window of steps at a time, the same way for every game.

A presenter's replay (`GamePresenter.replay_steps`) walks the whole record through the engine and yields, for each
step, a function that draws that step's frame: a function that is only valid while the walk stands at its step
(the engine's game moves on when the walk resumes). The window draws the frames of its own steps and only counts
the others, so a long game's page costs its window's frames, not the whole game's (drawing and rendering every
frame of a 200-turn game made a page of 600 KB).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

# Steps on one page: a few dozen KB and milliseconds to draw, and a reader stepping through loads a page only every
# 20 steps.
REPLAY_WINDOW = 20

# A finished record -> one frame-drawing function per step of the game, in order
ReplaySteps = Callable[[dict[str, Any]], Iterator[Callable[[], Any]]]


@dataclass(frozen=True)
class ReplayWindow:
    frames: list[Any]  # the window's frames, in order
    start: int  # how many steps come before the window
    total: int  # the steps of the whole game
    shown: int  # the step (1-based, in the window) the page shows first

    @property
    def first_step(self) -> int:
        return self.start + 1

    @property
    def last_step(self) -> int:
        return self.start + len(self.frames)

    @property
    def previous_step(self) -> int | None:
        """The previous window's last step: where a reader stepping back from this window's first step lands."""
        return self.start or None

    @property
    def next_step(self) -> int | None:
        """The next window's first step."""
        return self.last_step + 1 if self.last_step < self.total else None


def window_of(steps: ReplaySteps, record: dict[str, Any], step: int) -> ReplayWindow:
    """The window holding `step` (1-based; below 1 is the first step, past the end the last)."""
    step = max(step, 1)
    start = (step - 1) // REPLAY_WINDOW * REPLAY_WINDOW
    frames: list[Any] = []
    total = 0
    for total, draw in enumerate(steps(record), 1):
        if start < total <= start + REPLAY_WINDOW:
            frames.append(draw())
    if not frames and total:  # past the end: walk again for the last window, now that the end is known
        return window_of(steps, record, total)
    return ReplayWindow(frames, start, total, min(step, total))


def every_frame(steps: ReplaySteps, record: dict[str, Any]) -> list[Any]:
    """The whole replay at once, every step drawn."""
    return [draw() for draw in steps(record)]
