"""CSV kernel-table importer through calc.importers.import_file."""
import pytest

from calc.importers import ImportFormatError, import_file


def test_table_csv_with_units_and_a_bad_row():
    data = ("\ufeffName,FLOPs,Bytes,Time,Count\n"
            "gemm,2*4096**3,1.5 GB,3 ms,2\n"
            "broken,1e9,abc,1 ms,1\n"
            ",,,,\n"
            "=cmd,1e6,1e6,,\n").encode("utf-8")
    r = import_file(data, "kernels.csv")
    assert r.format == "csv"
    assert [k.name for k in r.kernels] == ["gemm", "=cmd"]
    g = r.kernels[0]
    assert g.flops == 2 * 4096**3 and g.bytes_moved == 1.5e9 and g.seconds == 0.003 and g.count == 2
    assert g.source == "csv:kernels.csv row 1"
    assert r.report.n_read == 3 and r.report.n_imported == 2 and r.report.n_placed == 2
    (sk,) = r.report.skipped
    assert sk.reason == "cell_error" and sk.name == "broken"
    assert 'Row 2, "bytes"' in sk.message and dict(sk.detail) == {"row": 2}


def test_semicolon_delimiter():
    r = import_file(b"name;bytes;flops\na;1e6;2e6\n", "x.csv")
    assert r.kernels[0].flops == 2e6


@pytest.mark.parametrize("data,match", [
    (b"", "empty"),
    (b"   \n\n", "empty"),
    (b"name,flops,seconds\na,1,2\n", 'no "bytes" column'),
    (b"name,flops,bytes\na,1,abc\n", "no valid row"),
    (b"just some words\nmore words\n", "unknown format"),
    (bytes(range(256)) * 4, "binary"),
    (b"PK\x03\x04rest", "zip"),
])
def test_malformed(data, match):
    with pytest.raises(ImportFormatError, match=match):
        import_file(data, "bad.csv")


def test_too_many_rows():
    data = b"name,bytes\n" + b"k,1\n" * 300_001
    with pytest.raises(ImportFormatError, match="at most 200,000"):
        import_file(data, "big.csv")


def test_header_units_scale_plain_numbers_not_cells_with_their_own_unit():
    # A profiler export "time (ms)": 1.5 there is 1.5 milliseconds = 0.0015 s. Before the
    # header's unit was read, the cell was taken as 1.5 s (1000x slower, 1000x lower FLOP/s).
    data = (b"kernel,flops (GFLOP),bytes [MB],time (ms),calls\n"
            b"gemm,2*3,40,1.5,2\n"
            b"ew,0,8 GB,250 us,1\n")
    r = import_file(data, "prof.csv")
    g, e = r.kernels
    assert g.flops == 6e9 and g.bytes_moved == 40e6 and g.seconds == 1.5e-3 and g.count == 2
    assert e.flops == 0.0 and e.bytes_moved == 8e9 and e.seconds == 250e-6   # own units win
    (note,) = [n for n in r.report.notes if n.key == "header_units"]
    assert '"time (ms)" (seconds x 0.001)' in dict(note.detail)["columns"]


def test_a_bare_multiplier_in_a_cell_keeps_the_headers_unit():
    # "1.2k" in a "time (ms)" column is 1.2 thousand milliseconds = 1.2 s (it was taken as the
    # cell's own unit, dropping the header's: 1,200 s)
    r = import_file(b"name,bytes,time (ms)\nk,1e6,1.2k\n", "t.csv")
    assert r.kernels[0].seconds == pytest.approx(1.2, rel=1e-12)


@pytest.mark.parametrize("header,seconds", [
    ("time_us", 3e-6), ("Duration (ns)", 3e-9), ("time (s)", 3.0), ("time", 3.0),
])
def test_time_header_suffixes(header, seconds):
    r = import_file(f"name,bytes,{header}\nk,1e6,3\n".encode(), "t.csv")
    assert r.kernels[0].seconds == pytest.approx(seconds, rel=1e-12)
    assert any(n.key == "header_units" for n in r.report.notes) == (seconds != 3.0)


def test_header_unit_of_the_wrong_kind_is_an_error_naming_the_column():
    # nsys "Time (%)" is a share, not a time: reading it as seconds would be silently wrong
    with pytest.raises(ImportFormatError, match=r'nsys\.csv: The column "Time \(%\)" is read as '
                                                r'"seconds", but "%" is not a unit of time'):
        import_file(b"Name,bytes,Time (%)\nk,1e6,42.0\n", "nsys.csv")


def test_a_file_cut_mid_row_is_said():
    # the last row stops after its bytes cell, no line break ends the file: cut short?
    r = import_file(b"name,flops,bytes,seconds,count\na,1e9,1e6,1 ms,1\nb,2e9,3e6", "cut.csv")
    (w,) = [w for w in r.report.warnings if w.key == "last_row_short"]
    assert dict(w.detail) == {"file": "cut.csv", "cells": 3, "columns": 5}
    # a complete file, or a short row followed by a line break, says nothing
    for ok in (b"name,flops,bytes,seconds,count\na,1e9,1e6,1 ms,1",
               b"name,flops,bytes,seconds,count\nb,2e9,3e6\n"):
        assert not [w for w in import_file(ok, "ok.csv").report.warnings if w.key == "last_row_short"]
