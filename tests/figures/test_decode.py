"""Decode figures (ui/figures/decode.py), built without Streamlit."""
import numpy as np
import pytest

from calc.arch import params_only
from calc.inference import decode_knee, decode_step
from ui.figures.decode import batch_figure, curve_batches, decode_roofline_figure
from ui.figures.roofline import Roof
from ui.i18n import translator

PEAK, BW = 312e12, 2.039e12


def step(b, n=7e9, context=0.0, kv_heads=32):
    """The one decode record (calc.inference) for "parameters only" with the 7B shape."""
    return decode_step(params_only(n, 32, kv_heads, 128), b, context, peak_flops=PEAK, mem_bw=BW)


def knee(n=7e9, context=0.0, kv_heads=32):
    return decode_knee(params_only(n, 32, kv_heads, 128), context, peak_flops=PEAK, mem_bw=BW)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_batch_figure(lang):
    t = translator(lang)
    b = np.geomspace(1, 4096, 50)
    s = step(b)
    thr, per = s.tokens_per_s, s.tokens_per_s_per_request
    k = knee()                                                  # 2 x 312 / (2 x 2.039) = 153
    fig = batch_figure(t, b, thr, per, knee=k, current=(1, thr[0], per[0]))
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
    s = step(1.0)
    fig = decode_roofline_figure(t, Roof("A100", PEAK, BW), ["step"], [s.flops], [s.bytes])
    points = [tr for tr in fig.data if tr.type == "scatter" and tr.hovertext]
    assert len(points) == 1                                   # SVG: a few points (GL_ABOVE)
    assert points[0].x[0] == pytest.approx(1.0)               # 1.4e10 FLOP / 1.4e10 B
    assert points[0].y[0] == pytest.approx(BW)                # on the slope: 1 x 2.039e12
    assert fig.layout.xaxis.type == "log"
    assert "step" in points[0].hovertext[0] and "%{hovertext}" in points[0].hovertemplate


# ---- Folded from tests/figures/test_fig_decode_points.py:
# ui.figures.decode.curve_batches: few points, yet the drawn curves (straight lines between
# samples on log-log axes, as plotly draws them) match the exact curves.
N, BPP, PEAK, BW = 7e9, 2.0, 312e12, 2.039e12     # 7B bf16 on an A100


def _drawn_error(context: float, kv_heads: int = 32) -> float:
    b = curve_batches(knee(N, context, kv_heads))
    dense = np.geomspace(1, 4096, 5001)
    exact = step(dense, N, context, kv_heads).tokens_per_s
    sampled = step(b, N, context, kv_heads).tokens_per_s
    drawn = np.interp(np.log(dense), np.log(b), np.log(sampled))
    return float(np.max(np.abs(drawn - np.log(exact))))


def test_powers_of_two_and_the_knee_in_about_fifty_points():
    k = knee()                                        # W·P/(2N·B) = 2·312/(2·2.039) = 153
    b = curve_batches(k)
    assert len(b) == 12 * 4 + 1 + 1
    assert all(np.any(np.isclose(b, 2.0 ** e)) for e in range(13))
    assert np.any(b == k) and 150 < k < 156


def test_without_kv_the_drawn_curve_is_exact():
    # tokens/s = min(b·B/W, P/(2N)): two straight lines on log-log axes meeting at the knee.
    assert _drawn_error(0.0) < 1e-9


def test_with_kv_the_drawn_curve_is_within_half_a_percent():
    # KV per sequence, 32 layers x 8 KV heads x 128 x 4096 context in bf16:
    # 2·32·8·128·4096·2 B = 537 MB; tokens/s = b·B/(W + b·KV) bends smoothly.
    assert _drawn_error(4096.0, kv_heads=8) < np.log(1.005)


def test_decode_roofline_figure_is_identical_when_only_the_parameter_count_changes():
    # Step work without KV: FLOPs = 2·N·b, bytes = N·bpp, intensity = 2b/bpp: no N in it.
    # Streamlit replaces a chart whose figure changed at all (plotly then draws it from
    # scratch), so with n_params the hover gives the work per weight -- 2·b FLOP and bpp
    # bytes -- and the whole figure is the same for 7B and 13B: the parameters slider
    # redraws the batch chart only.
    def fig(n, context=0.0, lang="en"):
        work = [step(float(b), n, context, kv_heads=8) for b in (1, 8)]
        return decode_roofline_figure(translator(lang), Roof("A100", PEAK, BW), ["batch 1", "batch 8"],
                                      [w.flops for w in work], [w.bytes for w in work], n_params=n)

    a, b = fig(7e9), fig(13e9)
    assert a.to_json() == b.to_json()
    hover = " ".join(h for tr in a.data if tr.hovertext for h in tr.hovertext)
    assert "Per weight: 2 FLOP, 2 B read" in hover          # batch 1: 2·1 FLOP, bf16 2 B
    assert "Per weight: 16 FLOP, 2 B read" in hover         # batch 8: 2·8 FLOP, the same 2 B
    assert "每个权重：16 FLOP，读 2 B" in " ".join(
        h for tr in fig(7e9, lang="zh").data if tr.hovertext for h in tr.hovertext)
    # With a KV cache the intensity depends on N (2bN / (N·bpp + b·KV)): the points move.
    # 7B with 32 layers x 8 KV heads x 128 at 4096 context in bf16: KV per sequence
    # 2·32·8·128·4096·2 B = 536,870,912 B; bytes per weight = 2 + b·536870912/7e9:
    # batch 1 2.0767 ("2.077"), batch 8 2.6136 ("2.614"). (The FLOPs now include attention
    # over the context, so they are not 2b per weight here.)
    with_kv = fig(7e9, context=4096.0)
    assert with_kv.to_json() != fig(13e9, context=4096.0).to_json()
    hover_kv = " ".join(h for tr in with_kv.data if tr.hovertext for h in tr.hovertext)
    assert "FLOP, 2.077 B read" in hover_kv and "FLOP, 2.614 B read" in hover_kv, hover_kv


# ---- Folded from tests/figures/test_fig_decode_review.py:
# Issue 8, defect 13: the batch chart marks the largest batch that fits.
def _fig(max_fit):
    b = np.geomspace(1, 4096, 50)
    return batch_figure(translator("en"), b, b * 100.0, np.full_like(b, 100.0), knee=153.0,
                        max_fit=max_fit)


def test_max_fit_line_and_shading():
    # 7B bf16 + 2.147e9 B of KV per request on 80 GiB: floor((85.9e9 - 14e9) / 2.147e9) = 33
    fig = _fig(33.0)
    lines = [s for s in fig.layout.shapes if s.type == "line" and s.x0 == 33.0]
    assert len(lines) == 1
    rects = [s for s in fig.layout.shapes if s.type == "rect" and s.x0 == 33.0 and s.x1 == 4096]
    assert len(rects) == 1
    assert any("largest batch that fits: 33" in a.text for a in fig.layout.annotations)


def test_no_limit_drawn_without_one():
    for max_fit in (None, float("inf"), 5000.0):
        fig = _fig(max_fit)
        assert not any("fits" in (a.text or "") for a in fig.layout.annotations)


def test_nothing_fits():
    fig = _fig(0.0)
    assert any("nothing fits" in a.text for a in fig.layout.annotations)
