"""The roofline figure builder, tested without Streamlit (values worked out by hand)."""
import math

import numpy as np
import plotly.graph_objects as go
import pytest

from calc.roofline import place_kernels, ridge_point
from ui.figures.roofline import Roof, kernel_points, roofline_figure
from ui.i18n import translator
from ui.figures.roofline import Roof, roofline_figure
from ui.figures.training import days_vs_mfu_figure

PEAK, BW = 312e12, 2.039e12          # A100 80GB SXM, bf16 dense
RIDGE = 312e12 / 2.039e12            # = 153.016... FLOP/byte, by hand
t = translator("en")


def _fig(kernels=None, roofs=None):
    return roofline_figure(t, roofs or [Roof("A100 · BF16", PEAK, BW)], kernels)


def _points(names, flops, nbytes, seconds):
    pl = place_kernels(np.asarray(flops, float), np.asarray(nbytes, float), PEAK, BW,
                       seconds=np.asarray(seconds, float))
    return kernel_points(t, names, np.asarray(flops, float), np.asarray(nbytes, float), pl)


def _roof_trace(fig, name="A100 · BF16"):
    return next(tr for tr in fig.data if tr.name == name and tr.mode == "lines")


def test_axes_are_log_with_one_tick_per_decade():
    fig = _fig()
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    ticks = list(fig.layout.yaxis.tickvals)
    ratios = {round(b / a) for a, b in zip(ticks, ticks[1:])}
    assert ratios == {10}
    assert "100 TFLOP/s" in fig.layout.yaxis.ticktext


def test_roof_and_slope_values():
    assert RIDGE == pytest.approx(153.0, abs=0.05)
    fig = _fig()
    tr = _roof_trace(fig)
    xs, ys = np.asarray(tr.x, float), np.asarray(tr.y, float)
    # the roof at the ridge equals the peak
    i = int(np.argmin(abs(xs - RIDGE)))
    assert xs[i] == pytest.approx(RIDGE) and ys[i] == pytest.approx(PEAK)
    # on the slope y = x * bandwidth; on the roof y = peak
    for x, y in zip(xs, ys):
        assert y == pytest.approx(min(PEAK, x * BW))
    assert xs[0] < 1 and ys[0] == pytest.approx(xs[0] * 2.039e12)
    assert ys[-1] == pytest.approx(312e12)


def test_ridge_marked_where_calc_says_and_labelled():
    fig = _fig()
    ridge = next(tr for tr in fig.data if tr.name == t("fig.ridge"))
    assert ridge.x[0] == pytest.approx(ridge_point(PEAK, BW))
    assert ridge.y[0] == pytest.approx(PEAK)
    labels = [a.text for a in fig.layout.annotations]
    assert any("153 FLOP/B" in s for s in labels)
    assert any(t("fig.memory_bound") == s for s in labels)
    assert any(t("fig.compute_bound") == s for s in labels)


def test_one_point_per_kernel_with_hover_and_escaped_names():
    names = ["<b>evil</b> & co", "gemm", "gemv"]
    pts = _points(names, [2e9, 2 * 8192.0**3, 3.3e7], [1e9, 4.03e8, 3.36e7],
                  [np.nan, 4.4e-3, 20e-6])
    fig = _fig(pts)
    # three kernels: SVG markers (WebGL only above GL_ABOVE points)
    marker_traces = [tr for tr in fig.data if isinstance(tr, go.Scatter) and "markers" in (tr.mode or "")
                     and tr.hoverinfo != "skip" and tr.hovertext]
    assert sum(len(tr.x) for tr in marker_traces) == 3
    # one hovertemplate per trace; the (escaped) names in hovertext, the numbers in customdata
    hovers = [h for tr in marker_traces for h in tr.hovertext]
    assert all("%{hovertext}" in tr.hovertemplate for tr in marker_traces)
    assert any("&lt;b&gt;evil&lt;/b&gt; &amp; co" == h for h in hovers)
    assert not any("<b>evil</b>" in h for h in hovers)
    gemm = next(tr for tr in marker_traces if "gemm" in tr.hovertext)
    for word in ("FLOPs", "Bytes", "Intensity", "Bound", "Attainable", "Achieved", "Of ceiling", "Verdict"):
        assert word in gemm.hovertemplate
    row = list(gemm.hovertext).index("gemm")
    flops, nbytes, attainable, fraction, _bw = (float(v) for v in gemm.customdata[row])
    assert flops == pytest.approx(2 * 8192.0**3, rel=1e-6) and nbytes == pytest.approx(4.03e8, rel=1e-6)
    assert attainable == pytest.approx(PEAK, rel=1e-6)
    assert fraction == pytest.approx(2 * 8192.0**3 / 4.4e-3 / PEAK, rel=1e-6)
    # measured at achieved FLOP/s, the unmeasured one at its attainable 2 x 2.039 TB/s
    ys = {h: y for tr in marker_traces for h, y in zip(tr.hovertext, tr.y)}
    assert ys["gemm"] == pytest.approx(2 * 8192.0**3 / 4.4e-3)
    assert ys["&lt;b&gt;evil&lt;/b&gt; &amp; co"] == pytest.approx(2 * 2.039e12)
    # a dotted line joins each measured point to its roof
    gap = [tr for tr in fig.data if tr.name == t("fig.gap")]
    assert gap and np.isfinite(np.asarray(gap[0].x, float)).sum() == 4


