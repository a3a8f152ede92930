"""Import the kernel table's own CSV format (see :mod:`calc.kernel_table`).

Header ``name,flops,bytes,seconds,count`` (case-insensitive, aliases accepted, only
``bytes`` required), units in cells ("1.2 ms", "14 GB") or in the header ("time (ms)",
"bytes [GB]", "time_us": plain numbers in that column are in that unit, a note says so; a
header unit that is not one of the column's is an :class:`ImportFormatError` naming it),
one row per kernel. Rows with a
bad cell are listed in the report as skipped (reason ``cell_error``, the cell error as
message); the others are imported. No valid row at all -> :class:`ImportFormatError`.
"""
from __future__ import annotations

import csv

from calc.kernel_table import COLUMNS, MAX_ROWS, TableError, canonical_column, column_unit, parse_rows

from .common import ImportFormatError, ImportResult, ReportBuilder

csv.field_size_limit(10_000_000)


def _sniff_delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (",", ";", "\t")}
    best = max(counts, key=counts.get)
    return best if counts[best] > 0 else ","


def _last_record(lines: list[str], delim: str) -> list[str]:
    """The cells of the file's last non-blank line."""
    last = next((ln for ln in reversed(lines) if ln.strip()), "")
    try:
        return next(csv.reader([last], delimiter=delim))
    except (csv.Error, StopIteration):
        return []


def import_table_csv(text: str, filename: str = "table.csv", *, max_rows: int = MAX_ROWS,
                     progress=None, **_ignored) -> ImportResult:
    """Parse CSV text in the kernel-table format into an :class:`ImportResult`.

    Delimiter "," (also ";" or TAB when the header uses them). Raises
    :class:`ImportFormatError` when the header lacks a ``bytes`` column, when the file has
    more than ``max_rows`` rows, or when no row is valid.
    """
    rb = ReportBuilder("csv", progress)
    lines = text.splitlines()
    # skip leading blank lines
    start = 0
    while start < len(lines) and not lines[start].strip():
        start += 1
    if start >= len(lines):
        raise ImportFormatError(f"{filename}: the file is empty.")
    if len(lines) - start - 1 > max_rows:
        raise ImportFormatError(
            f"{filename}: the table has {len(lines) - start - 1:,} rows; at most {max_rows:,} "
            "are supported. Aggregate identical kernels (count column) or filter it first."
        )
    delim = _sniff_delimiter(lines[start])
    reader = csv.reader(lines[start:], delimiter=delim)
    try:
        header = next(reader)
    except (csv.Error, StopIteration) as exc:
        raise ImportFormatError(f"{filename}: could not read the CSV header ({exc}).") from None
    canon = [canonical_column(h) for h in header]
    if "bytes" not in canon:
        found = ", ".join(f'"{h.strip()}"' for h in header[:12] if h.strip()) or "none"
        raise ImportFormatError(
            f"{filename}: the CSV has no \"bytes\" column. Expected the columns "
            f"{', '.join(COLUMNS)} (bytes required; flops, seconds, count optional); "
            f"found {found}."
        )
    try:
        scaled = [(h.strip(), col, f) for h in header for col, f in [column_unit(h)] if f != 1.0]
    except TableError as exc:
        raise ImportFormatError(f"{filename}: {exc}") from None
    if scaled:
        columns = ", ".join(f'"{h}" ({col} x {f:g})' for h, col, f in scaled)
        rb.note("header_units", f"Plain numbers in {columns} are read in the header's unit; "
                "a cell with its own unit keeps it.", columns=columns)
    rows = []
    try:
        for rec in reader:
            rows.append(dict(zip(header, rec)))
    except csv.Error as exc:
        raise ImportFormatError(f"{filename}: the CSV is malformed near row {len(rows) + 1} ({exc}).") from None
    rb.tick(0.3)
    rb.n_read = len(rows)
    last = _last_record(lines, delim) if rows and not text.endswith(("\n", "\r")) else header
    if len(last) < len(header):
        # a file cut mid-row (a partial download, a clipped paste): its last row is short
        rb.warn("last_row_short", f"The last row of {filename} has {len(last)} of {len(header)} "
                "cells and the file does not end with a line break: it may be cut short.",
                file=filename, cells=len(last), columns=len(header))
    try:
        parsed = parse_rows(rows, source=f"csv:{filename} row {{row}}", max_rows=max_rows,
                            csv_escaped=True)
    except TableError as exc:
        raise ImportFormatError(f"{filename}: {exc}") from None
    rb.n_read = len(rows) - parsed.skipped_blank
    bad_rows: dict[int, list[str]] = {}
    for e in parsed.errors:
        bad_rows.setdefault(e.row, []).append(e.message)
    for row_no, msgs in bad_rows.items():
        raw = rows[row_no - 1]
        name = next((str(v).strip() for k, v in raw.items() if canonical_column(k) == "name"
                     and v and str(v).strip()), f"row {row_no}")
        rb.skip(name[:200], "cell_error", None, "; ".join(msgs), row=row_no)
    if not parsed.kernels:
        first = parsed.errors[0].message if parsed.errors else "no data rows"
        raise ImportFormatError(f"{filename}: no valid row to import ({first}).")
    return rb.build(parsed.kernels, time_basis="measured")
