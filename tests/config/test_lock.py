"""The hashed lock files (requirements/, written by requirements/lock.sh) must not drift from pyproject.toml: every
dependency declared there is pinned, at a version its range allows, with hashes, and the build requirements are
locked too (requirements/build.in repeats pyproject.toml's [build-system] requires)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def pins(lock: str) -> dict[str, tuple[str, int]]:
    """Each pinned package of a lock file: its version and how many hashes it carries."""
    text = (ROOT / "requirements" / lock).read_text(encoding="utf-8")
    found = {}
    for block in re.split(r"\n(?=\S)", text):
        head = re.match(r"([A-Za-z0-9._-]+)(?:\[[^\]]*\])?==(\S+)", block)
        if head:
            found[canonicalize_name(head.group(1))] = (head.group(2), block.count("--hash=sha256:"))
    return found


def build_requirements() -> list[Requirement]:
    lines = (ROOT / "requirements" / "build.in").read_text(encoding="utf-8").splitlines()
    return [Requirement(line) for line in lines if line.strip() and not line.startswith("#")]


def test_build_in_repeats_the_build_system_requirements():
    declared = sorted(str(Requirement(r)) for r in PYPROJECT["build-system"]["requires"])
    assert sorted(str(r) for r in build_requirements()) == declared


@pytest.mark.parametrize("lock, extras", [("lock.txt", []), ("dev-lock.txt", ["dev"])])
def test_every_declared_dependency_is_pinned_within_its_range_with_hashes(lock, extras):
    declared = [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]
    for extra in extras:
        declared += [Requirement(r) for r in PYPROJECT["project"]["optional-dependencies"][extra]]
    declared += build_requirements()
    pinned = pins(lock)
    assert pinned, f"requirements/{lock} pins nothing"
    problems = []
    for requirement in declared:
        if requirement.marker is not None and not requirement.marker.evaluate({"sys_platform": "linux"}):
            continue
        name = canonicalize_name(requirement.name)
        if name not in pinned:
            problems.append(f"{requirement} is not pinned")
            continue
        version, hashes = pinned[name]
        if not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{name}=={version} is outside {requirement.specifier}")
    problems += [f"{name} has no hash" for name, (_, hashes) in pinned.items() if hashes == 0]
    assert problems == [], "run `sh requirements/lock.sh` after changing pyproject.toml: " + "; ".join(problems)


def test_the_dev_lock_holds_the_runtime_lock_at_the_same_versions():
    runtime, dev = pins("lock.txt"), pins("dev-lock.txt")
    assert {name: version for name, (version, _) in runtime.items()} == {
        name: dev[name][0] for name in runtime if name in dev}
    assert set(runtime) <= set(dev)
