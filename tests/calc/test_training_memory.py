"""Training memory per GPU (calc.training_memory): states, activations under every
parallelism and pipeline schedule, ZeRO-3 buffers, the fit.  Expected values by hand."""
import pytest

from calc.models import load_models, param_counts
from calc.training_memory import (OPTIMIZERS, SCHEDULES, activation_bytes_per_layer,
                                  layers_in_flight, training_memory)


@pytest.fixture(scope="module")
def catalog():
    return load_models()


N_405B = 405_853_388_800        # 126 × 3,187,703,808 per layer + 2 × 128256 × 16384 + 16384
N_7B = 6_738_415_616            # Llama 2 7B (config.json, calc.arch.param_counts)


def test_405b_pipeline_activations_do_not_fit(catalog):
    # Defect 2.  Llama-3.1-405B, 2,048 × H100-80GB, tp 8, pp 16 (dp = 2048 / 128 = 16), ZeRO-1,
    # selective recompute, seq 8192, micro-batch 1, sequence parallelism.
    # per layer: 34 · s · b · h / t = 34 × 8192 × 16384 / 8 = 570,425,344 B
    # 1F1B: the first stage holds p = 16 micro-batches of L/p = 7.875 layers = 126 layers' worth
    #   activations = 126 × 570,425,344 = 71,873,593,344 B
    # parameters per GPU (calc.placement: the norms, R = 126 × 2 × 16384 + 16384 = 4,145,152,
    # are replicated over the 8 tp GPUs, the rest split): ((N − R)/8 + R) = 50,735,300,608 per
    # tp GPU, of which the embedding and the untied head E = H = 128,256 × 16,384 / 8 =
    # 262,668,288 each; the first stage holds the layers' 1/16 and the embedding:
    # (50,735,300,608 − 2 × 262,668,288)/16 + 262,668,288 = 3,400,791,040
    #   weights 2 B: 6,801,582,080; gradients 4 B (FP32, Megatron-LM's bf16 default):
    #   13,603,164,160; optimizer 12 B / dp 16: 2,550,593,280
    # total = 94,828,932,864 B ≈ 94.8 GB > 80 GB: does not fit (it read 19.6 GB, "fits (23 %)";
    # 93.3 GB with the embedding and head spread evenly over the 16 stages)
    a = catalog["llama-3.1-405b"]
    m = training_memory(a, tp=8, pp=16, dp=16, zero_stage=1, recompute="selective", seq_len=8192,
                        micro_batch=1, memory_bytes=80e9)
    assert m.activations_per_layer == pytest.approx(570_425_344)
    assert m.layers_in_flight == pytest.approx(126)
    assert m.activations == pytest.approx(71_873_593_344)
    assert m.params_per_gpu == pytest.approx(3_400_791_040)
    assert m.weights == pytest.approx(6_801_582_080)
    assert m.gradients == pytest.approx(13_603_164_160)
    assert m.optimizer == pytest.approx(2_550_593_280)
    assert m.total == pytest.approx(94_828_932_864)
    assert m.fit == "no" and m.used == pytest.approx(94_828_932_864 / 80e9)


def test_the_first_stage_holds_the_embedding(catalog):
    # Megatron-LM puts the embedding on the first stage and the head on the last, the layers
    # split evenly (stage_params).  GPT-3 175B (tied, vocab 50,257 + 2,048 learned positions,
    # d 12,288), t 8, p 12: E = 52,305 × 12,288 / 8 = 80,340,480 on stage 0, where an even
    # split of the p = 1 holding gave it E/12; the difference is E·(1 − 1/12)
    from calc.training_memory import stage_params
    g = catalog["gpt-3-175b"]
    one = training_memory(g, tp=8, seq_len=2048).params_per_gpu
    m = training_memory(g, tp=8, pp=12, seq_len=2048)
    assert m.params_per_gpu - one / 12 == pytest.approx(80_340_480 * 11 / 12)
    assert m.stage == 0 and stage_params(g, 8, 12).ends == pytest.approx(80_340_480)
    # DualPipe: rank 0 holds stages 0 and p − 1, so the layers' 2/p, the embedding and the
    # last stage's copy of the tied word table (no positions: 50,257 × 12,288 / 8 = 77,194,752):
    # 2·(one − E)/12 + E + 77,194,752
    d = training_memory(g, tp=8, pp=12, seq_len=2048, schedule="dualpipe")
    assert d.params_per_gpu == pytest.approx(2 * (one - 80_340_480) / 12 + 80_340_480 + 77_194_752)
    # untied: Llama 3.1 70B (N = 70,553,706,496; E = H = 128,256 × 8192 = 1,050,673,152), t 1,
    # DualPipe p 8: 2·(N − 2E)/8 + E + H = 19,214,436,352
    a = catalog["llama-3.1-70b"]
    d = training_memory(a, pp=8, seq_len=4096, schedule="dualpipe")
    assert d.params_per_gpu == pytest.approx(19_214_436_352)
    # one stage holds the whole model, the embedding and the head once
    assert training_memory(a, seq_len=4096).params_per_gpu == pytest.approx(70_553_706_496)
    # the data-parallel gradients are the first stage's too: ZeRO-0, 405B at t 8, p 16, the
    # 3,400,791,040 parameters of test_405b_pipeline_activations_do_not_fit
    from calc.parallel.step import _dp_grad_params
    assert _dp_grad_params(catalog["llama-3.1-405b"], 8, 16, 1, "1f1b") == \
        pytest.approx(3_400_791_040)


