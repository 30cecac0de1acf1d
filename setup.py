"""The optional compiled build of the engine's hot modules (Cython); everything else is in pyproject.toml.

`pip install -e .` (or a wheel build) compiles the modules of `COMPILED` with Cython, untouched Python source
in Cython's pure-Python mode (typed by the .pxd beside each), into extension modules next to their .py files. Two
small modules are written twice instead: `engine/fastrandom.pyx` (the standard library's Mersenne Twister draws
and seeding in C) and `engine/common/instances.pyx` (log entries and decisions allocated in C) are compiled in
place of their .py, which stay the reference and the pure-Python path (tests/engine/test_fastrandom.py and
test_compiled.py check that they agree). Compiling is an optimisation,
never a requirement: when Cython or a C compiler is missing, or a module fails to compile, the build warns and
the install goes on, and the engine runs the .py modules. `engine/__init__.py` chooses at import time which
path runs (`DIAMONDS_PURE_PYTHON=1` forces the .py modules; a compiled module whose source changed since it
was built is ignored in favour of its source), by the source hashes this build writes to
`engine/_compiled_sources.json`.

Compiling takes most of an install's time (about a minute and a half of two cores), so a finished build is kept in a
cache (`$XDG_CACHE_HOME/diamonds-league/compiled-engine`, or `DIAMONDS_BUILD_CACHE`; `DIAMONDS_BUILD_CACHE=off`
turns it off), under a key made of every compiled source, every .pxd, Cython's version, the compiler directives
and the Python and platform the modules are for. An install whose key is there copies the modules instead of
compiling them: reinstalling, a fresh clone on the same machine, or CI run again, build nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup

try:
    import Cython
    from Cython.Build import cythonize
except ImportError:  # the build warns and the engine runs as pure Python (_extensions)
    Cython = None
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
CACHE: Path | None = None  # set by _extensions once Cython is found

# The modules a game of random or search bots spends its time in (python -m tools.bench.engine). Any module of the
# engine can be added: Cython compiles ordinary Python, and the pure-Python path stays the same source.
COMPILED = [
    "engine/diamonds/cards.py",
    "engine/fastrandom.pyx",  # the C draws; fastrandom.py is their reference and the pure-Python path
    "engine/common/pending.py",
    "engine/common/instances.pyx",  # log entries and decisions made in C; instances.py is their reference
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
    # Diamoniak and the ring race, as the league's bot workers play them (python -m tools.bench.engine --game
    # ...), and the codec that stores every game's choices.
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
DIRECTIVES = {
    "language_level": 3,
    # Annotations document the API; they must not turn into C-level type checks that would change what a wrong
    # argument raises (the rules' IllegalDecision, not a TypeError).
    "annotation_typing": False,
    "binding": True,  # functions introspect and pickle as Python functions do
    "embedsignature": True,
}
# No debug information: the modules are never stepped through in a C debugger, and leaving it out takes about a
# quarter off the compiler's time (gcc -O3 -g0 against Python's default -g).
COMPILE_ARGS = [] if sys.platform == "win32" else ["-g0"]
CACHE_ENTRIES_KEPT = 4  # builds of other sources (other branches, older versions) that stay in the cache


def _warn(message: str) -> None:
    print(f"\nWARNING: diamonds-league engine: {message}; the engine runs as pure Python.\n", file=sys.stderr)


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def module_name(source: str) -> str:
    return source.removesuffix(".pyx").removesuffix(".py").replace("/", ".")


def build_cache() -> Path | None:
    """The folder of this build's cached modules (it may not exist yet), or None when caching is off."""
    setting = os.environ.get("DIAMONDS_BUILD_CACHE", "")
    if setting.lower() in ("off", "0", "no"):
        return None
    root = Path(setting) if setting else Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "diamonds-league" / "compiled-engine"
    key = hashlib.sha256()
    for part in (Cython.__version__, json.dumps(DIRECTIVES, sort_keys=True), " ".join(COMPILE_ARGS), sys.version,
                 sysconfig.get_platform(), sysconfig.get_config_var("EXT_SUFFIX") or ""):
        key.update(part.encode() + b"\0")
    for path in sorted({*COMPILED, *(str(p.relative_to(HERE)) for p in (HERE / "engine").rglob("*.pxd"))}):
        key.update(path.encode() + b"\0" + (HERE / path).read_bytes() + b"\0")
    return root / key.hexdigest()[:32]


