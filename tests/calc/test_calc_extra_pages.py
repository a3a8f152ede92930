"""Small helpers added to calc/ for the MFU, training and decode pages."""
import math

import numpy as np
import pytest

from calc import decode as d
from calc import training as tr


def test_mfu_gain_seed():
    # 6*7e9*1e12 = 4.2e22 FLOP; 64*312e12 = 1.9968e16 FLOP/s
    # at 25 %: 4.2e22/(1.9968e16*0.25) = 8.413e6 s = 97.4 days; at 45 %: 54.1 days -> 43.3 days
    g = tr.mfu_gain(7e9, 1e12, 64, 312e12, 0.25, 0.45, price_per_gpu_hour=2.0)
    assert g.days == pytest.approx(97.37 - 54.10, abs=0.05)
    # GPU-hours: 4.2e22/(312e12*0.25)/3600 = 149 573; at 45 %: 83 096 -> 66 477 saved
    assert g.gpu_hours == pytest.approx(149573.0 - 83096.1, rel=1e-4)
    assert g.cost == pytest.approx(2 * g.gpu_hours)


def test_aggregate_and_per_sequence():
    assert d.aggregate(2e12, 4) == 8e12
    assert np.allclose(d.aggregate(np.array([1.0, 2.0]), 2), [2.0, 4.0])
    with pytest.raises(ValueError):
        d.aggregate(2e12, 0)
    # batch 1: 1 / (14e9 / 2e12) = 142.86 tok/s
    assert d.per_sequence_tokens_per_s(1, 7e9, 2, 312e12, 2e12) == pytest.approx(142.857, rel=1e-4)
    b = np.array([1.0, 1e4])
    per = d.per_sequence_tokens_per_s(b, 7e9, 2, 312e12, 2e12)
    # batch 10 000 is compute bound: step = 2*7e9*1e4/312e12 = 0.4487 s
    assert per[1] == pytest.approx(1 / 0.44872, rel=1e-4)


def test_step_work_mfu_mbu():
    f, b = d.decode_step_work(1, 7e9, 2.0)
    assert (f, b) == (1.4e10, 1.4e10)
    f, b = d.decode_step_work(4, 7e9, 2.0, kv_bytes_per_seq=1e9)
    assert (f, b) == (5.6e10, 1.8e10)
    # 7B bf16 on A100: 2.039e12 B/s / 14e9 B * 1.4e10 FLOP = 2.039e12 FLOP/s -> / 312e12 = 0.65 %
    assert d.decode_mfu(1, 7e9, 2.0, 312e12, 2.039e12) == pytest.approx(0.006535, rel=1e-3)
    assert d.bandwidth_utilisation(1e12, 2e12) == 0.5
    assert math.isclose(d.bandwidth_utilisation(0, 2e12), 0.0)


def test_seconds_from_days():
    assert tr.seconds_from_days(30) == 2_592_000.0
    assert tr.days(tr.seconds_from_days(54.1)) == pytest.approx(54.1)
    with pytest.raises(ValueError):
        tr.seconds_from_days(0)
