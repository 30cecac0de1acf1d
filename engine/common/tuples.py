"""`new_tuple(cls, values)`: an instance of the tuple subclass `cls` (a NamedTuple) holding `values`, made without
calling `cls`'s own `__new__`. The referee logs a `Play` or an `Action` this way on every card and Suit Action.

This file is the reference, and what the pure-Python path runs; the compiled build (setup.py) compiles
`tuples.pyx` in its place, which allocates the instance and fills it in C. Both give equal instances of `cls`
(tests/engine/test_compiled.py records whole games on both paths).
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T", bound=tuple[Any, ...])


def new_tuple(cls: type[T], values: tuple[Any, ...]) -> T:
    """`cls(*values)` for a NamedTuple class `cls`, as `tuple.__new__` makes it."""
    return tuple.__new__(cls, values)
