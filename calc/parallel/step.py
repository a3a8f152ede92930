"""One training step of a TP × PP × DP × EP × CP layout, term by term, and the search over
layouts.  Formulas: this docstring; constants cited where they are defined.

Ranks are placed as Megatron-LM does (``tp-cp-ep-dp-pp``): tensor parallel innermost,
then context, then data parallel (the expert-parallel group is ep consecutive data-parallel
ranks), pipeline outermost.  A group of size n at stride k spans k·n consecutive GPUs and
runs on the scale-up tier when k·n ≤ GPUs per domain (calc.parallel.network).

Per micro-batch and stage (L_s layers, T = b·s/cp tokens per GPU, e = 2 bytes per
activation element, d = d_model):

    compute       F, B, W                                   calc.parallel.compute
    TP            per layer: 2 all-reduces of T·d·e forward, 2 backward (with sequence
                  parallelism 2 all-gathers + 2 reduce-scatters, the same bytes), +2 for full
                  recompute (Korthikanti et al. 2022 §4.2.2); not overlapped (Calculon's
                  "no_overlap"); at the model's ends the LM head's input (SP: all-gather
                  forward, reduce-scatter backward; else an all-reduce backward), the
                  vocab-parallel cross entropy's 3 all-reduces of T FP32 numbers, and with
                  pp = 1 the embedding's output (``_tp_model_ends``)
    CP            per layer: all-gather of the K,V of T tokens forward, twice that backward
                  (K,V again and their gradients' reduce-scatter); overlapped with the
                  attention it feeds, only the excess is exposed (Llama 3 report §3.3.2;
                  Megatron context parallelism)
    EP            per MoE layer: all-to-all dispatch + combine of T·k·d·e (/tp with sequence
                  parallelism) forward and backward; hidden under DualPipe, whose point is
                  to overlap it (DeepSeek-V3 report §3.2.1)
    PP            per micro-batch and chunk: one p2p of T·d·e/tp forward and one backward

    pipeline      m·(F+B) + bubble(F, B, W)  with every per-micro-batch term inside F and B
                  (calc.parallel.schedules)
    DP            gradients per GPU G = (N_dense/(tp·pp) + N_experts/(tp·pp·ep)) parameters:
                  ZeRO-0 all-reduce of G·4 bytes; ZeRO-1/2 reduce-scatter G·4 + all-gather
                  G·2; ZeRO-3 per micro-batch 2 all-gathers G·2 + reduce-scatter G·4.
                  Gradients reduced in FP32 (Megatron-LM's default for bf16 training,
                  ``accumulate_allreduce_grads_in_fp32``).  Overlapped: the reduce-scatter
                  with the last micro-batch's backward, the all-gather with the first
                  forward; at least one 40 M-parameter bucket stays exposed (Megatron-LM
                  ``DistributedDataParallelConfig.bucket_size``); ZeRO-3 per micro-batch:
                  what exceeds F + B.
    optimizer     Adam on the GPU's shard: 30 bytes per parameter (read and write FP32
                  master, m, v: 24; read the FP32 gradient: 4; write the BF16 weight: 2) at
                  the HBM bandwidth
    step          pipeline + DP exposed + optimizer

    MFU = model FLOP per token · tokens per step / (step · GPUs · peak)   (PaLM App. B)
    HFU = the same with the recomputed FLOP, and every attention score when attention
          is unfused (its QKᵀ and ·V compute the masked half too)

Not modelled (say so beside every prediction): stragglers and slow nodes, data loading,
kernel launch gaps and CPU overhead, checkpointing, failures and restarts, NCCL's choice of
algorithm (tree / NVLS), network congestion, power and clock throttling, uneven MoE routing.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional

from ..arch import ModelArch, attention_width
from ..placement import MEMORY_RESERVE
from ..training_flops import flops_per_token
from ..training_memory import (MIXED_PRECISION_GRAD_BYTES, TrainingMemory, stage_params,
                               training_memory)
from .compute import (ACT_BYTES_PER_ELEM, StageCompute, layers_on_worst_stage, memory_efficiency,
                      stage_compute)
from .network import Network, collective_seconds, network_for
from .schedules import SCHEDULES, pipeline_bubble

__all__ = ["global_batch_sequences", "step_timeline", "GANTT_MAX_MICROBATCHES", "MEMORY_RESERVE", "GRAD_REDUCE_BYTES", "DP_BUCKET_PARAMS",
           "OPTIMIZER_STEP_BYTES_PER_PARAM", "ACT_BYTES_PER_ELEM", "PROBLEMS",
           "TrainingStep", "Rejection", "LayoutSearch", "layout_problems", "training_step",
           "search_layouts"]

GRAD_REDUCE_BYTES = MIXED_PRECISION_GRAD_BYTES
"""Bytes per gradient element in the data-parallel reduction: the FP32 gradients the memory
holds (calc.training_memory, Megatron-LM's default for bf16 training)."""
DP_BUCKET_PARAMS = 40e6
"""Parameters per gradient bucket: Megatron-LM DistributedDataParallelConfig.bucket_size."""
OPTIMIZER_STEP_BYTES_PER_PARAM = 30.0
"""HBM bytes per parameter of one Adam step (see the module docstring)."""

PROBLEMS = ("gpus_not_divisible", "tp_heads", "tp_crosses_domain", "pp_layers", "cp_seq",
            "ep_dense", "ep_experts", "ep_dp", "batch_not_divisible", "interleave_pp",
            "interleave_microbatches", "dualpipe_pp_even", "memory", "no_network")
"""Why a layout is rejected (codes the page translates; detail in Rejection.detail)."""


@dataclass(frozen=True)
class TrainingStep:
    """One training step of a layout (seconds; exposed communication only).

    ``step_seconds`` = compute + bubble + tp + cp + ep + pp + dp + optimizer (each
    ``*_seconds`` field); ``*_hidden_seconds``: communication overlapped with compute.
    ``forward_seconds`` / ``backward_seconds`` / ``weight_grad_seconds``: F, B, W of one
    micro-batch on the worst stage with its TP, CP, EP and PP communication (what the
    bubble formula takes); ``stage``: the compute-only parts.  ``tiers``:
    group -> "scale_up" / "scale_out"; ``domain_gpus``: GPUs per scale-up domain.  ``memory``: the worst stage's TrainingMemory;
    ``memory_capacity`` bytes per GPU; ``fits``: memory.total ≤ capacity·(1 − reserve)
    (calc.placement.memory_fit, the app's one rule; memory.memory_fit has the details).
    ``warnings``: problem codes that do not stop the computation (tp_crosses_domain)."""

    tp: int
    pp: int
    dp: int
    ep: int
    cp: int
    micro_batch: int
    n_microbatches: int
    gpus: int
    seq_len: int
    global_batch: int
    schedule: str
    interleave: int
    recompute: str
    zero_stage: int
    sequence_parallel: bool
    flash_attention: bool
    step_seconds: float
    compute_seconds: float
    bubble_seconds: float
    bubble_fraction: float
    tp_comm_seconds: float
    cp_comm_seconds: float
    ep_comm_seconds: float
    pp_comm_seconds: float
    dp_comm_seconds: float
    optimizer_seconds: float
    cp_comm_hidden_seconds: float
    ep_comm_hidden_seconds: float
    dp_comm_hidden_seconds: float
    mfu: float
    hfu: float
    tokens_per_s: float
    model_flops_per_token: float
    hardware_flops_per_token: float
    peak_flops: float
    gemm_efficiency: float
    forward_seconds: float
    backward_seconds: float
    weight_grad_seconds: float
    stage: StageCompute
    memory: TrainingMemory
    memory_capacity: Optional[float]
    fits: bool
    tiers: dict = field(hash=False)
    domain_gpus: int = 0
    warnings: tuple = ()
    attention_dropout: bool = False

    @property
    def tokens_per_step(self) -> int:
        """global_batch × seq_len: the tokens one step trains   [tokens]."""
        return self.global_batch * self.seq_len

    @property
    def parts(self) -> dict:
        """The step's parts in drawing order (seconds): they sum to step_seconds."""
        return {"compute": self.compute_seconds, "bubble": self.bubble_seconds,
                "tp": self.tp_comm_seconds, "cp": self.cp_comm_seconds,
                "ep": self.ep_comm_seconds, "pp": self.pp_comm_seconds,
                "dp": self.dp_comm_seconds, "optimizer": self.optimizer_seconds}

    @property
    def largest_exposed(self) -> str:
        """The largest part of the step that is not compute ("bubble", "tp", ...)."""
        parts = {k: x for k, x in self.parts.items() if k != "compute"}
        return max(parts, key=parts.get)

    @property
    def memory_share(self) -> Optional[float]:
        """memory.total / capacity (None without a capacity)."""
        return self.memory.total / self.memory_capacity if self.memory_capacity else None


@dataclass(frozen=True)
class Rejection:
    """A layout the search did not keep: its degrees, the problem code (PROBLEMS) and
    numbers for the message (``detail``)."""

    tp: int
    pp: int
    dp: int
    ep: int
    cp: int
    micro_batch: int
    reason: str
    detail: dict = field(hash=False, default_factory=dict)


@dataclass(frozen=True)
class LayoutSearch:
    """search_layouts' answer: ``layouts`` that fit, fastest first; ``rejected`` the others."""

    layouts: tuple
    rejected: tuple

    @property
    def tried(self) -> int:
        """Layouts enumerated: the ones that fit and the rejected ones."""
        return len(self.layouts) + len(self.rejected)

    def __iter__(self):
        return iter(self.layouts)

    def __len__(self):
        return len(self.layouts)

    def __getitem__(self, i):
        return self.layouts[i]


def _whole(name: str, x: Any, low: int = 1) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) \
            or int(x) != x or x < low:
        raise ValueError(f"{name} must be a whole number ≥ {low}, got {x!r}")
    return int(x)


