"""ui.roofline sections: the pure helpers behind the roofline page sections (no Streamlit
runtime): view arrays, the hierarchy traces and ceilings, device comparison rows and
sentences, the import handler, scenario validation against the device list."""
from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from calc.hardware import load_hardware
from calc.kernel_table import KernelRecord
from calc.scenario import Scenario, ScenarioError, dump_scenario
from calc.views import compare_rows
from ui.i18n import translator
from ui.roofline import compare, hierarchy, import_panel, scenario
from ui.roofline.import_panel import handle_upload
from ui.roofline.view import ViewOptions, view_arrays
from calc.kernel_table import parse_rows
from ui.figures.roofline import MAX_TICKS, decade_ticks
from ui.roofline import results as R
from ui.roofline.chart import points
from ui.roofline.table import error_lines
from ui.figures.roofline import Roof, roofline_figure

SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "samples" / "worker0.1623143089861.pt.trace.json.gz"

DATA = Path(__file__).resolve().parent.parent / "data"
DEVICES = load_hardware()
T_EN = translator("en")
T_ZH = translator("zh")


def k(name, flops, nbytes, seconds=None, count=1, levels=()):
    return KernelRecord(name, flops, nbytes, seconds, count, "test", levels)


# ----------------------------------------------------------------------------- view arrays

def test_view_arrays_top_n_size_and_filter():
    ks = [k("GEMM a", 1e12, 1e9, 3.0), k("attn", 1e11, 1e9, 1.0), k("gemm b", 1e10, 1e9, None)]
    v = view_arrays(ks, ViewOptions(top_n=1, size_by="time", name_filter="GEMM"))
    assert v.mask.tolist() == [True, False, True]
    assert v.highlight.tolist() == [True, False, False]
    # shares 3/4, 1/4, 0 -> sizes 32, 6 + 26*sqrt(1/3) = 21.01, 6
    assert v.shares.tolist() == [0.75, 0.25, 0.0]
    assert v.size == pytest.approx([32.0, 6 + 26 * (1 / 3) ** 0.5, 6.0])


def test_view_arrays_defaults_are_off():
    ks = [k("a", 1.0, 1.0, 1.0)]
    v = view_arrays(ks)
    assert v.size is None and v.highlight is None and v.mask.tolist() == [True]
    empty = view_arrays([], ViewOptions(top_n=3, size_by="time"))
    assert empty.mask.size == 0 and empty.size is None and empty.highlight is None


# ----------------------------------------------------------------------------- hierarchy

LEVELED = k("gemm_tiled", 2e9, 5.6e7, 1.0e-2, levels=(("dram", 5.6e7), ("l2", 1e8), ("l1", 2.2e9)))


def test_hierarchy_traces_one_point_per_level_joined():
    traces = hierarchy_traces = hierarchy.hierarchy_traces(T_EN, [LEVELED, k("plain", 1e9, 1e6, 1e-3)],
                                                          312e12, 2.039e12)
    assert len(hierarchy_traces) == 4          # link line + DRAM, L2, L1 markers
    link, dram, l2, l1 = traces
    assert link.mode == "lines"
    # same height 2e9 / 1e-2 = 2e11 FLOP/s; intensity 2e9/5.6e7, 2e9/1e8 = 20, 2e9/2.2e9
    assert list(dram.y) == [2e11] and list(l2.y) == [2e11] and list(l1.y) == [2e11]
    assert dram.x[0] == pytest.approx(2e9 / 5.6e7)
    assert l2.x[0] == pytest.approx(20.0)
    assert l1.x[0] == pytest.approx(2e9 / 2.2e9)
    # the line visits the three points from low to high intensity, then breaks
    assert np.isnan(link.x[-1]) and link.x[0] == pytest.approx(2e9 / 2.2e9)
    assert "L2" in l2.name and "gemm_tiled" in l2.customdata[0]


def test_hierarchy_traces_mask_and_nothing_to_draw():
    assert hierarchy.hierarchy_traces(T_EN, [LEVELED], 312e12, 2.039e12, mask=np.array([False])) == []
    no_flops = k("n", None, 1e6, 1e-3, levels=(("dram", 1e6),))
    assert hierarchy.hierarchy_traces(T_EN, [no_flops], 312e12, 2.039e12) == []


