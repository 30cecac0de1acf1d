"""CSV for tables (standings): chosen with `?format=csv` or `Accept: text/csv`."""

from __future__ import annotations

import csv
import io

from rest_framework.renderers import BaseRenderer


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
    if isinstance(value, list | tuple):
        value = " ".join(str(v) for v in value)
    if isinstance(value, str):
        return neutralise(value)
    return value
