"""calc.placement: what each GPU holds under tensor / expert parallelism, the divisibility
rules, and the one memory-fit rule.  Expected values derived by hand in the comments."""
import math

import numpy as np
import pytest

from calc.arch import params_only
from calc.model_catalog import load_models
from calc.placement import (MEMORY_RESERVE, PlacementError, check_tp, kv_split, memory_fit,
                            params_per_gpu, place, weight_split)

M = load_models()
GIB = 2 ** 30


def test_kv_cache_per_gpu_divided_by_min_tp_kv_heads():
    # Llama-3.1-70B: 80 layers, 8 KV heads of 128, bf16 cache.  Per sequence at 8192 tokens:
    # 2 · 8 · 128 · 80 · 8192 · 2 B = 2.684e9 B.  On 16 GPUs each KV head is stored twice, so
    # the cache splits min(16, 8) = 8 ways: 335.5 MB per sequence, 64 sequences 21.47 GB.
    p = place(M["llama-3.1-70b"], tp=16, context_len=8192, batch=64)
    assert p.kv_split == 8 and p.kv_copies == 2.0
    assert p.kv_bytes_per_seq == pytest.approx(2 * 8 * 128 * 80 * 8192 * 2 / 8)
    assert p.kv_bytes == pytest.approx(64 * 2 * 8 * 128 * 80 * 8192 * 2 / 8)
    # with 4 GPUs the 8 heads split 4 ways
    assert place(M["llama-3.1-70b"], tp=4, context_len=8192).kv_split == 4


def test_mla_latent_cache_replicated_on_every_gpu():
    # DeepSeek-V3: latent 512 + rope 64 per layer, 61 layers; bf16 cache at 32768 tokens:
    # 576 · 61 · 32768 · 2 B = 2.3026e9 B per sequence, and every one of the 8 GPUs keeps it:
    # batch 64 → 147.4 GB per GPU (not 147.4 / 8).
    p = place(M["deepseek-v3"], tp=8, bytes_per_param=1.0, context_len=32768, batch=64)
    assert p.kv_split == 1 and p.kv_copies == 8.0
    assert p.kv_bytes == pytest.approx(64 * 576 * 61 * 32768 * 2)
    # weights: 671e9 FP8 parameters split 8 ways, plus the replicated norms, router and
    # MLA down-projections (a little above 671/8 = 84 GB)
    assert 83e9 < p.weight_bytes < 86e9


def test_weight_split_llama2_7b():
    # K,V projections: 2 · d · K · hd · L = 2 · 4096 · 32 · 128 · 32 = 1,073,741,824;
    # replicated: the norms, d · (2·L + 1) = 4096 · 65 = 266,240.
    a = M["llama-2-7b"]
    ws = weight_split(a)
    assert ws.kv_proj == 2 * 4096 * 32 * 128 * 32
    assert ws.replicated == 4096 * 65
    # 32 KV heads on 2 GPUs split 2 ways: all but the norms are halved
    assert params_per_gpu(a, 2) == pytest.approx((ws.total - 4096 * 65) / 2 + 4096 * 65)


def test_kv_projections_replicated_beyond_kv_heads():
    # Llama-3.1-70B, 16 GPUs: the K,V projections (2 · 8192 · 8 · 128 · 80 = 1.342 G
    # parameters) split only 8 ways, so each GPU keeps 1.342G / 8, not / 16.
    a = M["llama-3.1-70b"]
    ws = weight_split(a)
    assert ws.kv_proj == 2 * 8192 * 8 * 128 * 80
    want = (ws.total - ws.kv_proj - ws.replicated) / 16 + ws.kv_proj / 8 + ws.replicated
    assert params_per_gpu(a, 16) == pytest.approx(want)


@pytest.mark.parametrize("tp, needle", [(3, "32 attention heads"), (64, "32 attention heads")])
def test_tp_must_divide_heads(tp, needle):
    with pytest.raises(PlacementError, match=needle) as e:
        check_tp(M["llama-2-7b"], tp)
    assert str(e.value).startswith("tp ")


def test_tp_and_kv_heads_divide_each_other():
    # Qwen2.5-7B: 28 heads, 4 KV heads.  tp 7 divides 28 but neither divides the other with 4.
    with pytest.raises(PlacementError, match="4 KV heads"):
        check_tp(M["qwen2.5-7b"], 7)
    assert check_tp(M["qwen2.5-7b"], 4) == (4, 1)


def test_params_only_checks_kv_heads():
    a = params_only(7e9, 32, 32, 128)
    assert check_tp(a, 8) == (8, 1)
    with pytest.raises(PlacementError, match="32 KV heads"):
        check_tp(a, 3)


def test_ep_rules():
    a = M["deepseek-v3"]               # 256 routed experts
    assert check_tp(a, 8, 8) == (8, 8)
    with pytest.raises(PlacementError, match="ep .* must divide tp"):
        check_tp(a, 8, 16)
    with pytest.raises(PlacementError, match="dense model"):
        check_tp(M["llama-2-7b"], 2, 2)
    with pytest.raises(PlacementError, match="tp must be a whole number|tp must be a finite"):
        check_tp(a, 2.5)


def test_memory_fit_one_rule():
    # Llama-2-7B bf16 (6.738e9 · 2 = 13.48 GB) + 32 · 4096 · 2·32·128·32·2 B (68.72 GB) =
    # 82.2 GB on an A100 80GB (80 GiB = 85.90 GB; usable 0.9 · 85.90 = 77.31 GB): tight.
    need = 6.738e9 * 2 + 32 * 4096 * 2 * 32 * 128 * 32 * 2
    f = memory_fit(need, 80 * GIB)
    assert MEMORY_RESERVE == 0.1
    assert f.verdict == "tight" and not f.fits and f.holds
    assert f.usable_bytes == pytest.approx(0.9 * 80 * GIB)
    assert f.headroom_bytes == pytest.approx(0.9 * 80 * GIB - need)
    assert memory_fit(14e9, 80 * GIB).verdict == "fits"
    assert memory_fit(90e9, 80 * GIB).verdict == "no"
    assert memory_fit(1.0, None) is None
    arr = memory_fit(np.array([14e9, need, 90e9]), 80 * GIB)
    assert list(arr.verdict) == ["fits", "tight", "no"]


def test_params_only_is_dense_n():
    a = params_only(7e9)
    p = place(a, tp=1, bytes_per_param=2.0)
    assert p.weight_bytes == 14e9          # the seed: 7e9 × 2 bytes
    assert math.isclose(place(a, tp=2).weight_bytes, 7e9)
