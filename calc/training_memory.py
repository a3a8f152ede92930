"""Training memory per GPU: weights, gradients, optimizer states, activations and the
ZeRO-3 / FSDP all-gather buffers of the worst pipeline stage, and whether they fit.

    one call:  training_memory(arch, *, tp, pp, dp, ep, cp, seq_len, micro_batch, recompute,
                               zero_stage, optimizer, sequence_parallel, schedule, interleave,
                               n_microbatches, weight_bytes_per_elem, ...) -> TrainingMemory

The layout search of issue 20 calls it for every candidate layout (thousands per search):
scalar Python, no arrays, the parameter counts of an architecture computed once.  The
signature is stable: new options are added as keyword arguments with a default, never
renamed.

Terms (per GPU of the worst stage; N parameters of ``arch``, ``calc.arch.param_counts``):

    parameters held   (P_dense(t) − E − H) / p + E + N_experts / (t·e·p)    (p > 1)
                      (the first stage: its layers and the embedding E; ``stage_params``;
                       the layers and experts × 2 under DualPipe, which adds the head H;
                       P_dense(t) + N_experts / (t·e) on a single stage)
    weights           params held × w / (ZeRO-3 ? d_dense : 1)      (w = 2 B bf16, 4 B fp32 Adam)
    gradients         params held × g / (ZeRO ≥ 2 ? d : 1)          (g = 4 B: FP32, mixed precision)
    optimizer         params held × o / (ZeRO ≥ 1 ? d : 1)          (o = 12 B Adam mixed precision)
    activations       layers in flight × activation_bytes_per_layer(s / c, b, h, a, recompute, t)
    ZeRO-3 buffers    (2·w + g) × the largest unit held: one layer, the embedding or the head
                      (the unit in use, the prefetched one, one unsharded gradient)
    total             the sum; fit against the device memory with the 10 % reserve

t tensor-, p pipeline-, c context-, e expert-parallel size, d data-parallel size; the world
is t·p·c·d GPUs.  P_dense(t) = ``calc.placement.params_per_gpu`` of the non-expert weights
(split ÷ t, K/V projections ÷ min(t, K), norms and router replicated: the one placement
rule).  The routed experts are split e ways over expert-parallel ranks taken from the
d·c data-/context-parallel ranks (e must divide d·c; DeepSeek-V3: EP 64 across nodes) and
each expert t ways (Megatron-Core's expert tensor parallelism, by default = t).  ZeRO
shards the dense weights over d·c (the ranks that hold the same weights), the experts over
d·c / e (the expert data-parallel group).  The first stage is the worst: it holds the
embedding beside its share of the layers, and the most micro-batches:

    1F1B (PipeDream-Flush)   min(p, m) micro-batches × L/p layers = L layers' worth when m ≥ p
    interleaved 1F1B, v      L × (1 + (p − 1)/(p·v))
    ZB1P (zero bubble)       as 1F1B                               (DualPipe README's table)
    DualPipe                 (p + 1) micro-batches × L/p layers, parameters 2× (same table)
    no pipeline (p = 1)      L layers, one micro-batch

Sources: Rajbhandari et al., "ZeRO" (2020) §3 and §5 (sharding; its 2 + 2 + 12 bytes per
parameter with 16-bit gradients); Megatron-LM's distributed optimizer (bf16 parameters, FP32
gradients: 6 + 12/d bytes per parameter, ``MIXED_PRECISION_GRAD_BYTES``);
Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models" (2022),
Table 2, eq. (1)-(2) and §4.2.3 (1F1B keeps p micro-batches of L/p layers: L layers' worth;
interleaving multiplies it by 1 + (p−1)/(p·v)); Narayanan et al., "Efficient Large-Scale
Language Model Training on GPU Clusters Using Megatron-LM" (2021) §2.2; Qi et al., "Zero
Bubble Pipeline Parallelism" (2023); DeepSeek-AI DualPipe README (github.com/deepseek-ai/
DualPipe: parameters 1× / 1× / 2×, activations PP / PP / PP+1 for 1F1B / ZB1P / DualPipe);
PyTorch FSDP documentation (``limit_all_gathers``: at most two all-gathered units in flight;
torchtitan's ``apply_fsdp`` wraps each block, the embedding and the output as their own units).
Units: bytes; counts; fractions 0..1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Optional

import numpy as np

from . import _validate as v
from .arch import ModelArch, param_counts
from .placement import MEMORY_RESERVE, MemoryFit, check_tp, memory_fit, params_per_gpu
from .training_flops import RECOMPUTE_MODES

__all__ = [
    "RECOMPUTE_MODES",
    "ZERO_STAGES",
    "SCHEDULES",
    "OPTIMIZERS",
    "MIXED_PRECISION_GRAD_BYTES",
    "OPTIMIZER_BYTES_PER_PARAM",
    "TRAINING_MEMORY_RESERVE",
    "OptimizerBytes",
    "TrainingMemory",
    "activation_bytes_per_layer",
    "layers_in_flight",
    "StageParams",
    "stage_params",
    "data_parallel_size",
    "training_memory",
]


ZERO_STAGES = (0, 1, 2, 3)
"""ZeRO stages (Rajbhandari et al. 2020): 0 plain data parallel, 1 optimizer states
sharded, 2 + gradients, 3 + weights (= PyTorch FSDP FULL_SHARD)."""

SCHEDULES = ("1f1b", "zb1p", "dualpipe")
"""Pipeline schedules: 1F1B (PipeDream-Flush; with ``interleave`` v > 1 Megatron's
interleaved 1F1B), ZB1P (zero-bubble, Qi et al. 2023), DualPipe (DeepSeek-V3)."""

TRAINING_MEMORY_RESERVE = MEMORY_RESERVE
"""The one reserve (calc.placement.MEMORY_RESERVE, 10 %): kept free for the CUDA context,
NCCL buffers, the allocator's fragmentation and temporaries (the logits, s·b·V·4 bytes,
among them); a total above (1 − reserve) × memory is "tight", above the memory "no"."""


MIXED_PRECISION_GRAD_BYTES = 4.0
"""Bytes per gradient of mixed-precision (bf16) training: FP32.  Megatron-LM accumulates and
reduces bf16 training's gradients in FP32 (``arguments.py``: bf16 turns on
``accumulate_allreduce_grads_in_fp32``), so its distributed optimizer holds 6 + 12/d bytes per
parameter for "bf16 param, fp32 grads" (``docs/source/api-guide/dist_optimizer.md``: 18
without sharding).  ZeRO §3.1 counts 16 (2 + 2 + 12) with 16-bit gradients, as its fp16
training kept them.  The data-parallel reduction (calc.parallel.step) moves these 4 bytes."""


@dataclass(frozen=True)
class OptimizerBytes:
    """Bytes per parameter of one optimizer: its states (what ZeRO-1 shards) and, when the
    optimizer fixes them, the weights' and gradients' (None: ``weight_bytes_per_elem``)."""

    states: float
    weights: Optional[float] = None
    gradients: Optional[float] = None


OPTIMIZERS = {
    # fp32 master weights + fp32 m + fp32 v = 12 B; bf16 weights, FP32 gradients: 2 + 4 + 12
    # = 18 B per parameter (Megatron-LM's "bf16 param, fp32 grads"; ZeRO §3.1's 16 kept 2-B grads)
    "adam-mixed": OptimizerBytes(12.0, gradients=MIXED_PRECISION_GRAD_BYTES),
    # FP32 training: fp32 weights, fp32 gradients, fp32 m + v = 4 + 4 + 8 = 16 B
    "adam-fp32": OptimizerBytes(8.0, weights=4.0, gradients=4.0),
    # 8-bit m + v (Dettmers et al. 2022), no master copy
    "adam-8bit": OptimizerBytes(2.0),
    # one fp32 momentum buffer
    "sgd-momentum": OptimizerBytes(4.0),
}
"""Bytes per parameter of each optimizer (``training_memory(optimizer=...)``)."""

OPTIMIZER_BYTES_PER_PARAM = {k: o.states for k, o in OPTIMIZERS.items()}
"""Optimizer state bytes per parameter (what ZeRO stage 1 shards); kept for old callers."""


@dataclass(frozen=True)
class TrainingMemory:
    """Bytes per GPU of a training run on its worst pipeline stage, and the fit.

    weights, gradients, optimizer, activations, zero3_buffers, total: bytes per GPU.
    params_per_gpu: parameters this GPU holds before ZeRO sharding (``stage_params``: the
    first stage's layers and the embedding, experts ÷ t·e·p, × 2 under DualPipe).  activations_per_layer: one micro-batch, one layer.
    layers_per_gpu: layers of this stage (L/p; 2·L/p under DualPipe).  layers_in_flight:
    the activations held, in layer-micro-batches (L for 1F1B with m ≥ p).  stage: index of
    the worst stage (0: the first stage holds the embedding, which is as large as the last
    stage's head, and the most micro-batches under every schedule here).
    weight/grad/optimizer_bytes_per_elem: the bytes per parameter used.  memory_bytes: the
    device's (None when unknown); fit: "fits" / "tight" / "no" / None; used: total ÷ memory;
    spare_bytes: memory − total (negative: that much too much); memory_fit: the one rule's
    record (calc.placement.memory_fit).
    """

    weights: float
    gradients: float
    optimizer: float
    activations: float
    zero3_buffers: float
    total: float
    params_per_gpu: float
    activations_per_layer: float
    layers_per_gpu: float
    layers_in_flight: float
    stage: int
    schedule: str
    weight_bytes_per_elem: float
    grad_bytes_per_elem: float
    optimizer_bytes_per_elem: float
    dense_shards: float           # ZeRO divisor of the dense weights (d·c)
    expert_shards: float          # ZeRO divisor of the routed experts (t·d·c / e)
    seq_per_gpu: float = 0.0      # tokens of a sequence each GPU keeps activations for: s / c
    unit_params: float = 0.0      # the largest unit ZeRO-3 all-gathers: a layer, the embedding or the head
    memory_bytes: Optional[float] = None
    fit: Optional[str] = None
    used: Optional[float] = None
    memory_fit: Optional[MemoryFit] = None
    spare_bytes: Optional[float] = None   # memory − total (< 0: short by that much)

    @property
    def states(self) -> float:
        """Weights + gradients + optimizer states   [bytes]."""
        return self.weights + self.gradients + self.optimizer


def _check_mode(recompute: str) -> None:
    if recompute not in RECOMPUTE_MODES:
        raise ValueError(f"recompute must be one of {', '.join(RECOMPUTE_MODES)}, got {recompute!r}")


def activation_bytes_per_layer(seq_len: Any, micro_batch: Any, d_model: Any, n_heads: Any,
                               recompute: str = "none", tensor_parallel: Any = 1,
                               sequence_parallel: bool = True, flash_attention: bool = False):
    """Activation memory of one transformer layer for one micro-batch   [bytes].

        with sequence parallelism           without
        none:       s·b·h·(34 + 5·a·s/h) / t       s·b·h·(10 + 24/t + 5·a·s/(h·t))
        selective:  s·b·h·34 / t                   s·b·h·(10 + 24/t)
        full:       2·s·b·h / t                    2·s·b·h

    s sequence length, b micro-batch, h hidden size (d_model), a heads, t tensor-parallel
    size.  Full recomputation keeps only the layer's 16-bit input, which sequence
    parallelism splits t ways (Korthikanti et al. 2022 §4.2.2: "2sbh/t").  16-bit
    activations, 1-byte dropout masks.  Assumes the paper's GPT layer (FFN 4h, MHA); a
    gated FFN or GQA changes the constant by a few percent.  ``flash_attention=True``: the
    s×s scores and softmax are never stored (FlashAttention recomputes them in its backward
    pass), so "none" keeps what "selective" keeps.  Accepts arrays.
    Sources: Korthikanti et al. 2022, Table 2 and eq. (1)-(2); Dao et al. 2022 (FlashAttention).
    """
    _check_mode(recompute)
    s = v.number("seq_len", seq_len, "positive", "tokens")
    b = v.number("micro_batch", micro_batch, "positive", "sequences")
    h = v.number("d_model", d_model, "positive", "hidden size")
    a = v.number("n_heads", n_heads, "positive", "heads")
    t = v.number("tensor_parallel", tensor_parallel, "positive", "GPUs")
    scalar = v.is_scalar(s, b, h, a, t)
    sbh = s * b * h if scalar else np.multiply(np.multiply(s, b), h)
    if recompute == "full":
        out = 2.0 * sbh / t if sequence_parallel else 2.0 * sbh
    else:
        attn = 0.0 if (recompute == "selective" or flash_attention) else 5.0 * (
            a * s if scalar else np.multiply(a, s)) / h
        if sequence_parallel:
            out = sbh * (34.0 + attn) / t
        else:
            out = sbh * (10.0 + 24.0 / t + attn / t)
    return out if scalar else v.finish(out, s, b, h, a, t)


def layers_in_flight(n_layers: float, pp: int, schedule: str = "1f1b", interleave: int = 1,
                     n_microbatches: Optional[int] = None) -> float:
    """Activations the first (worst) pipeline stage holds, in layer-micro-batches.

        p = 1                     L                       (one micro-batch at a time)
        1F1B                      (L/p) · min(p, m)       = L when m ≥ p   (Korthikanti §4.2.3)
        interleaved 1F1B (v ≥ 2)  L · (1 + (p − 1)/(p·v))                  (ibid.; Narayanan §2.2.2)
        ZB1P                      as 1F1B                 (DualPipe README: activations PP)
        DualPipe                  (L/p) · (p + 1)         (DualPipe README: activations PP+1)

    m = n_microbatches (None: at least p).  Source: see the module docstring.
    """
    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}")
    L, p = float(n_layers), int(pp)
    m = math.inf if n_microbatches is None else float(n_microbatches)
    if p == 1:
        return L
    if schedule == "dualpipe":
        return L / p * (p + 1)
    if schedule == "1f1b" and interleave > 1:
        if m < p:
            raise ValueError(f"n_microbatches must be at least pp ({p}) for the interleaved "
                             f"schedule, got {n_microbatches}")
        return L * (1.0 + (p - 1.0) / (p * interleave))
    return L / p * min(p, m)


@dataclass(frozen=True)
class StageParams:
    """Parameters one GPU of the first pipeline stage holds, before ZeRO sharding
    [parameters]: ``dense`` (every non-expert weight it holds), ``experts`` (its routed
    experts), ``ends`` (of ``dense``: the input embedding and position table it holds; the
    LM head too on a single stage or under DualPipe), ``layer`` (the largest layer's
    parameters, its dense ones and its experts: an MoE layer, not the average), ``unit``
    (the largest of one layer, the embedding and the head held: what ZeRO-3 / FSDP
    all-gathers at once, each its own unit)."""

    dense: float
    experts: float
    ends: float
    layer: float
    unit: float

    @property
    def total(self) -> float:
        return self.dense + self.experts


def stage_params(arch: ModelArch, tp: Any = 1, pp: Any = 1, ep: Any = 1,
                 schedule: str = "1f1b") -> StageParams:
    """What one GPU of the first (worst) pipeline stage holds   [parameters].

        p = 1        dense = P_dense(t)                           (the whole model)
        1F1B, ZB1P   dense = (P_dense(t) − E(t) − H(t)) / p + E(t) (the layers split evenly;
                                                                   the embedding on stage 0)
        DualPipe     dense = 2·(P_dense(t) − E(t) − H(t)) / p + E(t) + H′(t)
                                                                  (rank 0 holds stages 0 and p − 1)
        experts      N_experts / (t·e·p)  (× 2 under DualPipe)

    P_dense(t) = ``calc.placement.params_per_gpu`` of the non-expert weights; E(t) = (V·d +
    learned positions) / t and H(t) = V·d / t for an untied LM head (0 when tied), both split
    over the tensor-parallel group like every sharded weight (Megatron-LM's
    ``VocabParallelEmbedding`` and its column-parallel output layer).  H′ is the last stage's
    output weight: the head, or for tied embeddings the copy the last stage keeps (Megatron-LM
    ``shared_embedding_or_output_weight``, its gradient all-reduced with stage 0's).  Megatron-LM
    splits the layers evenly and puts the embedding on the first stage and the head on the
    last (``--decoder-first/last-pipeline-num-layers`` and ``account_for_embedding_in_
    pipeline_split`` move layers off them only when asked); the first stage, which also
    holds the most micro-batches (``layers_in_flight``), is the worst.  GPT-3 175B (tied,
    vocabulary 50,257, 2,048 learned positions) at t 8, p 12: E = 52,305·12,288/8 = 80.3 M
    on stage 0, 73.6 M more than the E/12 an even split gave it.
    Sources: Narayanan et al. 2021 §2.2; Megatron-LM ``core/models/gpt/gpt_model.py``
    (``pre_process`` / ``post_process``); DeepSeek-AI DualPipe README (parameters 2×).
    """
    return _stage_params(arch, int(tp), int(pp), int(ep), schedule)


def _stage_params(arch: ModelArch, t: int, p: int, e: int, schedule: str) -> StageParams:
    try:
        return _stage_params_cached(arch, t, p, e, schedule)
    except TypeError:                     # an architecture with an unhashable field
        return _stage_params_uncached(arch, t, p, e, schedule)


def _stage_params_uncached(arch: ModelArch, t: int, p: int, e: int, schedule: str) -> StageParams:
    check_tp(arch, t)
    pc = param_counts(arch)
    dense_tp = float(params_per_gpu(arch, t, pc.total - pc.routed_experts))
    embed = (pc.embedding + pc.positions) / t
    head = pc.lm_head / t
    layers = dense_tp - embed - head          # the layers' weights (and the final norm)
    L = float(arch.n_layers)
    dual = schedule == "dualpipe" and p > 1
    copies = 2.0 if dual else 1.0
    experts = pc.routed_experts / (t * e * p) * copies
    if p == 1:
        dense, ends, last = dense_tp, embed + head, head
    elif dual:
        last = head if pc.lm_head > 0 else pc.embedding / t
        ends = embed + last
        dense = 2.0 * layers / p + ends
    else:
        dense, ends, last = layers / p + embed, embed, 0.0
    layer = _largest_layer(arch, pc, layers, t, e)
    return StageParams(dense=dense, experts=experts, ends=ends, layer=layer,
                       unit=max(layer, embed, last))


def _largest_layer(arch: ModelArch, pc, layers: float, t: int, e: int) -> float:
    """One GPU's share of the largest layer   [parameters]: a dense layer, or an MoE layer
    with its routed experts over t·e. ``layers`` is the GPU's share of every layer's
    non-expert weights (and the final norm); attention and norms are the same in every
    layer, the FFN is dense_ffn / n_dense or (shared / t + router) / n_moe (the router
    replicated, calc.placement.weight_split). DeepSeek-V3 at t = e = 1: MLA 187.1 M + norms
    14 k + 256 routed and 1 shared expert of 3·7168·2048 + router 256·7168 = 11.51 B per MoE
    layer, against 583 M per dense layer (the average over its 61 layers, 10.97 B, is not a
    layer ZeRO-3 ever gathers)."""
    L = float(arch.n_layers)
    if L <= 0:
        return 0.0
    n_moe = float(arch.n_moe_layers) if pc.routed_experts > 0 else 0.0
    n_dense = L - n_moe
    ffn_dense = pc.dense_ffn / t
    ffn_moe = pc.shared_experts / t + pc.router
    rest = max(layers - ffn_dense - ffn_moe, 0.0) / L
    kinds = []
    if n_dense > 0:
        kinds.append(rest + ffn_dense / n_dense)
    if n_moe > 0:
        kinds.append(rest + (ffn_moe + pc.routed_experts / (t * e)) / n_moe)
    return max(kinds)


_stage_params_cached = lru_cache(maxsize=1024)(_stage_params_uncached)


def _count(name: str, x: Any) -> int:
    f = v.number(name, x, "positive", "GPUs")
    if not isinstance(f, float) or f != int(f):
        raise ValueError(f"{name} must be a whole number of GPUs >= 1, got {x!r}")
    return int(f)


def data_parallel_size(n_gpus: Any, tp: Any = 1, pp: Any = 1, cp: Any = 1) -> int:
    """Data-parallel size of a cluster split into tensor × pipeline × context groups:
    d = n_gpus / (t·p·c), a whole number, or ValueError naming the fields   [GPUs].

    E.g. 2,048 GPUs, tp 8, pp 16: d = 16.  Source: Narayanan et al. 2021 §3 (n = t·p·d).
    """
    n, t, p, c = (_count("n_gpus", n_gpus), _count("tp", tp), _count("pp", pp), _count("cp", cp))
    group = t * p * c
    if n % group:
        raise ValueError(f"n_gpus ({n:,}) must be a multiple of tp × pp × cp ({t} × {p} × {c} "
                         f"= {group:,})")
    return n // group


def training_memory(arch: ModelArch, *, tp: Any = 1, pp: Any = 1, dp: Any = 1, ep: Any = 1,
                    cp: Any = 1, seq_len: Any, micro_batch: Any = 1, recompute: str = "selective",
                    zero_stage: int = 1, optimizer: str = "adam-mixed",
                    sequence_parallel: bool = True, schedule: str = "1f1b", interleave: int = 1,
                    n_microbatches: Optional[int] = None, weight_bytes_per_elem: float = 2.0,
                    grad_bytes_per_elem: Optional[float] = None, flash_attention: bool = False,
                    memory_bytes: Optional[float] = None) -> TrainingMemory:
    """Training memory per GPU of the worst pipeline stage, and whether it fits   [bytes].

        weights      = P·w / (ZeRO-3 ? D : 1)    P = stage_params(arch, t, p, e, schedule)
        gradients    = P·g / (ZeRO ≥ 2 ? D : 1)
        optimizer    = P·o / (ZeRO ≥ 1 ? D : 1)
        activations  = layers_in_flight(L, p, schedule, v, m) · activation_bytes_per_layer(s/c, b, h, a, r, t)
        ZeRO-3       = (2·w + g) · max(one layer, E, H)      (two all-gathered units, one gradient)
        total        = weights + gradients + optimizer + activations + ZeRO-3 buffers

    D is d·c for the dense weights and d·c / e for the routed experts (see the module
    docstring; tp validated by ``calc.placement.check_tp``).  w =
    ``weight_bytes_per_elem`` (2: bf16) and g = ``grad_bytes_per_elem`` if given, else the
    optimizer's ("adam-mixed": FP32 gradients, 2 + 4 + 12 = 18 B per parameter), else w;
    "adam-fp32" fixes both (4 + 4 + 8 = 16 B per parameter); o from
    :data:`OPTIMIZERS`.  The world is t·p·c·d GPUs; e must divide d·c.  The layers are
    split evenly over the stages and the embedding sits on the first (Megatron-LM's
    default; ``stage_params``), so the first stage, which also holds the most
    micro-batches, is the worst.  ``memory_bytes``:
    the device's memory, for ``fit`` (``calc.placement.memory_fit``, the one rule).  Ignores
    the CUDA context, fragmentation and temporaries (the reserve's job).  Scalars only.
    Sources: see the module docstring (ZeRO §3, §5; Korthikanti et al. 2022; Narayanan et
    al. 2021; DualPipe README; PyTorch FSDP).
    """
    if zero_stage not in ZERO_STAGES:
        raise ValueError(f"zero_stage must be one of 0, 1, 2, 3, got {zero_stage!r}")
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZERS)}, got {optimizer!r}")
    _check_mode(recompute)
    t, p, d, e, c = (_count("tp", tp), _count("pp", pp), _count("dp", dp), _count("ep", ep),
                     _count("cp", cp))
    vv = _count("interleave", interleave)
    if (d * c) % e:
        raise ValueError(f"ep (expert-parallel GPUs) must divide dp × cp ({d} × {c} = {d * c}), "
                         f"got {e}")
    if e > 1 and not arch.is_moe:
        raise ValueError(f"ep (expert-parallel GPUs) must be 1 for a dense model, got {e}")
    if n_microbatches is not None:
        _count("n_microbatches", n_microbatches)
    opt = OPTIMIZERS[optimizer]
    w = opt.weights if opt.weights is not None else v.number(
        "weight_bytes_per_elem", weight_bytes_per_elem, "positive", "bytes")
    if opt.weights is not None or grad_bytes_per_elem is None:   # FP32 Adam fixes all three
        g = opt.gradients if opt.gradients is not None else w
    else:
        g = v.number("grad_bytes_per_elem", grad_bytes_per_elem, "positive", "bytes")
    o = opt.states
    s = v.number("seq_len", seq_len, "positive", "tokens")
    b = v.number("micro_batch", micro_batch, "positive", "sequences")
    mem = None if memory_bytes is None else v.number("memory_bytes", memory_bytes, "positive", "bytes")

    if schedule not in SCHEDULES:
        raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}, got {schedule!r}")
    sp = _stage_params(arch, t, p, e, schedule)
    L = float(arch.n_layers)
    copies = 2.0 if (schedule == "dualpipe" and p > 1) else 1.0
    dense_pg, expert_pg = sp.dense, sp.experts
    held = sp.total
    dense_shards, expert_shards = float(d * c), float(d * c) / e

    def sharded(bytes_per, stage_ok: bool) -> float:
        if not stage_ok:
            return held * bytes_per
        return dense_pg * bytes_per / dense_shards + expert_pg * bytes_per / expert_shards

    weights = sharded(w, zero_stage >= 3)
    grads = sharded(g, zero_stage >= 2)
    optim = sharded(o, zero_stage >= 1)
    per_layer = activation_bytes_per_layer(s / c, b, arch.d_model, arch.n_heads, recompute, t,
                                           sequence_parallel, flash_attention)
    in_flight = layers_in_flight(L, p, schedule, vv, n_microbatches)
    acts = in_flight * per_layer
    layers_here = L / p * copies
    # ZeRO-3: the largest unit all-gathered at once: a layer, the embedding or the head
    buffers = (2.0 * w + g) * sp.unit if zero_stage >= 3 else 0.0
    total = weights + grads + optim + acts + buffers
    fit = memory_fit(total, mem)
    return TrainingMemory(weights=weights, gradients=grads, optimizer=optim, activations=acts,
                          zero3_buffers=buffers, total=total, params_per_gpu=held,
                          activations_per_layer=float(per_layer), layers_per_gpu=layers_here,
                          layers_in_flight=in_flight, stage=0, schedule=schedule,
                          weight_bytes_per_elem=w, grad_bytes_per_elem=g,
                          optimizer_bytes_per_elem=o, dense_shards=dense_shards,
                          expert_shards=expert_shards, seq_per_gpu=s / c, unit_params=sp.unit,
                          memory_bytes=mem,
                          fit=None if fit is None else fit.verdict,
                          used=None if fit is None else total / mem, memory_fit=fit,
                          spare_bytes=None if fit is None else mem - total)
