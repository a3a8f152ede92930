"""Training layouts (calc.parallel): bubbles, collectives, compute efficiency, the step
record and the layout search.  Every expected number is derived in the comment beside it
from the formula and its cited constant, not from the code."""
import pytest

from calc.hardware import load_hardware
from calc.models import load_models
from calc.parallel import (GEMM_EFFICIENCY, collective_seconds, custom_network, gemm_efficiency,
                           layers_on_worst_stage, network_for,
                           pipeline_bubble, schedule_timeline, search_layouts, training_step)
from calc.parallel.step import MEMORY_RESERVE, PROBLEMS


@pytest.fixture(scope="module")
def hw():
    return load_hardware()


@pytest.fixture(scope="module")
def models():
    return load_models()


# ---------------------------------------------------------------- pipeline bubbles

def test_1f1b_bubble_p8_m64_is_7_over_71():
    # (p−1)/(m+p−1) = 7/71 = 9.86 % of the step (Narayanan et al. 2021 §2.2)
    b = pipeline_bubble("1f1b", pp=8, n_microbatches=64, forward=1.0, backward=2.0)
    assert b.fraction == pytest.approx(7 / 71)
    assert round(100 * b.fraction, 1) == 9.9
    assert b.bubble == pytest.approx(7 * 3.0) and b.seconds == pytest.approx(71 * 3.0)


def test_interleaved_bubble_v3_is_7_over_199():
    # (p−1)/(v·m+p−1) = 7/(192+7) = 7/199 = 3.52 %
    b = pipeline_bubble("interleaved", pp=8, n_microbatches=64, forward=1.0, backward=2.0, interleave=3)
    assert b.fraction == pytest.approx(7 / 199)
    assert round(100 * b.fraction, 1) == 3.5


def test_zero_bubble_and_dualpipe_formulas_of_the_dualpipe_readme():
    # F = 1, B = 2, W = 1, PP = 8: ZB1P (PP−1)(F+B−2W) = 7·1 = 7;
    # DualPipe (PP/2−1)(F&B+B−3W) with F&B = F+B = 3: 3·(3+2−3) = 6
    zb = pipeline_bubble("zb1p", pp=8, n_microbatches=16, forward=1, backward=2, weight_grad=1)
    dual = pipeline_bubble("dualpipe", pp=8, n_microbatches=16, forward=1, backward=2, weight_grad=1)
    assert zb.bubble == pytest.approx(7.0)
    assert dual.bubble == pytest.approx(6.0)
    # 1F1B with the same F, B: 7·3 = 21
    assert pipeline_bubble("1f1b", pp=8, n_microbatches=16, forward=1, backward=2).bubble == pytest.approx(21.0)


def test_bad_schedule_inputs_name_the_field():
    with pytest.raises(ValueError, match="schedule"):
        pipeline_bubble("gpipe", pp=2, n_microbatches=2, forward=1, backward=2)
    with pytest.raises(ValueError, match="pp must be even"):
        pipeline_bubble("dualpipe", pp=3, n_microbatches=4, forward=1, backward=2)
    with pytest.raises(ValueError, match="n_microbatches"):
        pipeline_bubble("1f1b", pp=2, n_microbatches=0, forward=1, backward=2)


def test_memory_per_stage_follows_the_schedule(hw, models):
    # The worst stage's memory is calc.training_memory's; the step passes it the schedule:
    # 1F1B p = 8, m ≥ p: L layers of activations in flight (Korthikanti 2022 §4.2.3);
    # interleaved v = 2: L·(1 + 7/16) = 1.4375·L; DualPipe: (L/p)·(p+1) = 1.125·L, 2× weights
    arch, dev = models["llama-3.1-70b"], hw["h100-sxm"]
    kw = dict(device=dev, gpus=64, tp=8, pp=8, seq_len=4096, global_batch=64)
    one = training_step(arch, schedule="1f1b", **kw).memory
    il = training_step(arch, schedule="interleaved", interleave=2, **kw).memory
    dual = training_step(arch, schedule="dualpipe", **kw).memory
    assert one.layers_in_flight == pytest.approx(80)
    assert il.layers_in_flight == pytest.approx(80 * (1 + 7 / 16))
    assert dual.layers_in_flight == pytest.approx(80 / 8 * 9)
    assert dual.weights == pytest.approx(2 * one.weights)


