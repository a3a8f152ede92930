"""calc.inference: the decode step and prefill records.  Every expected value is derived by
hand in the comment next to it (datasheets: A100 80GB 312 TFLOP/s bf16, 2.039 TB/s, 80 GiB;
H100 SXM 989.4 TFLOP/s, 3.35 TB/s; H200 SXM 989.4 TFLOP/s, 4.8 TB/s, 141 GiB)."""
import math

import numpy as np
import pytest

from calc.arch import params_only
from calc.inference import (batch_for_decode_mfu, decode_knee, decode_step, max_batch_that_fits,
                            prefill)
from calc.model_catalog import load_models
from calc.placement import PlacementError

M = load_models()
GIB = 2 ** 30
A100 = dict(peak_flops=312e12, mem_bw=2.039e12, memory_bytes=80 * GIB)
H100 = dict(peak_flops=989.4e12, mem_bw=3.35e12, memory_bytes=80 * GIB)
H200 = dict(peak_flops=989.4e12, mem_bw=4.8e12, memory_bytes=141 * GIB)


def test_seed_143_tokens_per_s():
    # Seed chapter 04: 7B in bf16 = 14 GB read per token; 2 TB/s / 14 GB = 142.9 tok/s.
    s = decode_step(params_only(7e9), 1, 0, peak_flops=312e12, mem_bw=2e12)
    assert s.tokens_per_s == pytest.approx(2e12 / 14e9)
    assert s.bound == "memory"
    # MFU: 2 · 7e9 FLOP in 7 ms on 312 TFLOP/s: 1.4e10 / (7e-3 · 312e12) = 0.641 %
    assert s.mfu == pytest.approx(1.4e10 / (14e9 / 2e12 * 312e12))


def test_seed_knee_156():
    # Dense without KV: B* = b_w · peak / (2 · bw) = 2 · 312e12 / (2 · 2e12) = 156.
    assert decode_knee(params_only(7e9), 0, peak_flops=312e12, mem_bw=2e12) == pytest.approx(156, rel=1e-6)


def test_defect1_llama2_7b_a100_batch32_ctx4096_796():
    # Weights read: 6.738e9 total − the untied input table 32000 · 4096 = 131.1 M (a gather of
    # 32 rows of 4096 instead) → 6.607e9 · 2 B = 13.21 GB.  KV: 32 · 4096 · 2·32·128·32 · 2 B
    # = 68.72 GB.  (13.21 + 68.72) GB / 2.039 TB/s = 40.18 ms; 32 / 40.18 ms = 796 tok/s.
    s = decode_step(M["llama-2-7b"], 32, 4096, **A100)
    assert s.kv_bytes == pytest.approx(32 * 4096 * 2 * 32 * 128 * 32 * 2)
    assert s.weight_bytes == pytest.approx(13.21e9, rel=2e-3)
    assert s.tokens_per_s == pytest.approx(796, rel=3e-3)
    assert s.bound == "memory"
    # memory: 13.48 GB of weights + 68.72 GB = 82.2 GB in 85.9 GB (usable 77.3): tight
    assert s.fit.verdict == "tight"


def test_defect1_llama31_70b_16_h100_kv_divided_by_kv_heads():
    # 8 KV heads on 16 GPUs: the cache splits 8 ways.  Per sequence 2·8·128·80·8192·2 B =
    # 2.684 GB; per GPU 64 · 2.684 / 8 = 21.47 GB (not / 16 = 10.7 GB).
    a = M["llama-3.1-70b"]
    s = decode_step(a, 64, 8192, tp=16, **H100)
    assert s.kv_bytes == pytest.approx(64 * 2 * 8 * 128 * 80 * 8192 * 2 / 8)
    # weights read per GPU: K,V projections 2·8192·8·128·80 = 1.342e9 (split 8 ways), norms
    # 8192·161 = 1.32 M (replicated); (70.554e9 − 1.0507e9 table + 64·8192 rows − 1.342e9 −
    # 1.32e6) / 16 + 1.342e9 / 8 + 1.32e6 = 4.260e9 + 0.168e9 + 0.001e9 = 4.429e9 params
    # · 2 B = 8.858 GB.
    assert s.weight_bytes == pytest.approx(8.858e9, rel=1e-3)
    # (8.858 + 21.475) GB / 3.35 TB/s = 9.055 ms; 64 / 9.055 ms = 7.07 ktok/s (not 24.7 k)
    assert s.tokens_per_s == pytest.approx(7068, rel=2e-3)
    assert s.fit.verdict == "fits"     # 30.3 GB of 85.9 GB


def test_defect1_deepseek_v3_fp8_8_h200_does_not_fit():
    # The latent cache is on every GPU: 64 · 32768 · 576 · 61 · 2 B = 147.4 GB per GPU, plus
    # 671e9 / 8 FP8 weights ≈ 84 GB: 231 GB > 141 GiB = 151.4 GB.  Does not fit.
    s = decode_step(M["deepseek-v3"], 64, 32768, tp=8, bytes_per_param=1.0, **H200)
    assert s.placement.kv_bytes == pytest.approx(64 * 32768 * 576 * 61 * 2)
    assert s.fit.verdict == "no" and not s.fit.fits
    assert s.memory_per_gpu > 230e9


