import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calc import mfu, training
from calc.mfu import MFU_BANDS, MfuBand
from calc import roofline
from calc.hardware import DEFAULT_HARDWARE_PATH
from calc.mfu import per_gpu_mix_up, tokens_per_s_per_gpu
from calc.units import format_percent, is_absurd_fraction
from calc import decode as d
from calc import training as tr

params = st.floats(min_value=1e6, max_value=1e13)
rates = st.floats(min_value=1.0, max_value=1e8)
gpus = st.integers(min_value=1, max_value=100_000)
peaks = st.floats(min_value=1e12, max_value=1e16)
fracs = st.floats(min_value=0.01, max_value=1.0)


@settings(max_examples=200, deadline=None)
@given(params, rates, gpus, peaks, st.floats(min_value=0.1, max_value=100))
def test_mfu_linear_in_tokens_per_s(n, t, g, p, k):
    assert mfu.mfu(n, k * t, g, p) == pytest.approx(k * mfu.mfu(n, t, g, p), rel=1e-9)


@settings(max_examples=200, deadline=None)
@given(params, st.floats(min_value=1e9, max_value=1e13), gpus, peaks, fracs, fracs)
def test_training_time_times_mfu_constant(n, d, g, p, m1, m2):
    t1 = training.training_seconds(n, d, g, p, m1)
    t2 = training.training_seconds(n, d, g, p, m2)
    assert t1 * m1 == pytest.approx(t2 * m2, rel=1e-9)


@settings(max_examples=100, deadline=None)
@given(params, st.floats(min_value=1e9, max_value=1e13), st.floats(min_value=3600, max_value=1e8), peaks, fracs)
def test_gpus_for_deadline_inverts_training_seconds(n, d, s, p, m):
    g = training.gpus_for_deadline(n, d, s, p, m)
    assert training.training_seconds(n, d, g, p, m) == pytest.approx(s, rel=1e-9)


@settings(max_examples=100, deadline=None)
@given(params, rates, gpus, peaks)
def test_required_tokens_inverts_mfu(n, t, g, p):
    m = mfu.mfu(n, t, g, p)
    if 0 < m <= 1:
        assert mfu.required_tokens_per_s(n, m, g, p) == pytest.approx(t, rel=1e-9)


def test_training_flops_per_token():
    # plain 6N
    assert mfu.training_flops_per_token(7e9) == 4.2e10
    # the full score matrix: 6*7e9 + 12*32*4096*8192 = 4.2e10 + 1.2885e10 = 5.4885e10
    assert mfu.training_flops_per_token(7e9, 32, 4096, 8192, causal=False) == pytest.approx(
        4.2e10 + 12 * 32 * 4096 * 8192)
    # causal (the one default, issue 19 1b) halves the attention term: 4.2e10 + 6*32*4096*8192
    assert mfu.training_flops_per_token(7e9, 32, 4096, 8192) == pytest.approx(
        4.2e10 + 6 * 32 * 4096 * 8192)
    out = mfu.training_flops_per_token(7e9, 32, 4096, np.array([0, 8192]), causal=False)
    np.testing.assert_allclose(out, [4.2e10, 4.2e10 + 12 * 32 * 4096 * 8192])


def test_attention_share_and_warning_constant():
    # 12*32*4096*8192 = 1.28849e10; / (4.2e10 + 1.28849e10) = 0.2348
    share = mfu.attention_flops_share(7e9, 32, 4096, 8192, causal=False)
    assert share == pytest.approx(12 * 32 * 4096 * 8192 / (4.2e10 + 12 * 32 * 4096 * 8192))
    # causal by default: 6*32*4096*8192 = 6.442e9; / (4.2e10 + 6.442e9) = 0.1330
    assert mfu.attention_flops_share(7e9, 32, 4096, 8192) == pytest.approx(
        6 * 32 * 4096 * 8192 / (4.2e10 + 6 * 32 * 4096 * 8192))
    assert mfu.attention_flops_share(7e9, 32, 4096, 0) == 0.0
    assert mfu.ATTENTION_WARNING_SEQ_LEN == 8192


def test_mfu_with_explicit_flops_per_token_and_arrays():
    # 5e10 * 1000 / (2 * 1e14) = 0.25
    assert mfu.mfu(7e9, 1000, 2, 1e14, flops_per_token=5e10) == pytest.approx(0.25)
    out = mfu.mfu(7e9, np.array([6000, 12000]), 8, 312e12)
    np.testing.assert_allclose(out, [0.100961538, 0.201923077], rtol=1e-8)
    assert isinstance(mfu.mfu(7e9, 12000, 8, 312e12), float)


def test_achieved_flops_per_gpu():
    # 6*7e9*12000 / 8 = 6.3e13 FLOP/s per GPU; / 312e12 = 0.2019 (the seed's MFU)
    assert mfu.achieved_flops_per_gpu(7e9, 12000, 8) == pytest.approx(6.3e13)


@pytest.mark.parametrize(
    "value, key",
    [(0.0, "problem"), (0.1999, "problem"), (0.20, "low"), (0.3499, "low"), (0.35, "fair"),
     (0.4499, "fair"), (0.45, "good"), (0.5499, "good"), (0.55, "excellent"), (0.60, "excellent"),
     (0.6001, "suspicious"), (1.5, "suspicious")],
)
def test_mfu_band_boundaries(value, key):
    band = mfu.mfu_band(value)
    assert isinstance(band, MfuBand)
    assert band.key == key
    assert band.lower <= value <= band.upper


