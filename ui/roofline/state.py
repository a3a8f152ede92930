"""The roofline page's kernel table: the single source of truth, kept across pages.

The table is a list of row dicts of text cells, kept in ``st.session_state`` under a
NON-widget key (:data:`ROWS_KEY`), so it survives page changes::

    {"name": "GEMM 8192³ bf16", "flops": "2*8192**3", "bytes": "3*8192**2*2",
     "seconds": "4.4 ms", "count": "1"}

Cells hold what the user typed (expressions and units are kept as text); reading them is
:func:`calc.kernel_table.parse_rows`' job (:func:`parsed`). Rows may carry extra, hidden
columns that the editor does not show but keeps: ``source`` (where the row came from,
e.g. "ncu:file.csv ID 3") and the per-memory-level byte columns ``dram_bytes``,
``l2_bytes``, ``l1_bytes`` (:data:`calc.kernel_table.LEVEL_COLUMNS`) from Nsight Compute.
``parse_rows`` reads them back into ``KernelRecord.source`` / ``.level_bytes``, so the
hierarchical view and ``count`` survive edits, page changes, share links and CSV.

API (the other ui.roofline modules use only these):

* :func:`get_rows` / :func:`set_rows` — read / replace the rows (text cells).
* :func:`add_kernels` — append ``KernelRecord`` objects (builder, importers).
* :func:`replace_kernels` — replace the whole table (scenario open).
* :func:`parsed` — the rows read into kernels (:class:`calc.kernel_table.TableParse`),
  cached until the rows change.
* :func:`default_rows` — the newcomer examples.
* :func:`sync_url` — put the table in the share link (``k``) or say why not.

All writers may be called from widget callbacks (``on_click``) or the script body. A
programmatic change gets the editor a fresh key (:func:`editor_key`), so
``st.data_editor``'s own pending edits are never applied twice.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping, Sequence

import streamlit as st

from calc.kernel_table import (COLUMNS, LEVEL_COLUMNS, KernelRecord, TableParse, parse_rows,
                               readable_number, rows_from_kernels)
from calc.scenario import MAX_URL_TOKEN_CHARS, decode_kernels, encode_kernels
from ui.state import url_changed, write_url

ROWS_KEY = "roofline.rows"            # list[dict[str, str]]: the table (non-widget key)
BASE_KEY = "roofline.base_rows"       # the rows the current editor instance started from
EDITOR_VERSION_KEY = "roofline.editor_version"
PARSED_KEY = "roofline.parsed"        # (rows list object, TableParse)
LINK_ERROR_KEY = "roofline.link_error"  # message of a bad `k` in the URL (shown once)
URL_KEY = "k"
TOKEN_CACHE_KEY = "roofline.token_cache"  # (kernels list object, its link token)

#: Hidden columns a row may carry (kept by the editor, not shown).
EXTRA_COLUMNS: tuple[str, ...] = ("source", "precision") + LEVEL_COLUMNS
ALL_COLUMNS: tuple[str, ...] = (*COLUMNS, *EXTRA_COLUMNS)

# The newcomer's table (FLOPs as expressions to teach the syntax; times plausible on an
# A100 80GB SXM, bf16: 312 TFLOP/s dense, 2.039 TB/s):
#  * the seed's intensity-2 kernel, no time: drawn at its ceiling 2 x 2.039 TB/s = 4.078 TFLOP/s;
#  * GEMM 8192^3 bf16, 4.4 ms: 1.0995e12 / 4.4e-3 = 250 TFLOP/s = 80 % of 312 -> near the roof;
#  * batch-1 decode GEMV 4096x4096 bf16, 20 us: 33.55 MFLOP / 20e-6 = 1.68 TFLOP/s against
#    a ceiling of ~1.0 x 2.039 TB/s = 2.04 TFLOP/s -> 82 %, near the (memory) roof;
#  * LayerNorm 8192x4096 bf16, 150 us: 268 MFLOP / 150e-6 = 1.79 TFLOP/s against
#    2 x 2.039 TB/s = 4.08 TFLOP/s -> 44 %, below the roof: worth digging in.
DEFAULT_ROWS: tuple[Mapping[str, str], ...] = (
    {"name": "seed: intensity 2 (2 GFLOP / 1 GB)", "flops": "2 GFLOP", "bytes": "1 GB",
     "seconds": "", "count": "1"},
    {"name": "GEMM 8192×8192×8192 bf16", "flops": "2*8192**3", "bytes": "3*8192**2*2",
     "seconds": "4.4 ms", "count": "1"},
    {"name": "decode GEMV 4096×4096 bf16 (batch 1)", "flops": "2*4096*4096",
     "bytes": "(4096*4096+2*4096)*2", "seconds": "20 us", "count": "1"},
    {"name": "LayerNorm 8192×4096 bf16", "flops": "8*8192*4096",
     "bytes": "(2*8192*4096+2*4096)*2", "seconds": "150 us", "count": "1"},
)


def default_rows() -> list[dict[str, str]]:
    """A fresh copy of the newcomer examples (see :data:`DEFAULT_ROWS`)."""
    return [dict(r) for r in DEFAULT_ROWS]


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v != v:  # NaN from pandas
        return ""
    return str(v)


def normalize_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """Rows as dicts of text cells: the visible columns always present, extra columns
    (source, level bytes) kept when the row has them; None/NaN become ""."""
    out = []
    for r in rows:
        row = {c: _cell(r.get(c)) for c in COLUMNS}
        for c in EXTRA_COLUMNS:
            if c in r:
                row[c] = _cell(r.get(c))
        out.append(row)
    return out


def _ensure() -> None:
    if ROWS_KEY not in st.session_state:
        rows = default_rows()
        st.session_state[ROWS_KEY] = rows
        st.session_state[BASE_KEY] = rows
        st.session_state.setdefault(EDITOR_VERSION_KEY, 0)


def get_rows() -> list[dict[str, str]]:
    """The table's rows (text cells). A new list; do not mutate the dicts — use set_rows."""
    _ensure()
    return list(st.session_state[ROWS_KEY])


