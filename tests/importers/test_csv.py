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
