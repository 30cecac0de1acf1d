"""The OpenAPI schema is kept in the repository (api/openapi.yaml), so that a change to the API's contract shows in
review as a change to that file: regenerated here, it must be the committed one byte for byte. An intended change is
committed by running the command the failure names."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
import yaml
from django.core.management import call_command

COMMITTED = Path(__file__).resolve().parents[2] / "api" / "openapi.yaml"
REFRESH = "python manage.py spectacular --file api/openapi.yaml"


def generate(tmp_path: Path, name: str) -> str:
    out = tmp_path / name
    call_command("spectacular", file=str(out), fail_on_warn=True)  # a warning is a part the schema got wrong
    return out.read_text()


def test_the_committed_schema_is_the_one_the_code_serves(tmp_path):
    fresh = generate(tmp_path, "openapi.yaml")
    committed = COMMITTED.read_text() if COMMITTED.exists() else ""
    if fresh != committed:
        diff = "".join(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                            "api/openapi.yaml (committed)", "generated from the code", n=2))
        pytest.fail(f"The API's schema differs from api/openapi.yaml. If the change is intended, run\n\n"
                    f"    {REFRESH}\n\nand commit the file; else the change below is a change to the API's "
                    f"contract:\n\n{diff[:20000]}")


def test_the_schema_is_generated_the_same_every_time(tmp_path):
    """Byte for byte (no set ordering, no timestamps), or the comparison above would fail at random."""
    assert generate(tmp_path, "a.yaml") == generate(tmp_path, "b.yaml")


def test_the_schema_is_versioned_with_the_api_and_served_under_it(client):
    schema = yaml.safe_load(COMMITTED.read_text())
    assert schema["info"]["version"].split(".")[0] == "1"  # /api/v1/
    assert all(path.startswith("/api/v1/") for path in schema["paths"])
    served = client.get("/api/v1/schema/?format=json")
    assert served.status_code == 200 and served.json()["paths"].keys() == schema["paths"].keys()
