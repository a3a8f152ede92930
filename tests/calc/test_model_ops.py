"""calc.model_ops: per-operator FLOPs and bytes of a whole model, worked out by hand.

Every expected number below is derived in its comment from the architecture (the
published config.json values are restated here, not read from models.toml) and the
formulas of the module docstring; none is copied from the code's output.
"""
import math

import pytest

from calc.inference import decode_step
from calc.models import ModelArch, load_models
from calc.model_ops import OP_KEYS, model_operators

A100 = dict(peak_flops=312e12, mem_bw=2.039e12)

# Llama 2 7B (config.json): 32 layers, d 4096, 32 heads × 128, MHA, FFN 11008 SwiGLU, V 32000.
LLAMA2_7B = ModelArch(id="t-llama2-7b", name="Llama 2 7B", source="test", n_layers=32,
                      d_model=4096, n_heads=32, n_kv_heads=32, head_dim=128, ffn_size=11008,
                      vocab_size=32000)
# Llama 3.1 70B: 80 layers, d 8192, 64 heads × 128, 8 KV heads (GQA), FFN 28672, V 128256.
LLAMA31_70B = ModelArch(id="t-llama31-70b", name="Llama 3.1 70B", source="test", n_layers=80,
                        d_model=8192, n_heads=64, n_kv_heads=8, head_dim=128, ffn_size=28672,
                        vocab_size=128256)
# Mixtral 8x7B: 32 layers, d 4096, 32 heads × 128, 8 KV heads, 8 experts of 14336, top-2.
MIXTRAL = ModelArch(id="t-mixtral", name="Mixtral 8x7B", source="test", n_layers=32, d_model=4096,
                    n_heads=32, n_kv_heads=8, head_dim=128, ffn_size=14336, vocab_size=32000,
                    n_experts=8, experts_per_token=2, expert_ffn_size=14336)


def ops_by_key(result, kind=None):
    return {o.key: o for o in result.operators if kind is None or o.layer_kind in (kind, "model")}


def test_dense_decode_batch1_by_hand():
    r = model_operators(LLAMA2_7B, phase="decode", batch=1, tokens=4096, **A100)
    ops = ops_by_key(r)
    # QKV: 2·T·d·(A_q + 2·A_kv) = 2·1·4096·(4096 + 8192) = 100,663,296 FLOP;
    # weights 4096·12288·2 B = 100,663,296 B; activations (4096 + 4096 + 8192)·2 = 32,768 B.
    assert ops["qkv"].flops == 100_663_296
    assert ops["qkv"].bytes_moved == 100_663_296 + 32_768
    assert ops["qkv"].count == 32
    # Fused attention, one new token over 4096 cached: 2·H·q·c·(d_qk + d_v) = 2·32·4096·256
    # = 67,108,864 FLOP; K,V cache 4096·2·4096·2 B = 67,108,864 B, plus Q and O (4096·2 each)
    # and the new K,V (2·4096·2) = 67,141,632 B.
    assert ops["attn_fused"].flops == 67_108_864
    assert ops["attn_fused"].bytes_moved == 67_141_632
    assert ops["attn_fused"].kv_bytes == 67_108_864 + 16_384
    # Gate: 2·4096·11008 = 90,177,536 FLOP; 4096·11008·2 + (4096 + 11008)·2 = 90,207,744 B.
    assert ops["mlp_gate"].flops == 90_177_536
    assert ops["mlp_gate"].bytes_moved == 90_207_744
    # LM head once: 2·4096·32000 = 262,144,000 FLOP; 262,144,000 + (4096 + 32000)·2 B.
    assert ops["lm_head"].flops == 262_144_000 and ops["lm_head"].count == 1
    assert ops["lm_head"].bytes_moved == 262_144_000 + 72_192
    # The embedding is a gather: no FLOP, one row of 4096 bf16 weights read and written.
    assert ops["embedding"].flops == 0 and ops["embedding"].bytes_moved == 4096 * 4
    # Every decode GEMM at batch 1 in bf16 sits at ~1 FLOP/B: memory-bound on an A100 (ridge 153).
    for key in ("qkv", "o_proj", "mlp_gate", "mlp_up", "mlp_down", "lm_head"):
        assert ops[key].intensity == pytest.approx(1.0, rel=1e-3)
        assert ops[key].bound(**A100) == "memory"


