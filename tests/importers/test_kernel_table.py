"""calc.kernel_table: parsing the kernel table the UI and the CSV importer share."""
import math
import time

import pytest
from hypothesis import given, settings, strategies as st

from calc.kernel_table import (
    COLUMNS, MAX_NAME_CHARS, KernelRecord, TableError, canonical_column, parse_rows,
    rows_from_kernels, to_csv,
)
import numpy as np
from calc.kernel_table import parse_rows
from calc.roofline import place_kernel, place_kernels


def test_columns_contract():
    assert COLUMNS == ("name", "flops", "bytes", "seconds", "count")


@pytest.mark.parametrize("header,canon", [
    ("Name", "name"), ("FLOPS", "flops"), (" Bytes ", "bytes"), ("bytes_moved", "bytes"),
    ("Bytes Moved", "bytes"), ("time", "seconds"), ("time_s", "seconds"), ("Duration", "seconds"),
    ("time (s)", "seconds"), ("Count", "count"), ("calls", "count"), ("\ufeffname", "name"),
    ("whatever", None),
])
def test_header_aliases(header, canon):
    assert canonical_column(header) == canon


def test_plain_and_unit_cells():
    r = parse_rows([
        {"Name": "gemm", "FLOPS": "2*8192**3", "Bytes": "14 GB", "time": "1.2 ms", "count": "3"},
        {"name": "ew", "flops": 1e9, "bytes": 4e9, "seconds": None},
    ])
    assert r.errors == []
    g, e = r.kernels
    assert g == KernelRecord("gemm", 2 * 8192**3, 14e9, 1.2e-3, 3, "table")
    assert e.seconds is None and e.count == 1 and e.flops == 1e9
    assert r.row_index == [0, 1]


def test_blank_flops_means_unknown_and_nan_is_blank():
    r = parse_rows([{"name": "k", "flops": float("nan"), "bytes": "1e6", "seconds": float("nan")}])
    assert r.kernels[0].flops is None and r.kernels[0].seconds is None


def test_bad_cells_name_row_and_column_other_rows_parse():
    r = parse_rows([
        {"name": "ok", "flops": "1", "bytes": "2"},
        {"name": "", "flops": "", "bytes": "", "seconds": ""},          # blank editor row: skipped
        {"name": "bad", "flops": "1e9", "bytes": "abc"},
        {"name": "neg", "flops": "-5", "bytes": "0", "seconds": "0"},
        {"name": "inf", "flops": "inf", "bytes": "1", "count": "1.5"},
        {"name": "wrongunit", "flops": "1", "bytes": "1", "seconds": "14 GB"},
    ])
    assert [k.name for k in r.kernels] == ["ok"]
    assert r.skipped_blank == 1
    msgs = {(e.row, e.column): e.message for e in r.errors}
    assert msgs[(3, "bytes")] == 'Row 3, "bytes": could not read "abc" as a number (examples: 14 GB, 1.5e9)'
    # issue 8: 0 is allowed (a copy or fill), a negative is not
    assert "0 or more" in msgs[(4, "flops")] and "blank if unknown" in msgs[(4, "flops")]
    assert "greater than 0" in msgs[(4, "bytes")]
    assert "blank if not measured" in msgs[(4, "seconds")]
    assert "finite" in msgs[(5, "flops")]
    assert "whole number" in msgs[(5, "count")]
    assert msgs[(6, "seconds")].startswith('Row 6, "seconds": Expected a time')
    assert all(e.message.startswith(f"Row {e.row}, \"{e.column}\"") for e in r.errors)


def test_missing_bytes_is_an_error_and_missing_name_gets_a_number():
    r = parse_rows([{"flops": "1"}, {"bytes": "5"}])
    assert r.errors[0].column == "bytes" and "required" in r.errors[0].message
    assert r.kernels[0].name == "kernel 2"


def test_long_names_truncated():
    r = parse_rows([{"name": "x" * 500, "bytes": 1}])
    assert len(r.kernels[0].name) == MAX_NAME_CHARS


def test_too_many_rows_is_a_clear_error_and_fast():
    rows = [{"name": "k", "bytes": "1"}] * 1_000_000
    t = time.perf_counter()
    with pytest.raises(TableError, match="1,000,000 rows; at most 200,000"):
        parse_rows(rows)
    assert time.perf_counter() - t < 1.0


def test_csv_injection_escaped_and_round_trip_exact():
    ks = [KernelRecord("=HYPERLINK(1)", 1e12, 3e9, 0.1, 2, "table"),
          KernelRecord("+x", None, 0.1 + 0.2, None, 1, "-src"),
          # extreme but within the bounds every input obeys (1e-30..1e30, issue 8)
          KernelRecord("'quoted", 1.0000000000000002e-30, 9.999999999999999e29, 3.0000000000000004e-29,
                       10**12, "s2"),
          KernelRecord("plain, with comma", 1.0, 2.0, 3.0, 1, "s", (("dram", 2.0), ("l2", 7.5)))]
    text = to_csv(ks)
    lines = text.splitlines()
    assert lines[0] == "name,flops,bytes,seconds,count,source,dram_bytes,l2_bytes,l1_bytes"
    assert lines[1].startswith("'=HYPERLINK(1)")
    assert lines[2].startswith("'+x") and ",'-src," in lines[2]
    assert lines[3].startswith("''quoted")
    from calc.importers import import_file
    back = import_file(text.encode(), "t.csv").kernels
    assert list(back) == ks


