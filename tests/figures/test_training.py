"""Days vs MFU (ui/figures/training.py), built without Streamlit."""
import numpy as np
import pytest

from calc.training import days, training_seconds
from ui.figures.training import days_vs_mfu_figure
from ui.i18n import translator


@pytest.mark.parametrize("lang,log_y", [("en", False), ("zh", True)])
def test_curve_and_marked_points(lang, log_y):
    t = translator(lang)
    grid = np.linspace(0.05, 0.8, 76)
    curve = days(training_seconds(7e9, 1e12, 64, 312e12, grid))
    chosen = (0.45, days(training_seconds(7e9, 1e12, 64, 312e12, 0.45)))
    compare = (0.25, days(training_seconds(7e9, 1e12, 64, 312e12, 0.25)))
    fig = days_vs_mfu_figure(t, grid, curve, chosen, compare, log_y=log_y)
    line, bracket, p1, p2 = fig.data
    assert len(line.x) == 76
    assert p1.x[0] == 0.45 and p1.y[0] == pytest.approx(54.10, abs=0.01)   # seed: ~54 days
    assert p2.x[0] == 0.25 and p2.y[0] == pytest.approx(97.37, abs=0.01)   # seed: ~97 days
    assert fig.layout.yaxis.type == ("log" if log_y else "linear")
    assert fig.layout.xaxis.title.text == t("training.fig.x_title")
    assert fig.layout.yaxis.title.text == t("training.fig.y_title")
    # each point carries its label as its own text (no layout annotations: cheaper to redraw)
    assert "54.1" in p1.text[0] and "97.4" in p2.text[0] and p1.mode == p2.mode == "markers+text"
    assert len(fig.layout.annotations) == 0 and len(fig.layout.shapes) == 0
    # the dotted bracket: down from the comparison's days to the chosen days, across to it
    assert list(bracket.x) == [0.25, 0.25, 0.45]
    assert list(bracket.y) == pytest.approx([97.37, 54.10, 54.10], abs=0.01)
    assert bracket.line.dash == "dot" and bracket.hoverinfo == "skip"
    assert line.hovertemplate


def test_without_comparison():
    t = translator("en")
    fig = days_vs_mfu_figure(t, [0.1, 0.5], [200.0, 40.0], (0.5, 40.0))
    assert len(fig.data) == 2 and len(fig.layout.shapes) == 0      # the curve and one point, no bracket
    assert fig.data[1].textposition == "top right"
    # near the right end the label turns inward, and so does a comparison near the left end
    fig = days_vs_mfu_figure(t, [0.05, 0.8], [400.0, 25.0], (0.7, 28.6), (0.1, 200.0))
    assert (fig.data[2].textposition, fig.data[3].textposition) == ("top left", "top right")


def test_log_days_axis_is_labelled_in_days():
    # 7B, 1T tokens, 64 × 312 TFLOP/s: 54.1 days at 45 % MFU, so 487 days at 5 % and 30.4
    # at 80 %; padded ×/÷ 1.25: 24.3 … 609 days, 1.4 decades: ticks 50, 100, 200 and 500
    t = translator("en")
    grid = np.linspace(0.05, 0.8, 76)
    curve = days(training_seconds(7e9, 1e12, 64, 312e12, grid))
    chosen = (0.45, days(training_seconds(7e9, 1e12, 64, 312e12, 0.45)))
    fig = days_vs_mfu_figure(t, grid, curve, chosen, log_y=True)
    assert list(fig.layout.yaxis.ticktext) == ["50", "100", "200", "500"]
    lo, hi = fig.layout.yaxis.range
    assert 10 ** lo == pytest.approx(30.4 / 1.25, rel=0.01) and 10 ** hi == pytest.approx(487 * 1.25, rel=0.01)
    # the marked point's label rides on its marker, in days (a trace, not a log10 annotation)
    assert fig.data[1].y[0] == pytest.approx(54.1, abs=0.01) and "54.1" in fig.data[1].text[0]
    assert days_vs_mfu_figure(t, grid, curve, chosen).layout.yaxis.ticktext is None   # linear: plotly's
