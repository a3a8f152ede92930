"""Learn page figures: valid plotly, the unlabelled roofline meets at the ridge, the trace
timeline draws every kernel in both panels."""
import random

import numpy as np
import plotly.graph_objects as go
import pytest

from calc.lessons import synthetic_trace
from ui.figures.learn import lesson_roofline_figure, trace_figure, zoom_span
from ui.i18n import translator

t = translator("en")


@pytest.mark.parametrize("intensity", [None, 2.0, 500.0])
def test_lesson_roofline(intensity):
    fig = lesson_roofline_figure(t, 312e12, 2e12, intensity)
    go.Figure(fig.to_dict())                           # valid plotly
    slope, roof = fig.data[0], fig.data[1]
    # the slope ends and the roof starts exactly at the ridge, 312e12 / 2e12 = 156 FLOP/B
    assert slope.x[-1] == roof.x[0] == 156.0
    assert slope.y[-1] == pytest.approx(312e12) and set(roof.y) == {312e12}
    # nothing on the chart gives the ridge away
    assert not fig.layout.annotations
    assert all("156" not in (d.hovertemplate or "") for d in fig.data)
    assert len(fig.layout.shapes) == (0 if intensity is None else 1)


@pytest.mark.parametrize("signal", ["gaps", "tiny_kernels", "nccl", "none"])
def test_trace_figure(signal):
    trace = synthetic_trace(signal, random.Random(3))
    fig = trace_figure(t, trace)
    go.Figure(fig.to_dict())
    bars = [d for d in fig.data if d.type == "bar"]
    # every kernel is drawn once in the whole-window panel and once in the zoom
    assert sum(len(b.x) for b in bars) == 2 * len(trace)
    comm = [b for b in bars if b.marker.color == "#c62828"]
    assert bool(comm) == (signal in ("nccl", "none"))   # "none" has a little overlapped NCCL
    # the zoom shows the first 24 kernels: from the first start to the 24th's end
    order = np.argsort(trace.start)[:24]
    expected = (trace.start[order[-1]] + trace.duration[order[-1]] - trace.start.min())
    assert zoom_span(trace) == pytest.approx(expected)
    assert fig.layout.xaxis2.range[1] == pytest.approx(expected * 1e3 * 1.02)
