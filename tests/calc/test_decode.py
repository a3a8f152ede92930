import math

import numpy as np
import pytest

from calc import decode, kernels
from calc.arch import kv_cache_bytes_per_seq, params_only
from calc.decode import batch1_decode_mfu
from calc.inference import (batch_for_decode_mfu, decode_knee, decode_step, max_batch_that_fits)
from calc.kernels import KernelCost
from calc.placement import memory_fit, place
from calc import decode as d
from calc import training as tr

# The decode step lives once, in calc.inference ("parameters only" = calc.arch.params_only,
# a dense model of N parameters whose shape gives the KV cache): these are the seed-level
# cases of the former calc.decode step functions, each through that one record.
N7 = params_only(7e9)                                   # 32 layers, 32 KV heads of 128


def step(arch, batch, context=0.0, peak=312e12, bw=2e12, bpp=2.0, **kw):
    return decode_step(arch, batch, context, peak_flops=peak, mem_bw=bw, bytes_per_param=bpp, **kw)


def test_bytes_per_param_table():
    assert dict(decode.BYTES_PER_PARAM) == {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1, "int8": 1, "int4": 0.5}
    assert decode.bytes_per_param("BF16") == 2.0
    with pytest.raises(ValueError, match="precision"):
        decode.bytes_per_param("fp12")


def test_kv_cache_bytes():
    # Llama-2-7B-like: 2 * 32 layers * 32 heads * 128 dim * 4096 ctx * 1 seq * 2 B = 2147483648 (2 GiB)
    assert kv_cache_bytes_per_seq(N7, 4096, 2) == 2 * 32 * 32 * 128 * 4096 * 2
    gqa = params_only(7e9, 32, 8, 128)
    np.testing.assert_allclose(place(gqa, context_len=4096, batch=np.array([1, 4])).kv_bytes,
                               [2 * 32 * 8 * 128 * 4096 * 2, 4 * 2 * 32 * 8 * 128 * 4096 * 2])


def test_batching_is_free_below_the_knee():
    b = np.array([1, 16, 64, 156, 512])
    tps = step(N7, b).tokens_per_s
    # below the knee step = 14e9 / 2e12 = 7 ms, so tokens/s = batch / 7e-3
    np.testing.assert_allclose(tps[:4], b[:4] / 7e-3)
    # above: step = 2*7e9*512 / 312e12 = 22.97 ms; tokens/s = 312e12 / 1.4e10 = 22285.7
    assert tps[4] == pytest.approx(312e12 / 1.4e10)


def test_critical_batch_without_kv_is_ridge_times_bpp_over_2():
    # b* = bytes_per_param * peak / (2 * bw) = 2 * 312e12 / 4e12 = 156
    assert decode_knee(N7, 0, peak_flops=312e12, mem_bw=2e12) == pytest.approx(156)
    # int8 weights: 1 * 312e12 / 4e12 = 78
    assert decode_knee(N7, 0, peak_flops=312e12, mem_bw=2e12, bytes_per_param=1.0) == pytest.approx(78)


def test_critical_batch_with_kv_and_knee_consistency():
    # 16 tokens of context: k = 2·32·32·128·16·2 B = 8,388,608 B of KV per sequence and
    # A = 4·32·32·128·16 = 8,388,608 FLOP of attention per token.  Setting
    # (14e9 + b·k) / 2e12 = b·(1.4e10 + A) / 312e12:
    # b* = 14e9·312e12 / ((1.4e10 + A)·2e12 − k·312e12) = 4.368e24 / (2.80168e22 − 2.6172e21)
    k = 2 * 32 * 32 * 128 * 16 * 2
    a = 4 * 32 * 32 * 128 * 16
    b = decode_knee(N7, 16, peak_flops=312e12, mem_bw=2e12)
    assert b == pytest.approx(14e9 * 312e12 / ((1.4e10 + a) * 2e12 - k * 312e12), rel=1e-9)
    s = step(N7, b, 16)
    assert s.memory_seconds == pytest.approx(s.compute_seconds)
    # huge KV per sequence (4096 tokens: 2.15 GB each): never compute-bound
    assert decode_knee(N7, 4096, peak_flops=312e12, mem_bw=2e12) == math.inf


