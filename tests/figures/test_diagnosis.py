"""Trace doctor figures: valid plotly (the builders skip validation), WebGL for the
timeline, what each chart shows checked against a timeline drawn by hand."""
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import pytest

from calc.diagnosis import diagnose_activity
from ui.figures.diagnosis import (class_bar_figure, duration_histogram_figure, join_segments,
                                  steps_figure, timeline_figure)
from ui.i18n import translator

SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "samples" / "worker0.1623143089861.pt.trace.json.gz"

US = 1e-6
GEMM = "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn"
NCCL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL"
ADD = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>"


def timeline():
    # stream 7: GEMM 0-100 µs, 20 adds of 4 µs from 300 µs; stream 20: all-reduce 50-150 µs
    start = [0, 50 * US] + [300 * US + 4 * US * i for i in range(20)]
    dur = [100 * US, 100 * US] + [4 * US] * 20
    return diagnose_activity(start, dur, [7, 20] + [7] * 20, [GEMM, NCCL] + [ADD] * 20,
                             steps=([0, 200 * US], [200 * US, 200 * US]))


@pytest.fixture(params=["en", "zh"])
def t(request):
    return translator(request.param)


def test_figures_are_valid_plotly(t):
    d = timeline()
    for fig in (timeline_figure(t, d), class_bar_figure(t, d), duration_histogram_figure(t, d),
                steps_figure(t, d), steps_figure(t, d, np.array([0.2, 0.3]))):
        assert isinstance(fig, go.Figure)
        go.Figure(fig.to_dict())


def test_timeline_is_webgl_with_a_row_per_stream(t):
    d = timeline()
    fig = timeline_figure(t, d)
    gl = [tr for tr in fig.data if tr.type == "scattergl"]
    assert gl, "kernels must be drawn with WebGL"
    # rows: busy + stream 7 + stream 20
    assert len(fig.layout.yaxis.tickvals) == 3
    comm = [tr for tr in gl if tr.name == t("diagnosis.class.communication")]
    assert len(comm) == 1 and comm[0].line.width > min(tr.line.width for tr in gl)
    # the all-reduce is drawn 50-150 µs = 0.05-0.15 ms on its row
    xs = [x for x in comm[0].x if x == x]
    assert xs == pytest.approx([0.05, 0.15])
    # the largest gap (150-300 µs) is marked at its middle, 0.225 ms
    gaps = [tr for tr in fig.data if tr.name == t("diagnosis.fig.gap")][0]
    assert gaps.x[0] == pytest.approx(0.225)


def test_join_segments_merges_what_a_pixel_cannot_show():
    s, e = join_segments(np.array([0.0, 1.0, 1.05, 3.0]), np.array([1.0, 1.04, 2.0, 4.0]), 0.1)
    assert s.tolist() == [0.0, 3.0] and e.tolist() == [2.0, 4.0]


def test_class_bar_shares(t):
    # GEMM 100, NCCL 100, adds 80 µs of 280: 35.7 %, 35.7 %, 28.6 %
    fig = class_bar_figure(t, timeline())
    shares = dict(zip(fig.data[0].y, fig.data[0].x))
    assert shares[t("diagnosis.class.matmul")] == pytest.approx(100 / 280)
    assert shares[t("diagnosis.class.elementwise")] == pytest.approx(80 / 280)


def test_histogram_counts_and_threshold(t):
    fig = duration_histogram_figure(t, timeline())
    bars = fig.data[0]
    assert sum(bars.y) == 22                     # every kernel once
    assert max(bars.y) == 20                     # the twenty 4 µs adds share a bin
    line = fig.data[-1]
    assert list(line.x) == [10e-6, 10e-6]        # the 10 µs threshold, in data units
    assert fig.layout.xaxis.type == "log"


def test_steps_busy(t):
    # step 1 (0-200 µs): GEMM and all-reduce cover 0-150 µs -> 0.15 ms busy
    fig = steps_figure(t, timeline())
    assert list(fig.data[0].y) == pytest.approx([0.2, 0.2])
    assert list(fig.data[1].y) == pytest.approx([0.15, 0.08])


def test_class_runs_do_not_jump_over_other_classes():
    from ui.figures.diagnosis import class_runs
    # GEMM 0-1, add 1-2, GEMM 2-3, GEMM 3.05-4 (a 0.05 gap, below eps 0.1): three runs
    s, e, c = class_runs(np.array([0.0, 1, 2, 3.05]), np.array([1.0, 2, 3, 4]),
                         np.array([0, 3, 0, 0]), 0.1)
    assert s.tolist() == [0.0, 1.0, 2.0] and e.tolist() == [1.0, 2.0, 4.0]
    assert c.tolist() == [0, 3, 0]


def test_duration_histogram_ticks_all_in_one_unit_style():
    # issue 23 item 10: the axis read "100μs" then "0.001s"; every decade is now written
    # by calc.units.format_si: 1 µs, 10 µs, 100 µs, 1 ms, 10 ms for the ResNet trace
    # (kernels from ~1 µs to ~10 ms)
    from calc.diagnosis import diagnose_trace
    from ui.figures.diagnosis import duration_histogram_figure
    from ui.i18n import translator
    raw = SAMPLE_TRACE.read_bytes()
    fig = duration_histogram_figure(translator("en"), diagnose_trace(raw, "w.json.gz"))
    assert list(fig.layout.xaxis.ticktext) == ["1 µs", "10 µs", "100 µs", "1 ms", "10 ms"]
    assert list(fig.layout.xaxis.tickvals) == pytest.approx([1e-6, 1e-5, 1e-4, 1e-3, 1e-2])