def test_hierarchy_judges_a_kernel_as_the_results_table_does():
    # An unmeasured INT8 kernel: 2e12 ops over 1e9 DRAM bytes (2000 OP/B), compute-bound.
    # On an A100 whose INT8 peak is known (624 TOP/s) it sits under that roof and reads OP/s;
    # on a device without an INT8 peak it is judged at the sidebar's BF16 roof (312 TFLOP/s)
    # and reads FLOP/s, as its row in the Results table does (calc.views.kernel_peaks).
    ik = KernelRecord("igemm", 2e12, 1e9, None, 1, "test", (("dram", 1e9), ("l2", 4e9)), "int8")
    with_int8 = hierarchy.hierarchy_traces(T_EN, [ik], 312e12, 2.039e12, precision="bf16",
                                           peaks={"bf16": 312e12, "int8": 624e12})
    dram = with_int8[1]
    assert list(dram.y) == [624e12]
    assert "2000 OP/B" in dram.customdata[0] and "624 TOP/s" in dram.customdata[0]
    assert "FLOP" not in dram.customdata[0]
    without = hierarchy.hierarchy_traces(T_EN, [ik], 312e12, 2.039e12, precision="bf16",
                                         peaks={"bf16": 312e12})
    assert list(without[1].y) == [312e12]
    assert "2000 FLOP/B" in without[1].customdata[0] and "312 TFLOP/s" in without[1].customdata[0]


def test_hierarchy_roofs_only_for_entered_ceilings():
    opts = hierarchy.HierarchyOptions(True, 7e12, None)
    roofs = hierarchy.hierarchy_roofs(T_EN, 312e12, opts)
    assert len(roofs) == 1
    assert roofs[0].mem_bw == 7e12 and roofs[0].peak_flops == 312e12
    assert "L2" in roofs[0].label and "7 TB/s" in roofs[0].label
    assert hierarchy.hierarchy_roofs(T_EN, 312e12, hierarchy.HierarchyOptions()) == []
    assert hierarchy.hierarchy_roofs(T_EN, None, opts) == []


def test_add_hierarchy_widens_the_x_axis():
    from ui.figures.roofline import Roof, roofline_figure

    fig = roofline_figure(T_EN, [Roof("A100", 312e12, 2.039e12)])
    far = k("far", 1e9, 1e6, 1e-3, levels=(("dram", 1e6), ("l1", 1e12)))   # l1: 1e-3 FLOP/B
    added = hierarchy.add_hierarchy(fig, T_EN, [far], 312e12, 2.039e12)
    assert added == 3
    lo, hi = fig.layout.xaxis.range
    assert lo <= np.log10(1e-3 / 3)
    assert fig.layout.xaxis.tickvals[0] == 10.0 ** lo


def test_parse_ceiling():
    assert hierarchy.parse_ceiling("") is None and hierarchy.parse_ceiling(None) is None
    assert hierarchy.parse_ceiling("7 TB/s") == 7e12
    assert hierarchy.parse_ceiling(hierarchy.ceiling_text(1.23456789e13)) == 1.23456789e13
    with pytest.raises(ValueError):
        hierarchy.parse_ceiling("-1")


# ----------------------------------------------------------------------------- compare

def test_parse_and_format_compare():
    got = compare.parse_compare("h100-sxm:bf16, a100-80gb-sxm:fp8,no-such:bf16,h100-sxm:bf16,"
                                "mi300x:fp8,h200-sxm", DEVICES)
    # A100 has no fp8 (dropped), unknown and duplicate dropped, bare id -> default precision
    assert got == ["h100-sxm:bf16", "mi300x:fp8", "h200-sxm:bf16"]
    assert compare.format_compare(got) == "h100-sxm:bf16,mi300x:fp8,h200-sxm:bf16"
    assert compare.parse_compare("", DEVICES) == []
    assert compare.parse_compare(None, DEVICES) == []
    assert len(compare.parse_compare(",".join(compare.compare_options(DEVICES)), DEVICES)) == 3


