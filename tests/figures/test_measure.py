"""Measure page figures: roofs and curve built from a synthetic measurement, numbers by hand."""
import math

import numpy as np
import plotly.graph_objects as go
import pytest

from calc.hardware import Accelerator
from calc.roofline import place_kernels
from measure.cpu import StreamPoint
from measure.timing import Timing
from ui.figures.measure import bandwidth_curve_figure, comparison_figure, comparison_roofs
from ui.figures.roofline import kernel_points
from ui.i18n import translator

t = translator("en")
MEASURED = Accelerator(
    id="measured-cpu-box", name="AMD EPYC (2 CPUs, measured)", vendor="AMD", year=2026,
    memory_bytes=25e9, mem_bw=20e9, peaks={"fp64": 76.7e9, "fp32": 153.7e9}, sparse_headline=False,
    source="python -m measure", measured=True, date="2026-12-01T08:00:00Z", host="box",
    cache_bw={"l1": 14e9, "l2": 57e9, "l3": 81.6e9})


def test_comparison_roofs_by_hand():
    roofs = comparison_roofs(t, MEASURED, "fp64", ("A100", 9.7e12, 2.039e12))
    # measured ÷ datasheet in the measured roof's name: 76.7 / 9700 = 0.791 %, 20 / 2039 = 0.981 %
    assert [r.label for r in roofs] == [
        "Measured FP64 (0.791 % of the datasheet's peak, 0.981 % of its bandwidth)",
        "Datasheet: A100", "Measured L1 cache", "Measured L2 cache", "Measured L3 cache"]
    assert comparison_roofs(t, MEASURED, "fp64")[0].label == "Measured FP64"
    # measured ridge = 76.7 GFLOP/s ÷ 20 GB/s = 3.835 FLOP/B; datasheet 9.7e12 / 2.039e12 = 4.757
    assert roofs[0].ridge == pytest.approx(3.835)
    assert roofs[1].ridge == pytest.approx(9.7e12 / 2.039e12)
    # a cache roof: same peak, the level's bandwidth: 76.7e9 / 81.6e9 = 0.94 FLOP/B
    assert roofs[4].peak_flops == 76.7e9 and roofs[4].ridge == pytest.approx(76.7 / 81.6)
    assert comparison_roofs(t, MEASURED, "fp32")[0].peak_flops == 153.7e9


def test_comparison_figure_with_live_points_is_valid():
    flops = np.array([2 * 1024**3, 2 * 4096 * 4096])
    nbytes = np.array([3 * 1024**2 * 8, (4096 * 4096 + 2 * 4096) * 8])
    pl = place_kernels(flops, nbytes, 76.7e9, np.array([81.6e9, 20e9]), np.array([0.05, 0.02]))
    pts = kernel_points(t, ["GEMM", "GEMV"], flops, nbytes, pl, labels=["1", "2"])
    fig = comparison_figure(t, MEASURED, "fp64", ("A100", 9.7e12, 2.039e12), pts)
    go.Figure(fig.to_dict())                     # validates every property
    names = [tr.name for tr in fig.data]
    assert names[0].startswith("Measured FP64 (") and "Datasheet: A100" in names
    roof = fig.data[0]
    # three points: slope start, ridge (76.7e9 FLOP/s), roof end
    assert roof.y[1] == pytest.approx(76.7e9) and roof.x[1] == pytest.approx(3.835)
    datasheet = next(tr for tr in fig.data if tr.name == "Datasheet: A100")
    assert datasheet.line.dash == "dash"


def _pt(kernel, ws, bw):
    return StreamPoint(kernel, ws, 10**9, Timing((1e9 / bw, 1.25e9 / bw)))


def test_bandwidth_curve_figure():
    pts = [_pt("copy", 8192, 14e9), _pt("copy", 2**20, 60e9), _pt("copy", 2**27, 20e9),
           _pt("triad", 8192, 10e9), _pt("triad", 2**27, 18e9)]
    caches = [("L1", 32768), ("L2", 524288), ("L3", 2**25)]
    fig = bandwidth_curve_figure(t, pts, caches, {"L1": 14e9, "dram": 20e9}, ("A100", 2.039e12))
    go.Figure(fig.to_dict())
    lines = [tr for tr in fig.data if tr.mode == "lines+markers"]
    assert [tr.name for tr in lines] == ["copy", "triad"]
    assert list(lines[0].y) == pytest.approx([14e9, 60e9, 20e9])
    # median = bytes / median time = 1e9 / (1.125e9 / bw) = bw / 1.125; spread = 0.25 / 1.125
    assert lines[0].customdata[0][0] == pytest.approx(14e9 / 1.125)
    assert lines[0].customdata[0][1] == pytest.approx(0.25 / 1.125)
    shapes = fig.layout.shapes
    # 3 cache capacities (vertical), 2 plateaus + 1 datasheet (horizontal)
    assert sum(1 for s in shapes if s.x0 == s.x1) == 3
    assert sum(1 for s in shapes if s.y0 == s.y1) == 3
    texts = [a.text for a in fig.layout.annotations]
    assert "L3 32 MiB" in texts and "DRAM plateau 20 GB/s" in texts
    assert "datasheet A100: 2.04 TB/s" in texts
    # y axis spans the datasheet's 2.04 TB/s: log10 upper bound >= log10(2 × 2.039e12)
    assert fig.layout.yaxis.range[1] >= math.log10(2.039e12)


def test_figures_in_chinese():
    zh = translator("zh")
    fig = comparison_figure(zh, MEASURED, "fp64", ("A100", 9.7e12, 2.039e12))
    assert fig.data[0].name.startswith("实测 FP64（峰值算力为规格书的 0.791 %")
    curve = bandwidth_curve_figure(zh, [_pt("copy", 8192, 1e10)], [], {})
    assert curve.layout.xaxis.title.text == "工作集（字节）"


def test_above_the_measured_roof_is_named_for_noise_not_wrong_numbers():
    from ui.figures.measure import measured_translator
    flops, nbytes = np.array([2e9]), np.array([1e8])
    # achieved 2e9 / 0.01 = 200 GFLOP/s against min(76.7 G, 20 × 20 G) = 76.7 G: above the roof
    pl = place_kernels(flops, nbytes, 76.7e9, 20e9, np.array([0.01]))
    assert pl.verdict[0] == "above_roof"
    mt = measured_translator(t)
    fig = comparison_figure(t, MEASURED, "fp64", None, kernel_points(mt, ["k"], flops, nbytes, pl))
    names = {tr.name for tr in fig.data}
    assert "Above the measured roof (quieter machine now)" in names
    assert "Above the roof (check the numbers)" not in names