def layout_problems(arch: ModelArch, *, gpus: int, tp: int, pp: int, cp: int, ep: int,
                    micro_batch: int, seq_len: int, global_batch: int, schedule: str,
                    interleave: int, network: Optional[Network]) -> list[tuple[str, dict]]:
    """Every reason the layout cannot run (codes of PROBLEMS with numbers), memory aside."""
    out: list[tuple[str, dict]] = []
    if gpus % (tp * pp * cp):
        out.append(("gpus_not_divisible", {"gpus": gpus, "product": tp * pp * cp}))
        return out
    dp = gpus // (tp * pp * cp)
    if arch.n_heads % tp:
        out.append(("tp_heads", {"tp": tp, "heads": arch.n_heads}))
    if network is None:
        out.append(("no_network", {}))
    elif tp > network.domain_gpus:
        out.append(("tp_crosses_domain", {"tp": tp, "domain": network.domain_gpus}))
    v = interleave if schedule == "interleaved" else 1
    if pp * v > arch.n_layers:
        out.append(("pp_layers", {"pp": pp, "chunks": pp * v, "layers": arch.n_layers}))
    if cp > 1 and seq_len % (2 * cp):
        out.append(("cp_seq", {"cp": cp, "seq_len": seq_len, "double": 2 * cp}))
    if ep > 1:
        if not arch.is_moe:
            out.append(("ep_dense", {"ep": ep}))
        elif arch.n_experts % ep:
            out.append(("ep_experts", {"ep": ep, "experts": arch.n_experts}))
        if dp % ep:
            out.append(("ep_dp", {"ep": ep, "dp": dp}))
    if global_batch % (dp * micro_batch):
        out.append(("batch_not_divisible", {"global_batch": global_batch, "dp": dp,
                                            "micro_batch": micro_batch,
                                            "product": dp * micro_batch}))
        return out
    m = global_batch // (dp * micro_batch)
    if schedule == "interleaved" and pp > 1:
        if interleave < 2:
            out.append(("interleave_pp", {"interleave": interleave}))
        if m % pp:
            out.append(("interleave_microbatches", {"m": m, "pp": pp}))
    if schedule == "dualpipe" and pp > 1 and pp % 2:
        out.append(("dualpipe_pp_even", {"pp": pp}))
    return out