def test_decode_step_kv_read():
    # 8 sequences of 4096 tokens of the 7B shape's cache, 2.147e9 B each:
    # (14e9 + 8 · 2.147e9) / 2e12 = 15.59 ms
    kv = 2 * 32 * 32 * 128 * 4096 * 2
    s = step(N7, 8, 4096)
    assert s.kv_bytes == pytest.approx(8 * kv)
    assert s.seconds == pytest.approx((14e9 + 8 * kv) / 2e12)


def test_decode_intensity():
    # batch 1 bf16: 2*1/2 = 1 FLOP/B; batch 64: 64
    assert step(N7, 1).intensity == 1.0
    np.testing.assert_allclose(step(N7, np.array([1.0, 64.0])).intensity, [1, 64])
    # with KV at 16 tokens: 4·(1.4e10 + A) / (14e9 + 4·k), k = A = 8,388,608
    k = a = 8_388_608
    assert step(N7, 4, 16).intensity == pytest.approx(4 * (1.4e10 + a) / (14e9 + 4 * k))


def test_achieved_bandwidth_and_fits():
    # 100 tok/s at batch 1 reading 14e9 B per token = 1.4e12 B/s
    assert decode.achieved_bandwidth(100, 14e9) == pytest.approx(1.4e12)
    # batch 4 at 400 tok/s = 100 steps/s, each reading 14e9 + 2e9
    assert decode.achieved_bandwidth(400, 14e9, batch=4, kv_bytes=2e9) == pytest.approx(1.6e12)
    # the one memory rule (10 % kept free): 14 GB in 16 GB fits (14.4 usable); + 3 GB does not
    assert memory_fit(14e9, 16e9).fits
    assert memory_fit(17e9, 16e9).verdict == "no"
    assert memory_fit(14e9, 15e9).verdict == "tight"             # 13.5e9 usable
    np.testing.assert_array_equal(memory_fit(np.array([1e9, 1e11]), 80e9).fits, [True, False])


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


# "Parameters only" with Llama-2-70B's KV shape, as the Decode page builds it.
A70 = params_only(70e9, 80, 8, 128)


def test_kv_cache_size_of_the_example():
    assert kv_cache_bytes_per_seq(A70, 131072, 2) == KV_70B_128K == pytest.approx(42.95e9, rel=1e-3)


def test_one_request_ceiling_counts_the_kv_cache():
    # 8 GPUs: each reads 140e9 / 8 = 17.5e9 B of weights and 42.95e9 / min(8, 8) of the cache
    # at its own 2.039e12 B/s.  Without the cache: 2.039e12 / 17.5e9 = 116.5 tok/s
    assert step(A70, 1, 0, bw=2.039e12, tp=8).tokens_per_s == pytest.approx(116.514, rel=1e-4)
    # with it: 2.039e12 / (17.5e9 + 5.369e9) = 89.16 tok/s (= 16.312e12 / 182.95e9)
    assert step(A70, 1, 131072, bw=2.039e12, tp=8).tokens_per_s == pytest.approx(89.16, rel=1e-3)


def test_batch1_decode_mfu_is_two_over_bytes_times_ridge():
    # A100 80GB bf16: ridge 312e12 / 2.039e12 = 153.02 FLOP/B -> 2 / (2 x 153.02) = 0.6535 %
    ridge = 312e12 / 2.039e12
    assert batch1_decode_mfu(2, ridge) == pytest.approx(0.006535, rel=1e-3)
    # the same as the step model's MFU at batch 1 without KV: 2N / ((N x 2 / bw) x peak)
    assert step(N7, 1, bw=2.039e12).mfu == pytest.approx(batch1_decode_mfu(2, ridge))
    # INT4 (0.5 B/param): 2 / (0.5 x 153.02) = 2.61 %
    assert batch1_decode_mfu(0.5, ridge) == pytest.approx(0.02614, rel=1e-3)