def test_defect3_mla_prefill_non_absorbed():
    # DeepSeek-V3 prompt 4096, non-absorbed MLA (vLLM prefill): per token
    # 2·(36.63e9 active − 0.9267e9 LM head) + 61 · 2 · 2048 keys · 128·(192 + 128) = 71.40e9 +
    # 10.23e9 = 81.63e9; × 4096 + 2·0.9267e9 = 334.4 TFLOP (absorbed: 435).
    a = M["deepseek-v3"]
    head = 129280 * 7168
    att = 61 * 2 * 2048 * 128 * (192 + 128)
    want = 4096 * (2 * (36.6256e9 - head) + att) + 2 * head
    p = prefill(a, 4096, peak_flops=989.4e12, mem_bw=4.8e12, tp=8)
    assert p.flops == pytest.approx(want, rel=1e-4)
    assert p.flops == pytest.approx(334e12, rel=3e-3)
    # 32k: mean keys 16384: per token 71.40e9 + 61·2·16384·40960 = 71.40e9 + 81.87e9 =
    # 153.3e9; × 32768 = 5.02e15; split over 8 × 989.4 TFLOP/s: 0.634 s
    p32 = prefill(a, 32768, peak_flops=989.4e12, mem_bw=4.8e12, tp=8)
    assert p32.flops == pytest.approx(5.02e15, rel=3e-3)
    assert p32.flops / (8 * 989.4e12) == pytest.approx(0.634, rel=1e-2)
    # Every GPU also runs the replicated layers in full (vLLM ReplicatedLinear: MLA's q_a/kv_a
    # down-projections 61 · (7168·1536 + 1536 + 7168·576 + 512) = 0.924e9 parameters, the
    # router 58 · 256 · 7168 = 0.106e9, norms): 2 · 1.031e9 · 7/8 · 32768 = 5.91e13 FLOP more
    # per GPU: TTFT = (5.02e15 / 8 + 5.91e13) / 989.4e12 = 0.694 s.
    assert p32.seconds == pytest.approx(0.694, rel=5e-3)
    assert p32.bound == "compute"


def test_vectorized_batch_matches_scalar():
    a = M["mixtral-8x7b"]
    bs = np.array([1.0, 7.0, 64.0, 300.0])
    arr = decode_step(a, bs, 4096, tp=2, **H100)
    for i, b in enumerate(bs):
        s = decode_step(a, float(b), 4096, tp=2, **H100)
        assert arr.tokens_per_s[i] == pytest.approx(s.tokens_per_s)
        assert arr.bound[i] == s.bound
        assert arr.fit.verdict[i] == s.fit.verdict


def test_moe_reads_distinct_experts():
    # Mixtral 8x7B at batch 1: 2 of 8 experts per layer: D = 8 · (1 − (6/8)^1) = 2
    s = decode_step(M["mixtral-8x7b"], 1, 0, **H100)
    assert s.distinct_experts == pytest.approx(2.0)


def test_tp_validated():
    with pytest.raises(PlacementError, match="32 attention heads"):
        decode_step(M["llama-2-7b"], 1, 4096, tp=3, **A100)


def test_allreduce_added():
    # Llama-2-7B tp 2, batch 8, link 450 GB/s one way: 32 · 2 · 2·(1/2) · 8·4096·2 B / 450e9
    # = 4.66 µs
    a = M["llama-2-7b"]
    base = decode_step(a, 8, 4096, tp=2, **A100)
    s = decode_step(a, 8, 4096, tp=2, link_bw=450e9, **A100)
    assert s.comm_seconds == pytest.approx(32 * 2 * 1.0 * 8 * 4096 * 2 / 450e9)
    assert s.seconds == pytest.approx(base.seconds + s.comm_seconds)


def test_batch_for_mfu_seed():
    # no KV, dense: b = m · b_w · ridge / 2; A100 80GB ridge 312 / 2.039 = 153.0: 1 % at 1.53
    b = batch_for_decode_mfu(0.01, params_only(7e9), 0, peak_flops=312e12, mem_bw=2.039e12)
    assert b == pytest.approx(0.01 * 2 * 312 / 2.039 / 2, rel=1e-6)


def test_max_batch_that_fits_llama2_70b():
    # Llama-2-70B bf16 on 8 × 80 GiB at 131072 tokens.  Weights per GPU ≈ 68.98e9 · 2 / 8 =
    # 17.25 GB; cache per sequence 2·8·128·80·131072·2 B = 42.95 GB, split 8 ways: 5.369 GB.
    # floor((0.9 · 85.90 − 17.25) / 5.369) = floor(11.19) = 11.
    n = max_batch_that_fits(M["llama-2-70b"], 131072, memory_bytes=80 * GIB, tp=8)
    assert n == 11
    assert max_batch_that_fits(params_only(7e9), 0, memory_bytes=80 * GIB) == math.inf
    assert max_batch_that_fits(params_only(7e9), 0, memory_bytes=None) is None


def test_vectorized_bisection_finds_a_known_crossing():
    # f(B) = B − 153.0307 (increasing) crosses 0 at 153.0307, to 1e-12 in log B; a step
    # function (MoE: distinct experts jump) at its jump; the ends as documented
    from calc.inference import _bisect_batch
    assert _bisect_batch(lambda b: np.asarray(b) - 153.0307) == pytest.approx(153.0307, rel=1e-11)
    assert _bisect_batch(lambda b: np.where(np.asarray(b) >= 40.0, 1.0, -1.0)) == pytest.approx(40.0, rel=1e-11)
    assert math.isinf(_bisect_batch(lambda b: np.full(np.shape(b), -1.0)))     # never crosses
    assert _bisect_batch(lambda b: np.ones(np.shape(b))) == 1e-6                # already >= 0
    calls = []
    _bisect_batch(lambda b: calls.append(np.size(b)) or np.asarray(b) - 7.0)
    assert len(calls) <= 10 and max(calls) <= 63          # a few vectorized calls, not ~45 scalar
