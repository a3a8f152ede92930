import math

import numpy as np
import pytest

from calc import decode, kernels
from calc.kernels import KernelCost
from calc.decode import (batch1_decode_mfu, batch_for_decode_mfu, critical_batch,
                         decode_memory_bytes, decode_mfu, kv_cache_bytes, max_batch_in_memory,
                         max_decode_tokens_per_s)
from calc import decode as d
from calc import training as tr


def test_bytes_per_param_table():
    assert dict(decode.BYTES_PER_PARAM) == {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}
    assert decode.bytes_per_param("BF16") == 2.0
    with pytest.raises(ValueError, match="precision"):
        decode.bytes_per_param("fp12")


def test_kv_cache_bytes():
    # Llama-2-7B-like: 2 * 32 layers * 32 heads * 128 dim * 4096 ctx * 1 seq * 2 B = 2147483648 (2 GiB)
    assert decode.kv_cache_bytes(32, 32, 128, 4096, 1, 2) == 2 * 32 * 32 * 128 * 4096 * 2
    np.testing.assert_allclose(decode.kv_cache_bytes(32, 8, 128, 4096, np.array([1, 4]), 2),
                               [2 * 32 * 8 * 128 * 4096 * 2, 4 * 2 * 32 * 8 * 128 * 4096 * 2])


def test_batching_is_free_below_the_knee():
    b = np.array([1, 16, 64, 156, 512])
    tps = decode.decode_tokens_per_s(b, 7e9, 2, 312e12, 2e12)
    # below the knee step = 14e9 / 2e12 = 7 ms, so tokens/s = batch / 7e-3
    np.testing.assert_allclose(tps[:4], b[:4] / 7e-3)
    # above: step = 2*7e9*512 / 312e12 = 22.97 ms; tokens/s = 312e12 / 1.4e10 = 22285.7
    assert tps[4] == pytest.approx(312e12 / 1.4e10)


def test_critical_batch_without_kv_is_ridge_times_bpp_over_2():
    # b* = bytes_per_param * peak / (2 * bw) = 2 * 312e12 / 4e12 = 156
    assert decode.critical_batch(7e9, 2, 312e12, 2e12) == pytest.approx(156)
    # int8 weights: 1 * 312e12 / 4e12 = 78
    assert decode.critical_batch(7e9, 1, 312e12, 2e12) == pytest.approx(78)


def test_critical_batch_with_kv_and_knee_consistency():
    k = 1e7  # KV bytes per sequence
    b = decode.critical_batch(7e9, 2, 312e12, 2e12, kv_bytes_per_seq=k)
    # b* = 14e9*312e12 / (2*7e9*2e12 - 1e7*312e12) = 4.368e24 / (2.8e22 - 3.12e21) = 175.56
    assert b == pytest.approx(4.368e24 / (2.8e22 - 3.12e21))
    mem = (14e9 + b * k) / 2e12
    comp = 2 * 7e9 * b / 312e12
    assert mem == pytest.approx(comp)
    # huge KV per sequence: never compute-bound
    assert decode.critical_batch(7e9, 2, 312e12, 2e12, kv_bytes_per_seq=1e9) == math.inf


def test_decode_step_kv_bytes_total_and_per_seq_agree():
    a = decode.decode_step_seconds(8, 7e9, 2, 312e12, 2e12, kv_bytes=8 * 5e8)
    b = decode.decode_step_seconds(8, 7e9, 2, 312e12, 2e12, kv_bytes_per_seq=5e8)
    # (14e9 + 4e9) / 2e12 = 9 ms
    assert a == pytest.approx(9e-3) and b == pytest.approx(9e-3)


def test_decode_intensity():
    # batch 1 bf16: 2*1/2 = 1 FLOP/B; batch 64: 64
    assert decode.decode_intensity(1, 2) == 1.0
    np.testing.assert_allclose(decode.decode_intensity(np.array([1, 64]), 2), [1, 64])
    # with KV: 2*7e9*4 / (14e9 + 4*1e9) = 5.6e10 / 1.8e10
    assert decode.decode_intensity(4, 2, 1e9, n_params=7e9) == pytest.approx(5.6e10 / 1.8e10)
    with pytest.raises(ValueError, match="n_params"):
        decode.decode_intensity(4, 2, 1e9)


def test_achieved_bandwidth_and_fits():
    # 100 tok/s at batch 1 reading 14e9 B per token = 1.4e12 B/s
    assert decode.achieved_bandwidth(100, 14e9) == pytest.approx(1.4e12)
    # batch 4 at 400 tok/s = 100 steps/s, each reading 14e9 + 2e9
    assert decode.achieved_bandwidth(400, 14e9, batch=4, kv_bytes=2e9) == pytest.approx(1.6e12)
    assert decode.fits_in_memory(14e9, 16e9) is True
    assert decode.fits_in_memory(14e9, 16e9, kv_bytes=3e9) is False
    assert decode.fits_in_memory(14e9, 15e9, reserve_fraction=0.1) is False  # 13.5e9 usable
    np.testing.assert_array_equal(decode.fits_in_memory(np.array([1e9, 1e11]), 80e9), [True, False])