def set_rows(rows: Sequence[Mapping[str, Any]]) -> None:
    """Replace the table with ``rows`` (dicts of cells; see the module docstring).

    The editor restarts from these rows (its key changes)."""
    new = normalize_rows(rows)
    st.session_state[ROWS_KEY] = new
    st.session_state[BASE_KEY] = new
    st.session_state[EDITOR_VERSION_KEY] = st.session_state.get(EDITOR_VERSION_KEY, 0) + 1


_NUMBER_CELLS = ("flops", "bytes", "seconds", "count") + LEVEL_COLUMNS


def _records_to_rows(records: Sequence[KernelRecord], source_label: str | None,
                     readable: bool = False) -> list[dict[str, str]]:
    recs = list(records)
    if source_label is not None:
        recs = [r if r.source else dataclasses.replace(r, source=source_label) for r in recs]
    rows = rows_from_kernels(recs, with_source=True)
    if readable:
        # as people type them ("137.439G", "900 us"), not repr floats ("137438953472.0")
        for row in rows:
            for c in _NUMBER_CELLS:
                if row.get(c):
                    row[c] = readable_number(float(row[c]), "bytes" if c in LEVEL_COLUMNS else c)
    return rows


def add_kernels(records: Sequence[KernelRecord], source_label: str | None = None) -> int:
    """Append kernels to the table; returns how many rows were added.

    ``source_label`` fills ``source`` for records that have none (e.g. "builder").
    ``count``, ``source`` and per-level bytes (``level_bytes``) are kept in the row.
    """
    new = _records_to_rows(records, source_label, readable=True)
    return add_rows(new)


def add_rows(rows: Sequence[Mapping[str, Any]]) -> int:
    """Append rows of text cells (e.g. the builder's expressions); returns how many."""
    new = normalize_rows(rows)
    if new:
        set_rows([*get_rows(), *new])
    return len(new)


