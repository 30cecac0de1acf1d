"""Which path the engine runs: its compiled modules (setup.py's optional Cython build) or their .py source.

Installed when `engine/__init__.py` imports it, before any other engine module is imported. Python prefers an extension
module to a .py file of the same name, so without this a compiled module would run even after its source was
edited. Here a compiled module is used only when

- `DIAMONDS_PURE_PYTHON` is unset, empty or "0" (any other value runs every engine module from its .py), and
- the build completed (it wrote `_compiled_sources.json`), and
- every compiled module's source (its .py, or the .pyx compiled in its place: fastrandom, common/instances) still
  has the SHA-256 the build recorded in `_compiled_sources.json`. When one was edited since, the whole engine runs
  as Python (the compiled modules share their types: game.pxd), with one warning naming the edited modules;
  `pip install -e .` again recompiles them.

Both paths run the same source (but for the two .pyx modules, whose .py is their reference), so they decide and
record exactly alike (tests/engine/test_compiled.py).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
PURE_PYTHON = os.environ.get("DIAMONDS_PURE_PYTHON", "") not in ("", "0")
REASON = "DIAMONDS_PURE_PYTHON set" if PURE_PYTHON else "no compiled modules"  # why pure Python, if it is


def recorded_sources() -> dict[str, str] | None:
    """What the last compiled build recorded (module: SHA-256 of its source), None if nothing was compiled."""
    try:
        recorded: dict[str, str] = json.loads((PACKAGE_DIR / "_compiled_sources.json").read_text())
    except (OSError, ValueError):
        return None
    return recorded


def stale_modules() -> list[str]:
    """The compiled modules whose .py source changed since they were built (none if nothing was compiled)."""
    recorded = recorded_sources() or {}
    stale = []
    for name in recorded:
        source = PACKAGE_DIR.joinpath(*name.split(".")[1:]).with_suffix(".pyx")
        if not source.is_file():  # compiled from the .py itself (the usual case), not from a .pyx of its own
            source = source.with_suffix(".py")
        try:
            if hashlib.sha256(source.read_bytes()).hexdigest() != recorded[name]:
                stale.append(name)
        except OSError:
            stale.append(name)
    return stale


class SourceFirst:
    """A finder for engine modules that must run from their .py file although a compiled one sits beside it."""

    def __init__(self, names: frozenset[str] | None = None):
        self.names = names  # None: every engine module

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not fullname.startswith("engine.") or (self.names is not None and fullname not in self.names):
            return None
        relative = fullname.split(".")[1:]
        package_init = PACKAGE_DIR.joinpath(*relative, "__init__.py")
        if package_init.is_file():
            return importlib.util.spec_from_file_location(fullname, package_init,
                                                          submodule_search_locations=[str(package_init.parent)])
        source = PACKAGE_DIR.joinpath(*relative).with_suffix(".py")
        if source.is_file():
            return importlib.util.spec_from_file_location(
                fullname, source, loader=importlib.machinery.SourceFileLoader(fullname, str(source)))
        return None


def install() -> None:
    global REASON
    if any(isinstance(f, SourceFirst) for f in sys.meta_path):
        return
    if PURE_PYTHON:
        sys.meta_path.insert(0, SourceFirst(None))
        return
    if recorded_sources() is None:
        # Nothing recorded: any extension module lying in the package is not from a build that completed.
        REASON = "not compiled"
        sys.meta_path.insert(0, SourceFirst(None))
        return
    stale = stale_modules()
    if stale:
        REASON = f"{', '.join(sorted(stale))} changed since compiled"
        warnings.warn(f"engine: {REASON}: the whole engine runs as Python (`pip install -e .` recompiles)",
                      RuntimeWarning, stacklevel=3)
        sys.meta_path.insert(0, SourceFirst(None))


def compiled_modules() -> list[str]:
    """The engine modules imported so far that run compiled (empty on the pure-Python path)."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith("engine.") and _loaded_compiled(module))


def _loaded_compiled(module: ModuleType) -> bool:
    """Whether a module came from an extension module rather than its .py (or the .pyc cached from it)."""
    file = getattr(module, "__file__", None)
    return isinstance(file, str) and file != "" and not file.endswith((".py", ".pyc"))


def describe() -> str:
    """One line for benchmarks: which path ran."""
    compiled = compiled_modules()
    if compiled:
        return "engine: compiled (Cython: " + ", ".join(n.removeprefix("engine.") for n in compiled) + ")"
    return f"engine: pure Python ({REASON})"


install()