def test_schedules_first_stage(catalog):
    # Korthikanti et al. 2022 §4.2.3: interleaved with v chunks, L · (1 + (p − 1)/(p·v));
    # p = 16, v = 2: 126 × (1 + 15/32) = 185.06 layers; DualPipe: (L/p)·(p + 1) = 7.875 × 17
    # = 133.875 and 2× parameters; ZB1P as 1F1B (126); fewer micro-batches than stages: m = 4
    # in flight -> 7.875 × 4 = 31.5.
    assert layers_in_flight(126, 16, "1f1b", 2) == pytest.approx(126 * (1 + 15 / 32))
    assert layers_in_flight(126, 16, "dualpipe") == pytest.approx(133.875)
    assert layers_in_flight(126, 16, "zb1p") == pytest.approx(126)
    assert layers_in_flight(126, 16, "1f1b", 1, n_microbatches=4) == pytest.approx(31.5)
    assert layers_in_flight(126, 1) == 126
    a = catalog["llama-3.1-405b"]
    kw = dict(tp=8, pp=16, dp=16, zero_stage=1, recompute="selective", seq_len=8192)
    one = training_memory(a, **kw)
    dual = training_memory(a, schedule="dualpipe", **kw)
    assert dual.weights == pytest.approx(2 * one.weights)       # DualPipe README: parameters 2×
    assert dual.activations == pytest.approx(133.875 * 570_425_344)
    inter = training_memory(a, interleave=2, **kw)
    assert inter.activations > one.activations                  # interleaving adds to it
    with pytest.raises(ValueError, match="n_microbatches"):
        training_memory(a, interleave=2, n_microbatches=8, **kw)
    with pytest.raises(ValueError, match="schedule"):
        training_memory(a, schedule="gpipe-ish", **kw)
    assert set(SCHEDULES) == {"1f1b", "zb1p", "dualpipe"}


def test_adam_fp32_counts_weights_and_gradients_at_4_bytes(catalog):
    # Defect 5.  Llama-2-7B, ZeRO-0, "Adam, FP32 weights": 4 + 4 + 8 = 16 B/param
    # = 16 × 6,738,415,616 = 107.81 GB; activations with FlashAttention (no score term),
    # seq 4096, b 1, t 1: 34 × 4096 × 4096 × 32 layers = 18.25 GB; total 126.07 GB (it read 99.1).
    a = catalog["llama-2-7b"]
    m = training_memory(a, zero_stage=0, recompute="none", seq_len=4096, optimizer="adam-fp32",
                        flash_attention=True)
    assert m.weights == pytest.approx(4 * N_7B) and m.gradients == pytest.approx(4 * N_7B)
    assert m.optimizer == pytest.approx(8 * N_7B)
    assert m.total == pytest.approx(16 * N_7B + 34 * 4096 * 4096 * 32)
    assert m.total / 1e9 == pytest.approx(126.07, abs=0.01)
    assert OPTIMIZERS["adam-mixed"].states == 12