def test_compare_rows_a100_to_h100_memory_bound_ratio_by_hand():
    a100, h100 = DEVICES["a100-80gb-sxm"], DEVICES["h100-sxm"]
    ks = [k("seed: intensity 2", 2e9, 1e9), k("GEMM", 2 * 8192**3, 3 * 8192**2 * 2, 4.4e-3),
          k("no flops", None, 1e9)]
    rows = compare_rows(ks, a100.peak_flops("bf16"), a100.mem_bw,
                        [(h100.peak_flops("bf16"), h100.mem_bw)])
    assert [r.name for r in rows] == ["seed: intensity 2", "GEMM"]
    seed, gemm = rows
    # intensity 2, memory-bound on both: 2 x 3.35e12 / (2 x 2.039e12) = 3350/2039 = 1.643
    assert seed.ratio[0] == pytest.approx(3350 / 2039)
    assert seed.regime == ("memory",)
    assert seed.attainable_main == pytest.approx(4.078e12)
    assert seed.attainable[0] == pytest.approx(6.7e12)
    # GEMM 8192^3: intensity 2*8192/6 = 2730.7, compute-bound on both: 989.4/312 = 3.171
    assert gemm.ratio[0] == pytest.approx(989.4 / 312)
    assert gemm.regime == ("compute",)
    line = compare.sentence(T_EN, seed, 0, "A100", "H100")
    assert "at most **1.64×**" in line and "bandwidth ratio" in line and "memory-bound" in line
    assert "1.64×" in compare.sentence(T_ZH, seed, 0, "A100", "H100")
    # the other way: slower
    back = compare_rows(ks[:1], h100.peak_flops("bf16"), h100.mem_bw,
                        [(a100.peak_flops("bf16"), a100.mem_bw)])[0]
    assert back.ratio[0] == pytest.approx(2039 / 3350)
    assert back.slowdown[0] == pytest.approx(3350 / 2039)
    assert "1.64× slower" in compare.sentence(T_EN, back, 0, "H100", "A100")


def test_compare_rows_zero_flop_copy_is_the_bandwidth_ratio():
    # a 1 GB copy (0 FLOP) in 1 ms beside a GEMM: bytes ÷ bandwidth on both devices, so
    # the bound is 3350 / 2039 = 1.643 (memory), and the attainable FLOP/s is 0 on both
    a100, h100 = DEVICES["a100-80gb-sxm"], DEVICES["h100-sxm"]
    ks = [k("copy", 0.0, 1e9, 1e-3), k("GEMM", 2 * 8192**3, 3 * 8192**2 * 2, 4.4e-3)]
    copy, gemm = compare_rows(ks, a100.peak_flops("bf16"), a100.mem_bw,
                              [(h100.peak_flops("bf16"), h100.mem_bw)])
    assert copy.ratio[0] == pytest.approx(3350 / 2039) and copy.regime == ("memory",)
    assert copy.attainable_main == copy.attainable[0] == 0.0
    assert gemm.ratio[0] == pytest.approx(989.4 / 312)


def test_compare_rows_judge_a_kernel_at_its_own_precision():
    # an FP32 GEMM 4096³ (intensity 2·4096/12 = 682.7 FLOP/B, right of both FP32 ridges:
    # 19.5e12/2.039e12 = 9.6, 66.9e12/3.35e12 = 20.0) with BF16 chosen on both devices:
    # its roofs are the FP32 peaks, 19.5 and 66.9 TFLOP/s, so the bound is 66.9/19.5 = 3.43
    a100, h100 = DEVICES["a100-80gb-sxm"], DEVICES["h100-sxm"]
    fp32 = KernelRecord("GEMM fp32", 2 * 4096**3, 3 * 4096**2 * 4, 10e-3, precision="fp32")
    (row,) = compare_rows([fp32], a100.peak_flops("bf16"), a100.mem_bw,
                          [(h100.peak_flops("bf16"), h100.mem_bw)],
                          main_peaks=dict(a100.peaks), others_peaks=[dict(h100.peaks)])
    assert row.attainable_main == pytest.approx(19.5e12)
    assert row.attainable[0] == pytest.approx(66.9e12)
    assert row.ratio[0] == pytest.approx(66.9 / 19.5) and row.regime == ("compute",)
    # without the devices' tables the chosen precision's peak is used, as before
    (plain,) = compare_rows([fp32], a100.peak_flops("bf16"), a100.mem_bw,
                            [(h100.peak_flops("bf16"), h100.mem_bw)])
    assert plain.ratio[0] == pytest.approx(989.4 / 312)


# ----------------------------------------------------------------------------- import handler

