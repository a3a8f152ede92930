"""calc.models: the catalog, config.json parsing and what is computed from an architecture.

Expected values are derived by hand in each test (the arithmetic is written out), from
published totals (model cards, papers) or from published measurements
(../shared/reference/published-figures.md), never copied from the code's output.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from calc import models as m
from calc.arch import params_only
from calc.inference import allreduce_seconds, decode_knee, decode_step as _decode_step, \
    decode_weight_params, prefill
from calc.models import (ModelConfigError, ModelFileError, arch_from_dict, arch_to_dict,
                         expected_distinct_experts,
                         flops_per_token, from_hf_config, keys_per_query, kv_bytes_per_token,
                         kv_cache_bytes_per_seq, load_models, param_counts,
                         training_memory, activation_bytes_per_layer,
                         attention_flops_per_token, attention_width)


def decode_step(arch, batch, context, w, kv, peak, bw):
    """calc.inference.decode_step (the one decode record) in this file's positional form."""
    return _decode_step(arch, batch, context, peak_flops=peak, mem_bw=bw, bytes_per_param=w,
                        kv_bytes_per_elem=kv)


def ttft(arch, prompt, w, peak, bw):
    return prefill(arch, prompt, peak_flops=peak, mem_bw=bw, bytes_per_param=w).seconds

HF = Path(__file__).resolve().parent.parent / "data" / "hf_configs"

REQUIRED_IDS = (
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b",
    "mistral-7b", "mixtral-8x7b", "mixtral-8x22b", "qwen2.5-7b", "qwen2.5-72b", "qwen3-30b-a3b",
    "qwen3-235b-a22b", "deepseek-v3", "gpt-oss-20b", "gpt-oss-120b", "gemma-2-9b", "gpt-3-175b",
    "palm-540b", "mpt-7b", "mpt-13b", "mpt-30b", "mpt-70b",
    # serving (issue 24)
    "qwen3-8b", "qwen3-32b", "llama-3.3-70b", "kimi-k2",
)


@pytest.fixture(scope="module")
def catalog():
    return load_models()


def cfg(name: str) -> dict:
    return json.loads((HF / f"{name}.json").read_text())


# ---------------------------------------------------------------------------- catalog

def test_catalog_has_every_required_model_with_a_linked_source(catalog):
    for mid in REQUIRED_IDS:
        assert mid in catalog, mid
        src = catalog[mid].source
        assert "https://" in src, (mid, src)   # a link to the config.json or the paper


@pytest.mark.parametrize("mid", [i for i in REQUIRED_IDS if i not in ("mpt-70b", "kimi-k2")])
def test_total_parameters_match_the_published_totals_within_1_percent(catalog, mid):
    a = catalog[mid]
    assert a.published_params_b > 0
    total = param_counts(a).total
    assert total == pytest.approx(a.published_params_b * 1e9, rel=0.01), mid


@pytest.mark.parametrize("mid", ["mixtral-8x7b", "mixtral-8x22b", "qwen3-30b-a3b", "qwen3-235b-a22b",
                                 "deepseek-v3", "gpt-oss-20b", "gpt-oss-120b", "kimi-k2"])
def test_active_parameters_match_the_published_counts(catalog, mid):
    # Publishers round or truncate to 2-3 digits ("3.3B" for Qwen3-30B-A3B's 3.35B, "22B"):
    # allow 1 % or one unit of the last published digit.
    a = catalog[mid]
    pc = param_counts(a)
    got = pc.active_with_embedding if a.published_active_includes_embedding else pc.active
    pub = a.published_active_b
    digits = len(str(pub).split(".")[1]) if "." in str(pub) else 0
    unit = 10.0 ** (-digits)
    tol = max(0.01, unit / pub)
    assert got / 1e9 == pytest.approx(pub, rel=tol), (mid, got)


