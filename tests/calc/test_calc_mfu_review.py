"""Issue 8, defects 2, 10 and 14 in calc: per-GPU throughput, the per-GPU mix-up, absurd
percentages, and the wording of the 'impossible' advice in the data and docstrings."""
import math

import pytest

from calc import roofline
from calc.hardware import DEFAULT_HARDWARE_PATH
from calc.mfu import mfu, per_gpu_mix_up, tokens_per_s_per_gpu
from calc.units import format_percent, is_absurd_fraction


def test_tokens_per_gpu():
    # seed run: 12 000 tok/s on 8 GPUs = 1 500 tok/s per GPU
    assert tokens_per_s_per_gpu(12000, 8) == 1500


def test_per_gpu_mix_up():
    # 1 500 tok/s typed as the total: 6 x 7e9 x 1500 / (8 x 312e12) = 0.02524
    m = mfu(7e9, 1500, 8, 312e12)
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
