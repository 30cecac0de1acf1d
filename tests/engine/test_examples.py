"""The example records of docs/spec/examples: replaying each NAME.choices.json must agree with NAME.json on
every field NAME.json has (docs/spec/examples/README.md). Nothing is skipped: missing examples fail."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import from_record, replay, to_record
from engine.common.records import differences

from .support import example_names, examples_dir, load, spec_dir

EXPECTED = ["2p", "2p-perfect", "3p-thief", "4p-partners", "4p-perfect", "4p-thief", "5p-choose", "6p-partners",
            "6p-thief"]


def test_the_example_records_are_all_there():
    assert (spec_dir() / "RULES.md").is_file()
    assert example_names() == EXPECTED


@pytest.mark.parametrize("name", example_names())
def test_example_choices_replay_to_the_full_record(name):
    choices, full = load(name)
    game, derived, disagreements = replay(choices)
    assert disagreements == []
    assert differences(full, derived) == []
    assert game.over
    assert derived["result"] == full["result"]
    # the derived record itself replays to itself
    assert to_record(from_record(json.loads(json.dumps(derived)))) == derived


@pytest.mark.parametrize("name", example_names())
def test_example_full_record_replays_without_disagreement(name):
    _, full = load(name)
    _, derived, disagreements = replay(full)
    assert disagreements == []
    assert differences(full, derived) == []


@pytest.mark.parametrize("name", example_names())
def test_example_covers_its_variant(name):
    """The name says the variant; the ruleset must be that variant (so every variant is exercised)."""
    choices, _ = load(name)
    ruleset = choices["ruleset"]
    players = int(name[0])
    assert ruleset["players"] == players
    assert ruleset["partnerships"] == ("partners" in name)
    assert ruleset["perfect"] == ("perfect" in name)
    if "thief" in name:
        assert ruleset["clubs"] == "thief"
    if "choose" in name or "partners" in name or players == 2:
        assert ruleset["clubs"] == "choose"
    assert Path(examples_dir() / f"{name}.json").is_file()