def test_kimi_k2_total_against_its_report(catalog):
    # Kimi K2 report (arXiv 2507.20534) and model card: 1.04T total ("1T"), 32B activated.
    # Its config.json (first_k_dense_replace 1) gives, term by term:
    #   routed experts 60 MoE layers · 384 · 3·7168·2048       = 1,014,686,023,680
    #   shared expert  60 · 3·7168·2048                        =     2,642,411,520
    #   dense FFN (layer 0) 3·7168·18432                       =       396,361,728
    #   MLA per layer 7168·1536 + 1536·64·192 + 7168·576 + 512·64·256 + 64·128·7168
    #     + norms 1536 + 512                                   = 101,132,288 (× 61)
    #   embeddings + LM head 2 · 163840 · 7168                 =     2,348,810,240
    #   routers 60 · 384 · 7168 = 165,150,720; layer norms 61 · 2 · 7168 + final 7168
    # = 1.0264e12: 1.3 % under the published 1.04T, which 61 MoE layers (every layer with
    # experts) would reach (1.0433e12).  Kept: the config is what is served.
    a = catalog["kimi-k2"]
    experts = 60 * 384 * 3 * 7168 * 2048
    shared = 60 * 3 * 7168 * 2048
    dense = 3 * 7168 * 18432
    mla = 7168 * 1536 + 1536 * 64 * 192 + 7168 * 576 + 512 * 64 * 256 + 64 * 128 * 7168 + 1536 + 512
    emb = 2 * 163840 * 7168
    by_hand = experts + shared + dense + 61 * mla + emb + 60 * 384 * 7168 + 61 * 2 * 7168 + 7168
    total = param_counts(a).total
    assert total == pytest.approx(by_hand, rel=1e-6)
    assert total == pytest.approx(a.published_params_b * 1e9, rel=0.015)


def test_llama_2_7b_parameters_term_by_term(catalog):
    # Llama 2 7B: d 4096, 32 layers, MHA 32x128, SwiGLU 11008, vocab 32000, untied.
    #   attention/layer = 4 * 4096^2              =  67,108,864
    #   FFN/layer       = 3 * 4096 * 11008        = 135,266,304
    #   norms/layer     = 2 * 4096                =       8,192
    #   32 layers                                 = 6,476,267,520
    #   embedding + head = 2 * 32000 * 4096       =   262,144,000
    #   final norm                                =         4,096
    #   total                                     = 6,738,415,616  (the HF safetensors count)
    pc = param_counts(catalog["llama-2-7b"])
    assert pc.attention == 32 * 67_108_864
    assert pc.dense_ffn == 32 * 135_266_304
    assert pc.total == 6_738_415_616
    # active: no input-embedding lookup, LM head counted: 6,738,415,616 - 131,072,000
    assert pc.active == 6_607_343_616
    assert pc.non_embedding == 6_738_415_616 - 262_144_000


def test_palm_540b_attention_width_is_not_d_model(catalog):
    # PaLM 540B (Table 1): 118 layers, d 18432, 48 heads x 256 = 12288 wide, MQA, SwiGLU 4d,
    # shared 256k embedding, one bias-free LayerNorm per parallel block.
    #   attention/layer = 18432*12288 (Q) + 2*18432*256 (K,V) + 12288*18432 (O) = 462,422,016
    #   FFN/layer       = 3 * 18432 * 73728                                    = 4,076,863,488
    #   norms           = 119 * 18432                                           = 2,193,408
    #   embedding       = 256000 * 18432                                        = 4,718,592,000
    a = catalog["palm-540b"]
    assert attention_width(a) == (12288, 12288)
    expected = 118 * (462_422_016 + 4_076_863_488) + 2_193_408 + 4_718_592_000
    assert param_counts(a).total == expected == 540_356_474_880   # paper: 540.35B


def test_deepseek_v3_mla_and_moe_term_by_term(catalog):
    # DeepSeek-V3: d 7168, 61 layers, 128 heads, MLA q_lora 1536, kv_lora 512, nope 128,
    # rope 64, v 128; first 3 layers dense (18432), then 58 MoE layers of 256 routed
    # experts (2048, 8 per token) + 1 shared, untied 129280 vocabulary.
    d = 7168
    attn = (d * 1536 + 1536 + 1536 * 128 * 192          # q down, q norm, q up
            + d * (512 + 64) + 512 + 512 * 128 * 256    # kv down (+ rope key), kv norm, kv up
            + 128 * 128 * d)                            # o
    assert attn == 187_107_328
    expert = 3 * d * 2048                               # 44,040,192
    moe_layer = 256 * expert + expert + 256 * d         # routed + shared + router
    total = (61 * attn + 3 * 3 * d * 18432 + 58 * moe_layer
             + 2 * d * 61 + d + 2 * 129280 * d)
    pc = param_counts(catalog["deepseek-v3"])
    assert pc.total == total
    active = 61 * attn + 3 * 3 * d * 18432 + 58 * (9 * expert + 256 * d) + 2 * d * 61 + d + 129280 * d
    assert pc.active == active
    assert active == pytest.approx(36.6e9, rel=0.005)   # README: 36.6B incl. the output head