def test_gqa_decode_projection_and_cache():
    r = model_operators(LLAMA31_70B, phase="decode", batch=4, tokens=8192, **A100)
    ops = ops_by_key(r)
    # QKV with 8 KV heads: A_q = 8192, A_kv = 1024: 2·4·8192·(8192 + 2048) = 671,088,640 FLOP
    # over 8192·10240·2 = 167,772,160 B of weights (4·(8192 + 8192 + 2048)·2 = 147,456 B acts).
    assert ops["qkv"].flops == 671_088_640
    assert ops["qkv"].weight_bytes == 167_772_160
    assert ops["qkv"].bytes_moved == 167_772_160 + 147_456
    # KV cache read per layer: 4 sequences · 8192 tokens · 2·1024 · 2 B = 134,217,728 B.
    assert ops["attn_fused"].kv_bytes == 134_217_728 + 4 * 2 * 1024 * 2
    # Attention FLOP: 2·64 heads·4·8192·256 = 1,073,741,824; intensity stays ~8 FLOP/B
    # (GQA: 8 query heads share each K,V) whatever the batch: it never crosses the ridge.
    assert ops["attn_fused"].flops == 1_073_741_824
    for b in (1, 16, 256):
        att = ops_by_key(model_operators(LLAMA31_70B, phase="decode", batch=b, tokens=8192,
                                         **A100))["attn_fused"]
        assert 7.5 < att.intensity < 8.01
        assert att.bound(**A100) == "memory"


def test_decode_gemm_intensity_grows_like_the_batch():
    # With 2-byte weights a decode GEMM does 2·B FLOP per weight read (2 bytes): intensity ≈ B,
    # a little less as the activations (B·(d_in + d_out)·2 B) grow.
    prev = 0.0
    for b in (1, 2, 4, 8, 16, 32, 64, 128):
        q = ops_by_key(model_operators(LLAMA2_7B, phase="decode", batch=b, tokens=1024,
                                       **A100))["mlp_down"]
        assert 0.9 * b <= q.intensity <= b
        assert q.intensity > prev
        prev = q.intensity
    # The ridge of the A100 in bf16 is 312e12 / 2.039e12 = 153 FLOP/B: the down projection
    # crosses it between batch 128 and 256.
    at = {b: ops_by_key(model_operators(LLAMA2_7B, phase="decode", batch=b, tokens=1024,
                                        **A100))["mlp_down"].bound(**A100) for b in (128, 256)}
    assert at == {128: "memory", 256: "compute"}


def test_moe_experts_touched_by_the_batch():
    one = ops_by_key(model_operators(MIXTRAL, phase="decode", batch=1, tokens=1024, **A100))
    # One token, top-2 of 8: 2 experts of 3·4096·14336 = 176,160,768 weights → 704,643,072 B;
    # FLOP 2·1·2·176,160,768 = 704,643,072 plus SiLU·mul 4·2·14336 = 114,688.
    assert one["experts"].weight_bytes == 704_643_072
    assert one["experts"].flops == 704_643_072 + 114_688
    assert one["experts"].detail["experts_hit"] == pytest.approx(2.0)
    # Router: 2·4096·8 = 65,536 FLOP.
    assert one["router"].flops == 65_536
    four = ops_by_key(model_operators(MIXTRAL, phase="decode", batch=4, tokens=1024, **A100))
    # Four tokens: E·(1 − (1 − k/E)^T) = 8·(1 − 0.75⁴) = 5.46875 experts touched, each seeing
    # 4·2 / 5.46875 = 1.463 tokens on average.
    hit = 8 * (1 - 0.75 ** 4)
    assert four["experts"].detail["experts_hit"] == pytest.approx(hit)
    assert four["experts"].detail["tokens_per_expert"] == pytest.approx(8 / hit)
    assert four["experts"].weight_bytes == pytest.approx(hit * 176_160_768 * 2)
    assert "mlp_gate" not in four          # MoE layers have no dense MLP