def test_extra_roofs_drawn():
    roofs = [Roof("A100 · BF16", PEAK, BW), Roof("A100 · FP32", 19.5e12, BW, dash="dash"),
             Roof("H100 · BF16", 989.4e12, 3.35e12, dash="dot")]
    fig = _fig(roofs=roofs)
    names = {tr.name for tr in fig.data if tr.mode == "lines"}
    assert {"A100 · BF16", "A100 · FP32", "H100 · BF16"} <= names
    fp32 = _roof_trace(fig, "A100 · FP32")
    assert max(fp32.y) == pytest.approx(19.5e12)
    # y range reaches above the highest roof
    assert 10 ** fig.layout.yaxis.range[1] > 989.4e12


def test_thousands_of_kernels_use_webgl_and_light_hover():
    rng = np.random.default_rng(0)
    n = 5000
    flops = 10 ** rng.uniform(6, 12, n)
    nbytes = 10 ** rng.uniform(5, 10, n)
    secs = np.where(rng.random(n) < 0.5, np.nan, flops / 1e12)
    pl = place_kernels(flops, nbytes, PEAK, BW, seconds=secs)
    names = [f"k{i}" for i in range(n)]
    pts = kernel_points(t, names, flops, nbytes, pl, light=True)
    fig = _fig(pts)
    kernel_traces = [tr for tr in fig.data if tr.name in {t(f"fig.verdict.{v}") for v in
                                                         ("near_roof", "below_roof", "above_roof", "unmeasured")}]
    assert kernel_traces and all(isinstance(tr, go.Scattergl) for tr in kernel_traces)
    assert sum(len(tr.x) for tr in kernel_traces) == n
    assert all("FLOP/B" in tr.hovertemplate and "%{hovertext}" in tr.hovertemplate
               for tr in kernel_traces)
    assert sum(len(tr.hovertext) for tr in kernel_traces) == n


def test_labels_drawn_next_to_points():
    pts = _points(["a", "b"], [2e9, 1e12], [1e9, 1e9], [np.nan, np.nan])
    pts = kernel_points(t, ["a", "b"], np.array([2e9, 1e12]), np.array([1e9, 1e9]),
                        place_kernels(np.array([2e9, 1e12]), np.array([1e9, 1e9]), PEAK, BW),
                        labels=["1", "2"])
    fig = _fig(pts)
    texts = [x for tr in fig.data if tr.text is not None and "text" in (tr.mode or "") for x in tr.text]
    assert sorted(texts) == ["1", "2"]


def test_needs_a_roof():
    with pytest.raises(ValueError):
        roofline_figure(t, [])


def test_chinese_titles():
    fig = roofline_figure(translator("zh"), [Roof("A100", PEAK, BW)])
    assert "算术强度" in fig.layout.xaxis.title.text
    assert math.isfinite(fig.layout.xaxis.range[0])