def _dp_grad_params(arch: ModelArch, tp: int, pp: int, ep: int, schedule: str) -> float:
    """Gradients one GPU of the first stage reduces over data parallelism: the parameters it
    holds (calc.training_memory.stage_params: its layers and the embedding; the last stage's
    head is as large), the stage the step waits for   [parameters]."""
    return stage_params(arch, tp, pp, ep, schedule).total


CROSS_ENTROPY_ALL_REDUCES = 3
"""All-reduces of one FP32 number per token in the vocab-parallel cross entropy: the logits'
maximum, the target's logit and the sum of exponentials (Megatron-LM
``mpu/cross_entropy.py``, ``_VocabParallelCrossEntropy.forward``); the backward needs none."""


def _tp_model_ends(act: float, tokens: float, tp: int, tier, sequence_parallel: bool, *,
                   embedding: bool) -> tuple[float, float]:
    """TP communication outside the layers, on the worst (last) stage, per micro-batch:
    (forward, backward) seconds.  Megatron-LM's output layer and loss:

        LM head input   SP: all-gather of T·d·e forward, reduce-scatter backward
                        no SP: identity forward, all-reduce backward (``copy_to_tensor_model_parallel_region``)
        cross entropy   3 all-reduces of T·4 bytes forward (CROSS_ENTROPY_ALL_REDUCES)
        embedding       (only when one stage holds the whole model, pp = 1: a later stage has none)
                        SP: reduce-scatter forward, all-gather backward;
                        no SP: all-reduce forward, identity backward (VocabParallelEmbedding)

    ``act`` = T·d·e bytes, ``tokens`` = T.  Zero for tp = 1 (collective_seconds).  Source:
    Megatron-LM ``core/tensor_parallel/layers.py`` and ``mappings.py``; Korthikanti et al.
    2022 §4.2.2 (the same conjugate pairs as inside a layer)."""
    ce = CROSS_ENTROPY_ALL_REDUCES * collective_seconds("all_reduce", tokens * 4.0, tp, tier)
    if sequence_parallel:
        ag = collective_seconds("all_gather", act, tp, tier)
        rs = collective_seconds("reduce_scatter", act, tp, tier)
        f, b = ag + ce, rs
        if embedding:
            f, b = f + rs, b + ag
    else:
        ar = collective_seconds("all_reduce", act, tp, tier)
        f, b = ce, ar
        if embedding:
            f += ar
    return f, b