def test_prefill_causal_attention_and_logits_once():
    r = model_operators(LLAMA2_7B, phase="prefill", batch=1, tokens=2048, **A100)
    ops = ops_by_key(r)
    # Causal prompt of 2048: each query sees 2048/2 keys on average: 2·32·2048·1024·256 FLOP.
    assert ops["attn_fused"].flops == 2 * 32 * 2048 * 1024 * 256
    # QKV over all 2048 tokens: 2·2048·4096·12288 FLOP; compute-bound on an A100 (I ≈ 1,300).
    assert ops["qkv"].flops == 2 * 2048 * 4096 * 12288
    assert ops["qkv"].bound(**A100) == "compute"
    # Logits for the last position only (B = 1 row): 2·4096·32000.
    assert ops["lm_head"].flops == 262_144_000
    # Time to first token ≥ the FLOP of the prompt over the peak.
    assert r.step_seconds >= r.flops / 312e12


def test_unfused_attention_moves_the_score_matrix():
    r = model_operators(LLAMA2_7B, phase="decode", batch=1, tokens=4096, flash=False, **A100)
    ops = ops_by_key(r)
    # S and P: 32 heads · 1 query · 4096 keys · 2 B = 262,144 B each; softmax reads S, writes P.
    assert ops["attn_softmax"].bytes_moved == 2 * 262_144
    assert ops["attn_softmax"].flops == 5 * 32 * 4096
    # QKᵀ reads Q (8192 B), K (4096·4096·2 = 33,554,432 B), writes S and the new K,V (16,384 B).
    assert ops["attn_qk"].bytes_moved == 8192 + 33_554_432 + 262_144 + 16_384
    assert "attn_fused" not in ops


def test_tensor_parallel_splits_projections_not_norms():
    one = ops_by_key(model_operators(LLAMA2_7B, phase="decode", batch=1, tokens=1024, **A100))
    two = ops_by_key(model_operators(LLAMA2_7B, phase="decode", batch=1, tokens=1024, tp=2, **A100))
    assert two["qkv"].flops == one["qkv"].flops / 2
    assert two["attn_fused"].kv_bytes == one["attn_fused"].kv_bytes / 2
    assert two["norm_in"].bytes_moved == one["norm_in"].bytes_moved


def test_sliding_window_caps_the_cache_read():
    # Mistral 7B: every layer has a 4096-token window; at 32k context only 4096 are read.
    mistral = ModelArch(id="t-mistral", name="Mistral 7B", source="test", n_layers=32, d_model=4096,
                        n_heads=32, n_kv_heads=8, head_dim=128, ffn_size=14336, vocab_size=32000,
                        sliding_window=4096)
    ops = ops_by_key(model_operators(mistral, phase="decode", batch=1, tokens=32768, **A100))
    assert ops["attn_fused"].layer_kind == "dense_sliding"
    # 4096 tokens · 2·8·128 · 2 B = 16,777,216 B per layer, plus the new K,V (4096 B).
    assert ops["attn_fused"].kv_bytes == 16_777_216 + 4096


@pytest.fixture(scope="module")
def catalog():
    return load_models()


def test_sum_over_operators_is_the_decode_pages_ceiling(catalog):
    # Below the ridge every operator is memory-bound, so Σ max(F/P, B/bw) = Σ bytes / bw: the
    # same bytes as calc.inference.decode_step (weights read + KV cache) up to the activations
    # (a few MB) and the biases / q-k norms the operator model leaves out.
    # Per GPU too, at tp 8 (the placement of calc.placement: the Decode page's): an
    # independent audit found MLA's replicated down-projections split 8 ways on the Model page
    # only (DeepSeek-V3 at tp 8: 14 % fewer weight bytes than the Decode page).
    from calc.placement import check_tp
    for mid, arch in catalog.items():
        for tp in (1, 8):
            try:
                check_tp(arch, tp)
            except ValueError:
                continue
            for batch, ctx in ((1, 2048), (4, 8192)):
                ops = model_operators(arch, phase="decode", batch=batch, tokens=ctx, tp=tp, **A100)
                ds = decode_step(arch, batch, ctx, peak_flops=A100["peak_flops"], mem_bw=A100["mem_bw"],
                                 tp=tp)
                where = (mid, tp, batch)
                assert ops.weight_bytes == pytest.approx(float(ds.weight_bytes), rel=0.01), where
                assert ops.kv_bytes == pytest.approx(float(ds.kv_bytes), rel=0.01), where
                assert ops.tokens_per_s == pytest.approx(float(ds.tokens_per_s), rel=0.01), where


