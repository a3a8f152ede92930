import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from calc import mfu, training
from calc.mfu import MFU_BANDS, MfuBand

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
    # 6*7e9 + 12*32*4096*8192 = 4.2e10 + 1.2885e10 = 5.4885e10
    assert mfu.training_flops_per_token(7e9, 32, 4096, 8192) == pytest.approx(4.2e10 + 12 * 32 * 4096 * 8192)
    # causal halves the attention term: 4.2e10 + 6*32*4096*8192
    assert mfu.training_flops_per_token(7e9, 32, 4096, 8192, causal=True) == pytest.approx(
        4.2e10 + 6 * 32 * 4096 * 8192)
    out = mfu.training_flops_per_token(7e9, 32, 4096, np.array([0, 8192]))
    np.testing.assert_allclose(out, [4.2e10, 4.2e10 + 12 * 32 * 4096 * 8192])


def test_attention_share_and_warning_constant():
    # 12*32*4096*8192 = 1.28849e10; / (4.2e10 + 1.28849e10) = 0.2348
    share = mfu.attention_flops_share(7e9, 32, 4096, 8192)
    assert share == pytest.approx(12 * 32 * 4096 * 8192 / (4.2e10 + 12 * 32 * 4096 * 8192))
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