def replace_kernels(records: Sequence[KernelRecord]) -> None:
    """Replace the whole table with ``records`` (scenario open, a share link)."""
    set_rows(_records_to_rows(records, None))


def parsed() -> TableParse:
    """The rows read by :func:`calc.kernel_table.parse_rows`; cached until the rows change."""
    _ensure()
    rows = st.session_state[ROWS_KEY]
    cached = st.session_state.get(PARSED_KEY)
    if cached is not None and cached[0] is rows:
        return cached[1]
    result = parse_rows(rows)
    st.session_state[PARSED_KEY] = (rows, result)
    return result


# ----------------------------------------------------------------------------- editor

def editor_key() -> str:
    """The data editor's widget key; it changes whenever the rows are replaced by code."""
    _ensure()
    return f"roofline.editor.{st.session_state.get(EDITOR_VERSION_KEY, 0)}"


def editor_base() -> list[dict[str, str]]:
    """The rows to hand ``st.data_editor`` as its data.

    When the editor is new in this session or the page was left and re-entered (its
    widget state is gone), the editor starts again from the current rows."""
    _ensure()
    if editor_key() not in st.session_state:
        st.session_state[BASE_KEY] = st.session_state[ROWS_KEY]
    return st.session_state.get(BASE_KEY, st.session_state[ROWS_KEY])


def rows_from_editor(edited: Sequence[Mapping[str, Any]]) -> bool:
    """Store what the editor returned (its base plus the user's edits).

    Does not change the editor key (the editor keeps its own edit state). Returns True
    when the rows changed."""
    new = normalize_rows(edited)
    if new == st.session_state.get(ROWS_KEY):
        return False
    st.session_state[ROWS_KEY] = new
    return True


# ----------------------------------------------------------------------------- share link

def load_from_url() -> str | None:
    """On arrival: when the URL carries a new ``k``, replace the table with it.

    Returns None, or the English ScenarioError text when ``k`` is unreadable (the
    table is then reset to the defaults and ``k`` removed from the URL). Call before
    drawing the editor."""
    _ensure()
    token = url_changed(URL_KEY)
    if token is None:
        return None
    try:
        records = decode_kernels(token)
    except Exception as exc:  # noqa: BLE001 - ScenarioError, or anything: a link must never crash the page
        set_rows(default_rows())
        write_url(URL_KEY, None)
        return str(exc) or type(exc).__name__
    replace_kernels(records)
    write_url(URL_KEY, token)
    return None


def is_default() -> bool:
    """True when the table is exactly the newcomer examples."""
    rows = get_rows()
    return len(rows) == len(DEFAULT_ROWS) and normalize_rows(rows) == default_rows()


def sync_url(kernels: Sequence[KernelRecord] | None = None) -> bool:
    """Put the table in the URL under ``k`` (the parsed valid kernels, exact floats).

    The defaults need no ``k``. Returns False when the table is too long for a link
    (``k`` is then removed; the page says to use a scenario file)."""
    if is_default():
        token = None
        ok = True
    else:
        source = parsed().kernels if kernels is None else kernels
        cached = st.session_state.get(TOKEN_CACHE_KEY)
        if cached is not None and cached[0] is source:
            token = cached[1]                    # same parse as last run: no re-encoding
        else:
            token = encode_kernels(list(source))
            st.session_state[TOKEN_CACHE_KEY] = (source, token)
        ok = len(token) <= MAX_URL_TOKEN_CHARS
        if not ok:
            token = None
    write_url(URL_KEY, token)
    return ok


__all__ = [
    "ALL_COLUMNS", "DEFAULT_ROWS", "EXTRA_COLUMNS", "ROWS_KEY", "URL_KEY",
    "add_kernels", "add_rows", "default_rows", "editor_base", "editor_key", "get_rows", "is_default",
    "load_from_url", "normalize_rows", "parsed", "replace_kernels", "rows_from_editor",
    "set_rows", "sync_url",
]