def test_handle_upload_kernel_csv():
    csv = b"name,flops,bytes,seconds,count\nmm,2 GFLOP,1 GB,1 ms,2\nbad,abc,1 GB,,1\n"
    out = handle_upload(csv, "table.csv", {"default_dtype": "bf16"})
    assert out.ok and out.format == "csv"
    assert [r.name for r in out.records] == ["mm"]
    assert out.records[0].flops == 2e9 and out.records[0].count == 2
    assert out.report.reason_counts() == {"cell_error": 1}
    rows = import_panel.skipped_table(T_EN, out.report)
    assert rows[0]["Why skipped"] == "a cell could not be read"
    assert "abc" in rows[0]["Detail"]
    zh = import_panel.skipped_table(T_ZH, out.report)
    assert zh[0]["跳过原因"] == "有单元格无法读取"


@pytest.mark.parametrize("data,name", [
    (b"", "empty.csv"),
    (b"{not json", "trace.json"),
    # mtime=0: the gzip header carries the time, and xdist workers must
    # collect the same test ids (CI failed once on a one-second difference).
    (gzip.compress(b'{"traceEvents": []}' * 100, mtime=0)[:40], "cut.json.gz"),
    (b"\x00\x01\x02binary", "x.csv"),
], ids=["empty-csv", "not-json", "cut-gzip", "binary-csv"])
def test_handle_upload_errors_are_returned_not_raised(data, name):
    out = handle_upload(data, name, {})
    assert not out.ok and out.error_kind == "format" and out.error
    assert out.records == ()


def test_handle_upload_progress_and_fixture_trace():
    path = DATA / "torch-traces" / "triton_example.json.gz"
    if not path.exists():
        pytest.skip("fixture missing")
    seen = []
    out = handle_upload(path.read_bytes(), path.name, {"default_dtype": "bf16"}, seen.append)
    assert out.ok and out.format == "torch_trace" and len(out.records) >= 1
    assert seen and seen[-1] == 1.0 and all(0.0 <= x <= 1.0 for x in seen)


def test_handle_upload_ncu_fixture_keeps_level_bytes():
    path = DATA / "ncu" / "gemm_tiled.csv"
    if not path.exists():
        pytest.skip("fixture missing")
    out = handle_upload(path.read_bytes(), path.name, {"tensor_flops_per_inst": 512})
    assert out.ok and out.format.startswith("ncu")
    rec = out.records[0]
    assert dict(rec.level_bytes)["dram"] == rec.bytes_moved
    assert any(w.key == "flops_missing" for w in out.report.warnings)
    text = import_panel.warning_text(T_ZH, "flops_missing", "x", (("n", 1),))
    assert "1 个 kernel" in text


def test_warning_and_reason_fallbacks():
    assert import_panel.reason_text(T_EN, "brand_new_reason") == "brand_new_reason"
    assert import_panel.warning_text(T_EN, "brand_new", "English text", ()) == "English text"
    # a known key with a missing field falls back to the English message too
    assert import_panel.warning_text(T_EN, "flops_missing", "fallback", ()) == "fallback"


def test_file_signature_changes_with_content():
    a = import_panel.file_signature(b"abc", "f.csv")
    assert a == import_panel.file_signature(b"abc", "f.csv")
    assert a != import_panel.file_signature(b"abd", "f.csv")
    assert a != import_panel.file_signature(b"abc", "g.csv")


# ----------------------------------------------------------------------------- scenarios

def test_scenario_file_name_names_device_and_date():
    name = scenario.scenario_file_name("h100-sxm", "bf16", dt.date(2026, 3, 1))
    assert name == "roofline_h100-sxm_bf16_2026-03-01.json"
    assert "/" not in scenario.scenario_file_name("../x", "bf16")


def test_read_scenario_checks_precisions_against_devices():
    ok = Scenario(device="h100-sxm", precision="fp8", kernels=(k("a", 1.0, 1.0),))
    assert scenario.read_scenario(dump_scenario(ok), DEVICES) == ok
    bad = json.loads(dump_scenario(ok))
    bad["device"] = "a100-80gb-sxm"          # A100 has no fp8 peak
    with pytest.raises(ScenarioError, match="fp8"):
        scenario.read_scenario(json.dumps(bad), DEVICES)
    bad = json.loads(dump_scenario(ok))
    bad["compare"] = [{"device": "v100-sxm2-32gb", "precision": "bf16"}]
    with pytest.raises(ScenarioError, match=r"compare\[0\]"):
        scenario.read_scenario(json.dumps(bad), DEVICES)
    bad = json.loads(dump_scenario(ok))
    bad["version"] = 2
    with pytest.raises(ScenarioError, match="version 2"):
        scenario.read_scenario(json.dumps(bad), DEVICES)