# ---- Folded from tests/figures/test_fig_region_labels.py:
# Region names of the roofline ("memory-bound: …", "compute-bound: …") sit in opposite
# corners, so they never run into each other (they did on the home page's small chart), and
# the training figure draws one label when both MFUs are the same.
PEAK, BW = 312e12, 2.039e12          # A100 bf16 dense: ridge 153 FLOP/B


def _regions(fig, t):
    words = (t("fig.memory_bound").split(":")[0].split("：")[0],
             t("fig.compute_bound").split(":")[0].split("：")[0])
    return [next(a for a in fig.layout.annotations if a.text.startswith(w)) for w in words]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("compact", [True, False])
def test_region_names_in_opposite_corners(lang, compact):
    t = translator(lang)
    fig = roofline_figure(t, [Roof("A100", PEAK, BW)], compact=compact)
    memory, compute = _regions(fig, t)
    x_lo, x_hi = fig.layout.xaxis.range
    y_lo, _ = fig.layout.yaxis.range
    # memory-bound: top-left, hanging from the roof's height at the left edge (log10 coords)
    assert (memory.x, memory.xanchor, memory.yanchor) == (x_lo, "left", "top")
    assert memory.y == pytest.approx(math.log10(PEAK))
    # compute-bound: bottom-right corner
    assert (compute.x, compute.y, compute.xanchor, compute.yanchor) == (x_hi, y_lo, "right", "bottom")
    # compact (home page): each name on two lines, the colon becoming the break
    assert ("<br>" in memory.text and "<br>" in compute.text) == compact
    if not compact:
        assert memory.text == t("fig.memory_bound") and compute.text == t("fig.compute_bound")


def test_slope_passes_below_the_memory_label():
    # the slope at the left edge is 3 decades under the roof (x from 0.1 to the ridge 153):
    # the label hanging from the roof's height in that corner cannot touch the line
    fig = roofline_figure(translator("en"), [Roof("A100", PEAK, BW)], compact=True)
    x_lo = 10 ** fig.layout.xaxis.range[0]
    assert math.log10(PEAK) - math.log10(x_lo * BW) > 3


def test_training_figure_one_label_when_mfus_are_equal():
    t = translator("en")
    grid = np.linspace(0.05, 0.8, 16)
    labels = lambda f: [d.text[0] for d in f.data if d.text]
    fig = days_vs_mfu_figure(t, grid, 24.3 / grid, (0.45, 54.1), (0.45, 54.1))
    assert len(labels(fig)) == 1 and "45%: 54.1 days" in labels(fig)[0]
    fig = days_vs_mfu_figure(t, grid, 24.3 / grid, (0.45, 54.1), (0.25, 97.4))
    assert len(labels(fig)) == 2


def test_axis_ranges_survive_values_near_the_float_limit():
    # a kernel at 1e308 FLOP/s used to make 1e308 x 3 = inf and crash math.ceil (query fuzz)
    from ui.figures.roofline import axis_ranges
    (x_lo, x_hi), (y_lo, y_hi) = axis_ranges([Roof("A100", PEAK, BW)], np.array([1e-320, 1e308]),
                                             np.array([1e308]))
    assert all(math.isfinite(v) and v > 0 for v in (x_lo, x_hi, y_lo, y_hi))
    assert y_hi == 1e300 and x_lo == 1e-300


def test_a_roof_with_an_infinite_ridge_is_still_drawn():
    # bandwidth so small that peak / bandwidth overflows (query fuzz: a custom device)
    fig = roofline_figure(translator("en"), [Roof("odd", 312e12, 1e-300)])
    xs = [x for tr in fig.data for x in (tr.x or []) if x is not None]
    assert xs and all(math.isfinite(float(x)) for x in xs)


def test_legend_sits_under_the_plot_not_under_the_toolbar():
    # issue 23 item 9: above the plot (y = 1.01) the legend of an import (roofs, verdicts)
    # ran under plotly's toolbar at the top right; it now hangs below the plot area
    from ui.figures.roofline import Roof, roofline_figure
    from ui.i18n import translator
    fig = roofline_figure(translator("en"), [Roof("A100", 312e12, 2.039e12),
                                             Roof("H100", 989e12, 3.35e12)])
    assert fig.layout.legend.y < 0 and fig.layout.legend.yanchor == "top"