def test_gantt_of_1f1b_ends_at_m_plus_p_minus_1_slots():
    # p = 4, m = 8, F = 1, B = 2: (m+p−1)·(F+B) = 11·3 = 33; every stage runs 8 F and 8 B
    blocks = schedule_timeline("1f1b", pp=4, n_microbatches=8, forward=1.0, backward=2.0)
    assert max(b.end for b in blocks) == pytest.approx(33.0)
    for s in range(4):
        mine = [b for b in blocks if b.stage == s]
        assert sorted(b.kind for b in mine) == ["B"] * 8 + ["F"] * 8
        ends = sorted((b.start, b.end) for b in mine)
        assert all(e1 <= s2 + 1e-12 for (_, e1), (s2, _) in zip(ends, ends[1:]))   # no overlap


def test_gantt_of_interleaved_matches_its_bubble():
    # p = 4, m = 8, v = 2, F = 1, B = 2 (all chunks together): m·(F+B) + (p−1)·(F+B)/v = 24 + 4.5
    blocks = schedule_timeline("interleaved", pp=4, n_microbatches=8, forward=1.0, backward=2.0, interleave=2)
    assert max(b.end for b in blocks) == pytest.approx(28.5)
    assert len(blocks) == 4 * 8 * 2 * 2


def test_gantt_of_zero_bubble_is_shorter_than_1f1b():
    one = schedule_timeline("1f1b", pp=4, n_microbatches=8, forward=1.0, backward=2.0)
    zb = schedule_timeline("zb1p", pp=4, n_microbatches=8, forward=1.0, backward=2.0, weight_grad=1.0)
    assert max(b.end for b in zb) < max(b.end for b in one)
    # F = 1, B = 2 of which W = 1: m·(F+B) + (p−1)·(F+B−2W) = 24 + 3·1 = 27
    assert max(b.end for b in zb) == pytest.approx(27.0)
    assert {b.kind for b in zb} == {"F", "B", "W"}


# ---------------------------------------------------------------- network and collectives

def test_network_of_h100_from_hardware_toml(hw):
    # DGX H100: 8 GPUs, NVLink 900 GB/s both ways = 450 per direction, 400 Gb/s NIC = 50 GB/s
    net = network_for(hw["h100-sxm"])
    assert net.domain_gpus == 8
    assert net.scale_up.bandwidth == 450e9 and net.scale_out.bandwidth == 50e9
    assert net.scale_up.efficiency == 0.6 and net.scale_out.efficiency == 0.9   # Calculon
    assert net.tier(8).name == "scale_up" and net.tier(16).name == "scale_out"
    assert network_for(hw["l4"]) is None          # no network in the file: type one


def test_ring_all_reduce_by_hand(hw):
    # 1 GB over 8 GPUs on NVLink: 2·7/8 · 1e9 / (450e9·0.6) = 6.481 ms, + 2·7 steps · 1 µs
    tier = network_for(hw["h100-sxm"]).scale_up
    t = collective_seconds("all_reduce", 1e9, 8, tier)
    assert t == pytest.approx(2 * 7 / 8 * 1e9 / 270e9 + 14e-6)
    # reduce-scatter + all-gather = the same bytes as one all-reduce
    rs = collective_seconds("reduce_scatter", 1e9, 8, tier)
    ag = collective_seconds("all_gather", 1e9, 8, tier)
    assert rs + ag == pytest.approx(t)
    assert collective_seconds("all_reduce", 1e9, 1, tier) == 0.0
    # across nodes: 50 GB/s · 0.9 = 45 GB/s: 2·15/16 · 1e9 / 45e9 = 41.67 ms, + 30 · 2 µs
    out = network_for(hw["h100-sxm"]).scale_out
    assert collective_seconds("all_reduce", 1e9, 16, out) == pytest.approx(2 * 15 / 16 / 45 + 60e-6)


