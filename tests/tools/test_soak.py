"""`python -m tools.soak`, short: the embedded server with the demo's ladder and its beat, and a few API writers,
answers no 5xx and no "database is locked" (issue 27). The full soak (20 writers, a minute) is the tool's default."""

from __future__ import annotations

import os

import pytest

from tools.soak import soak


# The soak makes its own embedded server (SQLite, tasks in-process) whatever the tests are given: CI's pass with
# nothing configured runs it, and the PostgreSQL pass would only run the same soak again.
@pytest.mark.skipif(bool(os.environ.get("DATABASE_URL")), reason="the soak is of the embedded default, which runs "
                    "whatever DATABASE_URL says; the pass with nothing configured runs it")
@pytest.mark.slow  # 20 to 35 s: the demo's set-up (migrations, a short tournament) takes half of it
def test_a_short_soak_of_the_embedded_default_answers_no_5xx_and_no_lock_error():
    figures = soak(writers=5, seconds=10)
    assert figures["requests"] > 50, figures
    assert figures["server_errors"] == 0, figures["failures"]
    assert figures["locked_in_answers"] == figures["locked_in_server_log"] == 0
