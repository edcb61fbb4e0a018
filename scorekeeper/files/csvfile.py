"""CSV downloads that open cleanly in a spreadsheet."""
from __future__ import annotations

import csv
import io
from typing import Iterable, Sequence

from flask import Response, make_response


def spreadsheet_safe(text: str) -> str:
    """A name a spreadsheet won't run as a formula ("=1+1" is shown, not worked out)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_download(header: Sequence[str], rows: Iterable[Sequence[object]], filename: str) -> Response:
    """A CSV file to download: a header row, then the rows."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows(rows)
    # The byte-order mark tells spreadsheet programs the names are UTF-8 ("Zoë", "Jürgen").
    response = make_response("\ufeff" + out.getvalue())
    response.mimetype = "text/csv"
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    return response