def test_log_axis_labels_1_2_5_on_a_short_axis_and_decades_on_a_long_one():
    from ui.figures.roofline import log_axis

    # 9.5 ms … 90 ms, padded ×/÷ 1.25: 7.6 ms … 112.5 ms, 1.17 decades: 1-2-5 ticks
    short = log_axis([0.0095, 0.09, float("nan"), 0.0, None], "s")
    assert short["tickvals"] == pytest.approx([0.01, 0.02, 0.05, 0.1])
    assert short["ticktext"] == ["10 ms", "20 ms", "50 ms", "100 ms"]
    assert short["range"] == pytest.approx([math.log10(0.0076), math.log10(0.1125)])
    # 0.17 s … 25 s: 0.136 … 31.25 s, 2.36 decades: 1 and 3 of each decade
    middle = log_axis([0.17, 25.0], "s")
    assert middle["ticktext"] == ["300 ms", "1 s", "3 s", "10 s", "30 s"]
    # 1 µs … 1 s (0.8 µs … 1.25 s): 6.2 decades: one tick per decade, none outside the axis
    long = log_axis([1e-6, 1.0], "s")
    assert long["ticktext"] == ["1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s"]
    assert log_axis([float("inf"), -1.0], "s") == {}


def test_linear_axis_steps_of_1_2_5_with_units():
    from ui.figures.roofline import linear_axis

    # 90.2 GB over at most 10 steps: 9.02 GB a step at least -> 10 GB, ticks 0 … 90 GB
    gb = linear_axis(90.2e9, "B")
    assert gb["tickvals"] == pytest.approx([k * 1e10 for k in range(10)])
    assert gb["ticktext"][:3] == ["0 B", "10 GB", "20 GB"] and gb["range"] == [0.0, 90.2e9]
    # 12.8 s: 1.28 s a step at least -> 2 s, ticks 0 … 12 s
    assert linear_axis(12.8, "s")["ticktext"] == ["0 s", "2 s", "4 s", "6 s", "8 s", "10 s", "12 s"]
    # 1 ms over 5 steps: 200 µs each; the end tick 1 ms is kept (in floats 0.001 // 0.0002 = 4.0)
    assert linear_axis(1e-3, "s", max_ticks=5)["ticktext"][-1] == "1 ms"
    assert linear_axis(0.0, "B") == {} and linear_axis(float("nan"), "B") == {}


def test_legend_below_margin_counts_legend_entries_in_rows():
    """The x axis, the legend's first row, and a row more per further ``per_row`` entries
    (rows counted by hand below); traces with showlegend False are not entries."""
    from ui.figures.roofline import AXIS_BOTTOM, LEGEND_FIRST_ROW, LEGEND_ROW_BELOW, legend_below_margin
    one, two, three = (AXIS_BOTTOM + LEGEND_FIRST_ROW + LEGEND_ROW_BELOW * k for k in (0, 1, 2))
    entries = [{"name": "a"}, {"name": "b", "showlegend": True}, {"name": "c"}]
    hidden = [{"name": "ridge", "showlegend": False}] * 5
    assert legend_below_margin(entries + hidden, per_row=4) == one        # 3 entries, 4 a row
    assert legend_below_margin(entries + hidden, per_row=2) == two        # 3 entries, 2 a row
    assert legend_below_margin(entries + entries, per_row=2) == three     # 6 entries, 2 a row
    assert legend_below_margin(go.Figure([go.Scatter(x=[1], y=[1]),
                                          go.Scatter(x=[1], y=[1], showlegend=False)]).data,
                               per_row=1) == one


def test_roofline_margins_hold_the_axes_and_a_one_row_legend():
    """At least what headless Chromium pushed the A100 roofline's margins to (2026-12-02,
    Source Sans, both languages: l 117 for "100 TFLOP/s" and the title, r 21, b 67 under
    the x axis, 114 with the Roofline page's one-row legend), and at most 10 px more (no
    band of empty space)."""
    t = translator("en")
    roof = Roof("A100", 312e12, 2.039e12)
    full = roofline_figure(t, [roof]).layout.margin
    compact = roofline_figure(t, [roof], compact=True).layout.margin
    for got, need in ((full.l, 117), (full.r, 21), (full.b, 114), (compact.l, 117), (compact.b, 67)):
        assert need <= got <= need + 10, (got, need)


