"""ui.figures.decode.curve_batches: few points, yet the drawn curves (straight lines between
samples on log-log axes, as plotly draws them) match the exact curves."""
import numpy as np

from calc.decode import critical_batch, decode_tokens_per_s
from ui.figures.decode import curve_batches

N, BPP, PEAK, BW = 7e9, 2.0, 312e12, 2.039e12     # 7B bf16 on an A100


def _drawn_error(kv_seq: float) -> float:
    knee = critical_batch(N, BPP, PEAK, BW, kv_seq)
    b = curve_batches(knee)
    dense = np.geomspace(1, 4096, 5001)
    exact = decode_tokens_per_s(dense, N, BPP, PEAK, BW, kv_bytes_per_seq=kv_seq)
    sampled = decode_tokens_per_s(b, N, BPP, PEAK, BW, kv_bytes_per_seq=kv_seq)
    drawn = np.interp(np.log(dense), np.log(b), np.log(sampled))
    return float(np.max(np.abs(drawn - np.log(exact))))


def test_powers_of_two_and_the_knee_in_about_fifty_points():
    knee = critical_batch(N, BPP, PEAK, BW, 0.0)      # W·P/(2N·B) = 2·312/(2·2.039) = 153
    b = curve_batches(knee)
    assert len(b) == 12 * 4 + 1 + 1
    assert all(np.any(np.isclose(b, 2.0 ** k)) for k in range(13))
    assert np.any(b == knee) and 150 < knee < 156


def test_without_kv_the_drawn_curve_is_exact():
    # tokens/s = min(b·B/W, P/(2N)): two straight lines on log-log axes meeting at the knee.
    assert _drawn_error(0.0) < 1e-9


def test_with_kv_the_drawn_curve_is_within_half_a_percent():
    # KV per sequence, 32 layers x 8 KV heads x 128 x 4096 context in bf16:
    # 2·32·8·128·4096·2 B = 537 MB; tokens/s = b·B/(W + b·KV) bends smoothly.
    kv = 2 * 32 * 8 * 128 * 4096 * 2.0
    assert _drawn_error(kv) < np.log(1.005)


def test_decode_roofline_points_do_not_move_with_the_parameter_count():
    # Step work without KV: FLOPs = 2·N·b, bytes = N·bpp, intensity = 2b/bpp: no N in it.
    # Only the hover text may differ between 7B and 13B (a style-only update for plotly).
    from calc.decode import decode_step_work
    from ui.figures.decode import decode_roofline_figure
    from ui.figures.roofline import Roof
    from ui.i18n import translator

    t = translator("en")

    def fig(n):
        work = [decode_step_work(b, n, BPP, 0.0) for b in (1, 8)]
        return decode_roofline_figure(t, Roof("A100", PEAK, BW), ["batch 1", "batch 8"],
                                      [w[0] for w in work], [w[1] for w in work])

    a, b = fig(7e9), fig(13e9)
    pa = [tr for tr in a.data if tr.hovertext]
    pb = [tr for tr in b.data if tr.hovertext]
    assert pa and [list(tr.x) for tr in pa] == [list(tr.x) for tr in pb]
    assert [list(tr.y) for tr in pa] == [list(tr.y) for tr in pb]
    assert all(tr.customdata is None for tr in pa + pb)
    hover_a = " ".join(h for tr in pa for h in tr.hovertext)
    assert "FLOPs: 14 GFLOP" in hover_a                     # 2 · 7e9 · 1
    assert "Bytes: 14 GB" in hover_a                        # 7e9 · 2 B
    assert hover_a != " ".join(h for tr in pb for h in tr.hovertext)
