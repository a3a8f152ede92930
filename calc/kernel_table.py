"""The kernel table: one row per kernel (name, FLOPs, bytes, seconds, count).

This is the table the roofline page edits and the format of its CSV import/export.
Pure Python (stdlib only); the UI and :mod:`calc.importers` share it.

Table format (the CSV header is :data:`COLUMNS`, case-insensitive on input)::

    name,flops,bytes,seconds,count
    attention fwd,1.1e12,4.2e9,0.0031,1

* ``flops``: FLOPs of all ``count`` calls together (like ``bytes`` and ``seconds``). Blank = unknown (e.g. an Nsight Compute file without FLOP
  counters); 0 for a kernel that only moves data (copy, fill, memset: judged by its
  bandwidth); otherwise > 0.
* ``bytes``: bytes moved to and from memory (DRAM/HBM) by ``count`` calls; required, > 0.
* ``seconds``: TOTAL measured time of ``count`` calls; blank = not measured; > 0 when given.
* ``count``: number of calls aggregated in the row (optional, default 1, integer >= 1).
* Optional extra columns: ``source`` (where the row came from), ``precision`` (the
  number format of the kernel's math: fp64 fp32 tf32 bf16 fp16 fp8 int8 fp4; the kernel
  is judged against that precision's roof; blank = the sidebar's) and ``dram_bytes``,
  ``l2_bytes``, ``l1_bytes`` (per-memory-level bytes from Nsight Compute).

All quantities are totals over ``count`` calls, so intensity (flops/bytes) and achieved
FLOP/s (flops/seconds) are the same whether a row holds one call or many.

Cells accept plain numbers ("1.5e9"), units ("14 GB", "1.2 ms") and arithmetic
("2*8192**3") through :func:`calc.units.parse_quantity`; ``float()`` is tried first
(fast path), so 10,000 plain-number rows parse in a few milliseconds.

CSV-injection safety: :func:`to_csv` prefixes a name starting with ``= + - − @ TAB CR`` or
``'`` with an apostrophe (:mod:`calc.csv_out`, the one CSV writer) so spreadsheet programs do not run it as a formula (OWASP
"CSV injection"); :func:`parse_rows` with ``csv_escaped=True`` (the CSV importer) removes
exactly that apostrophe again, so ``to_csv`` -> import is an exact round trip.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from calc.csv_out import FORMULA_START, escape_cell, unescape_cell, write_csv
from calc.units import MAX_MAGNITUDE, MIN_MAGNITUDE, format_si

__all__ = [
    "COLUMNS",
    "LEVEL_COLUMNS",
    "MAX_ROWS",
    "MAX_NAME_CHARS",
    "KernelRecord",
    "CellError",
    "TableParse",
    "TableError",
    "parse_rows",
    "rows_from_kernels",
    "to_csv",
    "rows_to_csv",
    "readable_number",
    "canonical_column",
    "column_unit",
]

#: The CSV header written by :func:`to_csv` (optional extra columns follow these).
COLUMNS = ("name", "flops", "bytes", "seconds", "count")
#: Optional per-memory-level byte columns, in this order (level name = prefix).
LEVEL_COLUMNS = ("dram_bytes", "l2_bytes", "l1_bytes")
#: Most rows :func:`parse_rows` accepts (a clear :class:`TableError` beyond).
MAX_ROWS = 200_000
#: Longer names are cut to this many characters (ending in "…").
MAX_NAME_CHARS = 200
#: Largest ``count`` accepted.
MAX_COUNT = 10**15

_NUMERIC_COLUMNS = ("flops", "bytes", "seconds", "count") + LEVEL_COLUMNS
_PRECISIONS = ("fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "fp4")  # calc.hardware.PRECISIONS
_FORMULA_START = FORMULA_START          # calc.csv_out: the one CSV writer's escape

# Header aliases -> canonical column. Keys are normalised (lower case, spaces/dashes -> _).
_ALIASES = {
    "name": "name", "kernel": "name", "kernel_name": "name", "op": "name", "op_name": "name",
    "operator": "name", "label": "name",
    "flops": "flops", "flop": "flops", "total_flops": "flops", "flops_total": "flops",
    "bytes": "bytes", "bytes_moved": "bytes", "byte": "bytes", "bytes_accessed": "bytes",
    "total_bytes": "bytes", "memory_bytes": "bytes", "bytes_total": "bytes",
    "seconds": "seconds", "second": "seconds", "time": "seconds", "time_s": "seconds",
    "duration": "seconds", "duration_s": "seconds", "total_time": "seconds",
    "total_seconds": "seconds", "runtime": "seconds", "time_(s)": "seconds", "secs": "seconds",
    "count": "count", "calls": "count", "invocations": "count", "n_calls": "count",
    "occurrences": "count", "num_calls": "count",
    "source": "source",
    "precision": "precision", "dtype": "precision",
    "dram_bytes": "dram_bytes", "bytes_dram": "dram_bytes", "hbm_bytes": "dram_bytes",
    "l2_bytes": "l2_bytes", "bytes_l2": "l2_bytes",
    "l1_bytes": "l1_bytes", "bytes_l1": "l1_bytes",
}

_KIND = {
    "flops": "flops", "bytes": "bytes", "seconds": "time", "count": "count",
    "dram_bytes": "bytes", "l2_bytes": "bytes", "l1_bytes": "bytes",
}

_NUMBER_HINT = {
    "flops": "examples: 1.1e12, 2*4096**3, 3 TFLOP",
    "bytes": "examples: 14 GB, 1.5e9",
    "seconds": "examples: 1.2 ms, 0.004",
    "count": "a whole number such as 1 or 100",
    "dram_bytes": "examples: 14 GB, 1.5e9",
    "l2_bytes": "examples: 14 GB, 1.5e9",
    "l1_bytes": "examples: 14 GB, 1.5e9",
}


def _split_header(header: object) -> tuple[str | None, str]:
    """(canonical column or None, the unit text the header names or "")."""
    if header is None:
        return None, ""
    raw = str(header).strip().lstrip("\ufeff").strip()
    h = raw.lower().replace("-", "_").replace(" ", "_")
    if h in _ALIASES:
        return _ALIASES[h], ""
    for bracket, close in (("(", ")"), ("[", "]")):
        if bracket in h:
            base = h.split(bracket, 1)[0].rstrip("_")
            if base in _ALIASES:
                unit = raw.split(bracket, 1)[1].split(close, 1)[0].strip()
                return _ALIASES[base], unit
    base, _, suffix = h.rpartition("_")       # "time_ms", "duration_us", "total_time_ns"
    if base in _ALIASES and suffix and _ALIASES[base] in _KIND:
        from calc.units import parse_quantity  # lazy: keeps the fast path import-free

        try:
            parse_quantity(f"1 {suffix}", _KIND[_ALIASES[base]])
        except (ValueError, ArithmeticError):
            return None, ""
        return _ALIASES[base], suffix
    return None, ""


def canonical_column(header: object) -> str | None:
    """Map a header cell to its canonical column name, or None if it is not a table column.

    Case-insensitive; spaces and dashes count as underscores; a unit in brackets such as
    "time (ms)" or "bytes [GB]", or after an underscore ("time_us"), is allowed (its factor
    is :func:`column_unit`'s). Aliases: kernel/op -> name; bytes_moved, bytes_accessed ->
    bytes; time, time_s, duration -> seconds; calls, invocations -> count.
    """
    return _split_header(header)[0]


def column_unit(header: object) -> tuple[str | None, float]:
    """(canonical column, factor from the header's unit to SI base units).

    ``column_unit("time (ms)") == ("seconds", 1e-3)``: a plain number in that column is
    milliseconds; ``column_unit("Bytes [GB]") == ("bytes", 1e9)``; ``column_unit("time_us")
    == ("seconds", 1e-6)``; no unit -> factor 1.0. Units are read by
    :func:`calc.units.parse_quantity` with the column's kind (s, ms, us, ns; B, KB, MB, GB,
    KiB, ...; FLOP, GFLOP, TFLOP), so a header unit means what the same unit means in a cell.
    Raises :class:`TableError` naming the header when its unit is not one of the column's
    (a "time (%)" share, "bytes (furlongs)"): a silent factor of 1 would be wrong by the
    unit's size.
    """
    col, unit = _split_header(header)
    if col is None or not unit or col not in _KIND:
        return col, 1.0
    from calc.units import parse_quantity  # lazy: keeps the fast path import-free

    try:
        factor = float(parse_quantity(f"1 {unit}", _KIND[col]))
    except (ValueError, ArithmeticError):
        factor = 0.0
    if not (factor > 0 and math.isfinite(factor)):
        raise TableError(
            f'The column "{str(header).strip()}" is read as "{col}", but "{unit}" is not a unit of '
            f"{_KIND_WORDS[col]} ({_UNIT_EXAMPLES[col]}). Rename the column, or remove it."
        )
    return col, factor


_KIND_WORDS = {"flops": "FLOPs", "bytes": "bytes", "seconds": "time", "count": "a count",
               "dram_bytes": "bytes", "l2_bytes": "bytes", "l1_bytes": "bytes"}
_UNIT_EXAMPLES = {"flops": "FLOP, GFLOP, TFLOP", "bytes": "B, KB, MB, GB, KiB, MiB, GiB",
                  "seconds": "s, ms, us, ns", "count": "k, M",
                  "dram_bytes": "B, KB, MB, GB", "l2_bytes": "B, KB, MB, GB",
                  "l1_bytes": "B, KB, MB, GB"}


@dataclass(frozen=True, slots=True)
class KernelRecord:
    """One kernel (or a group of ``count`` identical calls) for the roofline.

    ``flops`` and ``bytes_moved`` are totals over ``count`` calls (FLOP, bytes), ``seconds``
    the total measured time (s) of those calls; ``flops``/``seconds`` may be None (unknown /
    not measured). ``source`` says where it came from ("table", "csv:f.csv row 3",
    "torch:aten::mm", "ncu:f.csv ID 0"). ``level_bytes`` holds per-memory-level bytes from
    Nsight Compute as a tuple of (level, bytes) pairs, e.g. (("dram", 5.6e7), ("l2", 1e8)),
    hashable like the rest of the record.
    """

    name: str
    flops: float | None
    bytes_moved: float
    seconds: float | None = None
    count: int = 1
    source: str = ""
    level_bytes: tuple[tuple[str, float], ...] = ()
    precision: str = ""     # "fp32", "bf16", ...: the roof it is judged against ("" = the sidebar's)

    @property
    def intensity(self) -> float | None:
        """Arithmetic intensity flops / bytes_moved (FLOP/byte); None when flops is unknown."""
        if self.flops is None or not self.bytes_moved:
            return None
        return self.flops / self.bytes_moved

    def level_bytes_dict(self) -> dict[str, float]:
        """``level_bytes`` as a dict {level: bytes}."""
        return dict(self.level_bytes)


@dataclass(frozen=True, slots=True)
class CellError:
    """A cell that could not be read: ``row`` is 1-based (as people count data rows),
    ``column`` the canonical column name, ``value`` the cell text, ``message`` full English
    text naming row and column."""

    row: int
    column: str
    value: str
    message: str
    code: str = ""      # "le" / "ge" for an out-of-bounds value (the fields' messages)
    limit: str = ""     # the bound, formatted ("1e+30 FLOP")


@dataclass
class TableParse:
    """Result of :func:`parse_rows`: valid ``kernels``, cell ``errors`` and ``row_index``
    (``row_index[i]`` is the 0-based position in the input ``rows`` of ``kernels[i]``)."""

    kernels: list[KernelRecord] = field(default_factory=list)
    errors: list[CellError] = field(default_factory=list)
    row_index: list[int] = field(default_factory=list)
    skipped_blank: int = 0

    @property
    def ok(self) -> bool:
        """True when no cell error was found."""
        return not self.errors


class TableError(ValueError):
    """The table as a whole cannot be used (too many rows, wrong type)."""


class _CellProblem(Exception):
    def __init__(self, message: str, code: str = "", limit: str = ""):
        super().__init__(message)
        self.code, self.limit = code, limit


_UNITS = {"flops": "FLOP", "bytes": "B", "seconds": "s", "dram_bytes": "B", "l2_bytes": "B",
          "l1_bytes": "B", "count": ""}


def _bounded(x: float, column: str) -> float:
    """x within the bounds every input obeys (calc.units.MIN_MAGNITUDE..MAX_MAGNITUDE),
    with the message a field gives ("must be at most 1e+30 FLOP")."""
    unit = _UNITS.get(column, "")
    if abs(x) > MAX_MAGNITUDE:
        limit = format_si(MAX_MAGNITUDE, unit)
        raise _CellProblem(f"must be at most {limit}", "le", limit)
    if x != 0 and abs(x) < MIN_MAGNITUDE:
        limit = format_si(MIN_MAGNITUDE, unit)
        raise _CellProblem(f"must be at least {limit}", "ge", limit)
    return x


def _is_blank(v: object) -> bool:
    if v is None:
        return True
    if isinstance(v, float):
        return v != v  # NaN: a pandas blank
    if isinstance(v, str):
        return not v.strip()
    return False


def _short(v: object) -> str:
    s = str(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _number(v: object, column: str, factor: float = 1.0) -> float:
    """Read a cell as a finite float in SI base units (fast path float(), then parse_quantity).

    ``factor``: the header's unit (:func:`column_unit`, "time (ms)" -> 1e-3); it scales a
    plain number or expression, not a cell that names its own unit ("1.2 ms" stays 1.2e-3 s).
    """
    if isinstance(v, bool):
        raise _CellProblem(f'could not read "{v}" as a number ({_NUMBER_HINT[column]})')
    if isinstance(v, (int, float)):
        try:
            x = float(v)
        except OverflowError:
            raise _CellProblem(f"{_short(v)} is too large") from None
    else:
        s = str(v).strip()
        try:
            x = float(s)
        except (ValueError, OverflowError):
            from calc.units import parse_quantity  # lazy: keeps the fast path import-free

            try:
                x = float(parse_quantity(s, _KIND.get(column)))
            except (ValueError, TypeError, OverflowError, ArithmeticError, RecursionError) as exc:
                detail = str(exc).split(" Examples:")[0].strip()
                msg = f'could not read "{_short(s)}" as a number ({_NUMBER_HINT[column]})'
                if detail and not detail.startswith("Could not read") and len(detail) < 200:
                    msg = f"{detail.rstrip('.')} ({_NUMBER_HINT[column]})"
                elif ": " in detail and len(detail) < 200:
                    msg += ": " + detail.split(": ", 1)[1].rstrip(".")
                raise _CellProblem(msg) from None
    if not math.isfinite(x):
        raise _CellProblem(f'"{_short(v)}" is not a finite number')
    if factor != 1.0 and not (isinstance(v, str) and _cell_unit(v)):
        x *= factor
    return x


def _cell_unit(text: str) -> str:
    from calc.units import unit_of  # lazy: keeps the fast path import-free

    return unit_of(text)


def _positive(v: object, column: str, blank_hint: str = "", factor: float = 1.0) -> float:
    x = _number(v, column, factor)
    if x <= 0:
        raise _CellProblem(f"must be greater than 0, got {_short(v)}{blank_hint}")
    return _bounded(x, column)


def _unescape_name(name: str) -> str:
    return unescape_cell(name)


def _clean_name(v: object, n: int, csv_escaped: bool) -> str:
    if _is_blank(v):
        return f"kernel {n}"
    name = str(v).strip()
    if csv_escaped:
        name = _unescape_name(name)
    if len(name) > MAX_NAME_CHARS:
        name = name[: MAX_NAME_CHARS - 1] + "\u2026"
    return name


def parse_rows(
    rows: Sequence[Mapping[str, object]],
    *,
    source: str = "table",
    max_rows: int = MAX_ROWS,
    csv_escaped: bool = False,
) -> TableParse:
    """Read table rows (mappings header -> cell) into :class:`KernelRecord` objects.

    Header keys are matched case-insensitively with aliases (:func:`canonical_column`);
    unknown columns are ignored. Cells may be str, int, float, None or NaN (a pandas blank).
    Rules: ``bytes`` required and > 0; ``flops`` blank (unknown) or > 0; ``seconds`` blank
    (not measured) or > 0 (total over ``count``); ``count`` blank (1) or a whole number
    >= 1; a blank name becomes "kernel N"; names are cut to :data:`MAX_NAME_CHARS`.
    Rows whose cells are all blank are skipped silently (the editor's empty new row).
    A bad cell gives a :class:`CellError` ('Row 3, "bytes": could not read "abc" as a
    number (examples: 14 GB, 1.5e9)') and its row is left out; other rows still parse.

    ``source``: the record's source; "{row}" in it is replaced by the 1-based row number
    (the CSV importer passes "csv:file.csv row {row}"); a ``source`` column overrides it.
    ``csv_escaped``: remove the anti-formula apostrophe :func:`to_csv` adds.
    Raises :class:`TableError` for more than ``max_rows`` rows (checked before parsing).
    """
    if isinstance(rows, (str, bytes)) or not hasattr(rows, "__len__"):
        raise TableError("The kernel table must be a list of rows.")
    if len(rows) > max_rows:
        raise TableError(
            f"The table has {len(rows):,} rows; at most {max_rows:,} are supported. "
            "Aggregate identical kernels (count column) or filter the file first."
        )
    result = TableParse()
    prev_keys: object = None
    keymap: list[tuple[str, object]] = []
    level_cols: list[str] = []
    num_cols: tuple[str, ...] = _NUMERIC_COLUMNS[:4]
    has_row_tpl = "{row}" in source
    kernels = result.kernels
    errors = result.errors
    row_index = result.row_index
    for i, row in enumerate(rows):
        n = i + 1
        if type(row) is not dict and not isinstance(row, Mapping):
            errors.append(CellError(n, "", _short(row), f"Row {n}: not a table row"))
            continue
        keys = row.keys()
        if keys != prev_keys:
            prev_keys = keys
            keymap = []
            seen_cols = set()
            factors = {}
            for k in keys:
                c, f = column_unit(k)
                if c is not None and c not in seen_cols:
                    seen_cols.add(c)
                    keymap.append((c, k))
                    if f != 1.0:
                        factors[c] = f
            level_cols = [c for c in LEVEL_COLUMNS if c in seen_cols]
            num_cols = _NUMERIC_COLUMNS[:4] + tuple(level_cols)
        cells = {c: row[k] for c, k in keymap}
        blank = True
        for v in cells.values():
            if v is None or v == "":
                continue
            if not _is_blank(v):
                blank = False
                break
        if blank:
            result.skipped_blank += 1
            continue
        bad = False
        vals: dict[str, object] = {"flops": None, "bytes": None, "seconds": None, "count": None}
        for col in num_cols:
            v = cells.get(col)
            factor = factors.get(col, 1.0) if factors else 1.0
            # fast path: a plain positive finite number as text or float, in SI base units
            tv = type(v)
            if factor == 1.0 and (tv is str or tv is float or tv is int):
                try:
                    x = float(v)
                except (ValueError, OverflowError):
                    x = None
                if x is not None and MIN_MAGNITUDE <= x <= MAX_MAGNITUDE:
                    if col != "count":
                        vals[col] = x
                        continue
                    if x == int(x) and x <= MAX_COUNT:
                        vals[col] = int(x)
                        continue
            try:
                if _is_blank(v):
                    if col == "bytes":
                        raise _CellProblem("is required (bytes moved to and from memory, > 0)")
                    vals[col] = None
                elif col == "count":
                    x = _number(v, col, factor)
                    if x < 1 or x != int(x) or x > MAX_COUNT:
                        raise _CellProblem(f"must be a whole number of calls >= 1, got {_short(v)}")
                    vals[col] = int(x)
                elif col == "flops":
                    x = _number(v, col, factor)
                    if x < 0:
                        raise _CellProblem(f"must be 0 or more, got {_short(v)} (leave it blank "
                                           "if unknown; 0 for a copy or fill)")
                    vals[col] = _bounded(x, col) if x else 0.0
                elif col == "seconds":
                    vals[col] = _positive(v, col, " (leave it blank if not measured)", factor)
                else:
                    vals[col] = _positive(v, col, "", factor)
            except _CellProblem as exc:
                bad = True
                text = "" if v is None else _short(v)
                errors.append(CellError(n, col, text, f'Row {n}, "{col}": {exc}', exc.code, exc.limit))
        if bad:
            continue
        prec_cell = cells.get("precision")
        precision = "" if _is_blank(prec_cell) else str(prec_cell).strip().lower()
        if precision and precision not in _PRECISIONS:
            errors.append(CellError(n, "precision", _short(prec_cell),
                                    f'Row {n}, "precision": must be one of {", ".join(_PRECISIONS)} '
                                    f"or blank, got {_short(prec_cell)}"))
            continue
        src_cell = cells.get("source")
        if not _is_blank(src_cell):
            src = str(src_cell).strip()[:MAX_NAME_CHARS]
            if csv_escaped:
                src = _unescape_name(src)
        elif has_row_tpl:
            src = source.replace("{row}", str(n))[-MAX_NAME_CHARS:]
        else:
            src = source[:MAX_NAME_CHARS]
        levels = (
            tuple((col[:-6], vals[col]) for col in level_cols if vals.get(col) is not None)
            if level_cols
            else ()
        )
        kernels.append(
            KernelRecord(
                _clean_name(cells.get("name"), n, csv_escaped),
                vals["flops"],
                vals["bytes"],
                vals["seconds"],
                vals["count"] or 1,
                src,
                levels,
                precision,
            )
        )
        row_index.append(i)
    return result


def _num_text(x: float | None) -> str:
    if x is None:
        return ""
    return repr(float(x))


def rows_from_kernels(
    kernels: Iterable[KernelRecord], *, with_source: bool = True, with_levels: bool | None = None
) -> list[dict[str, str]]:
    """Kernels as table rows of text cells (keys :data:`COLUMNS` [+ source, level columns]).

    Numbers are written with ``repr(float)`` (shortest text that reads back to the same
    float), so ``parse_rows(rows_from_kernels(k))`` returns exactly ``k``; unknown FLOPs or
    time are "". Level columns are included when any kernel has them (or if forced).
    Names are not escaped (that is :func:`to_csv`'s job).
    """
    kernels = list(kernels)
    if with_levels is None:
        with_levels = any(k.level_bytes for k in kernels)
    with_precision = any(k.precision for k in kernels)
    out = []
    for k in kernels:
        row = {
            "name": k.name,
            "flops": _num_text(k.flops),
            "bytes": _num_text(k.bytes_moved),
            "seconds": _num_text(k.seconds),
            "count": str(int(k.count)),
        }
        if with_source:
            row["source"] = k.source
        if with_precision:
            row["precision"] = k.precision
        if with_levels:
            lv = dict(k.level_bytes)
            for col in LEVEL_COLUMNS:
                row[col] = _num_text(lv.get(col[:-6]))
        out.append(row)
    return out


def _escape_name(name: str) -> str:
    return escape_cell(name)


def to_csv(kernels: Iterable[KernelRecord], *, with_source: bool = True) -> str:
    """The kernels as CSV text: header ``name,flops,bytes,seconds,count[,source][,level cols]``.

    Exact round trip through :func:`calc.importers.import_file` (repr floats). Names that
    start with = + - @ TAB CR or an apostrophe get a leading apostrophe (CSV-injection
    safety for spreadsheet programs); the CSV importer removes it again.
    """
    rows = rows_from_kernels(kernels, with_source=with_source)
    header = list(COLUMNS)
    if with_source:
        header.append("source")
    if rows and "precision" in rows[0]:
        header.append("precision")
    if rows and "dram_bytes" in rows[0]:
        header.extend(LEVEL_COLUMNS)
    # cells are already text (repr floats); only the name and the source are free text
    return write_csv(header, ([r.get(c, "") for c in header] for r in rows),
                     text_columns=("name", "source"))


def rows_to_csv(rows: Iterable[Mapping[str, object]]) -> str:
    """Table rows of text cells as CSV, the cells as typed ("2*8192**3", "4.4 ms"): the
    header is :data:`COLUMNS`, then ``source`` and the level columns when a row has them.
    Names (and sources) get the CSV-injection apostrophe of :func:`to_csv`; the CSV
    importer (``parse_rows(csv_escaped=True)``) reads it back to the same numbers."""
    rows = list(rows)
    header = list(COLUMNS)
    if any("source" in r for r in rows):
        header.append("source")
    if any(any(c in r for c in LEVEL_COLUMNS) for r in rows):
        header.extend(LEVEL_COLUMNS)
    return write_csv(header, (["" if r.get(c) is None else str(r.get(c)) for c in header]
                              for r in rows), text_columns=("name", "source"))


#: SI prefixes a readable cell may use (calc.units.parse_quantity reads them back).
_READABLE_PREFIXES = ((1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""))
_TIME_PREFIXES = ((1.0, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns"))


def readable_number(x: float | None, column: str, rel_tol: float = 1e-6) -> str:
    """A number as a person types it in a table cell: "137.439G", "402.653M", "900 us",
    "16.151 ms", "1"; "" for None.

    The fewest significant digits (4 to 12) that read back within ``rel_tol`` (1e-6 by
    default: far below what a roofline shows, and it drops float noise such as
    0.0009000000000000001 -> "900 us"). ``column``: "seconds" writes a time unit, "count"
    a whole number, the others an SI prefix (k, M, G, T, P) without unit.
    """
    if x is None:
        return ""
    x = float(x)
    if column == "count":
        return str(int(x))
    if not math.isfinite(x) or x == 0:
        return repr(x)
    if column == "seconds":
        scale, unit = next(((s, u) for s, u in _TIME_PREFIXES if abs(x) >= s), _TIME_PREFIXES[-1])
        sep = " "
    else:
        scale, unit = next(((s, u) for s, u in _READABLE_PREFIXES if abs(x) >= s), (1.0, ""))
        sep = ""
    for digits in range(4, 13):
        body = f"{x / scale:.{digits}g}"
        if "e" in body:
            break
        if math.isclose(float(body) * scale, x, rel_tol=rel_tol):
            return f"{body}{sep}{unit}" if unit else body
    return repr(x)
