"""Issue 8, defects 6 and 10 on the Roofline page's outputs (pure builders, both languages):
zero-FLOP kernels in the results, the sentences and the chart; absurd fractions; cell
errors worded like field errors; a readable number of tick labels."""
import numpy as np
import pytest

from calc.kernel_table import parse_rows
from ui.figures.roofline import MAX_TICKS, decade_ticks
from ui.i18n import translator
from ui.roofline import results as R
from ui.roofline.chart import main_roof, points
from ui.roofline.table import error_lines
from ui.figures.roofline import roofline_figure

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
    assert df[t("roofline.r.fraction")][0] == "81.7 %"     # text, "—" without a time (issue 16)


def test_zero_flop_point_sits_in_the_strip_at_the_left_edge():
    t = translator("en")
    a = analysis()
    fig = roofline_figure(t, [main_roof("A100", A100_PEAK, A100_BW)], points(t, a))
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