def test_custom_network_is_validated():
    net = custom_network(72, 900e9, 100e9)
    assert net.tier(72).bandwidth == 900e9 and net.tier(73).bandwidth == 100e9
    with pytest.raises(ValueError, match="domain_gpus"):
        custom_network(0, 900e9, 100e9)
    with pytest.raises(ValueError, match="scale_out_bw"):
        custom_network(8, 900e9, -1)
    with pytest.raises(ValueError, match="scale_up_efficiency"):
        custom_network(8, 900e9, 50e9, scale_up_efficiency=1.5)


# ---------------------------------------------------------------- compute efficiency

def test_gemm_efficiency_is_calculons_table_scaled_to_the_measured_top(hw):
    # Calculon: 0.95 ≥ 128 GFLOP, 0.90 ≥ 16, 0.60 ≥ 1, 0.10 below; H100 measured top 0.803
    # (stas00/ml-engineering MAMF): 200 GFLOP -> 0.803; 20 GFLOP -> 0.90·0.803/0.95 = 0.7607
    assert GEMM_EFFICIENCY[0] == (128e9, 0.95)
    top = hw["h100-sxm"].matmul_fraction
    assert top == 0.803
    assert gemm_efficiency(200e9, top) == pytest.approx(0.803)
    assert gemm_efficiency(20e9, top) == pytest.approx(0.90 * 0.803 / 0.95)
    assert gemm_efficiency(0.5e9) == 0.10          # no measurement: Calculon as is


def test_worst_stage_layers():
    # Llama 3 405B: 126 layers on 16 stages -> ceil(126/16) = 8 on the worst stage
    assert layers_on_worst_stage(126, 16) == 8
    # 96 layers, pp 8, v 3: ceil(96/24)·3 = 12
    assert layers_on_worst_stage(96, 8, 3) == 12


# ---------------------------------------------------------------- the step record

def test_step_parts_sum_and_mfu_definition(hw, models):
    arch, dev = models["llama-3.1-70b"], hw["h100-sxm"]
    r = training_step(arch, device=dev, gpus=64, tp=8, pp=4, seq_len=4096, global_batch=256,
                      micro_batch=1)
    assert r.dp == 64 // (8 * 4) == 2 and r.n_microbatches == 256 // (2 * 1)
    assert sum(r.parts.values()) == pytest.approx(r.step_seconds)
    # MFU = model FLOP per token · tokens per step / (step · GPUs · peak); peak = the
    # datasheet's dense BF16 989.4 TFLOP/s
    tokens = 256 * 4096
    assert r.peak_flops == pytest.approx(989.4e12)
    assert r.mfu == pytest.approx(r.model_flops_per_token * tokens / (r.step_seconds * 64 * 989.4e12))
    assert r.tokens_per_step == tokens
    assert r.tokens_per_s == pytest.approx(tokens / r.step_seconds)
    assert r.hfu >= r.mfu and 0 < r.mfu < 1
    assert r.tiers == {"tp": "scale_up", "cp": "scale_up", "ep": "scale_up", "dp": "scale_out",
                       "pp": "scale_out"}
    # fit rule: the worst stage's total within the capacity less the 10 % reserve
    assert r.fits == (r.memory.total <= dev.memory_bytes * (1 - MEMORY_RESERVE))


