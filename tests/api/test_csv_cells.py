"""CSV exports write booleans as `true`/`false` (as the JSON does), not Python's True/False."""

from __future__ import annotations

import csv
import io

from api.renderers import CSVRenderer


def test_booleans_are_lower_case_and_everything_else_is_unchanged():
    rows = [{"name": "ann", "shared": True, "forfeited": False, "points": 3, "seats": [0, 2], "flags": [True, False],
             "note": None}]
    text = CSVRenderer().render(rows).decode()
    (row,) = csv.DictReader(io.StringIO(text))
    assert row == {"name": "ann", "shared": "true", "forfeited": "false", "points": "3", "seats": "0 2",
                   "flags": "true false", "note": ""}
    assert "True" not in text and "False" not in text
