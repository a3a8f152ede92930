"""calc.views: time shares, top-N, marker sizes, name filter, per-level points, speed-up
bound between devices (values worked out by hand in the comments)."""
import math

import numpy as np
import pytest

from calc.kernel_table import KernelRecord
from calc.views import (
    level_intensities,
    level_points,
    name_mask,
    share_sizes,
    speedup_bound,
    speedup_regime,
    time_shares,
    top_n_mask,
)

A100 = (312e12, 2.039e12)      # a100-80gb-sxm bf16 dense, HBM2e
H100 = (989.4e12, 3.35e12)     # h100-sxm bf16 dense, HBM3


def test_time_shares_by_hand():
    # 3 + 1 = 4 s measured: 3/4, 1/4; the unmeasured kernel counts 0
    assert time_shares([3.0, 1.0, None]).tolist() == [0.75, 0.25, 0.0]
    assert time_shares([2.0, float("nan"), 0.0, -1.0]).tolist() == [1.0, 0.0, 0.0, 0.0]


def test_time_shares_none_measured():
    assert time_shares([None, None]).tolist() == [0.0, 0.0]
    assert time_shares([]).tolist() == []


def test_top_n_mask():
    s = [1.0, None, 3.0, 2.0]
    assert top_n_mask(s, 2).tolist() == [False, False, True, True]
    assert top_n_mask(s, 0).tolist() == [False] * 4
    # more than measured: every measured kernel, never the unmeasured one
    assert top_n_mask(s, 10).tolist() == [True, False, True, True]
    # ties keep the earlier kernel
    assert top_n_mask([1.0, 1.0, 1.0], 1).tolist() == [True, False, False]
    with pytest.raises(ValueError):
        top_n_mask(s, 1.5)


def test_share_sizes_area_grows_with_share():
    # biggest -> 32 px; a quarter of the biggest share -> 6 + 26 * sqrt(1/4) = 19 px
    sizes = share_sizes([0.8, 0.2, 0.0])
    assert sizes[0] == pytest.approx(32.0)
    assert sizes[1] == pytest.approx(19.0)
    assert sizes[2] == pytest.approx(6.0)
    assert share_sizes([0.0, 0.0]).tolist() == [6.0, 6.0]


def test_name_mask_case_insensitive_substring():
    names = ["aten::mm", "GEMM tiled", "attention fwd"]
    assert name_mask(names, "MM").tolist() == [True, True, False]
    assert name_mask(names, "  ").tolist() == [True, True, True]
    assert name_mask(names, None).tolist() == [True, True, True]
    assert name_mask(names, "zzz").tolist() == [False, False, False]


def test_speedup_bound_a100_to_h100_memory_bound():
    # intensity 2 FLOP/B is left of both ridges (153 and 295 FLOP/B):
    # bound = (2 x 3.35e12) / (2 x 2.039e12) = 3350 / 2039 = 1.64296...
    r = speedup_bound(2.0, *A100, *H100)
    assert r == pytest.approx(3350 / 2039, rel=1e-12)
    assert round(r, 2) == 1.64
    assert speedup_regime(2.0, *A100, *H100) == "memory"


def test_speedup_bound_compute_and_mixed():
    # intensity 1000 FLOP/B: compute-bound on both -> 989.4 / 312 = 3.171
    assert speedup_bound(1000.0, *A100, *H100) == pytest.approx(989.4 / 312)
    assert speedup_regime(1000.0, *A100, *H100) == "compute"
    # intensity 200: A100 ridge 153 (compute-bound: 312e12), H100 ridge 295 (memory:
    # 200 x 3.35e12 = 670e12) -> 670 / 312 = 2.147
    assert speedup_bound(200.0, *A100, *H100) == pytest.approx(670 / 312)
    assert speedup_regime(200.0, *A100, *H100) == "mixed"


def test_speedup_bound_arrays_and_slower():
    r = speedup_bound(np.array([2.0, 1000.0]), *H100, *A100)
    assert r == pytest.approx([2039 / 3350, 312 / 989.4])
    reg = speedup_regime(np.array([2.0, 1000.0]), *H100, *A100)
    assert list(reg) == ["memory", "compute"]
    # intensity 0 (a copy): the limit I -> 0, the bandwidth ratio 3350 / 2039, memory
    assert speedup_bound(0.0, *A100, *H100) == pytest.approx(3350 / 2039)
    assert speedup_bound(np.array([0.0, 2.0]), *A100, *H100) == pytest.approx([3350 / 2039] * 2)
    assert speedup_regime(0.0, *A100, *H100) == "memory"
    with pytest.raises(ValueError):
        speedup_bound(-1.0, *A100, *H100)


def test_level_intensities():
    assert level_intensities(100.0, (("dram", 10.0), ("l2", 50.0), ("l1", 0.0))) == {
        "dram": 10.0, "l2": 2.0}
    assert level_intensities(100.0, {"dram": 25.0}) == {"dram": 4.0}


def test_level_points_height_and_intensity():
    k_timed = KernelRecord("a", 1e9, 1e7, 1e-3, 1, "", (("dram", 1e7), ("l2", 4e7), ("l1", 1e8)))
    k_untimed = KernelRecord("b", 2e9, 1e9, None, 1, "", (("dram", 1e9),))
    k_noflops = KernelRecord("c", None, 1e6, 1e-3, 1, "", (("dram", 1e6),))
    k_nolevels = KernelRecord("d", 1e9, 1e6, 1e-3)
    pts = level_points([k_timed, k_untimed, k_noflops, k_nolevels], 312e12, 2.039e12)
    assert pts.kernel.tolist() == [0, 0, 0, 1]
    assert pts.level.tolist() == ["dram", "l2", "l1", "dram"]
    # timed: y = 1e9 / 1e-3 = 1e12 FLOP/s at every level; intensity 100, 25, 10
    assert pts.intensity[:3].tolist() == [100.0, 25.0, 10.0]
    assert pts.y[:3].tolist() == [1e12, 1e12, 1e12]
    # untimed: drawn at its attainable: min(312e12, 2 x 2.039e12) = 4.078e12
    assert pts.y[3] == pytest.approx(4.078e12)
    assert len(level_points([], 1.0, 1.0)) == 0
    assert math.isfinite(float(pts.y.sum()))
