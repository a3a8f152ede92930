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
    line, p1, p2 = fig.data
    assert len(line.x) == 76
    assert p1.x[0] == 0.45 and p1.y[0] == pytest.approx(54.10, abs=0.01)   # seed: ~54 days
    assert p2.x[0] == 0.25 and p2.y[0] == pytest.approx(97.37, abs=0.01)   # seed: ~97 days
    assert fig.layout.yaxis.type == ("log" if log_y else "linear")
    assert fig.layout.xaxis.title.text == t("training.fig.x_title")
    assert fig.layout.yaxis.title.text == t("training.fig.y_title")
    labels = [a.text for a in fig.layout.annotations]
    assert any("54.1" in s for s in labels) and any("97.4" in s for s in labels)
    assert line.hovertemplate


def test_without_comparison():
    t = translator("en")
    fig = days_vs_mfu_figure(t, [0.1, 0.5], [200.0, 40.0], (0.5, 40.0))
    assert len(fig.data) == 2 and len(fig.layout.shapes) == 0


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
    # the marked point's annotation is placed in log10 units on that axis
    assert fig.layout.annotations[0].y == pytest.approx(np.log10(54.1), abs=1e-3)
    assert days_vs_mfu_figure(t, grid, curve, chosen).layout.yaxis.ticktext is None   # linear: plotly's