def test_text_catalog_has_identical_keys():
    from ui.text import roofline_sections as text

    assert set(text.EN) == set(text.ZH)
    assert all(key.startswith("roofline.") for key in text.EN)


def test_a_denormal_ceiling_is_rejected_not_drawn():
    # 1e-320 B/s parses as a (denormal) number > 0, but 312e12 / 1e-320 overflows to inf:
    # the query-string fuzzer crashed the chart with it. Ceilings obey the fields' 1e-30 floor.
    import pytest as _pytest

    from ui.roofline.hierarchy import parse_ceiling
    with _pytest.raises(ValueError):
        parse_ceiling("1e-320")
    assert parse_ceiling("1e-30") == 1e-30


@pytest.mark.parametrize("lang, algo, wrong", [("en", "Winograd or FFT", "your numbers are wrong"),
                                               ("zh", "Winograd 或 FFT", "你算错了")])
def test_above_roof_convolutions_name_the_algorithm_first(lang, algo, wrong):
    # issue 23 item 4: the V100 ResNet-50 trace (FP32, judged against V100's 15.7 TFLOP/s
    # FP32 roof) places 3×3 convolutions above the roof, e.g. the backward-input call with
    # weight [256,256,3,3] at 123 %: the sentence names Winograd / FFT first, and does not
    # open with "your numbers are wrong"; a non-convolution above the roof keeps that.
    from calc.importers import import_file
    from calc.kernel_table import TableParse
    from ui.roofline import results as R
    d = DEVICES["v100-sxm2-32gb"]
    r = import_file(SAMPLE_TRACE.read_bytes(),
                    "worker0.json.gz")
    ks = list(r.kernels)
    a = R.analyze(TableParse(kernels=ks, row_index=list(range(len(ks)))), d.peak_flops("fp32"),
                  d.mem_bw, peaks={p: d.peak_flops(p) for p in d.precisions})
    above = [int(i) for i in np.flatnonzero(a.placement.verdict == "above_roof")]
    t = translator(lang)
    conv3 = [i for i in above if "x[256,256,3,3]" in a.names[i] and "backward_input" in a.names[i]]
    assert conv3
    s = R.sentence(t, a, conv3[0])
    assert algo in s and wrong not in s
    other = [i for i in above if "clamp_min" in a.names[i]]
    assert other and wrong in R.sentence(t, a, other[0])

# ---- Folded from tests/ui/test_zero_flop_results_review.py:
# Issue 8, defects 6 and 10 on the Roofline page's outputs (pure builders, both languages):
# zero-FLOP kernels in the results, the sentences and the chart; absurd fractions; cell
# errors worded like field errors; a readable number of tick labels.
A100_PEAK, A100_BW = 312e12, 2.039e12


ROWS = [{"name": "copy_", "flops": "0", "bytes": "2e9", "seconds": "1.2 ms"},
        {"name": "gemm", "flops": "2*8192**3", "bytes": "3*8192**2*2", "seconds": "4.4 ms"}]


def analysis(rows=ROWS):
    return R.analyze(parse_rows(rows), A100_PEAK, A100_BW)


@pytest.mark.parametrize("lang, words", [("en", ("zero-FLOP", "1.67 TB/s", "82%", "memory roof")),
                                         ("zh", ("零 FLOP", "1.67 TB/s", "82%", "带宽上限"))])
def test_zero_flop_sentence(lang, words):
    # 2e9 B / 1.2e-3 s = 1.667e12 B/s = 81.7 % of 2.039 TB/s
    s = R.sentence(translator(lang), analysis(), 0)
    for w in words:
        assert w in s


def test_results_table_has_the_zero_flop_kernel_with_its_bandwidth():
    t = translator("en")
    df = R.results_frame(t, analysis())
    assert len(df) == 2
    assert df[t("roofline.r.achieved_bw")][0] == "1.67 TB/s"
    assert df[t("roofline.r.bound")][0] == t("fig.bound.zero_flop")
    assert df[t("roofline.r.fraction")][0] == "81.7%"      # text (calc.units.format_percent), "—" without a time (issue 16)


