"""ui.figures.decode.curve_batches: few points, yet the drawn curves (straight lines between
samples on log-log axes, as plotly draws them) match the exact curves."""
import numpy as np

from calc.decode import critical_batch, decode_tokens_per_sec
from ui.figures.decode import curve_batches

N, BPP, PEAK, BW = 7e9, 2.0, 312e12, 2.039e12     # 7B bf16 on an A100


def _drawn_error(kv_seq: float) -> float:
    knee = critical_batch(N, BPP, PEAK, BW, kv_seq)
    b = curve_batches(knee)
    dense = np.geomspace(1, 4096, 5001)
    exact = decode_tokens_per_sec(dense, N, BPP, PEAK, BW, kv_bytes_per_seq=kv_seq)
    sampled = decode_tokens_per_sec(b, N, BPP, PEAK, BW, kv_bytes_per_seq=kv_seq)
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
