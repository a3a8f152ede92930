"""The roofline figure builder, tested without Streamlit (values worked out by hand)."""
import math

import numpy as np
import plotly.graph_objects as go
import pytest

from calc.roofline import place_kernels, ridge_point
from ui.figures.roofline import Roof, kernel_points, roofline_figure
from ui.i18n import translator

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