def test_mixtral_total_matches_the_hf_count(catalog):
    # Mixtral 8x7B, 32 layers: attention 2*4096^2 + 2*4096*1024 = 41,943,040;
    # experts 8 * 3*4096*14336 = 1,409,286,144; router 8*4096; norms 2*4096.
    per_layer = 41_943_040 + 1_409_286_144 + 32_768 + 8_192
    total = 32 * per_layer + 2 * 32000 * 4096 + 4096
    assert param_counts(catalog["mixtral-8x7b"]).total == total == 46_702_792_704


# ---------------------------------------------------------------------------- attention FLOPs

def test_keys_per_query_causal_and_windows():
    assert keys_per_query(4096, 0, causal=False) == 4096
    assert keys_per_query(4096, 0, causal=True) == 2048
    # window 4096, s 8192: mean of min(i, w) ~ w - w^2/(2s) = 4096 - 4096^2/16384 = 3072
    assert keys_per_query(8192, 4096, causal=True) == pytest.approx(3072)
    # below the window it is the plain causal s/2; non-causal capped at w
    assert keys_per_query(2048, 4096, causal=True) == 1024
    assert keys_per_query(8192, 4096, causal=False) == 4096
    np.testing.assert_allclose(keys_per_query([1000, 8192], 4096), [500, 3072])


def test_attention_term_is_palms_12_L_H_Q_T(catalog):
    # non-causal, no window: training attention = 3 * 4*L*H*hd*s = 12*L*H*Q*T
    a = catalog["mpt-13b"]
    f = flops_per_token(a, 4096, causal=False)
    assert f.attention == 12 * 40 * 40 * 128 * 4096
    assert f.model == 6 * param_counts(a).active + 12 * 40 * 5120 * 4096


def test_gemma2_sliding_window_caps_half_the_layers(catalog):
    # Gemma 2 9B: 21 sliding layers (window 4096) + 21 full, width 16*256 = 4096.
    # forward per token at s = 8192, causal: full 8192/2 = 4096 keys, sliding 3072 keys.
    a = catalog["gemma-2-9b"]
    assert a.n_sliding_layers == 21
    per_key = 2 * (4096 + 4096)
    assert attention_flops_per_token(a, 8192, causal=True) == pytest.approx(
        21 * per_key * 4096 + 21 * per_key * 3072)


def test_hfu_recompute_modes(catalog):
    a = catalog["llama-2-7b"]
    n = param_counts(a).active
    s = 4096
    attn_fwd = 4 * 32 * 32 * 128 * (s / 2)           # causal
    none = flops_per_token(a, s, causal=True, recompute="none")
    sel = flops_per_token(a, s, causal=True, recompute="selective")
    full = flops_per_token(a, s, causal=True, recompute="full")
    assert none.model == none.hardware == pytest.approx(6 * n + 3 * attn_fwd)
    assert sel.hardware == pytest.approx(6 * n + 4 * attn_fwd)
    assert full.hardware == pytest.approx(8 * n + 4 * attn_fwd)
    assert full.hardware / full.model == pytest.approx(4 / 3)
    with pytest.raises(ValueError, match="recompute"):
        flops_per_token(a, s, recompute="some")


def test_mpt_13b_mfu_and_hfu_reproduce_llm_foundry(catalog):
    # published-figures.md, llm-foundry row MPT-13B: s 4096, 8 x H100 (989 TFLOP/s),
    # 4717 tokens/s/GPU, activation checkpointing, MFU 41.60 %, HFU 55.47 %,
    # with N = NumParams 12,864,440,320 (ours 12.84B: within 0.2 %).
    f = flops_per_token(catalog["mpt-13b"], 4096, causal=False, recompute="full")
    mfu = f.model * 4717 / 989e12
    hfu = f.hardware * 4717 / 989e12
    assert mfu == pytest.approx(0.4160, rel=0.003)
    assert hfu == pytest.approx(0.5547, rel=0.003)


def test_palm_mfu_reproduces_the_paper(catalog):
    # PaLM (2022) Table 3: 540B, 238.3K tokens/s on 6144 TPU v4 (275 TFLOP/s), s 2048,
    # MFU 46.2 % with App. B's 6N + 12*L*H*Q*T (non-causal).
    f = flops_per_token(catalog["palm-540b"], 2048, causal=False)
    assert f.model * 238.3e3 / (6144 * 275e12) == pytest.approx(0.462, abs=0.001)