def test_every_catalog_model_both_phases(catalog):
    for mid, arch in catalog.items():
        for phase in ("prefill", "decode"):
            for flash in (True, False):
                r = model_operators(arch, phase=phase, batch=2, tokens=512, flash=flash, tp=2, **A100)
                assert all(o.key in OP_KEYS for o in r.operators), mid
                assert all(o.bytes_moved > 0 and o.flops >= 0 for o in r.operators), mid
                assert math.isfinite(r.step_seconds) and r.step_seconds > 0
                assert sum(r.share(o) for o in r.operators) == pytest.approx(1.0)
                assert sum(o.count for o in r.operators if o.key == "norm_in") == arch.n_layers


@pytest.mark.parametrize("kwargs, message", [
    (dict(phase="train"), "phase"),
    (dict(batch=0), "batch"),
    (dict(batch=1.5), "batch"),
    (dict(tokens=-1), "tokens"),
    (dict(tp=0), "tp"),
    (dict(peak_flops=float("nan")), "peak_flops"),
    (dict(flash="yes"), "flash"),
])
def test_bad_inputs_name_the_argument(kwargs, message):
    args = dict(phase="decode", batch=1, tokens=128, **A100)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        model_operators(LLAMA2_7B, **args)


def test_measured_kernels_match_operators_by_class_and_flops():
    from calc.model_ops import match_kernels
    r = model_operators(LLAMA2_7B, phase="decode", batch=1, tokens=4096, **A100)
    ops = r.operators
    qkv = next(i for i, o in enumerate(ops) if o.key == "qkv")
    att = next(i for i, o in enumerate(ops) if o.key == "attn_fused")
    # A GEMM of 1.1e8 FLOP is closest to the QKV projection (1.007e8; the MLP GEMMs do 9.0e7
    # and the output projection 3.4e7). Its bound: 100,696,064 B / 2.039e12 B/s = 49.39 µs;
    # measured in 61.7 µs it reaches 49.39 / 61.7 = 80 % of it.
    # An attention kernel of 6.7e7 FLOP is the fused attention (bound 67,141,632 B / bw);
    # a GEMM of 1e12 FLOP has no operator within 2×; a norm without FLOP stays unmatched.
    m = match_kernels(r, ["matmul", "attention", "matmul", "norm"],
                      [1.1e8, 6.7e7, 1e12, 0.0], [61.7e-6, 50e-6, 1e-3, float("nan")])
    assert list(m.op_index) == [qkv, att, -1, -1]
    assert m.model_seconds[0] == pytest.approx(100_696_064 / 2.039e12)
    assert m.of_bound[0] == pytest.approx(100_696_064 / 2.039e12 / 61.7e-6)
    assert m.of_bound[1] == pytest.approx(67_141_632 / 2.039e12 / 50e-6)
    assert math.isnan(m.of_bound[2]) and math.isnan(m.of_bound[3])
    with pytest.raises(ValueError, match="one entry per kernel"):
        match_kernels(r, ["matmul"], [1.0, 2.0], [1.0, 1.0])


def test_kv_heads_split_at_most_kv_heads_ways():
    # Llama 3.1 70B has 8 KV heads: over 16 GPUs each GPU keeps one KV head (a copy), so the
    # cache read per GPU is 1/8 of the total, not 1/16; the query work still splits 16 ways.
    one = ops_by_key(model_operators(LLAMA31_70B, phase="decode", batch=1, tokens=8192, **A100))
    t16 = ops_by_key(model_operators(LLAMA31_70B, phase="decode", batch=1, tokens=8192, tp=16, **A100))
    assert t16["attn_fused"].kv_bytes == pytest.approx(one["attn_fused"].kv_bytes / 8)
    assert t16["attn_fused"].flops == pytest.approx(one["attn_fused"].flops / 16)
    # QKV weights per GPU: Q 8192·8192/16 + K,V 8192·2048/8, in bf16.
    assert t16["qkv"].weight_bytes == pytest.approx((8192 * 8192 / 16 + 8192 * 2048 / 8) * 2)