def training_step(arch: ModelArch, *, device, gpus: int, tp: int = 1, pp: int = 1,
                  dp: Optional[int] = None, ep: int = 1, cp: int = 1, seq_len: int,
                  global_batch: int, micro_batch: int = 1, schedule: str = "1f1b",
                  interleave: int = 1, recompute: str = "selective", zero_stage: int = 1,
                  sequence_parallel: bool = True, optimizer: str = "adam-mixed",
                  network: Optional[Network] = None, overlap_dp: bool = True,
                  precision: Optional[str] = None, flash_attention: bool = True,
                  attention_dropout: bool = False) -> TrainingStep:
    """Predicted time and terms of one training step (formulas: the module docstring).

    device: a calc.hardware.Accelerator (its peak at ``precision``, default bf16; its
    memory and, unless ``network`` is given, its hardware.toml network); gpus: the
    cluster; global_batch in sequences; dp defaults to gpus ÷ (tp·pp·cp).  Raises
    ValueError naming the field for a layout that cannot run (see layout_problems); a TP
    group wider than the scale-up domain is computed on the slow tier with a warning.
    ``flash_attention=False``: attention as separate kernels (QKᵀ, softmax, ·V: the runs of
    2021-2022), timed and stored (activations) as such; ``attention_dropout=True`` with it:
    the dropout kernel over the attention probabilities those runs also paid (Megatron-LM's
    default, calc.parallel.compute).
    """
    gpus = _whole("gpus", gpus)
    tp, pp, ep, cp = (_whole(n, x) for n, x in (("tp", tp), ("pp", pp), ("ep", ep), ("cp", cp)))
    micro_batch = _whole("micro_batch", micro_batch)
    seq_len = _whole("seq_len", seq_len)
    global_batch = _whole("global_batch", global_batch)
    interleave = _whole("interleave", interleave)
    attention_dropout = bool(attention_dropout) and not flash_attention   # fused: in registers
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}")
    if schedule == "1f1b" and interleave > 1:
        schedule = "interleaved"        # calc.training_memory's spelling of the same schedule
    if zero_stage not in (0, 1, 2, 3):
        raise ValueError(f"zero_stage must be 0, 1, 2 or 3, got {zero_stage!r}")
    if dp is not None:
        dp = _whole("dp", dp)
        if dp * tp * pp * cp != gpus:
            raise ValueError(f"dp·tp·pp·cp = {dp * tp * pp * cp} must equal gpus = {gpus}")
    net = network if network is not None else network_for(device)
    problems = layout_problems(arch, gpus=gpus, tp=tp, pp=pp, cp=cp, ep=ep, micro_batch=micro_batch,
                               seq_len=seq_len, global_batch=global_batch, schedule=schedule,
                               interleave=interleave, network=net)
    fatal = [p for p in problems if p[0] != "tp_crosses_domain"]
    if fatal:
        code, detail = fatal[0]
        raise ValueError(f"layout tp={tp} pp={pp} cp={cp} ep={ep} micro_batch={micro_batch}: "
                         f"{code} {detail}")
    dp = gpus // (tp * pp * cp)
    m = global_batch // (dp * micro_batch)
    v = interleave if schedule == "interleaved" and pp > 1 else 1
    peak = device.peak_flops(precision or ("bf16" if "bf16" in device.peaks else None))
    bw = device.mem_bw

    layers = layers_on_worst_stage(arch.n_layers, pp, v)
    sc = stage_compute(arch, micro_batch=micro_batch, seq_len=seq_len, tp=tp, cp=cp, ep=ep,
                       layers=layers, recompute=recompute, sequence_parallel=sequence_parallel,
                       peak_flops=peak, mem_bw=bw, last_stage=True,
                       matmul_fraction=getattr(device, "matmul_fraction", None),
                       flash_attention=flash_attention, attention_dropout=attention_dropout)
    tiers = {"tp": net.tier(tp).name, "cp": net.tier(tp * cp).name,
             "ep": net.tier(tp * cp * ep).name, "dp": net.tier(tp * cp * dp).name,
             "pp": net.tier(gpus).name}
    t_tier = net.tier(tp)
    T = micro_batch * (seq_len // cp)
    act = T * arch.d_model * ACT_BYTES_PER_ELEM

    # TP: 2 collectives-worth forward, 2 backward (+2 full recompute) per layer
    if sequence_parallel:
        one = (collective_seconds("all_gather", act, tp, t_tier)
               + collective_seconds("reduce_scatter", act, tp, t_tier))
    else:
        one = collective_seconds("all_reduce", act, tp, t_tier)
    tp_f = layers * 2 * one
    tp_b = layers * 2 * one + (tp_f if recompute == "full" else 0.0)
    ends_f, ends_b = _tp_model_ends(act, T, tp, t_tier, sequence_parallel, embedding=pp == 1)
    tp_f, tp_b = tp_f + ends_f, tp_b + ends_b

    # CP: K,V all-gather forward, twice backward, overlapped with attention
    if arch.is_mla:
        kv_width = sum(attention_width(arch)) / tp
    else:
        kv_width = 2.0 * arch.n_kv_heads * arch.head_dim / min(tp, arch.n_kv_heads)
    kv = T * kv_width * ACT_BYTES_PER_ELEM
    c_tier = net.tier(tp * cp)
    cp_one = collective_seconds("all_gather", kv * cp, cp, c_tier)
    attn_f, attn_b = sc.attention, sc.attention_backward
    cp_f_total, cp_b_total = layers * cp_one, layers * 2 * cp_one
    cp_f = layers * max(0.0, cp_one - attn_f)
    cp_b = layers * max(0.0, 2 * cp_one - attn_b)

    # EP: 4 all-to-alls per MoE layer (dispatch + combine, forward and backward)
    moe_layers = arch.n_moe_layers * layers / arch.n_layers if arch.is_moe else 0.0
    a2a_bytes = T * arch.experts_per_token * arch.d_model * ACT_BYTES_PER_ELEM / (tp if sequence_parallel else 1)
    e_one = collective_seconds("all_to_all", a2a_bytes, ep, net.tier(tp * cp * ep))
    ep_total_f = moe_layers * 2 * e_one
    ep_total_b = moe_layers * 2 * e_one + (ep_total_f if recompute == "full" else 0.0)
    ep_hidden = schedule == "dualpipe" and pp > 1     # DualPipe overlaps it; no pipeline, no DualPipe
    ep_f, ep_b = (0.0, 0.0) if ep_hidden else (ep_total_f, ep_total_b)

    # PP: one p2p forward and one backward per micro-batch and chunk
    p2p = collective_seconds("p2p", act / (tp if sequence_parallel else 1), pp, net.tier(gpus)) * v

    F_all = sc.forward + tp_f + cp_f + ep_f + p2p
    B_all = sc.backward + tp_b + cp_b + ep_b + p2p
    bub = pipeline_bubble(schedule, pp=pp, n_microbatches=m, forward=F_all, backward=B_all,
                          weight_grad=min(sc.weight_grad, B_all), interleave=v)
    compute = m * (sc.forward + sc.backward)

    # DP
    G = _dp_grad_params(arch, tp, pp, ep, "1f1b" if schedule == "interleaved" else schedule)
    d_tier = net.tier(tp * cp * dp)
    n_dp = dp * cp                    # gradients are reduced over the data- and context-parallel ranks
    bucket = min(G, DP_BUCKET_PARAMS)
    if zero_stage == 0:
        rs_total = collective_seconds("all_reduce", G * GRAD_REDUCE_BYTES, n_dp, d_tier)
        rs_bucket = collective_seconds("all_reduce", bucket * GRAD_REDUCE_BYTES, n_dp, d_tier)
        ag_total = ag_bucket = 0.0
    else:
        rs_total = collective_seconds("reduce_scatter", G * GRAD_REDUCE_BYTES, n_dp, d_tier)
        rs_bucket = collective_seconds("reduce_scatter", bucket * GRAD_REDUCE_BYTES, n_dp, d_tier)
        ag_total = collective_seconds("all_gather", G * 2.0, n_dp, d_tier)
        ag_bucket = collective_seconds("all_gather", bucket * 2.0, n_dp, d_tier)
    if zero_stage == 3:
        per_mb = 2 * ag_total + rs_total
        dp_total = m * per_mb
        dp_exposed = (m * max(0.0, per_mb - (sc.forward + sc.backward)) + ag_bucket
                      if overlap_dp else dp_total)
    else:
        dp_total = rs_total + ag_total
        dp_exposed = (max(rs_total - B_all, rs_bucket if n_dp > 1 else 0.0)
                      + max(ag_total - F_all, ag_bucket if n_dp > 1 else 0.0)) if overlap_dp else dp_total

    shard = G / (n_dp if zero_stage >= 1 else 1)
    opt_bytes = shard * OPTIMIZER_STEP_BYTES_PER_PARAM
    opt = opt_bytes / (bw * memory_efficiency(opt_bytes))

    step = bub.seconds + dp_exposed + opt
    fpt = flops_per_token(arch, seq_len, causal=True, recompute=recompute)
    # hardware FLOPs are what runs: an unfused attention computes every score of the s×s
    # matrix (the causal mask is applied after), a fused kernel skips the masked blocks
    hw_fpt = fpt if flash_attention else flops_per_token(arch, seq_len, causal=False, recompute=recompute)
    tokens = global_batch * seq_len
    mfu = fpt.model * tokens / (step * gpus * peak)
    hfu = hw_fpt.hardware * tokens / (step * gpus * peak)

    cap = device.memory_bytes
    mem = training_memory(arch, seq_len=seq_len, micro_batch=micro_batch, dp=dp, tp=tp, pp=pp,
                          ep=ep, cp=cp, zero_stage=zero_stage, recompute=recompute,
                          optimizer=optimizer, sequence_parallel=sequence_parallel,
                          schedule="1f1b" if schedule == "interleaved" else schedule,
                          interleave=v, n_microbatches=m,
                          flash_attention=flash_attention, memory_bytes=cap)
    fits = cap is None or bool(mem.memory_fit.fits)
    return TrainingStep(
        tp=tp, pp=pp, dp=dp, ep=ep, cp=cp, micro_batch=micro_batch, n_microbatches=m, gpus=gpus,
        seq_len=seq_len, global_batch=global_batch, schedule=schedule, interleave=v,
        recompute=recompute, zero_stage=zero_stage, sequence_parallel=sequence_parallel,
        flash_attention=flash_attention, attention_dropout=attention_dropout,
        step_seconds=step, compute_seconds=compute, bubble_seconds=bub.bubble,
        bubble_fraction=bub.bubble / step, tp_comm_seconds=m * (tp_f + tp_b),
        cp_comm_seconds=m * (cp_f + cp_b), ep_comm_seconds=m * (ep_f + ep_b),
        pp_comm_seconds=m * 2 * p2p if pp > 1 else 0.0, dp_comm_seconds=dp_exposed,
        optimizer_seconds=opt,
        cp_comm_hidden_seconds=m * (cp_f_total + cp_b_total - cp_f - cp_b),
        ep_comm_hidden_seconds=m * (ep_total_f + ep_total_b - ep_f - ep_b),
        dp_comm_hidden_seconds=max(0.0, dp_total - dp_exposed),
        mfu=mfu, hfu=hfu, tokens_per_s=tokens / step, model_flops_per_token=fpt.model,
        hardware_flops_per_token=hw_fpt.hardware, peak_flops=peak, gemm_efficiency=sc.gemm_eff,
        forward_seconds=F_all, backward_seconds=B_all,
        weight_grad_seconds=min(sc.weight_grad, B_all), stage=sc, memory=mem, memory_capacity=cap, fits=fits, tiers=tiers,
        warnings=tuple(p[0] for p in problems))


def global_batch_sequences(value: float, unit: str, seq_len: int) -> int:
    """The global batch in sequences: ``value`` sequences, or ``value`` tokens ÷ seq_len
    (rounded down; 0 when less than one sequence)."""
    if unit not in ("seq", "tokens"):
        raise ValueError(f"unit must be 'seq' or 'tokens', got {unit!r}")
    if unit == "seq":
        return int(round(value))
    return int(value // seq_len)


GANTT_MAX_MICROBATCHES = 24
"""Micro-batches a Gantt chart draws at most (more would be a solid block)."""


def step_timeline(step: TrainingStep, max_microbatches: int = GANTT_MAX_MICROBATCHES):
    """(blocks, m drawn): the schedule of ``step`` as a Gantt timeline with its F, B, W,
    drawing min(m, max_microbatches) micro-batches (rounded to a multiple of pp when
    interleaved) — see calc.parallel.schedules.schedule_timeline."""
    from .schedules import schedule_timeline
    m = min(step.n_microbatches, max_microbatches)
    if step.schedule == "interleaved" and step.pp > 1:
        m = max(step.pp, m - m % step.pp)
    blocks = schedule_timeline(step.schedule, pp=step.pp, n_microbatches=m,
                               forward=step.forward_seconds, backward=step.backward_seconds,
                               weight_grad=step.weight_grad_seconds, interleave=step.interleave)
    return blocks, m


def _pow2_upto(n: int) -> list[int]:
    out, x = [], 1
    while x <= n:
        out.append(x)
        x *= 2
    return out


def _divisors(n: int) -> list[int]:
    small = [d for d in range(1, int(math.isqrt(n)) + 1) if n % d == 0]
    return sorted(set(small + [n // d for d in small]))


def search_layouts(arch: ModelArch, *, device, gpus: int, seq_len: int, global_batch: int,
                   network: Optional[Network] = None, micro_batches=(1, 2, 4, 8),
                   allow_tp_across_domain: bool = False, **fixed) -> LayoutSearch:
    """Every layout that fits, fastest first, each a :func:`training_step` record.

    Searched: tp over powers of two up to the heads, pp over the divisors of the GPU count
    up to the layers, cp over powers of two (1 unless fixed or seq_len ≥ 32k: context
    parallelism pays only for long sequences), ep over the divisors of the experts (MoE
    only), micro_batch in ``micro_batches``.  ``fixed``: any of tp, pp, cp, ep, micro_batch
    to pin, and training_step's other arguments (schedule, interleave, recompute,
    zero_stage, sequence_parallel, optimizer, overlap_dp, precision).  A TP group wider than
    the scale-up domain is rejected unless ``allow_tp_across_domain``.  Every layout tried
    and not kept is in ``rejected`` with its reason.
    """
    gpus = _whole("gpus", gpus)
    net = network if network is not None else network_for(device)
    pins = {k: fixed.pop(k) for k in ("tp", "pp", "cp", "ep", "micro_batch", "dp") if k in fixed}
    schedule = fixed.get("schedule", "1f1b")
    interleave = fixed.get("interleave", 1)
    if schedule == "1f1b" and interleave > 1:
        schedule = "interleaved"
    tps = [pins["tp"]] if "tp" in pins else [t for t in _pow2_upto(min(gpus, arch.n_heads))]
    cps = [pins["cp"]] if "cp" in pins else ([c for c in _pow2_upto(min(gpus, 64))] if seq_len >= 32768 else [1])
    eps = [pins["ep"]] if "ep" in pins else ([e for e in _divisors(arch.n_experts) if e <= gpus] if arch.is_moe else [1])
    mbs = [pins["micro_batch"]] if "micro_batch" in pins else list(micro_batches)
    pps_all = [pins["pp"]] if "pp" in pins else [p for p in _divisors(gpus) if p <= arch.n_layers]
    kept, rejected = [], []
    for tp in tps:
        for cp in cps:
            for pp in pps_all:
                if gpus % (tp * cp * pp):
                    rejected.append(Rejection(tp, pp, 0, 1, cp, 0, "gpus_not_divisible",
                                              {"gpus": gpus, "product": tp * pp * cp}))
                    continue
                dp = gpus // (tp * cp * pp)
                if "dp" in pins and dp != pins["dp"]:
                    continue
                for ep in eps:
                    for mb in mbs:
                        probs = layout_problems(arch, gpus=gpus, tp=tp, pp=pp, cp=cp, ep=ep,
                                                micro_batch=mb, seq_len=seq_len,
                                                global_batch=global_batch, schedule=schedule,
                                                interleave=interleave, network=net)
                        if allow_tp_across_domain:
                            probs = [p for p in probs if p[0] != "tp_crosses_domain"]
                        if probs:
                            rejected.append(Rejection(tp, pp, dp, ep, cp, mb, *probs[0]))
                            continue
                        rec = training_step(arch, device=device, gpus=gpus, tp=tp, pp=pp, ep=ep,
                                            cp=cp, seq_len=seq_len, global_batch=global_batch,
                                            micro_batch=mb, network=net, **fixed)
                        if rec.fits:
                            kept.append(rec)
                        else:
                            fit = rec.memory.memory_fit
                            rejected.append(Rejection(tp, pp, dp, ep, cp, mb, "memory", {
                                "memory": rec.memory.total, "capacity": rec.memory_capacity,
                                "usable": fit.usable_bytes, "reserve": MEMORY_RESERVE}))
    kept.sort(key=lambda r: (r.step_seconds, r.tp * r.pp, r.micro_batch))
    return LayoutSearch(tuple(kept), tuple(rejected))