def test_full_recompute_under_sequence_parallelism(catalog):
    # Defect 6.  Full recompute keeps the layer input, split t ways by sequence parallelism:
    # 2 · s · b · h / t = 2 × 8192 × 16384 / 8 = 33,554,432 B = 33.6 MB (it read 268 MB = 2sbh).
    assert activation_bytes_per_layer(8192, 1, 16384, 128, "full", 8) == pytest.approx(33_554_432)
    assert activation_bytes_per_layer(8192, 1, 16384, 128, "full", 8, sequence_parallel=False) == \
        pytest.approx(268_435_456)


def test_zero3_all_gather_buffers_are_counted(catalog):
    # Defect 7 (part).  Llama 2 7B on 8 GPUs, FSDP (ZeRO-3), bf16 weights, FP32 gradients:
    # states (2 + 4 + 12)/8 = 2.25 B/param; buffers: two all-gathered layers (current +
    # prefetched) and one unsharded gradient, (2·2 + 4) B × the largest unit: one layer,
    # 4·4096² + 3·4096·11,008 + 2·4096 = 202,383,360 (the embedding and the untied head,
    # 32,000 × 4096 = 131,072,000 each, are their own, smaller units).  Llama 3.1 8B's
    # embedding, 128,256 × 4096 = 525,336,576, is larger than its layer (218,112,000).
    a = catalog["llama-2-7b"]
    m = training_memory(a, dp=8, zero_stage=3, recompute="full", seq_len=4096)
    assert m.states == pytest.approx(2.25 * N_7B)
    assert m.zero3_buffers == pytest.approx(8 * 202_383_360)
    assert m.unit_params == pytest.approx(202_383_360)
    m = training_memory(catalog["llama-3.1-8b"], dp=8, zero_stage=3, recompute="full", seq_len=4096)
    assert m.zero3_buffers == pytest.approx(8 * 525_336_576)
    assert m.total == pytest.approx(m.states + m.activations + m.zero3_buffers)
    assert training_memory(a, dp=8, zero_stage=2, recompute="full", seq_len=4096).zero3_buffers == 0


def test_zero3_unit_of_an_moe_model_is_its_largest_layer(catalog):
    from calc.training_memory import stage_params
    # ZeRO-3 gathers one layer at a time; DeepSeek-V3's 58 MoE layers are far larger than its
    # 3 dense ones, so the unit is an MoE layer, not the 61-layer average (10.97 B). By hand
    # (d 7168, MLA q_lora 1536, kv_lora 512 + rope 64, 128 heads of 192 / 128):
    #   attention 7168·1536 + 1536 + 1536·128·192 + 7168·576 + 512 + 512·128·256 + 128·128·7168
    #             = 187,107,328; norms 2·7168 = 14,336;
    #   MoE FFN   (256 routed + 1 shared) × 3·7168·2048 + router 256·7168 = 11,320,164,352;
    #   dense FFN 3·7168·18,432 = 396,361,728  -> 583,483,392 per dense layer.
    # The final norm, 7168 spread over 61 layers, adds 117.5.
    ds = catalog["deepseek-v3"]
    attn, norms = 187_107_328, 14_336
    moe_ffn, expert = 257 * 3 * 7168 * 2048 + 256 * 7168, 3 * 7168 * 2048
    final = 7168 / 61
    sp = stage_params(ds)
    assert sp.layer == pytest.approx(attn + norms + moe_ffn + final, rel=1e-9)
    assert sp.unit == sp.layer                     # larger than the embedding (129,280 × 7168)
    # e = 8: the routed experts split 8 ways, 256 / 8 = 32 of them per GPU
    sp8 = stage_params(ds, 1, 1, 8)
    assert sp8.layer == pytest.approx(attn + norms + (moe_ffn - 256 * expert) + 32 * expert + final,
                                      rel=1e-9)
    m = training_memory(ds, dp=8, ep=8, zero_stage=3, recompute="full", seq_len=4096)
    assert m.unit_params == pytest.approx(sp8.unit)
    # a dense model's layers are all alike: the largest is the one layer (Llama 2 7B, as above)
    assert stage_params(catalog["llama-2-7b"]).layer == pytest.approx(202_383_360 + 4096 / 32)


