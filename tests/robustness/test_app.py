"""The app against broken files and hostile names: malformed hardware.toml (through
ROOFLINE_LAB_HARDWARE), bad uploads, HTML/<script> kernel names, no unsafe_allow_html."""
from __future__ import annotations

import re

import pytest

from robust_helpers import PAGES, ROOT, exceptions, new_apptest

GOOD_DEVICE = """
[devices.{id}]
name = "Test GPU {id}"
vendor = "TestVendor"
year = 2024
memory_gb = 80
mem_bw_gbs = {bw}
sparse_headline = false
source = "test"
[devices.{id}.peak_tflops]
bf16 = {peak}
"""

MALFORMED = {
    # case: (file text, words the message must contain besides the file name)
    "missing_field": (GOOD_DEVICE.format(id="gpu-a", bw=2000, peak=300).replace('year = 2024\n', ''),
                      ["gpu-a", "year"]),
    "wrong_type": (GOOD_DEVICE.format(id="gpu-a", bw='"fast"', peak=300), ["gpu-a", "mem_bw_gbs"]),
    "negative_bandwidth": (GOOD_DEVICE.format(id="gpu-a", bw=-2000, peak=300),
                           ["gpu-a", "mem_bw_gbs"]),
    "duplicate_id": (GOOD_DEVICE.format(id="gpu-a", bw=2000, peak=300)
                     + GOOD_DEVICE.format(id="gpu-a", bw=3000, peak=400), ["gpu-a"]),
    "not_toml": ("this is { not toml at all ]]]\n\x00", []),
    "empty": ("", []),
}


@pytest.mark.parametrize("case", list(MALFORMED))
@pytest.mark.parametrize("page_id,path", [PAGES[0], PAGES[2]], ids=["home", "mfu"])
def test_malformed_hardware_file_shows_error_not_traceback(tmp_path, monkeypatch, case,
                                                            page_id, path):
    text, words = MALFORMED[case]
    bad = tmp_path / f"bad_{case}.toml"
    bad.write_text(text, encoding="utf-8")
    monkeypatch.setenv("ROOFLINE_LAB_HARDWARE", str(bad))
    at = new_apptest(path)
    at.run()
    assert not at.exception, exceptions(at)
    errors = " ".join(str(e.value) for e in at.error)
    assert bad.name in errors, f"no error naming the file: {errors!r}"
    for word in words:
        assert word in errors, f"the error does not name {word!r}: {errors!r}"
    assert "Traceback" not in errors
    assert len(at.title) >= 1, "the page body did not draw"


def test_hardware_env_good_file_is_used(tmp_path, monkeypatch):
    good = tmp_path / "good.toml"
    good.write_text(GOOD_DEVICE.format(id="gpu-z", bw=1000, peak=100), encoding="utf-8")
    monkeypatch.setenv("ROOFLINE_LAB_HARDWARE", str(good))
    at = new_apptest("app.py")
    at.run()
    assert not at.exception, exceptions(at)
    assert at.selectbox(key="device").value == "gpu-z"


# ----------------------------------------------------------------------------- uploads

def _outcome(data: bytes, name: str):
    from ui.roofline import import_panel as imp
    return imp.handle_upload(data, name)


def test_upload_over_size_limit_is_refused_by_streamlit_config():
    import tomllib

    cfg = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert cfg["server"]["maxUploadSize"] == 25


def test_upload_over_the_importer_limit_is_a_clear_error(monkeypatch):
    import calc.importers as importers

    monkeypatch.setattr(importers, "MAX_INPUT_BYTES", 1024)
    with pytest.raises(importers.ImportFormatError, match="MiB"):
        importers.import_file(b"name,flops,bytes\n" + b"k,1,1\n" * 1000, "big.csv")


@pytest.mark.parametrize("data,name", [
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 20, "picture.png"),
    (bytes(range(256)) * 100, "garbage.csv"),
    (b"\x1f\x8b\x08\x00garbage-gzip", "trace.json.gz"),
    (b"PK\x03\x04zipzip", "kernels.csv"),
    (b"{\"traceEvents\": [", "truncated.json"),
    (b"<html><script>alert(1)</script></html>", "page.html"),
    (b"", "empty.csv"),
    ("名前,フロップ\n１,２\n".encode("utf-16"), "utf16.csv"),
])
def test_bad_uploads_give_a_message_and_add_nothing(data, name):
    from calc.importers import ImportFormatError, import_file

    try:
        result = import_file(data, name)
    except ImportFormatError as exc:
        assert str(exc) and "Traceback" not in str(exc)
        assert len(str(exc)) < 2000
    else:
        assert not result.kernels, f"{name}: garbage produced kernels {result.kernels[:3]}"
    out = _outcome(data, name)
    assert out.ok is False or not out.records
    assert out.error_kind != "internal", out.error