def test_gemm_by_hand():
    # 2*8192^3 = 1099511627776 FLOP; (3 * 8192^2) * 2 B = 402653184 B
    k = kernels.gemm(8192, 8192, 8192, 2)
    assert isinstance(k, KernelCost)
    assert k.flops == 1099511627776
    assert k.bytes_moved == 402653184
    # intensity 2*8192/(3*2) = 2730.67
    assert k.intensity == pytest.approx(2730.6667, abs=1e-3)
    assert "8192×8192×8192" in k.label
    assert "2·8192·8192·8192" in k.formula
    # non-square: 2*128*256*512 = 33554432; (128*512 + 512*256 + 128*256) * 4 = 917504
    k = kernels.gemm(128, 256, 512, 4)
    assert (k.flops, k.bytes_moved) == (33554432, 917504)


def test_gemv_elementwise_softmax_layernorm_by_hand():
    g = kernels.gemv(4096, 4096, 2)
    assert g.flops == 2 * 4096 * 4096
    assert g.bytes_moved == (4096 * 4096 + 4096 + 4096) * 2
    e = kernels.elementwise(1_000_000, 2)
    assert (e.flops, e.bytes_moved) == (1e6, 4e6)  # 1 FLOP/elem; read + write 2 B
    e = kernels.elementwise(1000, 4, flops_per_elem=1, n_inputs=2)
    assert e.bytes_moved == 1000 * 3 * 4
    s = kernels.softmax(4096, 4096, 2)
    assert (s.flops, s.bytes_moved) == (5 * 4096 * 4096, 2 * 4096 * 4096 * 2)
    ln = kernels.layernorm(10, 100, 2)
    assert (ln.flops, ln.bytes_moved) == (8 * 1000, (2 * 1000 + 2 * 100) * 2)


def test_attention_flash_vs_naive_by_hand():
    # 4*b*h*s^2*d = 4*1*32*8192^2*128 = 1099511627776
    fl = kernels.attention(1, 32, 8192, 128, 2)
    assert fl.flops == 4 * 32 * 8192**2 * 128
    # flash: Q, K, V, O once: 4*1*32*8192*128*2 = 268435456
    assert fl.bytes_moved == 4 * 32 * 8192 * 128 * 2
    naive = kernels.attention(1, 32, 8192, 128, 2, flash=False)
    # + S and P through HBM: 4*s^2 per head: (4*8192*128 + 4*8192^2)*32*2
    assert naive.bytes_moved == (4 * 8192 * 128 + 4 * 8192**2) * 32 * 2
    assert naive.intensity < fl.intensity
    assert kernels.attention(1, 32, 8192, 128, 2, causal=True).flops == fl.flops / 2
    assert kernels.attention(1, 32, 8192, 128, 2, flash=False, causal=True).flops == fl.flops


@pytest.mark.parametrize("fn, args", [
    (kernels.gemm, (8192, 8192, 8192, 2)), (kernels.gemv, (4096, 4096, 2)),
    (kernels.elementwise, (1000, 2)), (kernels.softmax, (10, 10, 2)),
    (kernels.layernorm, (10, 10, 2)), (kernels.attention, (1, 2, 3, 4, 2)),
])
def test_kernel_labels_are_language_neutral_and_frozen(fn, args):
    k = fn(*args)
    assert k.label and k.formula and "=" in k.formula
    with pytest.raises(Exception):
        k.flops = 1  # type: ignore[misc]


def test_reduction_by_hand():
    # numpy.sum of 1,000,000 fp64: 999,999 adds; reads 8 MB, writes one 8-byte result.
    c = kernels.reduction(1_000_000, 8)
    assert c.flops == 999_999
    assert c.bytes_moved == 1_000_001 * 8
    assert c.intensity == pytest.approx(999_999 / 8_000_008)     # ≈ 1/8 FLOP/B
    assert c.label == "sum 1000000, 8 B"
    assert "n − 1" in c.formula and c.formula.endswith("= 8e+06")
    with pytest.raises(ValueError, match="n must be >= 2"):
        kernels.reduction(1, 8)
    with pytest.raises(ValueError):
        kernels.reduction(-5, 8)


# ---- Folded from tests/calc/test_calc_decode_review.py:
# Issue 8, defects 3, 4 and 13 in calc.decode: the KV cache in the one-request ceiling,
# batch-1 decode MFU, the largest batch that fits.  Expected values worked out by hand.
GIB = 2**30


