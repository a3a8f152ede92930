"""Issue 8, defects 3, 4 and 13 in calc.decode: the KV cache in the one-request ceiling,
batch-1 decode MFU, the largest batch that fits.  Expected values worked out by hand."""
import math

import pytest

from calc.decode import (batch1_decode_mfu, batch_for_decode_mfu, critical_batch,
                         decode_memory_bytes, decode_mfu, kv_cache_bytes, max_batch_in_memory,
                         max_decode_tokens_per_s)

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