def test_upload_handler_keeps_existing_kernels_on_bad_file():
    from ui.roofline import import_panel as imp
    session: dict = {}
    table: list = ["existing"]

    def add(records, source_label=None):
        table.extend(records)
        return len(records)

    out = imp.process_upload(session, bytes(range(256)) * 10, "bad.csv", {}, add)
    assert out is not None and not out.ok and table == ["existing"]
    out = imp.process_upload(session, b"name,flops,bytes\nk1,2 GFLOP,1 GB\n", "good.csv", {}, add)
    assert out.ok and len(table) == 2


@pytest.mark.slow
def test_csv_with_a_million_rows_is_refused_or_read_quickly():
    import time

    from calc.importers import ImportFormatError, import_file

    data = b"name,flops,bytes,seconds\n" + b"k,2e9,1e9,1e-3\n" * 1_000_000
    t0 = time.perf_counter()
    try:
        result = import_file(data, "million.csv")
    except ImportFormatError as exc:
        assert "1,000,000" in str(exc) or "rows" in str(exc), str(exc)
    else:
        assert len(result.kernels) in (1, 1_000_000)
    assert time.perf_counter() - t0 < 60


# ----------------------------------------------------------------------------- HTML names

HOSTILE_NAME = '<script>alert("x")</script><img src=x onerror=alert(1)>&amp;<b>b</b>'


def test_no_unsafe_allow_html_in_app_code():
    offenders = []
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").rglob("*.py")),
                 *sorted((ROOT / "ui").rglob("*.py"))]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"unsafe_allow_html\s*=\s*True", line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
            if re.search(r"\bst\.html\(|components\.v1|st\.components", line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "\n".join(offenders)


def test_every_download_button_downloads_without_a_rerun():
    """Each st.download_button passes on_click="ignore". With Streamlit's default a click
    also reruns the page, the rerun registers a new deferred-file id, and the click's own
    fetch of the old id can lose that race on a loaded server: no download (a CI run lost
    the Roofline CSV that way). A call without the keyword, or with another value, fails."""
    import ast

    calls, offenders = 0, []
    for path in [ROOT / "app.py", *sorted((ROOT / "pages").rglob("*.py")),
                 *sorted((ROOT / "ui").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "download_button":
                calls += 1
                on_click = next((k.value for k in node.keywords if k.arg == "on_click"), None)
                if not (isinstance(on_click, ast.Constant) and on_click.value == "ignore"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert calls >= 8, f"only {calls} download buttons found: the scan is not reading the app"
    assert not offenders, "download buttons that rerun the page: " + ", ".join(offenders)


def test_hostile_name_in_hover_is_escaped():
    import numpy as np

    from ui.figures.roofline import Roof, kernel_points, roofline_figure
    from ui.i18n import translator

    t = translator("en")
    from calc.roofline import place_kernels

    flops, nbytes = np.array([2e12]), np.array([1e10])
    placement = place_kernels(flops, nbytes, 312e12, 2.039e12, np.array([0.01]))
    pts = kernel_points(t, [HOSTILE_NAME], flops, nbytes, placement)
    fig = roofline_figure(t, [Roof("A100", 312e12, 2.039e12)], pts)
    blob = fig.to_json()
    assert "<script>" not in blob and "<img" not in blob
    assert "&lt;script&gt;" in blob or "\\u003cscript" not in blob


def test_hostile_name_in_csv_download_is_literal_and_not_a_formula():
    import csv
    import io

    from calc.kernel_table import KernelRecord, to_csv

    names = [HOSTILE_NAME, "=HYPERLINK(\"http://x\")", "+1+1", "@SUM(A1)", "-2+3"]
    text = to_csv([KernelRecord(n, 2e9, 1e9, None, 1) for n in names])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows[0]["name"] == HOSTILE_NAME
    for row in rows[1:]:
        assert row["name"][0] not in "=+@-", f"a spreadsheet would run {row['name']!r}"


def test_hostile_name_on_the_roofline_page_is_text():
    from calc.kernel_table import KernelRecord
    from calc.scenario import encode_kernels

    token = encode_kernels([KernelRecord(HOSTILE_NAME, 2e12, 1e10, 0.01, 1)])
    at = new_apptest("pages/1_Roofline.py", {"k": token})
    at.run()
    assert not at.exception, exceptions(at)
    # markdown elements render HTML only with unsafe_allow_html (checked above); a name in
    # markdown must not be able to inject a link/image either.
    for md in at.markdown:
        body = str(md.value)
        assert "<img src=x" not in body or "\\<img" in body or "`" in body or "&lt;" in body, body[:300]
