"""The optional compiled build of the engine's hot modules (Cython); everything else is in pyproject.toml.

`pip install -e .` (or a wheel build) compiles the modules of `COMPILED` with Cython, untouched Python source
in Cython's pure-Python mode, into extension modules next to their .py files. Compiling is an optimisation,
never a requirement: when Cython or a C compiler is missing, or a module fails to compile, the build warns and
the install goes on, and the engine runs the .py modules. `engine/__init__.py` chooses at import time which
path runs (`DIAMONDS_PURE_PYTHON=1` forces the .py modules; a compiled module whose source changed since it
was built is ignored in favour of its source), by the source hashes this build writes to
`engine/_compiled_sources.json`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent

# The modules a game of random or search bots spends its time in (python -m engine.bench). Any module of the
# engine can be added: Cython compiles ordinary Python, and the pure-Python path stays the same source.
COMPILED = [
    "engine/diamonds/cards.py",
    "engine/fastrandom.py",
    "engine/common/pending.py",
    "engine/diamonds/game.py",
    "engine/diamonds/view.py",
    "engine/diamonds/record.py",
    "engine/common/seat_view.py",
    "engine/common/bot.py",
    "engine/diamonds/bots/play.py",
    "engine/diamonds/bots/random_bot.py",
    "engine/diamonds/bots/greedy.py",
    "engine/diamonds/bots/knowledge.py",
    "engine/diamonds/bots/search.py",
    # Diamoniak and the ring race, as the league's bot workers play them (python -m engine.bench --game ...), and
    # the codec that stores every game's choices.
    "engine/common/referee.py",
    "engine/common/decision_bots.py",
    "engine/common/compact.py",
    "engine/diamoniak/rules.py",
    "engine/diamoniak/game.py",
    "engine/diamoniak/view.py",
    "engine/diamoniak/bots.py",
    "engine/ringrace/rules.py",
    "engine/ringrace/game.py",
    "engine/ringrace/view.py",
    "engine/ringrace/bots.py",
]
MANIFEST = "engine/_compiled_sources.json"


def _warn(message: str) -> None:
    print(f"\nWARNING: diamonds-league engine: {message}; the engine runs as pure Python.\n", file=sys.stderr)


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing, and records which sources the built modules came from."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:  # the modules compile independently: one per core (pip passes no -j)
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        self.failed: list[str] = []
        try:
            super().run()
        except Exception as error:  # no compiler at all, for instance
            _warn(f"the compiled build failed ({error})")
            self.failed.append("the build")
        if self.failed:
            # All or nothing: the compiled modules share their types (game.pxd), so a compiled view needs a
            # compiled game. Nothing is recorded, and engine/_loader.py then runs every module from its .py.
            for ext in self.extensions:
                Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            _warn("no engine module was compiled, as " + ", ".join(self.failed) + " failed")
            manifest = Path(self.get_ext_fullpath("engine.x")).parent / Path(MANIFEST).name
            manifest.unlink(missing_ok=True)
            return
        self._write_manifest()

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            _warn(f"{ext.name} was not compiled ({error})")
            self.failed.append(ext.name)

    def _write_manifest(self) -> None:
        built = {}
        root = None
        for ext in self.extensions:
            out = Path(self.get_ext_fullpath(ext.name))
            if out.is_file():
                built[ext.name] = source_hash(HERE / ext.sources[0].replace(".c", ".py"))
                root = out.parents[len(ext.name.split(".")) - 1]
        if root is not None:
            (root / MANIFEST).write_text(json.dumps(built, indent=1, sort_keys=True) + "\n")


def _extensions() -> list:
    if os.environ.get("DIAMONDS_PURE_PYTHON", "") not in ("", "0"):
        # An earlier build's modules may lie in the tree (editable installs build in place): without its record
        # engine/_loader.py ignores them, so this install runs pure Python as asked, at run time too.
        (HERE / MANIFEST).unlink(missing_ok=True)
        print("DIAMONDS_PURE_PYTHON is set: the engine is not compiled", file=sys.stderr)
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        _warn("Cython is not installed, so nothing was compiled")
        return []
    try:
        return cythonize(
            [str(p) for p in COMPILED],
            compiler_directives={
                "language_level": 3,
                # Annotations document the API; they must not turn into C-level type checks that would change
                # what a wrong argument raises (the rules' IllegalDecision, not a TypeError).
                "annotation_typing": False,
                "binding": True,  # functions introspect and pickle as Python functions do
                "embedsignature": True,
            },
            quiet=True,
        )
    except Exception as error:
        _warn(f"Cython could not translate the engine ({error})")
        return []


os.chdir(HERE)  # cythonize takes paths relative to the project
setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
