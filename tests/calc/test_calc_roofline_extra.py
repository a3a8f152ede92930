"""calc.roofline.min_seconds: the time floor max(flops/peak, bytes/bw)."""
import numpy as np
import pytest

from calc.roofline import min_seconds, place_kernels


def test_memory_bound_floor_is_bytes_over_bandwidth():
    # 2 GFLOP over 1 GB on A100 80GB bf16: 1e9 / 2.039e12 = 0.4904 ms > 2e9 / 312e12.
    assert min_seconds(2e9, 1e9, 312e12, 2.039e12) == pytest.approx(1e9 / 2.039e12)


def test_compute_bound_floor_is_flops_over_peak():
    f = 2 * 8192**3
    assert min_seconds(f, 3 * 8192**2 * 2, 312e12, 2.039e12) == pytest.approx(f / 312e12)


def test_vectorized_matches_flops_over_attainable():
    f = np.array([2e9, 2 * 8192.0**3, 3.3e7])
    b = np.array([1e9, 4.0e8, 3.3e7])
    got = min_seconds(f, b, 312e12, 2.039e12)
    pl = place_kernels(f, b, 312e12, 2.039e12)
    np.testing.assert_allclose(got, f / pl.attainable_flops, rtol=1e-12)


def test_rejects_bad_input():
    with pytest.raises(ValueError):
        min_seconds(1.0, 0.0, 1.0, 1.0)
