"""Engine test configuration: hypothesis profiles and the rule ids of RULES.md.

Profiles (select with the environment variable HYPOTHESIS_PROFILE):
- "default": the quick run, still well over a thousand random games across every variant;
- "thorough": ten thousands of games, for a nightly or pre-release run;
- "ci": like default, but derandomized so a CI failure reproduces.
"""

from __future__ import annotations

import os
import re

from hypothesis import HealthCheck, settings

from .support import find_shared

_common = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("default", max_examples=100, **_common)
settings.register_profile("ci", max_examples=100, derandomize=True, **_common)
settings.register_profile("thorough", max_examples=2500, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

RULES_MD = find_shared() / "spec" / "RULES.md"
RULE_IDS = frozenset(re.findall(r"R-[A-Z]+-[0-9A-Z]+", RULES_MD.read_text(encoding="utf-8")))
