"""Every rule id of RULES.md is named by at least one engine test (in its name or its docstring)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from .support import rule_ids, spec_dir

HERE = Path(__file__).resolve().parent


def named_rules() -> dict[str, list[str]]:
    """rule id -> the tests that name it."""
    found: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                from_name = {m.replace("_", "-") for m in re.findall(r"R_[A-Z]+_[0-9A-Z]+", node.name)}
                from_doc = set(re.findall(r"R-[A-Z]+-[0-9A-Z]+", ast.get_docstring(node) or ""))
                for rule in from_name | from_doc:
                    found.setdefault(rule, []).append(f"{path.name}::{node.name}")
    return found


def test_every_rule_id_is_named_by_a_test():
    named = named_rules()
    missing = sorted(rule_ids() - set(named))
    assert not missing, f"no test names {missing}"


def test_tests_name_only_rules_that_exist():
    unknown = sorted(set(named_rules()) - rule_ids())
    assert not unknown, f"tests name rule ids that RULES.md does not have: {unknown}"


OTHER_GAMES_ID = r"(?<![A-Za-z])[KG]-[A-Z]+-[0-9A-Z]+"  # K- Diamoniak, G- the ring race (OTHER-GAMES.md)


def other_game_rule_ids() -> frozenset[str]:
    text = (spec_dir() / "OTHER-GAMES.md").read_text(encoding="utf-8")
    return frozenset(re.findall(OTHER_GAMES_ID, text))


def named_other_game_rules() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                in_name = re.findall(r"(?<![A-Za-z])[KG]_[A-Z]+_[0-9A-Z]+", node.name)
                from_name = {m.replace("_", "-") for m in in_name}
                from_doc = set(re.findall(OTHER_GAMES_ID, ast.get_docstring(node) or ""))
                for rule in from_name | from_doc:
                    found.setdefault(rule, []).append(f"{path.name}::{node.name}")
    return found


def test_every_other_game_rule_id_is_named_by_a_test():
    ids = other_game_rule_ids()
    assert {i[0] for i in ids} == {"K", "G"} and len(ids) >= 14
    missing = sorted(ids - set(named_other_game_rules()))
    assert not missing, f"no test names {missing}"


def test_tests_name_only_other_game_rules_that_exist():
    unknown = sorted(set(named_other_game_rules()) - other_game_rule_ids())
    assert not unknown, f"tests name rule ids that OTHER-GAMES.md does not have: {unknown}"
