"""The one CSV writer of every export (Plans, the Model page's operators, the Roofline
page's kernel table and results, the import panel's kernels).

    write_csv(header, rows, *, text_columns=None, exact_floats=False) -> str

Cells: ``None`` -> empty; ``bool`` -> ``true`` / ``false``; ``int`` as is; ``float``
with 15 significant digits (``0.35`` rather than ``0.35000000000000003``, the binary
noise of 35 / 100: every decimal of up to 15 digits reads back to the same double, IEEE
754 binary64 has 15.95 decimal digits) or, with ``exact_floats``, ``repr`` (the shortest
text that reads back to the same double: exact round trips through the importers);
``nan`` (not known) as an empty cell, ``inf`` as ``inf`` / ``-inf``.

CSV-injection safety (OWASP, "CSV Injection"): a text cell that starts with a character
a spreadsheet reads as the start of a formula (:data:`FORMULA_START`: ``= + - @``, the
minus sign ``−`` U+2212, TAB, CR, and the apostrophe itself so the escape is reversible)
gets a leading apostrophe; :func:`unescape_cell` removes exactly that apostrophe again.
``text_columns``: the columns whose text cells are escaped (default: every text cell);
numbers are never escaped (``-3`` stays a number).
"""
from __future__ import annotations

import csv
import io
import math
from typing import Collection, Iterable, Sequence

__all__ = ["FORMULA_START", "escape_cell", "unescape_cell", "csv_cell", "write_csv"]

#: First characters that make a spreadsheet evaluate a cell (or the escape itself).
FORMULA_START = ("=", "+", "-", "\u2212", "@", "\t", "\r", "'")


def escape_cell(text: str) -> str:
    """``text`` with a leading apostrophe when it starts with :data:`FORMULA_START`."""
    return "'" + text if text and text[0] in FORMULA_START else text


def unescape_cell(text: str) -> str:
    """The inverse of :func:`escape_cell` (an apostrophe followed by a formula start)."""
    if len(text) >= 2 and text[0] == "'" and text[1] in FORMULA_START:
        return text[1:]
    return text


def csv_cell(value: object, *, escape: bool = True, exact_floats: bool = False) -> str:
    """One cell as text (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) or type(value).__module__ == "numpy":
        try:
            x = float(value)
        except (TypeError, ValueError):
            x = None
        if x is not None:
            if math.isnan(x):
                return ""
            if math.isinf(x):
                return "inf" if x > 0 else "-inf"
            return repr(x) if exact_floats else f"{x:.15g}"
    text = str(value)
    return escape_cell(text) if escape else text


def write_csv(header: Sequence[str], rows: Iterable[Sequence[object]], *,
              text_columns: Collection[str] | None = None, exact_floats: bool = False) -> str:
    """CSV text: the header, then one line per row (cells by :func:`csv_cell`; lines end
    with ``\\n``). ``text_columns``: the columns whose text is escaped (None: all)."""
    header = [str(h) for h in header]
    esc = [text_columns is None or h in text_columns for h in header]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([escape_cell(h) for h in header])
    for row in rows:
        cells = list(row)
        w.writerow([csv_cell(c, escape=esc[i] if i < len(esc) else True, exact_floats=exact_floats)
                    for i, c in enumerate(cells)])
    return buf.getvalue()
