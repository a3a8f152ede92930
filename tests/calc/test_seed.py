"""Every worked example of the seed chapter (04 · Roofline 与 MFU), expected values by hand."""

import pytest

from calc import decode, mfu, roofline, training
from calc.hardware import load_hardware
from calc.arch import params_only
from calc.inference import decode_step
from calc.roofline import attainable_flops, ridge_point

A100_PEAK = 312e12  # A100 bf16 dense, FLOP/s (seed: "A100 是 312 TFLOPS")
A100_BW_SEED = 2e12  # the seed rounds A100 bandwidth to 2 TB/s


def test_ridge_point_a100_is_156():
    # 312e12 FLOP/s / 2e12 B/s = 156 FLOP/B
    assert roofline.ridge_point(A100_PEAK, A100_BW_SEED) == pytest.approx(156.0)


def test_intensity_2_cannot_exceed_4_tflops():
    # min(312e12, 2 * 2e12) = min(312e12, 4e12) = 4e12 FLOP/s
    assert roofline.attainable_flops(2, A100_PEAK, A100_BW_SEED) == pytest.approx(4e12)


def test_mfu_7b_8xa100_12000_tokens_is_20_2_percent():
    # 6 * 7e9 * 12000 = 5.04e14 FLOP/s achieved; 8 * 312e12 = 2.496e15 peak
    # 5.04e14 / 2.496e15 = 0.2019230769...
    value = mfu.mfu(7e9, 12000, 8, A100_PEAK)
    assert value == pytest.approx(0.20192307692, rel=1e-9)
    assert f"{value:.1%}" == "20.2%"
    # 20.2 % is "偏低" (20-35 %): the "low" band
    assert mfu.mfu_band(value).key == "low"


def test_training_7b_1t_tokens_64_a100_mfu_45_is_54_days():
    # 6 * 7e9 * 1e12 = 4.2e22 FLOP
    assert training.training_flops(7e9, 1e12) == pytest.approx(4.2e22)
    # 64 * 312e12 * 0.45 = 8.9856e15 FLOP/s; 4.2e22 / 8.9856e15 = 4.6742e6 s
    seconds = training.training_seconds(7e9, 1e12, 64, A100_PEAK, 0.45)
    assert seconds == pytest.approx(4.6742e6, rel=1e-4)
    # 4.6742e6 / 86400 = 54.10 days  ("≈ 54 天")
    assert training.days(seconds) == pytest.approx(54.10, abs=0.01)
    assert round(training.days(seconds)) == 54


def test_training_at_mfu_25_is_97_days_43_more():
    # 64 * 312e12 * 0.25 = 4.992e15; 4.2e22 / 4.992e15 = 8.4135e6 s = 97.38 days
    d25 = training.days(training.training_seconds(7e9, 1e12, 64, A100_PEAK, 0.25))
    d45 = training.days(training.training_seconds(7e9, 1e12, 64, A100_PEAK, 0.45))
    assert d25 == pytest.approx(97.38, abs=0.01)
    assert round(d25) == 97
    # "差了 43 天的机时": 97.38 - 54.10 = 43.28
    assert round(d25 - d45) == 43


def test_decode_7b_bf16_on_a100_is_143_tokens_per_s():
    # 7e9 params * 2 bytes (bf16) = 14e9 bytes ("14GB")
    s = decode_step(params_only(7e9), 1, 0, peak_flops=A100_PEAK, mem_bw=A100_BW_SEED)
    assert s.weight_bytes == pytest.approx(14e9)
    # 2e12 / 14e9 = 142.857... ≈ 143 tokens/s
    tps = s.tokens_per_s
    assert tps == pytest.approx(142.857, abs=1e-3)
    assert round(tps) == 143


def test_decode_7b_bf16_on_real_a100_80gb_datasheet_bandwidth():
    # A100 80GB SXM datasheet bandwidth 2039 GB/s: 2.039e12 / 14e9 = 145.64 tokens/s
    a100 = load_hardware()["a100-80gb-sxm"]
    s = decode_step(params_only(7e9), 1, 0, peak_flops=A100_PEAK, mem_bw=a100.mem_bw)
    assert s.tokens_per_s == pytest.approx(145.64, abs=0.01)


def test_decode_batch_1_equals_bandwidth_over_model_size():
    # batch 1, no KV: step = max(14e9 / 2e12, 2*7e9*1 / 312e12) = max(7e-3, 4.49e-5) = 7e-3 s
    s = decode_step(params_only(7e9), 1, 0, peak_flops=A100_PEAK, mem_bw=A100_BW_SEED)
    assert s.seconds == pytest.approx(7e-3) and s.bound == "memory"
    assert s.compute_seconds == pytest.approx(4.487e-5, rel=1e-3)
    assert s.tokens_per_s == pytest.approx(142.857, abs=1e-3)


def test_quantisation_halves_model_doubles_speed():
    # "模型小一半 → 速度快一倍": int8 = 7e9 bytes; 2e12 / 7e9 = 285.7 tokens/s
    s = decode_step(params_only(7e9), 1, 0, peak_flops=A100_PEAK, mem_bw=A100_BW_SEED,
                    bytes_per_param=1.0)
    assert s.weight_bytes == 7e9 and s.tokens_per_s == pytest.approx(285.714, abs=1e-3)


def test_why_6n_per_weight_matrix():
    # forward 2mn + grad wrt input 2mn + grad wrt weights 2mn = 6mn; m*n = N
    m, n = 4096, 11008
    assert mfu.training_flops_per_token(m * n) == 6 * m * n


# ---- Folded from tests/calc/test_calc_textbook_device.py:
# The a100-textbook preset reproduces the seed chapter's round numbers exactly.
#
# Chapter 04: A100 BF16 312 TFLOP/s, bandwidth 2 TB/s; ridge 312 / 2 = 156 FLOP/B;
# intensity 2 => min(312, 2 x 2) = 4 TFLOP/s; 7B BF16 = 14 GB => 2000 / 14 = 142.86 tok/s.
# The real A100 presets keep their datasheet bandwidths (2.039 TB/s for the SXM4 80GB).
@pytest.fixture(scope="module")
def textbook():
    return load_hardware()["a100-textbook"]


def test_textbook_numbers(textbook):
    assert textbook.peak_flops("bf16") == 312e12
    assert textbook.mem_bw == 2e12
    assert "chapter" in textbook.source.lower()
    assert ridge_point(textbook.peak_flops("bf16"), textbook.mem_bw) == 156.0
    assert attainable_flops(2.0, textbook.peak_flops("bf16"), textbook.mem_bw) == 4e12
    s = decode_step(params_only(7e9), 1, 0, peak_flops=textbook.peak_flops("bf16"),
                    mem_bw=textbook.mem_bw)
    assert s.tokens_per_s == pytest.approx(2000 / 14)


def test_real_a100_untouched():
    hw = load_hardware()
    assert hw["a100-80gb-sxm"].mem_bw == pytest.approx(2.039e12)
    assert hw["a100-40gb-sxm"].mem_bw == pytest.approx(1.555e12)