# Llama-2-70B (config.json: 80 layers, 8 KV heads, head_dim 8192/64 = 128), bf16, 128k context:
# KV per request = 2 (K, V) x 80 x 8 x 128 x 131072 x 2 B = 42,949,672,960 B = 42.9 GB
KV_70B_128K = 2 * 80 * 8 * 128 * 131072 * 2


W_70B = 70e9 * 2                      # 140e9 B of bf16 weights


BW_8_A100 = 8 * 2.039e12              # 16.312e12 B/s


def test_kv_cache_size_of_the_example():
    assert kv_cache_bytes(80, 8, 128, 131072, 1, 2) == KV_70B_128K == pytest.approx(42.95e9, rel=1e-3)


def test_one_request_ceiling_counts_the_kv_cache():
    # without the cache: 16.312e12 / 140e9 = 116.5 tok/s (what the page showed)
    assert max_decode_tokens_per_s(W_70B, BW_8_A100) == pytest.approx(116.514, rel=1e-4)
    # with it: 16.312e12 / (140e9 + 42.95e9) = 16.312e12 / 182.95e9 = 89.16 tok/s
    assert max_decode_tokens_per_s(W_70B, BW_8_A100, KV_70B_128K) == pytest.approx(89.16, rel=1e-3)


def test_batch1_decode_mfu_is_two_over_bytes_times_ridge():
    # A100 80GB bf16: ridge 312e12 / 2.039e12 = 153.02 FLOP/B -> 2 / (2 x 153.02) = 0.6535 %
    ridge = 312e12 / 2.039e12
    assert batch1_decode_mfu(2, ridge) == pytest.approx(0.006535, rel=1e-3)
    # the same as the step model's MFU at batch 1 without KV: 2N / ((N x 2 / bw) x peak)
    assert decode_mfu(1, 7e9, 2, 312e12, 2.039e12) == pytest.approx(batch1_decode_mfu(2, ridge))
    # INT4 (0.5 B/param): 2 / (0.5 x 153.02) = 2.61 %
    assert batch1_decode_mfu(0.5, ridge) == pytest.approx(0.02614, rel=1e-3)


def test_batch_reaching_1_and_5_percent():
    # below the knee MFU(b) = b x 2 / (bpp x ridge) -> b = m x bpp x ridge / 2
    # 1 %: 0.01 x 2 x 153.02 / 2 = 1.530; 5 %: 7.651
    assert batch_for_decode_mfu(0.01, 7e9, 2, 312e12, 2.039e12) == pytest.approx(1.530, rel=1e-3)
    assert batch_for_decode_mfu(0.05, 7e9, 2, 312e12, 2.039e12) == pytest.approx(7.651, rel=1e-3)
    # 100 % is the knee: 2 x 312e12 / (2 x 2.039e12) = 153.0
    assert batch_for_decode_mfu(1.0, 7e9, 2, 312e12, 2.039e12) == pytest.approx(
        critical_batch(7e9, 2, 312e12, 2.039e12))
    # a huge cache: 2N bw = 2.85e22 < m k P for m = 5 %, k = 1e12 B -> never
    assert math.isinf(batch_for_decode_mfu(0.05, 7e9, 2, 312e12, 2.039e12, 1e12))


def test_largest_batch_that_fits():
    # 8 x 80 GiB = 687.19e9 B; (687.19e9 - 140e9) / 42.95e9 = 12.74 -> 12 requests
    assert max_batch_in_memory(W_70B, 8 * 80 * GIB, KV_70B_128K) == 12
    # with 10 % reserved: (618.48e9 - 140e9) / 42.95e9 = 11.14 -> 11
    assert max_batch_in_memory(W_70B, 8 * 80 * GIB, KV_70B_128K, reserve_fraction=0.1) == 11
    # weights alone do not fit on one 80 GiB A100 (140e9 > 85.9e9): 0
    assert max_batch_in_memory(W_70B, 80 * GIB, KV_70B_128K) == 0
    # no KV counted: memory sets no batch limit
    assert math.isinf(max_batch_in_memory(14e9, 80 * GIB, 0))
    # exactly at the edge: 10 requests of 1 GB + 10 GB weights in 20 GB -> 10
    assert max_batch_in_memory(10e9, 20e9, 1e9) == 10


def test_memory_needed():
    # 7B bf16 (14e9) + 1024 x 2.147e9 (2 x 32 x 32 x 128 x 4096 x 2) = 2.213e12 B
    assert decode_memory_bytes(14e9, 2 * 32 * 32 * 128 * 4096 * 2, 1024) == pytest.approx(2.2130e12, rel=1e-4)


# ---- Folded from tests/calc/test_calc_extra_pages.py:
# Small helpers added to calc/ for the MFU, training and decode pages.
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