def test_tp_communication_by_hand(hw, models):
    # Llama-2-7B (32 layers, d 4096), tp 8 on one H100 node, s 4096, b 1, sequence parallel:
    # per layer and micro-batch 2 (AG + RS) forward + 2 backward of T·d·2 = 4096·4096·2 = 33.55 MB;
    # AG = RS = 7/8 · 33.55e6 / 270e9 + 7 · 1 µs = 115.73 µs;  per layer 8 · 115.73 = 925.9 µs
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    r = training_step(arch, device=dev, gpus=8, tp=8, seq_len=4096, global_batch=4, micro_batch=1,
                      recompute="selective")
    one = 7 / 8 * 4096 * 4096 * 2 / 270e9 + 7e-6
    # the model's ends (one stage holds embedding and LM head): the LM head's input AG forward
    # and RS backward, the embedding's RS forward and AG backward: 4 more; the cross entropy's
    # 3 all-reduces of 4,096 FP32 numbers: 3 · (14/8 · 16,384 B / 270e9 + 14 µs) = 42.3 µs
    ce = 3 * (14 / 8 * 4096 * 4 / 270e9 + 14e-6)
    assert r.n_microbatches == 4
    assert r.tp_comm_seconds == pytest.approx(4 * (32 * 8 * one + 4 * one + ce))
    # full recompute runs the layers' forward 2 (AG + RS) once more: 12 instead of 8 (the
    # ends are not recomputed: Megatron-LM recomputes transformer layers only)
    f = training_step(arch, device=dev, gpus=8, tp=8, seq_len=4096, global_batch=4, recompute="full")
    assert f.tp_comm_seconds == pytest.approx(4 * (32 * 12 * one + 4 * one + ce))
    # without sequence parallelism: an all-reduce (14 ring steps) per collective pair; the LM
    # head's input all-reduced backward, the embedding's output forward: 2 at the ends
    ar = 14 / 8 * 4096 * 4096 * 2 / 270e9 + 14e-6
    n = training_step(arch, device=dev, gpus=8, tp=8, seq_len=4096, global_batch=4,
                      sequence_parallel=False)
    assert n.tp_comm_seconds == pytest.approx(4 * (32 * 4 * ar + 2 * ar + ce))


def test_tp_at_the_model_ends_of_a_later_pipeline_stage(hw, models):
    # pp 2: the worst (last) stage has 16 layers and the LM head but no embedding: AG + RS
    # at its end and the cross entropy, per micro-batch (8 micro-batches of 1 sequence)
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    r = training_step(arch, device=dev, gpus=16, tp=8, pp=2, seq_len=4096, global_batch=8)
    one = 7 / 8 * 4096 * 4096 * 2 / 270e9 + 7e-6
    ce = 3 * (14 / 8 * 4096 * 4 / 270e9 + 14e-6)
    assert r.n_microbatches == 8
    assert r.tp_comm_seconds == pytest.approx(8 * (16 * 8 * one + 2 * one + ce))


def test_bubble_in_the_step_uses_the_schedule_formula(hw, models):
    # 1F1B: bubble = (p−1)·(F+B) with every per-micro-batch term inside F and B, so
    # bubble / (pipeline time) = (p−1)/(m+p−1): p = 4, m = 16 -> 3/19
    arch, dev = models["llama-3.1-70b"], hw["h100-sxm"]
    r = training_step(arch, device=dev, gpus=32, tp=8, pp=4, seq_len=4096, global_batch=16)
    pipeline = r.step_seconds - r.dp_comm_seconds - r.optimizer_seconds
    assert r.bubble_seconds / pipeline == pytest.approx(3 / 19)


def test_invalid_layouts_raise_naming_the_problem(hw, models):
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    with pytest.raises(ValueError, match="gpus_not_divisible"):
        training_step(arch, device=dev, gpus=12, tp=8, seq_len=4096, global_batch=8)
    with pytest.raises(ValueError, match="tp_heads"):
        training_step(arch, device=dev, gpus=6, tp=6, seq_len=4096, global_batch=6)
    with pytest.raises(ValueError, match="batch_not_divisible"):
        training_step(arch, device=dev, gpus=16, tp=8, seq_len=4096, global_batch=3)
    with pytest.raises(ValueError, match="dp·tp·pp·cp"):
        training_step(arch, device=dev, gpus=16, tp=8, dp=4, seq_len=4096, global_batch=8)
    with pytest.raises(ValueError, match="no_network"):
        training_step(arch, device=hw["l4"], gpus=8, tp=8, seq_len=4096, global_batch=8)
    # a TP group of 16 on 8-GPU nodes runs on InfiniBand: computed, with a warning
    r = training_step(arch, device=dev, gpus=16, tp=16, seq_len=4096, global_batch=4)
    assert "tp_crosses_domain" in r.warnings and r.tiers["tp"] == "scale_out"


