"""Decode figures (ui/figures/decode.py), built without Streamlit."""
import numpy as np
import pytest

from calc.decode import (critical_batch, decode_step_work, decode_tokens_per_s,
                         per_sequence_tokens_per_s)
from ui.figures.decode import batch_figure, decode_roofline_figure
from ui.figures.roofline import Roof
from ui.i18n import translator

PEAK, BW = 312e12, 2.039e12


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_batch_figure(lang):
    t = translator(lang)
    b = np.geomspace(1, 4096, 50)
    thr = decode_tokens_per_s(b, 7e9, 2.0, PEAK, BW)
    per = per_sequence_tokens_per_s(b, 7e9, 2.0, PEAK, BW)
    knee = critical_batch(7e9, 2.0, PEAK, BW)                  # 2 x 312 / (2 x 2.039) = 153
    fig = batch_figure(t, b, thr, per, knee=knee, current=(1, thr[0], per[0]))
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.type == "log"
    assert fig.layout.yaxis2.type == "log" and fig.layout.yaxis2.overlaying == "y"
    assert fig.data[0].y[0] == pytest.approx(145.6, abs=0.1)  # 2.039e12 / 14e9
    vlines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(vlines) == 1 and vlines[0].x0 == pytest.approx(153.0, abs=0.1)
    assert any("153" in a.text for a in fig.layout.annotations)
    assert fig.layout.xaxis.title.text == t("decode.fig.x_title")
    assert all(tr.hovertemplate for tr in fig.data)


def test_batch_figure_without_knee():
    t = translator("en")
    b = np.array([1.0, 10.0, 100.0])
    fig = batch_figure(t, b, b * 10, np.array([10.0, 10.0, 10.0]), knee=float("inf"))
    assert not [s for s in fig.layout.shapes if s.type == "line"]


def test_decode_roofline_point_at_intensity_one():
    t = translator("en")
    f, by = decode_step_work(1, 7e9, 2.0)
    fig = decode_roofline_figure(t, Roof("A100", PEAK, BW), ["step"], [f], [by])
    points = [tr for tr in fig.data if tr.type == "scatter" and tr.hovertext]
    assert len(points) == 1                                   # SVG: a few points (GL_ABOVE)
    assert points[0].x[0] == pytest.approx(1.0)               # 1.4e10 FLOP / 1.4e10 B
    assert points[0].y[0] == pytest.approx(BW)                # on the slope: 1 x 2.039e12
    assert fig.layout.xaxis.type == "log"
    assert "step" in points[0].hovertext[0] and "%{hovertext}" in points[0].hovertemplate
