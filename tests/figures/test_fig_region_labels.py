"""Region names of the roofline ("memory-bound: …", "compute-bound: …") sit in opposite
corners, so they never run into each other (they did on the home page's small chart), and
the training figure draws one label when both MFUs are the same."""
import math

import numpy as np
import pytest

from ui.figures.roofline import Roof, roofline_figure
from ui.figures.training import days_vs_mfu_figure
from ui.i18n import translator

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
    fig = days_vs_mfu_figure(t, grid, 24.3 / grid, (0.45, 54.1), (0.45, 54.1))
    assert len(fig.layout.annotations) == 1 and "45%: 54.1 days" in fig.layout.annotations[0].text
    fig = days_vs_mfu_figure(t, grid, 24.3 / grid, (0.45, 54.1), (0.25, 97.4))
    assert len(fig.layout.annotations) == 2


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