# ---- INT8 counts operations, not floating-point ones (NVIDIA: "INT8 Tensor Core 624 TOPS").
INT8_PEAK = 624e12                 # A100 80GB SXM, INT8 dense (hardware.toml, datasheet)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_int8_roof_reads_in_operations(lang):
    tt = translator(lang)
    fig = roofline_figure(tt, [Roof("A100 · INT8", INT8_PEAK, BW, precision="int8")])
    # ridge 624e12 / 2.039e12 = 306.03 OP/B; the axes, the ticks and the hovers say OP
    labels = [a.text for a in fig.layout.annotations]
    assert any("306 OP/B" in s for s in labels) and not any("FLOP" in s for s in labels)
    assert "100 TOP/s" in fig.layout.yaxis.ticktext
    assert "OP/s" in fig.layout.yaxis.title.text and "FLOP" not in fig.layout.yaxis.title.text
    assert "OP/" in fig.layout.xaxis.title.text and "FLOP" not in fig.layout.xaxis.title.text
    roof = next(tr for tr in fig.data if tr.name == "A100 · INT8" and tr.mode == "lines")
    assert "624 TOP/s" in roof.hovertemplate and "306 OP/B" in roof.hovertemplate
    ridge = next(tr for tr in fig.data if tr.name == tt("fig.ridge"))
    assert "306 OP/B" in ridge.hovertemplate and "624 TOP/s" in ridge.hovertemplate


def test_a_bf16_roof_beside_an_int8_one_names_both_units():
    fig = _fig(roofs=[Roof("A100 · BF16", PEAK, BW, precision="bf16"),
                      Roof("A100 · INT8", INT8_PEAK, BW, precision="int8", dash="dash")])
    # the ticks carry no unit ("100T"), the titles both; the main roof's ridge 312/2.039 = 153 FLOP/B
    assert "100T" in fig.layout.yaxis.ticktext
    assert "FLOP/s" in fig.layout.yaxis.title.text and "OP/s" in fig.layout.yaxis.title.text
    assert any("153 FLOP/B" in a.text for a in fig.layout.annotations)
    assert "624 TOP/s" in _roof_trace(fig, "A100 · INT8").hovertemplate
    assert "312 TFLOP/s" in _roof_trace(fig, "A100 · BF16").hovertemplate
    # a BF16-only chart keeps its units on the ticks
    assert "100 TFLOP/s" in _fig().layout.yaxis.ticktext


def test_an_int8_kernel_hover_reads_in_operations_beside_a_bf16_one():
    # two unmeasured GEMMs 4096^3 (1.374e11 ops, 3·4096² B: intensity 2731): one INT8, one BF16
    f, b = np.array([2 * 4096.0**3] * 2), np.array([3 * 4096.0**2] * 2)
    pl = place_kernels(f, b, np.array([INT8_PEAK, PEAK]), BW)
    pts = kernel_points(t, ["igemm", "gemm"], f, b, pl, op=["OP", "FLOP"])
    fig = _fig(pts, roofs=[Roof("A100 · BF16", PEAK, BW, precision="bf16")])
    hovers = {tuple(tr.hovertext): tr.hovertemplate for tr in fig.data
              if tr.mode and "markers" in tr.mode and tr.hovertext is not None}
    # one trace each (hover templates differ by unit); ceilings 624 TOP/s and 312 TFLOP/s
    assert set(hovers) == {("igemm",), ("gemm",)}
    assert "OP/B" in hovers[("igemm",)] and "OP/s" in hovers[("igemm",)] and "FLOP" not in hovers[("igemm",)]
    assert "FLOP/B" in hovers[("gemm",)] and "FLOP/s" in hovers[("gemm",)]
    # the axes name both, the one roof drawn being BF16 and one kernel INT8
    assert "OP/s" in fig.layout.yaxis.title.text and "FLOP/s" in fig.layout.yaxis.title.text
