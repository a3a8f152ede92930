"""Issue 8, defects 6 and 10 in calc: zero-FLOP kernels are placed and judged by bandwidth;
table cells obey the bounds of every field (1e-30..1e30)."""
import numpy as np
import pytest

from calc.kernel_table import parse_rows
from calc.roofline import place_kernel, place_kernels

A100_PEAK, A100_BW = 312e12, 2.039e12


def test_zero_flop_kernel_judged_by_bandwidth():
    # a device-to-device copy of 1 GB reads and writes it: 2e9 bytes in 1.2 ms
    # -> 2e9 / 1.2e-3 = 1.667e12 B/s = 1.667 / 2.039 = 81.7 % of the memory roof: near the roof
    p = place_kernels(np.array([0.0, 2 * 8192.0**3]), np.array([2e9, 4.03e8]), A100_PEAK, A100_BW,
                      seconds=np.array([1.2e-3, 4.4e-3]))
    assert p.intensity[0] == 0 and p.attainable_flops[0] == 0 and p.bound[0] == "memory"
    assert p.zero_flop.tolist() == [True, False]
    assert p.achieved_bw[0] == pytest.approx(1.6667e12, rel=1e-4)
    assert p.fraction_of_roof[0] == pytest.approx(0.8174, rel=1e-3)
    assert p.verdict[0] == "near_roof"
    # the GEMM keeps its FLOP-based fraction: (1.0995e12 / 4.4e-3) / 312e12 = 80.1 %
    assert p.fraction_of_roof[1] == pytest.approx(2 * 8192.0**3 / 4.4e-3 / 312e12, rel=1e-9)


def test_slow_fill_is_below_the_roof():
    # fill_ writing 100 MB in 1 ms: 1e11 B/s = 4.9 % of 2.039 TB/s
    k = place_kernel(0, 1e8, A100_PEAK, A100_BW, 1e-3)
    assert k.fraction_of_roof == pytest.approx(1e11 / 2.039e12) and k.verdict == "below_roof"


def test_table_accepts_zero_flops_with_bytes():
    r = parse_rows([{"name": "copy_", "flops": "0", "bytes": "2 GB", "seconds": "1.2 ms"}])
    assert r.ok and r.kernels[0].flops == 0.0


@pytest.mark.parametrize("cell, code", [(2**1000, "le"), ("2**1000", "le"), ("1e31", "le"),
                                        ("1e-31", "ge")])
def test_cells_obey_the_field_bounds(cell, code):
    r = parse_rows([{"name": "k", "flops": cell, "bytes": "1e9"}])
    (e,) = r.errors
    assert e.code == code and e.column == "flops"
    assert e.limit == ("1e+30 FLOP" if code == "le" else "1e-30 FLOP")
    assert e.message.endswith(("must be at most 1e+30 FLOP", "must be at least 1e-30 FLOP"))


def test_bytes_and_seconds_bounded_too():
    r = parse_rows([{"name": "k", "flops": "1", "bytes": 1e40, "seconds": 1e-40}])
    assert {e.column for e in r.errors} == {"bytes", "seconds"}