def test_mfu_bands_are_contiguous():
    keys = [b.key for b in MFU_BANDS]
    assert keys == ["problem", "low", "fair", "good", "excellent", "suspicious"]
    for a, b in zip(MFU_BANDS, MFU_BANDS[1:]):
        assert a.upper == b.lower
    assert MFU_BANDS[-1].upper == math.inf


def test_gpu_hours_and_cost():
    # 4.2e22 / (312e12 * 0.45) / 3600 = 4.2e22 / 1.404e14 / 3600 = 2.9915e8 / 3600 = 83095.9 GPU-h
    h = training.gpu_hours(7e9, 1e12, 312e12, 0.45)
    assert h == pytest.approx(83095.9, abs=0.1)
    # equals 64 GPUs x 4.6742e6 s / 3600
    assert h == pytest.approx(64 * training.training_seconds(7e9, 1e12, 64, 312e12, 0.45) / 3600)
    assert training.training_cost(h, 2.0) == pytest.approx(2 * h)
    assert training.training_cost(0, 2.0) == 0.0


def test_tokens_for_params_and_days():
    assert training.tokens_for_params(7e9) == 1.4e11  # 20 * 7e9
    assert training.tokens_for_params(7e9, 100) == 7e11
    assert training.days(86400) == 1.0
    assert training.SECONDS_PER_DAY == 86400


def test_training_seconds_over_mfu_array():
    out = training.training_seconds(7e9, 1e12, 64, 312e12, np.array([0.25, 0.45]))
    np.testing.assert_allclose(out / 86400, [97.378, 54.099], atol=1e-3)


# ---- Folded from tests/calc/test_calc_mfu_review.py:
# Issue 8, defects 2, 10 and 14 in calc: per-GPU throughput, the per-GPU mix-up, absurd
# percentages, and the wording of the 'impossible' advice in the data and docstrings.
def test_tokens_per_gpu():
    # seed run: 12 000 tok/s on 8 GPUs = 1 500 tok/s per GPU
    assert tokens_per_s_per_gpu(12000, 8) == 1500


def test_per_gpu_mix_up():
    # 1 500 tok/s typed as the total: 6 x 7e9 x 1500 / (8 x 312e12) = 0.02524
    m = mfu.mfu(7e9, 1500, 8, 312e12)
    assert m == pytest.approx(0.02524, rel=1e-3)
    # x 8 = 0.2019: inside 20-60 % -> that explains it
    assert per_gpu_mix_up(m, 8) == pytest.approx(0.2019, rel=1e-3)
    # 0.17 % x 8 = 1.3 %: still implausible -> no suggestion; 1 GPU -> none; 25 % -> none
    assert per_gpu_mix_up(0.0017, 8) is None
    assert per_gpu_mix_up(0.05, 1) is None
    assert per_gpu_mix_up(0.25, 8) is None
    # 10 % on 64 GPUs -> 640 %: not plausible either
    assert per_gpu_mix_up(0.10, 64) is None


@pytest.mark.parametrize("x, text", [
    (0.2019, "20.2%"), (1.683, "168.3%"), (10.0, "1000.0%"),
    (1.6826923076923077e25, "> 1,000%"),   # MFU from 1e30 tok/s
    (math.inf, "> 1,000%"), (float("nan"), "—"),
])
def test_format_percent(x, text):
    assert format_percent(x) == text


def test_absurd():
    assert is_absurd_fraction(10.01) and is_absurd_fraction(math.inf)
    assert not is_absurd_fraction(10.0) and not is_absurd_fraction(1.68)


def test_hardware_header_does_not_blame_sparse_peaks_for_mfu_above_100():
    header = DEFAULT_HARDWARE_PATH.read_text().split("\n[devices.")[0]
    assert "most common cause" not in header
    assert "LOWER" in header and "too small" in header and "active parameters" in header


def test_above_roof_docstring_names_the_causes_that_push_a_point_up():
    doc = roofline.__dict__["__doc__"] or ""
    src = open(roofline.__file__).read()
    block = src.split("ABOVE_ROOF_FRACTION = 1.05")[1].split('"""')[1]
    assert "too small" in block and "cache" in block and "too short" in block
    assert "BELOW the roof, never" in block and doc is not None


# ---- Folded from tests/calc/test_calc_extra_pages.py:
# Small helpers added to calc/ for the MFU, training and decode pages.
def test_mfu_gain_seed():
    # 6*7e9*1e12 = 4.2e22 FLOP; 64*312e12 = 1.9968e16 FLOP/s
    # at 25 %: 4.2e22/(1.9968e16*0.25) = 8.413e6 s = 97.4 days; at 45 %: 54.1 days -> 43.3 days
    g = tr.mfu_gain(7e9, 1e12, 64, 312e12, 0.25, 0.45, price_per_gpu_hour=2.0)
    assert g.days == pytest.approx(97.37 - 54.10, abs=0.05)
    # GPU-hours: 4.2e22/(312e12*0.25)/3600 = 149 573; at 45 %: 83 096 -> 66 477 saved
    assert g.gpu_hours == pytest.approx(149573.0 - 83096.1, rel=1e-4)
    assert g.cost == pytest.approx(2 * g.gpu_hours)


def test_seconds_from_days():
    assert tr.seconds_from_days(30) == 2_592_000.0
    assert tr.days(tr.seconds_from_days(54.1)) == pytest.approx(54.1)
    with pytest.raises(ValueError):
        tr.seconds_from_days(0)
