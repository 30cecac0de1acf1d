"""Instances of the engine's small immutable classes, made without their Python-level constructors.

The referee logs a `Play` or an `Action` (NamedTuples) on every card and Suit Action, and a `Decision` (a frozen
dataclass with slots) is made on every pass of cards: `new_tuple(cls, values)` is `cls(*values)` for a NamedTuple
`cls`, as `tuple.__new__` makes it, and `new_slots(cls, values)` is `cls(*values)` for a frozen dataclass with
slots, as its `__init__` makes it (each field set in order with `object.__setattr__`).

This file is the reference, and what the pure-Python path runs; the compiled build (setup.py) compiles
`instances.pyx` in its place, which allocates and fills the instances in C. Both give equal instances
(tests/engine/test_compiled.py records whole games on both paths; tests/engine/test_native.py compares them).
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T", bound=tuple[Any, ...])
S = TypeVar("S")


def new_tuple(cls: type[T], values: tuple[Any, ...]) -> T:
    """`cls(*values)` for a NamedTuple class `cls`, as `tuple.__new__` makes it."""
    return tuple.__new__(cls, values)


def new_slots(cls: type[S], values: tuple[Any, ...]) -> S:
    """`cls(*values)` for a frozen dataclass with slots whose fields are its `__slots__` in order (and that has
    no `__post_init__`), as its generated `__init__` makes it."""
    made = object.__new__(cls)
    for name, value in zip(cls.__slots__, values, strict=True):  # type: ignore[attr-defined]
        object.__setattr__(made, name, value)
    return made