# ---------------------------------------------------------------------------- KV cache and MoE

def test_kv_bytes_per_token_gqa_mqa_mla(catalog):
    assert kv_bytes_per_token(catalog["llama-2-7b"], 2) == 2 * 32 * 128 * 32 * 2      # MHA 524,288
    assert kv_bytes_per_token(catalog["llama-3.1-70b"], 2) == 2 * 8 * 128 * 80 * 2    # GQA 327,680
    assert kv_bytes_per_token(catalog["palm-540b"], 2) == 2 * 1 * 256 * 118 * 2       # MQA
    assert kv_bytes_per_token(catalog["deepseek-v3"], 2) == (512 + 64) * 61 * 2       # MLA 70,272


def test_kv_cache_stops_growing_at_the_window(catalog):
    # gpt-oss-20b: 12 sliding layers (128) + 12 full; 2*8*64 = 1024 elements per layer.
    a = catalog["gpt-oss-20b"]
    c = 8192
    assert kv_cache_bytes_per_seq(a, c, 2) == (12 * c + 12 * 128) * 1024 * 2
    # Mistral 7B: every layer capped at 4096
    assert kv_cache_bytes_per_seq(catalog["mistral-7b"], 32768, 2) == 32 * 4096 * 2 * 8 * 128 * 2


def test_expected_distinct_experts_uniform_routing():
    assert expected_distinct_experts(8, 2, 1) == pytest.approx(2)
    assert expected_distinct_experts(8, 2, 2) == pytest.approx(8 * (1 - 0.75 ** 2))   # 3.5
    assert expected_distinct_experts(256, 8, 10_000) == pytest.approx(256)
    np.testing.assert_allclose(expected_distinct_experts(128, 8, [1, 16]),
                               [8, 128 * (1 - (120 / 128) ** 16)])
    with pytest.raises(ValueError):
        expected_distinct_experts(8, 9, 1)


def test_mixtral_on_one_h100_review_numbers(catalog):
    # The review: Mixtral 8x7B BF16 weights are 93 GB (not "fits in 80 GB"),
    # and FP8 batch 16 is 3.6x slower than "active parameters" suggests.
    a = catalog["mixtral-8x7b"]
    assert param_counts(a).total * 2 == pytest.approx(93.4e9, rel=0.001)
    # batch 16: each MoE layer touches 8*(1-(6/8)^16) = 7.92 experts of 8
    bw = 3.35e12
    # (the untied input table, 32000 x 4096, is a gather of 16 rows, not a read of it)
    read = (param_counts(a).total - 32 * 8 * 3 * 4096 * 14336
            + 32 * 8 * (1 - 0.75 ** 16) * 3 * 4096 * 14336
            - 32000 * 4096 + 16 * 4096) * 1.0
    assert decode_weight_params(a, 16) * 1.0 == pytest.approx(read)
    assert decode_step(a, 16, 0, 1.0, 1.0, 989e12 * 2, bw).weight_bytes == pytest.approx(read)
    naive = 16 / (12.9e9 / bw)
    ours = float(decode_step(a, 16, 1, 1.0, 1.0, 989e12 * 2, bw).tokens_per_s)
    assert naive / ours == pytest.approx(3.6, abs=0.1)


def test_decode_step_dense_reduces_to_the_seed(catalog):
    # Llama 2 7B bf16, batch 1, no context: bytes = 2*N minus the untied input table
    # (32000 x 4096, a gather of one 4096-row): N_read = 6,738,415,616 - 131,072,000 + 4096
    a = catalog["llama-2-7b"]
    n_read = 6_738_415_616 - 131_072_000 + 4096
    st = decode_step(a, 1, 0, 2.0, 2.0, 312e12, 2.0e12)
    assert st.bytes == pytest.approx(2 * n_read)
    assert st.tokens_per_s == pytest.approx(2.0e12 / (2 * n_read))
    assert st.bound == "memory"
    # batch array + KV: bytes = 2N + B * c * 524,288
    st2 = decode_step(a, np.array([1.0, 8.0]), 1000, 2.0, 2.0, 312e12, 2.0e12)
    rows = np.array([1, 8]) * 4096              # one embedding row gathered per sequence
    np.testing.assert_allclose(st2.bytes, 2 * (6_738_415_616 - 131_072_000 + rows)
                               + np.array([1, 8]) * 1000 * 524_288)


