"""Fixtures shared by the league tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """Run what is sent after commit (the eager tasks) as the test's transaction would, callbacks of callbacks too."""
    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)
    return run