def test_context_and_expert_parallelism(catalog):
    # Context parallelism c = 2 halves the tokens each GPU keeps activations for:
    # selective, 405B, t 8, seq 8192 / 2: 34 × 4096 × 16384 / 8 = 285,212,672 B per layer.
    a = catalog["llama-3.1-405b"]
    m = training_memory(a, tp=8, pp=16, cp=2, dp=8, seq_len=8192)
    assert m.activations_per_layer == pytest.approx(285_212_672)
    assert m.dense_shards == 16                                   # d · c = 8 × 2
    # Expert parallelism: DeepSeek-V3's routed experts split e = 8 ways on 8 GPUs (t = 1);
    # weights bf16: (N − experts) × 2 + experts × 2 / 8.
    ds = catalog["deepseek-v3"]
    pc = param_counts(ds)
    m = training_memory(ds, dp=8, ep=8, zero_stage=0, seq_len=4096)
    assert m.weights == pytest.approx((pc.total - pc.routed_experts) * 2 + pc.routed_experts * 2 / 8)
    with pytest.raises(ValueError, match="ep"):
        training_memory(ds, dp=6, ep=4, seq_len=4096)


def test_bad_inputs_name_the_field(catalog):
    a = catalog["llama-2-7b"]
    with pytest.raises(ValueError, match="zero_stage"):
        training_memory(a, zero_stage=4, seq_len=4096)
    with pytest.raises(ValueError, match="tp"):
        training_memory(a, tp=1.5, seq_len=4096)
    with pytest.raises(ValueError, match="optimizer"):
        training_memory(a, optimizer="lion", seq_len=4096)
    with pytest.raises(ValueError, match="recompute"):
        training_memory(a, recompute="some", seq_len=4096)


def test_published_totals_of_llama_31_from_their_configs(catalog):
    # Defect 7 (part): config.json of Llama-3.1-70B (80 layers, d 8192, 64 heads / 8 KV of 128,
    # FFN 28672, vocab 128256, untied): 80 x 855,654,400 + 2 x 128256 x 8192 + 8192
    # = 70,553,706,496 -> 70.55 B; 405B (126 layers, d 16384, 128 / 8 heads, FFN 53248):
    # 126 x 3,187,703,808 + 2 x 128256 x 16384 + 16384 = 405,853,388,800 -> 405.85 B
    assert catalog["llama-3.1-70b"].published_params_b == 70.55
    assert catalog["llama-3.1-405b"].published_params_b == 405.85
    assert param_counts(catalog["llama-3.1-70b"]).total == 70_553_706_496
    assert param_counts(catalog["llama-3.1-405b"]).total == N_405B


def test_data_parallel_size_names_the_fields():
    # 2,048 GPUs = tp 8 x pp 16 x dp 16; with cp 2, dp 8; 2,000 GPUs cannot be split by 128
    from calc.training_memory import data_parallel_size
    assert data_parallel_size(2048, 8, 16) == 16
    assert data_parallel_size(2048, 8, 16, 2) == 8
    with pytest.raises(ValueError, match="tp × pp × cp"):
        data_parallel_size(2000, 8, 16)
    # the record keeps the spare memory: 80e9 − 94,828,932,864 = −14.8e9 (short by that much;
    # the total is test_405b_pipeline_activations_do_not_fit's)
    a = load_models()["llama-3.1-405b"]
    m = training_memory(a, tp=8, pp=16, dp=16, seq_len=8192, memory_bytes=80e9)
    assert m.spare_bytes == pytest.approx(80e9 - 94_828_932_864)
    assert m.seq_per_gpu == 8192


def test_gradient_bytes_follow_the_optimizer_unless_given(catalog):
    # Llama 2 7B on one GPU, ZeRO-0: Adam mixed precision keeps FP32 gradients (4 B per
    # parameter), a given grad_bytes_per_elem (2: bf16 gradients, ZeRO §3.1's count) wins;
    # 8-bit Adam keeps the weights' 2 B; FP32 Adam fixes 4 B whatever is given.
    a = catalog["llama-2-7b"]
    kw = dict(seq_len=2048, recompute="full")
    assert training_memory(a, **kw).gradients == pytest.approx(4 * N_7B)
    assert training_memory(a, grad_bytes_per_elem=2, **kw).gradients == pytest.approx(2 * N_7B)
    assert training_memory(a, optimizer="adam-8bit", **kw).gradients == pytest.approx(2 * N_7B)
    assert training_memory(a, optimizer="adam-fp32", grad_bytes_per_elem=2, **kw).gradients == \
        pytest.approx(4 * N_7B)
