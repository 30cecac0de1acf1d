"""Every rule id of RULES.md is named by at least one engine test (in its name or its docstring)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from .support import rule_ids

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
