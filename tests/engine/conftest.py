"""Engine test configuration: hypothesis profiles for the property tests (tests/engine/test_properties.py).

Choose one with the environment variable HYPOTHESIS_PROFILE (nothing is loaded globally, so other test
folders keep their own settings):
- "engine-default" (when unset): 100 examples per property, about 2,000 random games in all, some seconds;
- "ci": the same, derandomized, so that a CI failure reproduces exactly;
- "thorough": 2,500 examples per property, about 50,000 random games (several minutes), for a nightly run.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

_common = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow], "print_blob": True}
settings.register_profile("engine-default", max_examples=100, **_common)
settings.register_profile("ci", max_examples=100, derandomize=True, **_common)
settings.register_profile("thorough", max_examples=2500, **_common)