def test_prefill_flops_and_ttft(catalog):
    # Llama 2 7B, P = 1000: body = active - head = 6,607,343,616 - 131,072,000;
    # attention forward per token (causal, 500 keys) = 2*500*(4096+4096)*32
    a = catalog["llama-2-7b"]
    body = 6_607_343_616 - 131_072_000
    attn = 2 * 500 * 8192 * 32
    want = 1000 * (2 * body + attn) + 2 * 131_072_000
    pf = prefill(a, 1000, peak_flops=312e12, mem_bw=2.039e12)
    assert pf.flops == pytest.approx(want)
    # TTFT on an A100 (312 TFLOP/s, 2.039 TB/s): compute-bound at P = 1000
    assert pf.seconds == pytest.approx(want / 312e12) and pf.bound == "compute"
    # one token: the weight read dominates (the untied input table is a one-row gather)
    assert ttft(a, 1, 2.0, 312e12, 2.039e12) == pytest.approx(
        2 * (6_738_415_616 - 131_072_000 + 4096) / 2.039e12)


def test_tp_allreduce_time():
    arch = m.ModelArch(id="x", name="x", source="s", n_layers=32, d_model=4096, n_heads=32,
                       n_kv_heads=32, head_dim=128, ffn_size=11008, vocab_size=32000)
    # 32 layers * 2 all-reduces * 2*(8-1)/8 * (1 * 4096 * 2 bytes) / 300e9
    assert allreduce_seconds(arch, 1, 8, 300e9, 2) == pytest.approx(32 * 2 * 1.75 * 8192 / 300e9)
    assert allreduce_seconds(arch, 1, 1, 300e9, 2) == 0


# ---------------------------------------------------------------------------- training memory

def test_activation_memory_korthikanti():
    # GPT-3 175B layer (Korthikanti et al. 2022): s 2048, b 1, h 12288, a 96, t 8.
    sbh = 2048 * 1 * 12288
    assert activation_bytes_per_layer(2048, 1, 12288, 96, "none", 8) == pytest.approx(
        sbh * (34 + 5 * 96 * 2048 / 12288) / 8)                 # 114 * sbh / 8
    assert activation_bytes_per_layer(2048, 1, 12288, 96, "selective", 8) == pytest.approx(sbh * 34 / 8)
    # full recompute keeps the layer input, split t ways by sequence parallelism (§4.2.2)
    assert activation_bytes_per_layer(2048, 1, 12288, 96, "full", 8) == pytest.approx(2 * sbh / 8)
    # without sequence parallelism: sbh * (10 + 24/t + 5as/(h t))
    assert activation_bytes_per_layer(2048, 1, 12288, 96, "none", 8, sequence_parallel=False) == \
        pytest.approx(sbh * (10 + 3 + 80 / 8))


def test_training_memory_zero_stages(catalog):
    # Llama 2 7B, bf16 weights, FP32 gradients, Adam mixed precision (12 B/param), 8 GPUs:
    # ZeRO-0: 2 + 4 + 12 = 18 B/param; ZeRO-1: 6 + 12/8 (Megatron-LM's distributed
    # optimizer, "bf16 param, fp32 grads": 6 + 12/d); ZeRO-2: 2 + 16/8; ZeRO-3: 18/8.
    a = catalog["llama-2-7b"]
    n = 6_738_415_616
    kw = dict(seq_len=4096, micro_batch=1, dp=8, recompute="full")
    assert training_memory(a, zero_stage=0, **kw).states == pytest.approx(18 * n)
    assert training_memory(a, zero_stage=1, **kw).states == pytest.approx((6 + 12 / 8) * n)
    assert training_memory(a, zero_stage=2, **kw).states == pytest.approx((2 + 16 / 8) * n)
    assert training_memory(a, zero_stage=3, **kw).states == pytest.approx(18 / 8 * n)
    mem = training_memory(a, zero_stage=3, **kw)
    assert mem.activations == pytest.approx(32 * 2 * 4096 * 4096)    # full recompute: 2sbh per layer
    # + the ZeRO-3 all-gather buffers: (2·2 + 4) B × the largest unit, one layer:
    # 4·4096² + 3·4096·11,008 + 2·4096 = 202,383,360 (the embedding and the head are smaller)
    assert mem.total == pytest.approx(mem.states + mem.activations + 8 * 202_383_360)
    with pytest.raises(ValueError, match="zero_stage"):
        training_memory(a, zero_stage=4, **kw)


# ---------------------------------------------------------------------------- config.json