def test_zero_flop_point_sits_in_the_strip_at_the_left_edge():
    t = translator("en")
    a = analysis()
    fig = roofline_figure(t, [Roof("A100", A100_PEAK, A100_BW)], points(t, a))
    x_lo = 10 ** fig.layout.xaxis.range[0]
    xs = x_lo * 10 ** 0.15
    # SVG markers for a few kernels (WebGL only above ui.figures.roofline.GL_ABOVE)
    pts = [tr for tr in fig.data if tr.type in ("scatter", "scattergl") and "markers" in (tr.mode or "")]
    zero = [tr for tr in pts if "0 FLOPs" in (tr.hovertemplate or "")]
    assert len(zero) == 1 and zero[0].x[0] == pytest.approx(xs)
    # height = fraction of the memory roof x the slope there: 0.8174 x xs x 2.039e12
    assert zero[0].y[0] == pytest.approx(0.8174 * xs * A100_BW, rel=1e-3)
    assert any("zero-FLOP" in (an.text or "") for an in fig.layout.annotations)


def test_absurd_fraction_reads_as_such():
    # 1e30 FLOPs in 1e-30 s: 1e60 FLOP/s against a 312 TFLOP/s roof
    rows = [{"name": "absurd", "flops": "1e30", "bytes": "1e9", "seconds": "1e-30"}]
    for lang in ("en", "zh"):
        s = R.sentence(translator(lang), analysis(rows), 0)
        assert "> 1,000%" in s and len(s) < 2000 and "0000000000" not in s


def test_ticks_stay_readable():
    # 1e-3 .. 1e63 is 67 decades: at most MAX_TICKS labels
    vals, labels = decade_ticks(1e-3, 1e63, "FLOP/s")
    assert len(vals) <= MAX_TICKS and len(labels) == len(vals)
    vals, _ = decade_ticks(1e9, 1e16, "FLOP/s")   # a normal chart keeps every decade
    assert len(vals) == 8


@pytest.mark.parametrize("lang, text", [("en", "must be at most 1e+30 FLOP"),
                                        ("zh", "不能大于 1e+30 FLOP")])