def test_rows_from_kernels_round_trip_not_escaped():
    ks = [KernelRecord("=a", 0.1, 0.2, 0.30000000000000004, 3, "table")]
    rows = rows_from_kernels(ks)
    assert rows[0]["name"] == "=a" and rows[0]["seconds"] == "0.30000000000000004"
    assert parse_rows(rows).kernels == ks


# within the bounds every input obeys (calc.units.MIN_MAGNITUDE..MAX_MAGNITUDE, issue 8)
pos = st.floats(min_value=1e-30, max_value=1e30, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=30).filter(lambda s: s.strip() == s and s.strip()),
                          st.one_of(st.none(), pos), pos, st.one_of(st.none(), pos),
                          st.integers(1, 10**9)), max_size=8))
def test_round_trip_property(items):
    ks = [KernelRecord(n, f, b, s, c, "table") for n, f, b, s, c in items]
    assert parse_rows(rows_from_kernels(ks)).kernels == ks


cell = st.one_of(st.none(), st.text(max_size=20), st.floats(allow_nan=True, allow_infinity=True),
                 st.integers(-10**30, 10**30), st.booleans())


@settings(max_examples=300, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(["name", "flops", "bytes", "seconds", "count", "Time", "x"]),
                                cell, max_size=6), max_size=10))
def test_parse_rows_never_crashes(rows):
    r = parse_rows(rows)
    for k in r.kernels:
        assert k.bytes_moved > 0 and math.isfinite(k.bytes_moved)
        # issue 8: 0 FLOPs is a zero-FLOP kernel (copy, fill); every value within 1e-30..1e30
        assert k.flops is None or k.flops == 0 or (1e-30 <= k.flops <= 1e30)
        assert k.bytes_moved <= 1e30
        assert k.seconds is None or (k.seconds > 0 and math.isfinite(k.seconds))
        assert isinstance(k.count, int) and k.count >= 1
    assert len(r.kernels) == len(r.row_index)


def test_ten_thousand_rows_parse():
    rows = [{"name": f"k{i}", "flops": str(1e9 * (i + 1)), "bytes": str(1e6 + i), "seconds": "1e-3",
             "count": "1"} for i in range(10_000)]
    r = parse_rows(rows)
    assert len(r.kernels) == 10_000 and not r.errors


# ---- Folded from tests/calc/test_calc_zero_flop_review.py:
# Issue 8, defects 6 and 10 in calc: zero-FLOP kernels are placed and judged by bandwidth;
# table cells obey the bounds of every field (1e-30..1e30).
A100_PEAK, A100_BW = 312e12, 2.039e12


def test_table_accepts_zero_flops_with_bytes():
    r = parse_rows([{"name": "copy_", "flops": "0", "bytes": "2 GB", "seconds": "1.2 ms"}])
    assert r.ok and r.kernels[0].flops == 0.0


@pytest.mark.parametrize("cell, code", [(2**1000, "le"), ("2**1000", "le"), ("1e31", "le"),
                                        ("1e-31", "ge")])
def test_cells_obey_the_field_bounds(cell, code):
    r = parse_rows([{"name": "k", "flops": cell, "bytes": "1e9"}])
    (e,) = r.errors
    assert e.code == code and e.column == "flops"
    assert e.limit == ("1e+30 FLOP" if code == "le" else "1e-30 FLOP")
    assert e.message.endswith(("must be at most 1e+30 FLOP", "must be at least 1e-30 FLOP"))


def test_bytes_and_seconds_bounded_too():
    r = parse_rows([{"name": "k", "flops": "1", "bytes": 1e40, "seconds": 1e-40}])
    assert {e.column for e in r.errors} == {"bytes", "seconds"}


@pytest.mark.parametrize("header,expected", [
    ("time (ms)", ("seconds", 1e-3)), ("Bytes [GB]", ("bytes", 1e9)), ("time_us", ("seconds", 1e-6)),
    ("Total Time (ns)", ("seconds", 1e-9)), ("bytes (KiB)", ("bytes", 1024.0)),
    ("flops (TFLOP)", ("flops", 1e12)), ("time", ("seconds", 1.0)), ("whatever_ms", (None, 1.0)),
])
def test_column_unit(header, expected):
    from calc.kernel_table import column_unit
    col, f = column_unit(header)
    assert col == expected[0] and f == pytest.approx(expected[1], rel=1e-15)


def test_header_unit_applies_to_float_cells_and_bounds_after_scaling():
    r = parse_rows([{"name": "k", "bytes (GB)": 2.0, "time (ms)": 4.0}])
    assert (r.kernels[0].bytes_moved, r.kernels[0].seconds) == (2e9, 4e-3)
    r = parse_rows([{"name": "k", "bytes (GB)": "1e25"}])           # 1e34 B > the 1e30 limit
    assert [e.column for e in r.errors] == ["bytes"]
    with pytest.raises(TableError, match='"bytes \\(furlongs\\)"'):
        parse_rows([{"name": "k", "bytes (furlongs)": "1"}])