@pytest.mark.parametrize("name,catalog_id", [
    ("llama-2-7b", "llama-2-7b"), ("mistral-7b", "mistral-7b"), ("mixtral-8x7b", "mixtral-8x7b"),
    ("qwen2.5-7b", "qwen2.5-7b"), ("qwen3-30b-a3b", "qwen3-30b-a3b"), ("deepseek-v3", "deepseek-v3"),
    ("gemma-2-9b", "gemma-2-9b"), ("gpt-oss-20b", "gpt-oss-20b")])
def test_hf_config_gives_the_catalog_architecture(catalog, name, catalog_id):
    parsed = from_hf_config(cfg(name))
    pc, ref = param_counts(parsed), param_counts(catalog[catalog_id])
    assert pc.total == ref.total and pc.active == ref.active
    assert kv_bytes_per_token(parsed, 2) == kv_bytes_per_token(catalog[catalog_id], 2)
    assert parsed.windows == catalog[catalog_id].windows
    assert parsed.mtp_layers == catalog[catalog_id].mtp_layers     # DeepSeek-V3: 1, the rest 0


def test_hf_config_gpt_neox_and_qwen_moe_and_qwen3_dense():
    # GPT-NeoX-20B paper (Black et al. 2022): 20,554,567,680 parameters.
    assert param_counts(from_hf_config(cfg("gpt-neox-20b"))).total == pytest.approx(20.5546e9, rel=1e-4)
    # Qwen1.5-MoE-A2.7B model card: 14.3B total, 2.7B activated (with embedding)
    q = param_counts(from_hf_config(cfg("qwen1.5-moe-a2.7b")))
    assert q.total == pytest.approx(14.3e9, rel=0.01)
    assert q.active_with_embedding == pytest.approx(2.7e9, rel=0.02)
    # Qwen3-8B model card: 8.2B total, 6.95B non-embedding
    q3 = param_counts(from_hf_config(cfg("qwen3-8b")))
    assert q3.total == pytest.approx(8.2e9, rel=0.01)
    assert q3.non_embedding == pytest.approx(6.95e9, rel=0.01)


def test_hf_config_errors_name_the_key():
    c = cfg("llama-2-7b")
    del c["num_hidden_layers"]
    with pytest.raises(ModelConfigError, match="'num_hidden_layers'"):
        from_hf_config(c)
    with pytest.raises(ModelConfigError, match="model_type 'bert' is not supported"):
        from_hf_config({"model_type": "bert"})
    with pytest.raises(ModelConfigError, match="'model_type' is missing"):
        from_hf_config({"hidden_size": 4})
    with pytest.raises(ModelConfigError, match="not valid JSON"):
        from_hf_config("{not json")
    d = cfg("deepseek-v3")
    del d["kv_lora_rank"]
    with pytest.raises(ModelConfigError, match="'kv_lora_rank'"):
        from_hf_config(d)
    bad = cfg("mixtral-8x7b")
    bad["num_key_value_heads"] = 7
    with pytest.raises(ModelConfigError, match="kv_heads"):
        from_hf_config(bad)


@pytest.mark.parametrize("mid", REQUIRED_IDS)
def test_arch_round_trips_through_a_dict(catalog, mid):
    a = catalog[mid]
    again = arch_from_dict(json.loads(json.dumps(arch_to_dict(a))))
    assert again == a


# ---------------------------------------------------------------------------- malformed models.toml

GOOD = """
[models."tiny-1"]
name = "Tiny"
source = "https://example.org/config.json"
layers = 2
d_model = 64
heads = 4
kv_heads = 2
head_dim = 16
ffn_size = 128
ffn_kind = "gated"
vocab_size = 100
tied_embeddings = true
"""


def write(tmp_path, text):
    p = tmp_path / "models.toml"
    p.write_text(text)
    return p


def test_notes_zh_is_read_beside_notes(tmp_path):
    a = load_models(write(tmp_path, GOOD + 'notes = "Tied."\nnotes_zh = "嵌入共享。"\n'))["tiny-1"]
    assert (a.notes, a.notes_zh) == ("Tied.", "嵌入共享。")
    assert load_models(write(tmp_path, GOOD))["tiny-1"].notes_zh == ""        # optional


@pytest.mark.parametrize("value", ["3", "true", '["嵌入"]', "{ a = 1 }"])
def test_a_non_string_notes_zh_names_file_model_and_field(tmp_path, value):
    p = write(tmp_path, GOOD + f'notes = "x"\nnotes_zh = {value}\n')
    with pytest.raises(ModelFileError) as e:
        load_models(p)
    msg = str(e.value)
    assert str(p) in msg and "model 'tiny-1'" in msg and "field 'notes_zh'" in msg, msg
    assert "must be a string" in msg, msg


