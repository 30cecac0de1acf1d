"""CSV for tables (standings): chosen with `?format=csv` or `Accept: text/csv`."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response


class TableResponse(Response):
    """A table's rows, with the columns an empty table's CSV still names in its header row."""

    def __init__(self, rows: list[dict], *, csv_columns: Sequence[str], **kwargs):
        super().__init__(rows, **kwargs)
        self.csv_columns = csv_columns


class CSVRenderer(BaseRenderer):
    """Renders a list of flat objects (or `{"results": [...]}`) as CSV with a header row; nested values as JSON."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None) -> bytes:
        if isinstance(data, dict) and "results" in data:
            data = data["results"]
        if isinstance(data, dict):  # an error: one row of its fields
            data = [data]
        rows = list(data or [])
        if not rows:  # an empty table is still its header row: a body that says what it would hold, as text/csv
            columns = getattr((renderer_context or {}).get("response"), "csv_columns", ())
            return "".join(f"{','.join(columns)}\r\n" if columns else "").encode(self.charset)
        out = io.StringIO()
        if rows:
            fields = list(rows[0].keys())
            writer = csv.DictWriter(out, fieldnames=[neutralise(str(f)) for f in fields], extrasaction="ignore",
                                    lineterminator="\r\n")  # RFC 4180; a cell holding either is then quoted
            writer.writeheader()
            for row in rows:
                writer.writerow({neutralise(str(k)): _cell(v) for k, v in row.items()})
        return out.getvalue().encode(self.charset)


# A spreadsheet runs a cell that starts with one of these as a formula (=HYPERLINK(...), +cmd|...): OWASP's CSV
# injection advice is to make such a text cell plain text with a leading apostrophe. Numbers are written as numbers.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


def neutralise(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _cell(value):
    # Booleans as JSON spells them (Python's str would write True/False, which spreadsheets and most CSV readers
    # other than Python's take for text).
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        value = " ".join(str(_cell(v)) for v in value)
    if isinstance(value, str):
        return neutralise(value)
    return value
