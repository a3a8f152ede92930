"""The a100-textbook preset reproduces the seed chapter's round numbers exactly.

Chapter 04: A100 BF16 312 TFLOP/s, bandwidth 2 TB/s; ridge 312 / 2 = 156 FLOP/B;
intensity 2 => min(312, 2 x 2) = 4 TFLOP/s; 7B BF16 = 14 GB => 2000 / 14 = 142.86 tok/s.
The real A100 presets keep their datasheet bandwidths (2.039 TB/s for the SXM4 80GB).
"""
import pytest

from calc.decode import max_decode_tokens_per_s, model_bytes
from calc.hardware import load_hardware
from calc.roofline import attainable_flops, ridge_point


@pytest.fixture(scope="module")
def textbook():
    return load_hardware()["a100-textbook"]


def test_textbook_numbers(textbook):
    assert textbook.peak_flops("bf16") == 312e12
    assert textbook.mem_bw == 2e12
    assert "chapter" in textbook.source.lower()
    assert ridge_point(textbook.peak_flops("bf16"), textbook.mem_bw) == 156.0
    assert attainable_flops(2.0, textbook.peak_flops("bf16"), textbook.mem_bw) == 4e12
    assert max_decode_tokens_per_s(model_bytes(7e9, 2.0), textbook.mem_bw) == pytest.approx(2000 / 14)


def test_real_a100_untouched():
    hw = load_hardware()
    assert hw["a100-80gb-sxm"].mem_bw == pytest.approx(2.039e12)
    assert hw["a100-40gb-sxm"].mem_bw == pytest.approx(1.555e12)