def test_good_minimal_file(tmp_path):
    a = load_models(write(tmp_path, GOOD))["tiny-1"]
    # 2 * (64*64 + 2*64*32 + 64*64 + 3*64*128 + 2*64) + 64 + 100*64
    assert param_counts(a).total == 2 * (4096 + 4096 + 4096 + 24576 + 128) + 64 + 6400


@pytest.mark.parametrize("edit,match", [
    (lambda t: t.replace('layers = 2\n', ''), r"model 'tiny-1': field 'layers': is missing"),
    (lambda t: t + 'colour = "red"\n', r"field 'colour': is not a known field"),
    (lambda t: t.replace('heads = 4', 'heads = "4"'), r"field 'heads': must be an integer"),
    (lambda t: t.replace('kv_heads = 2', 'kv_heads = 3'), r"field 'kv_heads': must divide heads"),
    (lambda t: t.replace('ffn_kind = "gated"', 'ffn_kind = "swish"'), r"field 'ffn_kind'"),
    (lambda t: t + "experts_per_token = 2\n", r"field 'experts': is 0"),
    (lambda t: t + "experts = 8\n", r"field 'experts_per_token'"),
    (lambda t: t + "dense_layers = [5]\n" + "experts = 8\nexperts_per_token = 2\nexpert_ffn_size = 32\n",
     r"field 'dense_layers'"),
    (lambda t: t + "kv_lora_rank = 64\n", r"field 'qk_nope_head_dim'"),
    (lambda t: t + GOOD, r"duplicate model id"),
    (lambda t: t.replace('[models."tiny-1"]', '[models.tiny-1.5]'), r"must be quoted"),
    (lambda t: t.replace('[models."tiny-1"]', '[models."Tiny_1"]'), r"must be kebab-case"),
    (lambda t: t.replace('layers = 2', 'layers = ['), r"is not valid TOML"),
    (lambda t: "[other]\nx = 1\n" + t, r"field 'other': is not a known top-level key"),
    (lambda t: "x = 1\n", r"field 'models': is missing"),
])
def test_malformed_models_file_names_file_model_field(tmp_path, edit, match):
    p = write(tmp_path, edit(GOOD))
    with pytest.raises(ModelFileError, match=match) as info:
        load_models(p)
    assert str(p) in str(info.value)


def test_unreadable_file(tmp_path):
    with pytest.raises(ModelFileError, match="cannot be read"):
        load_models(tmp_path / "missing.toml")


# ---------------------------------------------------------------------------- link tokens, knee

@pytest.mark.parametrize("name", ["llama-2-7b", "mistral-7b", "mixtral-8x7b", "qwen2.5-7b",
                                  "qwen1.5-moe-a2.7b", "qwen3-8b", "qwen3-30b-a3b", "deepseek-v3",
                                  "gemma-2-9b", "gpt-neox-20b", "gpt-oss-20b"])
def test_pasted_config_round_trips_through_a_link_token(name):
    a = from_hf_config(cfg(name), name=name)
    token = m.encode_arch(a)
    assert token[0] == "1" and len(token) < 600 and token.replace("-", "").replace("_", "").isalnum()
    assert m.decode_arch(token) == a


def test_bad_link_tokens_are_reported():
    for bad in ("", "9abc", "1!!!!", "1" + "A" * 30):
        with pytest.raises(ModelConfigError):
            m.decode_arch(bad)


def test_decode_knee_dense_and_moe(catalog):
    # Dense, no context: the step reads (N_total - V*d + b*d)*w bytes (the untied input
    # table is a gather of b rows) and does 2*N_active*b FLOP. For Llama 2 7B
    # N_total - V*d = 6,607,343,616 = N_active, so 2*N_a*b/P = (N_a + b*d)*w/B gives
    # b* = N_a*w*P / (2*N_a*B - d*w*P).
    a = catalog["llama-2-7b"]
    n_a, P, B = 6_607_343_616, 312e12, 2.039e12
    knee = decode_knee(a, 0, peak_flops=P, mem_bw=B)
    assert knee == pytest.approx(n_a * 2 * P / (2 * n_a * B - 4096 * 2 * P), rel=1e-6)
    # MoE: the weight read grows with the experts touched, so the knee is further right than
    # the "active parameters only" knee bpp*P/(2B) = 1*989e12/(2*3.35e12) = 147.6
    moe = decode_knee(catalog["mixtral-8x7b"], 0, peak_flops=989e12, mem_bw=3.35e12,
                      bytes_per_param=1.0, kv_bytes_per_elem=1.0)
    assert moe > 147.6 * 2
    # KV reads that cost more than the math per sequence: never compute-bound
    assert decode_knee(a, 10**6, peak_flops=312e12, mem_bw=2.039e12) == math.inf