def test_typed_network_replaces_the_devices(hw, models):
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    slow = custom_network(8, 45e9, 5e9)
    a = training_step(arch, device=dev, gpus=8, tp=8, seq_len=4096, global_batch=8)
    b = training_step(arch, device=dev, gpus=8, tp=8, seq_len=4096, global_batch=8, network=slow)
    # NVLink 10× slower: the bandwidth part of the TP time grows 10×
    assert b.tp_comm_seconds > 9 * a.tp_comm_seconds


# ---------------------------------------------------------------- search

def test_search_returns_only_fitting_layouts_sorted_and_agreeing(hw, models):
    arch, dev = models["llama-3.1-70b"], hw["h100-sxm"]
    res = search_layouts(arch, device=dev, gpus=64, seq_len=4096, global_batch=256)
    assert len(res) > 0
    times = [r.step_seconds for r in res]
    assert times == sorted(times)
    assert all(r.fits for r in res)
    for r in res.layouts[:5]:
        again = training_step(arch, device=dev, gpus=64, tp=r.tp, pp=r.pp, cp=r.cp, ep=r.ep,
                              seq_len=4096, global_batch=256, micro_batch=r.micro_batch)
        assert again.step_seconds == pytest.approx(r.step_seconds)
        assert again.mfu == pytest.approx(r.mfu)
    reasons = {x.reason for x in res.rejected}
    assert reasons <= set(PROBLEMS)
    assert "memory" in reasons                # tp 1, pp 1: 70B of Adam states per GPU do not fit
    assert "tp_crosses_domain" in reasons     # tp 16 and more leave the 8-GPU node
    mem = next(x for x in res.rejected if x.reason == "memory")
    assert mem.detail["memory"] > mem.detail["capacity"] * (1 - MEMORY_RESERVE)


def test_search_honours_pinned_degrees(hw, models):
    arch, dev = models["llama-3.1-70b"], hw["h100-sxm"]
    res = search_layouts(arch, device=dev, gpus=64, seq_len=4096, global_batch=256, tp=8,
                         schedule="interleaved", interleave=2)
    assert res and all(r.tp == 8 and r.schedule == "interleaved" for r in res)


def test_search_moe_tries_expert_parallelism(hw, models):
    arch, dev = models["mixtral-8x7b"], hw["h100-sxm"]
    res = search_layouts(arch, device=dev, gpus=64, seq_len=4096, global_batch=128)
    assert {r.ep for r in res.layouts} | {x.ep for x in res.rejected} >= {1, 2, 4, 8}


def test_dualpipe_hides_the_expert_all_to_all_only_with_a_pipeline(hw, models):
    # DeepSeek-V3 report §3.2.1: DualPipe overlaps the all-to-all with computation; with
    # pp = 1 there is no pipeline to overlap it with, so it stays exposed.
    arch, dev = models["mixtral-8x7b"], hw["h100-sxm"]
    kw = dict(device=dev, gpus=64, tp=2, ep=8, seq_len=4096, global_batch=64, schedule="dualpipe")
    flat = training_step(arch, pp=1, **kw)
    piped = training_step(arch, pp=2, **kw)
    assert flat.ep_comm_seconds > 0 and flat.ep_comm_hidden_seconds == 0
    assert piped.ep_comm_seconds == 0 and piped.ep_comm_hidden_seconds > 0