def test_cell_error_worded_like_a_field(lang, text):
    r = parse_rows([{"name": "k", "flops": 2**1000, "bytes": "1e9"}])
    (line,) = error_lines(translator(lang), r.errors)
    assert text in line


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("seconds,shown,verdict", [
    # a 1e12-FLOP, 1e9-byte kernel on a 100 TFLOP/s, 1 TB/s device: intensity 1000, the roof is
    # the compute peak, so it reaches 1e12 / s / 1e14 of it
    (1e12 / (0.6996 * 1e14), "69.96%", "below_roof"),    # "70%" would read near the roof
    (1e12 / (1.0504 * 1e14), "105.04%", "above_roof"),   # "105%" would read within it
    (1e12 / (0.8 * 1e14), "80%", "near_roof"),           # away from a threshold: 0 decimals
])
def test_shown_percentage_never_reads_across_its_verdict(lang, seconds, shown, verdict):
    from calc.kernel_table import TableParse
    from calc.roofline import verdict_decimals
    k = KernelRecord("gemm", 1e12, 1e9, seconds, 1, "table")
    a = R.analyze(TableParse(kernels=[k], row_index=[0]), 1e14, 1e12)
    assert str(a.placement.verdict[0]) == verdict
    assert shown in R.sentence(translator(lang), a, 0)
    assert verdict_decimals(0.6996) == 2 and verdict_decimals(0.80) == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_int8_kernel_reads_in_operations(lang):
    # an INT8 GEMM 4096^3 (2 x 4096^3 = 1.374e11 ops) in 0.5 ms on the A100's INT8 roof
    # (624 TOPS dense): 275 TOP/s achieved; a BF16 row beside it keeps FLOP/s
    from calc.kernel_table import TableParse
    d = DEVICES["a100-80gb-sxm"]
    ks = [KernelRecord("igemm", 2 * 4096**3, 3 * 4096**2, 0.5e-3, 1, "t", (), "int8"),
          KernelRecord("gemm", 2 * 4096**3, 6 * 4096**2, 1.0e-3, 1, "t", (), "bf16")]
    a = R.analyze(TableParse(kernels=ks, row_index=[0, 1]), d.peak_flops("bf16"), d.mem_bw,
                  peaks={p: d.peak_flops(p) for p in d.precisions}, precision="bf16")
    t = translator(lang)
    s0, s1 = R.sentence(t, a, 0), R.sentence(t, a, 1)
    # intensity 2·4096³ / (3·4096²) = 2730.7 ops per byte, written like FLOP/B without a prefix
    assert "275 TOP/s" in s0 and "FLOP/s" not in s0 and "2730 OP/B" in s0
    assert "137 TFLOP/s" in s1
    frame = R.results_frame(t, a)
    achieved = frame[t("roofline.r.achieved")].tolist()
    assert achieved[0] == "275 TOP/s" and achieved[1] == "137 TFLOP/s"
    # without the device's INT8 peak (the Model page passes none) the kernel is judged at the
    # sidebar's BF16 roof, and its label says FLOP/s to match the roof it is judged against
    b = R.analyze(TableParse(kernels=ks, row_index=[0, 1]), d.peak_flops("bf16"), d.mem_bw,
                  precision="bf16")
    assert "275 TFLOP/s" in R.sentence(t, b, 0)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_how_it_is_computed_at_int8_and_its_example_kernel(lang):
    # The example "min(P, I x B) = attainable" substitutes the sidebar's peak, so it is worked
    # on the first kernel judged at the sidebar's precision: with a BF16 sidebar that is row 2
    # (the BF16 GEMM), not row 1 (an INT8 GEMM judged at the 624 TOPS INT8 roof).
    from calc.kernel_table import TableParse
    d = DEVICES["a100-80gb-sxm"]
    ks = [KernelRecord("igemm", 2 * 4096**3, 3 * 4096**2, 0.5e-3, 1, "t", (), "int8"),
          KernelRecord("gemm", 2 * 4096**3, 6 * 4096**2, 1.0e-3, 1, "t", (), "bf16")]
    peaks = {p: d.peak_flops(p) for p in d.precisions}
    t = translator(lang)
    a = R.analyze(TableParse(kernels=ks, row_index=[0, 1]), d.peak_flops("bf16"), d.mem_bw,
                  peaks=peaks, precision="bf16")
    items = R.how_items(t, a, d.peak_flops("bf16"), d.mem_bw)
    example = items[2]
    assert example.explanation == t("roofline.how.example", row=2)
    # its intensity 2·4096³ / 6·4096² = 1365 FLOP/B (3 digits: 1370) is past the BF16 ridge: 312 TFLOP/s
    assert "1370 FLOP/B" in example.latex and "312 TFLOP/s" in example.latex and "OP" not in example.latex.replace("FLOP", "")
    # an INT8 sidebar: the peak 624 TOP/s, the ridge 624e12 / 2.039e12 = 306 OP/B, and the
    # example is the INT8 kernel (intensity 2731 OP/B -> capped at the roof, 624 TOP/s)
    b = R.analyze(TableParse(kernels=ks, row_index=[0, 1]), d.peak_flops("int8"), d.mem_bw,
                  peaks=peaks, precision="int8")
    items = R.how_items(t, b, d.peak_flops("int8"), d.mem_bw)
    latex = " ".join(f.latex for f in items[:3])
    assert "FLOP" not in latex and "306" in latex and "OP/B" in latex
    assert items[2].explanation == t("roofline.how.example", row=1)


def test_compared_int8_kernel_reads_in_operations_on_each_device():
    # An INT8 kernel compared A100 -> H100: both devices have an INT8 peak, so both columns
    # read OP/s; a kernel without a precision is judged at each device's chosen one.
    from calc.views import CompareRow
    from ui.roofline.compare import judged_unit
    row = CompareRow("igemm", 2731.0, None, 624e12, (1979e12,), (3.17,), ("compute",), (),
                     "int8")
    assert judged_unit(row, {"int8": 624e12, "bf16": 312e12}, "bf16") == "OP/s"
    assert judged_unit(row, {"bf16": 312e12}, "bf16") == "FLOP/s"       # no INT8 roof there
    plain = CompareRow("gemm", 100.0, None, 1e14, (1e14,), (1.0,), ("memory",), ())
    assert judged_unit(plain, {"int8": 624e12}, "int8", "/B") == "OP/B"
    assert judged_unit(plain, {"int8": 624e12}, "bf16") == "FLOP/s"