def test_recompute_flops_from_parameters_alone():
    f = m.recompute_flops_per_token(7e9, 1e9, "full")
    assert (f.model, f.hardware) == (6 * 7e9 + 3e9, 8 * 7e9 + 4e9)


def test_mfu_from_gpu_hours_inverts_gpu_hours():
    from calc.training import gpu_hours, mfu_from_gpu_hours
    # Seed: 7B, 1T tokens, 312 TFLOP/s, MFU 45 %: GPU-hours = 4.2e22 / (312e12 * 0.45) / 3600
    hours = 4.2e22 / (312e12 * 0.45) / 3600
    assert gpu_hours(7e9, 1e12, 312e12, 0.45) == pytest.approx(hours)
    assert mfu_from_gpu_hours(7e9, 1e12, hours, 312e12) == pytest.approx(0.45)
    # Llama 3.1 405B (model card): 30.84M H100 GPU-hours for 15.6T tokens at 989 TFLOP/s
    # with 6N: 6 * 405e9 * 15.6e12 / (30.84e6 * 3600 * 989e12) = 0.345
    assert mfu_from_gpu_hours(405e9, 15.6e12, 30.84e6, 989e12) == pytest.approx(0.345, abs=0.002)


def test_flash_attention_drops_the_score_term():
    sbh = 4096 * 1 * 7168
    assert activation_bytes_per_layer(4096, 1, 7168, 128, "none", 1, flash_attention=True) == \
        pytest.approx(34 * sbh)


def test_mla_absorbed_widths_for_inference(catalog):
    # DeepSeek-V3 absorbed: each of 128 heads attends over the 512 + 64 latent (scores)
    # and the 512 latent (values); training keeps 128*(128+64) and 128*128.
    a = catalog["deepseek-v3"]
    assert attention_width(a) == (128 * 192, 128 * 128)
    assert attention_width(a, mla_absorbed=True) == (128 * 576, 128 * 512)
    # decode at context 1000: FLOP/token = 2*N_active + 61 * 2 * 1000 * (73728 + 65536)
    st = decode_step(a, 1, 1000, 1.0, 1.0, 1e15, 1e12)
    assert st.flops == pytest.approx(2 * param_counts(a).active + 61 * 2 * 1000 * (73728 + 65536))


def test_prefill_from_parameters_alone():
    # "Parameters only" is a dense architecture with N given (calc.arch.params_only, the 7B
    # shape 32 layers x 32 heads x 128): a 2048-token prompt does 2048 x (2 x 7e9 + causal
    # attention 2 x 1024 keys x 8192 x 32 = 5.369e8) = 2.977e13 FLOP; on 312 TFLOP/s
    # 95.4 ms, against 14e9 B / 2e12 B/s = 7 ms for the weight read: compute-bound.
    a = params_only(7e9)
    pf = prefill(a, 2048, peak_flops=312e12, mem_bw=2e12)
    assert pf.flops == pytest.approx(2048 * (2 * 7e9 + 2 * 1024 * 8192 * 32))
    assert pf.seconds == pytest.approx(pf.flops / 312e12) and pf.bound == "compute"
    # 10 tokens: 10 x (1.4e10 + 2 x 5 x 8192 x 32) = 1.4e11 FLOP = 0.45 ms < 7 ms weight read
    assert ttft(a, 10, 2.0, 312e12, 2e12) == pytest.approx(7e-3)


def test_params_only_refuses_more_layers_than_any_catalog_limit():
    # A typed "1e308 layers" once built a per-layer tuple of 1e308 entries (22 GB and
    # counting, robustness suite): the layer count has the catalog's limit, 10,000.
    assert params_only(7e9, n_layers=10_000).n_layers == 10_000
    with pytest.raises(ValueError, match="n_layers must be at most 10,000"):
        params_only(7e9, n_layers=10_001)
    with pytest.raises(ValueError, match="n_layers"):
        params_only(7e9, n_layers=1e308)