def test_pipeline_point_to_point_by_hand(hw, models):
    # Llama-2-7B, pp 2 in one node, tp 1, s 4096, b 1: one p2p forward and one backward per
    # micro-batch of T·d·2 = 4096·4096·2 = 33.55 MB at 450 GB/s · 0.6 = 270 GB/s, + 1 µs:
    # 124.3 µs + 1 µs; m = 8 micro-batches: 8 · 2 · 125.3 µs = 2.005 ms
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    r = training_step(arch, device=dev, gpus=2, pp=2, seq_len=4096, global_batch=8)
    one = 4096 * 4096 * 2 / 270e9 + 1e-6
    assert r.tiers["pp"] == "scale_up"
    assert r.pp_comm_seconds == pytest.approx(8 * 2 * one)


def test_data_parallel_all_reduce_by_hand_without_overlap(hw, models):
    # Llama-2-7B, tp 8 per node, dp 2 across nodes (span 16 > 8: InfiniBand, 50 GB/s · 0.9):
    # ZeRO-0 all-reduces the G FP32 gradients each GPU holds: the norms, R = (2·32 + 1)·4096
    # = 266,240, are replicated over the tp group, the rest split 8 ways: G = (N − R)/8 + R;
    # 2·(1/2)·G·4 / 45e9 + 2·1 step · 2 µs
    from calc.arch import param_counts
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    r = training_step(arch, device=dev, gpus=16, tp=8, seq_len=4096, global_batch=8, zero_stage=0,
                      overlap_dp=False)
    R = 65 * 4096
    G = (param_counts(arch).total - R) / 8 + R
    assert r.tiers["dp"] == "scale_out"
    assert r.dp_comm_seconds == pytest.approx(G * 4 / 45e9 + 4e-6)
    # overlapped: what exceeds the last micro-batch's backward, at least one 40 M bucket
    o = training_step(arch, device=dev, gpus=16, tp=8, seq_len=4096, global_batch=8, zero_stage=0)
    assert o.dp_comm_seconds + o.dp_comm_hidden_seconds == pytest.approx(r.dp_comm_seconds)
    assert o.dp_comm_seconds >= 40e6 * 4 / 45e9


def test_context_parallel_kv_all_gather_by_hand(hw, models):
    # Llama-3.1-8B (32 layers, 8 KV heads × 128), cp 2, s 8192: T = 4096 tokens per GPU,
    # K,V = 4096 · 2·8·128 · 2 B = 16.78 MB; forward all-gather of cp · K,V over 2 GPUs on
    # NVLink: (1/2)·33.55e6 / 270e9 + 1 µs, backward twice that; exposed + hidden = m·L·3·AG
    arch, dev = models["llama-3.1-8b"], hw["h100-sxm"]
    r = training_step(arch, device=dev, gpus=2, cp=2, seq_len=8192, global_batch=4)
    ag = 0.5 * 2 * 4096 * 2 * 8 * 128 * 2 / 270e9 + 1e-6
    m = 4
    assert r.cp_comm_seconds + r.cp_comm_hidden_seconds == pytest.approx(m * 32 * 3 * ag)


def test_unfused_attention_costs_more_than_flash(hw, models):
    # Unfused (model_ops: QKᵀ and ·V as GEMMs, the softmax over the s×s scores through
    # memory, every score computed even when causal) against fused at the FlashAttention-2
    # share: at 8k tokens the unfused attention is the slower one, the GEMMs are the same
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    kw = dict(device=dev, gpus=8, tp=8, seq_len=8192, global_batch=8, recompute="selective")
    fused = training_step(arch, **kw)
    plain = training_step(arch, flash_attention=False, **kw)
    assert plain.stage.attention > fused.stage.attention
    assert plain.stage.gemm == pytest.approx(fused.stage.gemm)
    assert plain.step_seconds > fused.step_seconds and not fused.stage.attention_backward == 0