def test_mla_down_projections_are_whole_on_every_gpu(catalog):
    # DeepSeek-V3 (config.json: hidden 7168, q_lora_rank 1536, 128 heads of qk_nope 128 +
    # qk_rope 64, kv_lora_rank 512): per layer the query up-projection 1536 · 128 · 192 =
    # 37,748,736 parameters splits over tp; the down-projections 7168 · 1536 + 7168 · (512 + 64)
    # = 15,138,816 do not (vLLM ReplicatedLinear).  At tp 8: 4,718,592 + 15,138,816 per GPU.
    ds3 = catalog["deepseek-v3"]
    one = ops_by_key(model_operators(ds3, phase="decode", batch=1, tokens=4096, **A100))
    t8 = ops_by_key(model_operators(ds3, phase="decode", batch=1, tokens=4096, tp=8, **A100))
    assert one["qkv"].weight_bytes == pytest.approx((37_748_736 + 15_138_816) * 2)
    assert t8["qkv"].weight_bytes == pytest.approx((37_748_736 / 8 + 15_138_816) * 2)
    assert t8["qkv"].flops == pytest.approx(2 * (37_748_736 / 8 + 15_138_816))     # one token


def test_memory_per_gpu():
    # What one GPU holds is calc.placement's (the Model page shows it): Llama 2 7B bf16 on one
    # GPU, batch 1 at 4096 tokens: the stored weights (6,738,415,616 parameters, the
    # published 6.74B) · 2 B, and 4096 · (2·32 layers·32 heads·128·2 B) of cache.
    from calc.models import param_counts
    from calc.placement import place
    p = place(LLAMA2_7B, 1, context_len=4096, batch=1)
    assert param_counts(LLAMA2_7B).total == 6_738_415_616
    assert p.weight_bytes == 2 * 6_738_415_616
    assert p.kv_bytes == 4096 * 2 * 32 * 32 * 128 * 2
    # 8 KV heads over 16 GPUs: each keeps 1/8 of the cache; weights split 16 ways except the
    # K,V projections (2·8192·8·128·80 parameters, split 8 ways) and the norms (8192·161, whole).
    p16 = place(LLAMA31_70B, 16, context_len=8192, batch=4)
    p1 = place(LLAMA31_70B, 1, context_len=8192, batch=4)
    assert p16.kv_bytes == pytest.approx(p1.kv_bytes / 8)
    kv, rep = 2 * 8192 * 8 * 128 * 80, 8192 * 161
    n = param_counts(LLAMA31_70B).total
    assert p16.weight_bytes == pytest.approx(((n - kv - rep) / 16 + kv / 8 + rep) * 2)


def test_mla_prefill_operators_are_not_absorbed(catalog):
    # Issue 19 defect 3 on the Model page's operators: DeepSeek-V3 prefill of 4096 tokens.
    # Attention core, non-absorbed (vLLM's prefill): per layer 2·H·q·k̄·(d_qk + d_v) =
    # 2 · 128 · 4096 · k̄ · (192 + 128), k̄ = keys_per_query(4096, causal) = 4096 / 2 = 2048;
    # the absorbed form would use (576 + 512): 3.4 times the attention FLOP.
    from calc.inference import prefill
    from calc.models import keys_per_query
    a = catalog["deepseek-v3"]
    ops = model_operators(a, phase="prefill", batch=1, tokens=4096, **A100)
    att = ops_by_key(ops)["attn_fused"]
    assert float(keys_per_query(4096, 0, True)) == 2048
    assert att.flops == pytest.approx(2 * 128 * 4096 * 2048 * (192 + 128))
    # the operator sum's FLOP is the prefill record's (334 TFLOP) up to norms, rope and the
    # router the record leaves out (< 1 %)
    assert ops.flops == pytest.approx(prefill(a, 4096, peak_flops=312e12, mem_bw=2.039e12).flops,
                                      rel=0.01)


def test_learned_positions_have_no_rope(catalog):
    # GPT-3 (learned position table of 2,048 rows, models.toml) rotates nothing: no RoPE
    # operator; Llama (rotary) has one per layer, 3 FLOP per rotated element:
    # decode, one token, 32 heads x 128 + 32 KV x 128 = 8,192 elements -> 24,576 FLOP per layer.
    gpt3 = next(a for a in catalog.values() if a.learned_positions)
    assert "rope" not in ops_by_key(model_operators(gpt3, phase="decode", batch=1, tokens=2048, **A100))
    rope = ops_by_key(model_operators(LLAMA2_7B, phase="decode", batch=1, tokens=2048, **A100))["rope"]
    assert rope.count == 32 and rope.flops == pytest.approx(3 * (32 * 128 + 32 * 128))