def test_batch_reaching_1_and_5_percent():
    # below the knee MFU(b) = b x 2 / (bpp x ridge) -> b = m x bpp x ridge / 2
    # 1 %: 0.01 x 2 x 153.02 / 2 = 1.530; 5 %: 7.651
    dev = dict(peak_flops=312e12, mem_bw=2.039e12)
    assert batch_for_decode_mfu(0.01, N7, 0, **dev) == pytest.approx(1.530, rel=1e-3)
    assert batch_for_decode_mfu(0.05, N7, 0, **dev) == pytest.approx(7.651, rel=1e-3)
    # 100 % is the knee: 2 x 312e12 / (2 x 2.039e12) = 153.0
    assert batch_for_decode_mfu(1.0, N7, 0, **dev) == pytest.approx(decode_knee(N7, 0, **dev),
                                                                   rel=1e-6)
    # a huge cache (2M tokens: 1.1e12 B per sequence) keeps MFU below 5 % at any batch
    assert math.isinf(batch_for_decode_mfu(0.05, N7, 2_097_152, **dev))


def test_largest_batch_that_fits():
    # one reserve (10 %): 8 GPUs of 80 GiB, each (0.9 x 85.90e9 - 17.5e9) / 5.369e9 = 11.14
    # -> 11 requests (the group's (618.48e9 - 140e9) / 42.95e9 = 11.14 as before)
    assert max_batch_that_fits(A70, 131072, memory_bytes=80 * GIB, tp=8) == 11
    # weights alone do not fit on one 80 GiB A100 (140e9 > 77.3e9 usable): 0
    assert max_batch_that_fits(A70, 131072, memory_bytes=80 * GIB) == 0
    # no KV counted: memory sets no batch limit
    assert math.isinf(max_batch_that_fits(N7, 0, memory_bytes=80 * GIB))
    # at the edge: 10e9 int8 weights (10e9 B) and a 1-layer, 1-KV-head, head-dim-1 shape
    # (2·1·1·1·2 B = 4 B per token) at 1e9 tokens: 4e9 B per request;
    # (0.9 x 20e9 - 10e9) / 4e9 = 2 exactly
    edge = params_only(10e9, 1, 1, 1)
    assert max_batch_that_fits(edge, 1e9, memory_bytes=20e9, bytes_per_param=1.0) == 2


def test_memory_needed():
    # 7B bf16 (14e9) + 1024 x 2.147e9 (2 x 32 x 32 x 128 x 4096 x 2) = 2.213e12 B
    assert place(N7, context_len=4096, batch=1024).total_bytes == pytest.approx(2.2130e12, rel=1e-4)


# ---- Folded from tests/calc/test_calc_extra_pages.py:
# Small helpers added to calc/ for the MFU, training and decode pages.
def test_per_sequence_speed():
    # batch 1: 1 / (14e9 / 2e12) = 142.86 tok/s
    assert step(N7, 1).tokens_per_s_per_request == pytest.approx(142.857, rel=1e-4)
    per = step(N7, np.array([1.0, 1e4])).tokens_per_s_per_request
    # batch 10 000 is compute bound: step = 2*7e9*1e4/312e12 = 0.4487 s
    assert per[1] == pytest.approx(1 / 0.44872, rel=1e-4)


def test_step_work_mfu_mbu():
    s = step(N7, 1)
    assert (s.flops, s.bytes) == (1.4e10, 1.4e10)
    # 7B bf16 on A100: 2.039e12 B/s / 14e9 B * 1.4e10 FLOP = 2.039e12 FLOP/s -> / 312e12 = 0.65 %
    assert step(N7, 1, bw=2.039e12).mfu == pytest.approx(0.006535, rel=1e-3)
    assert d.bandwidth_utilisation(1e12, 2e12) == 0.5
    assert math.isclose(d.bandwidth_utilisation(0, 2e12), 0.0)