def cached_modules(cache: Path | None) -> bool:
    """Whether `cache` holds a whole build of COMPILED."""
    return cache is not None and all((cache / module_name(source)).is_file() for source in COMPILED)


def keep_newest(root: Path) -> None:
    """Drop all but the newest CACHE_ENTRIES_KEPT builds from the cache."""
    entries = sorted((p for p in root.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in entries[CACHE_ENTRIES_KEPT:]:
        shutil.rmtree(old, ignore_errors=True)


class OptionalBuildExt(build_ext):
    """build_ext that warns instead of failing, and records which sources the built modules came from."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:  # the modules compile independently: one per core (pip passes no -j)
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        self.failed: list[str] = []
        if CACHE is not None and cached_modules(CACHE):
            for ext in self.extensions:
                target = Path(self.get_ext_fullpath(ext.name))
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(CACHE / ext.name, target)
            os.utime(CACHE)  # recently used: kept by keep_newest
            print(f"diamonds-league engine: {len(self.extensions)} compiled modules taken from {CACHE}",
                  file=sys.stderr)
            self._write_manifest()
            return
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
        self._store_in_cache()

    def _store_in_cache(self) -> None:
        if CACHE is None:
            return
        partial = CACHE.with_name(CACHE.name + f".{os.getpid()}")
        try:
            partial.mkdir(parents=True, exist_ok=True)
            for ext in self.extensions:
                shutil.copyfile(self.get_ext_fullpath(ext.name), partial / ext.name)
            partial.rename(CACHE)  # whole or not at all: a build killed half-way leaves no entry to trust
            keep_newest(CACHE.parent)
        except OSError as error:  # a read-only home, another install that stored the same build first
            shutil.rmtree(partial, ignore_errors=True)
            print(f"diamonds-league engine: the compiled modules were not cached ({error})", file=sys.stderr)

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            _warn(f"{ext.name} was not compiled ({error})")
            self.failed.append(ext.name)

    def _write_manifest(self) -> None:
        built = {}
        root = None
        sources = {module_name(source): source for source in COMPILED}
        for ext in self.extensions:
            out = Path(self.get_ext_fullpath(ext.name))
            if out.is_file():
                built[ext.name] = source_hash(HERE / sources[ext.name])  # the .py, or the .pyx compiled in its place
                root = out.parents[len(ext.name.split(".")) - 1]
        if root is not None:
            (root / MANIFEST).write_text(json.dumps(built, indent=1, sort_keys=True) + "\n")


def _extensions() -> list:
    global CACHE
    if os.environ.get("DIAMONDS_PURE_PYTHON", "") not in ("", "0"):
        # An earlier build's modules may lie in the tree (editable installs build in place): without its record
        # engine/_loader.py ignores them, so this install runs pure Python as asked, at run time too.
        (HERE / MANIFEST).unlink(missing_ok=True)
        print("DIAMONDS_PURE_PYTHON is set: the engine is not compiled", file=sys.stderr)
        return []
    if Cython is None:
        _warn("Cython is not installed, so nothing was compiled")
        return []
    CACHE = build_cache()
    if cached_modules(CACHE):
        # Translating to C is half the work: with the modules cached, the extensions are named and never built.
        return [Extension(module_name(source), [source.rsplit(".", 1)[0] + ".c"]) for source in COMPILED]
    try:
        extensions = cythonize([str(p) for p in COMPILED], compiler_directives=DIRECTIVES, quiet=True)
    except Exception as error:
        _warn(f"Cython could not translate the engine ({error})")
        return []
    for extension in extensions:
        extension.extra_compile_args = COMPILE_ARGS
    return extensions


os.chdir(HERE)  # cythonize takes paths relative to the project
setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