def test_fused_attention_forward_and_backward_by_hand(hw, models):
    # Llama-2-7B (d = 32 heads × 128 = 4096) at tp 8, one sequence of 8,192 tokens, causal:
    # QKᵀ and ·V are 2·2·s·d FLOP per token, half of it masked: 2·8192·4096 per token, ×
    # 8192 tokens ÷ 8 GPUs = 6.87e10 FLOP per layer, at FlashAttention-2's 0.5 of 989.4 TFLOP/s
    # = 0.139 ms.  The backward recomputes QKᵀ, 2.5× the forward's FLOPs (flash-attn's
    # benchmark convention, the one its shares of peak are measured in): 0.347 ms, not 2×.
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    st = training_step(arch, device=dev, gpus=8, tp=8, seq_len=8192, global_batch=8,
                       recompute="selective")
    fwd = 2 * 8192 * 4096 * 8192 / 8 / (0.5 * 989.4e12)
    assert st.stage.attention == pytest.approx(fwd, rel=1e-3)
    assert st.stage.attention_backward == pytest.approx(2.5 * fwd, rel=1e-3)

def test_attention_dropout_of_unfused_attention_by_hand(hw, models):
    # Megatron's unfused attention drops the probabilities in a kernel of its own: Llama-2-7B
    # (32 heads) at tp 8, one sequence of 8,192: 32/8 · 8192² = 268.4 M elements per layer,
    # P read and P' written (2 B each) and a 1-byte mask = 5 B each = 1.342 GB, at 90 % of
    # HBM (Calculon's η_mem above 100 MB); the backward moves as much (gradient and mask in,
    # gradient out), and selective recomputation runs the forward once more.
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    kw = dict(device=dev, gpus=8, tp=8, seq_len=8192, global_batch=8, recompute="selective",
              flash_attention=False)
    plain = training_step(arch, **kw)
    drop = training_step(arch, attention_dropout=True, **kw)
    t = 32 / 8 * 8192**2 * 5 / (dev.mem_bw * 0.90)
    assert drop.stage.attention - plain.stage.attention == pytest.approx(t)
    assert drop.stage.attention_backward - plain.stage.attention_backward == pytest.approx(t)
    layers = arch.n_layers
    assert drop.stage.backward - plain.stage.backward == pytest.approx(2 * layers * t)
    assert drop.attention_dropout and not plain.attention_dropout
    # a fused kernel applies dropout in registers: nothing changes
    fused = training_step(arch, **{**kw, "flash_attention": True})
    fused_drop = training_step(arch, attention_dropout=True, **{**kw, "flash_attention": True})
    assert fused_drop.step_seconds == fused.step_seconds and not fused_drop.attention_dropout


def test_1f1b_with_chunks_is_the_interleaved_schedule(hw, models):
    # calc.training_memory spells interleaving as 1F1B with interleave ≥ 2: the same step
    arch, dev = models["llama-3.1-70b"], hw["h100-sxm"]
    kw = dict(device=dev, gpus=64, tp=8, pp=4, seq_len=4096, global_batch=64, interleave=2)
    a = training_step(arch, schedule="1f1b", **kw)
    b = training_step(arch, schedule="interleaved", **kw)
    assert a.schedule == "interleaved" and a.step_seconds == pytest.approx(b.step_seconds)


def test_unfused_attention_hfu_counts_every_score(hw, models):
    # HFU counts the FLOPs that run: unfused QKᵀ and ·V compute all s² scores, so the
    # hardware count per token adds the causal half back: forward attention per token
    # non-causal 4·L·s·A = 4·32·8192·4096 = 4.295 GFLOP vs causal about half; with selective
    # recompute the hardware count is 6N + 4 × forward attention (fwd, bwd 2×, recompute).
    arch, dev = models["llama-2-7b"], hw["h100-sxm"]
    kw = dict(device=dev, gpus=8, tp=8, seq_len=8192, global_batch=8, recompute="selective")
    fused = training_step(arch, **kw)
    plain = training_step(arch, flash_attention=False, **kw)
    extra = plain.hardware_flops_per_token - fused.hardware_flops_per_token
    full = 4 * 32 * 8192 * 4096
    assert extra == pytest.approx(4 * full / 2, rel=1e-3)     # the masked half, four times
    assert plain.model_flops_per_token == fused.model_flops_per_token
    assert plain.hfu == pytest.approx(plain.hardware_flops_per_token * plain.tokens_per_s
                                      / (8 * plain.peak_flops))
