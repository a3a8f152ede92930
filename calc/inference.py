"""Inference, one answer per question: the decode step and prefill of a model on a
tensor-parallel group, as records every page, plan and lesson shows as is.

A "Custom: parameters only" model is :func:`calc.arch.params_only` (a dense architecture
with N given): the same functions, no second code path.  What each GPU holds and reads
comes from :mod:`calc.placement` (weights ÷ tp, K,V ÷ min(tp, KV heads), MLA's latent
cache replicated); memory fit is :func:`calc.placement.memory_fit` (one reserve).

Device numbers are plain, per GPU: ``peak_flops`` (FLOP/s of the compute precision),
``mem_bw`` (bytes/s), ``memory_bytes`` (bytes, optional: None gives no fit verdict) and
``link_bw`` (bytes/s one direction, optional: None or tp = 1 gives no all-reduce time),
so a custom device works as a catalog one.

Public API (stable; add, never rename)
--------------------------------------
``DecodeStep`` / ``decode_step(arch, batch, context_len, *, peak_flops, mem_bw,
memory_bytes=None, tp=1, ep=1, bytes_per_param=2.0, kv_bytes_per_elem=2.0, link_bw=None)``
    one decode step of ``batch`` sequences; vectorized: an array of batch gives arrays
``Prefill`` / ``prefill(arch, prompt_len, *, peak_flops, mem_bw, tp=1, ep=1,
bytes_per_param=2.0, batch=1, link_bw=None)``
    the forward pass over ``batch`` prompts (TTFT bound); arrays of prompt_len or batch
``decode_weight_params(arch, tokens)``   parameters a step over ``tokens`` tokens reads
``allreduce_seconds(arch, tokens, tp, link_bw, bytes_per_elem=2.0, tier=None)``  TP all-reduce time
``decode_knee(arch, context_len, **device)``        batch where the step turns compute-bound
``batch_for_decode_mfu(target, arch, context_len, **device)``  batch reaching an MFU
``max_batch_that_fits(arch, context_len, **device)``  largest batch within the memory rule
``link_bw_one_way(interconnect_bytes_per_s)``   datasheet NVLink figure (both ways) ÷ 2
``DecodeReport`` / ``decode_report(arch, batch, context_len, *, curve_batches, prompt_len=None,
**device)``  everything the Decode page shows (the grid test's Decode answer)

The step (per GPU; B sequences, c tokens of context, t = tp)
-------------------------------------------------------------
    weights read  = params_per_gpu(decode_weight_params(B)) · b_w     (calc.placement)
    KV read       = B · kv_cache_bytes_per_seq(c) · e / kv_split     (min(t, K); MLA 1)
    FLOP          = B · (2 · params_per_gpu(N_active) + A(c) / t)     (A: attention, non-causal)
    step          = max(FLOP / peak, bytes / bw) + all-reduce          tokens/s = B / step
    MFU           = B · (2·N_active + A(c)) / (t · peak · step)

Sources: seed chapter 04 (bytes / bandwidth, 143 tok/s); Pope et al., "Efficiently
Scaling Transformer Inference" (2022) §2-3; Shoeybi et al., Megatron-LM (2019) §3;
DeepSeek-V2 (arXiv 2405.04434) §2.1 and vLLM ``v1/attention/backends/mla/common.py``
(MLA absorbed at decode, not at prefill).  Units: SI base units; fractions 0..1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from . import _validate as v
from .arch import ModelArch, attention_flops_per_token, expected_distinct_experts, param_counts
from .parallel.network import NetworkTier, collective_seconds
from .placement import MemoryFit, Placement, check_tp, memory_fit, params_per_gpu, place

__all__ = [
    "DecodeStep",
    "Prefill",
    "decode_step",
    "prefill",
    "decode_weight_params",
    "allreduce_seconds",
    "ALLREDUCE_BYTES_PER_ELEM",
    "decode_knee",
    "batch_for_decode_mfu",
    "max_batch_that_fits",
    "DecodeReport",
    "decode_report",
    "link_bw_one_way",
]


def _out(x, scalar: bool):
    return float(x) if scalar else np.asarray(x, dtype=float)


def decode_weight_params(arch: ModelArch, tokens: Any):
    """Parameters one forward step over ``tokens`` tokens reads, whole model   [parameters].

        N_total − E_in + T·d − N_routed + L_moe · D(T) · N_expert

    E_in = the untied input embedding table V·d: the lookup gathers one row per token
    (T·d weights), it does not read the table (gpt-oss-20b: 0.58 G of its 20.9 G).  A tied
    table is read whole by the LM head and stays in.  D(T) = expected distinct routed
    experts of T tokens (:func:`calc.arch.expected_distinct_experts`, uniform routing);
    dense weights, attention, shared experts and the LM head are read once.  Accepts an
    array for tokens.  Sources: seed chapter 04; the per-operator model of calc.model_ops.
    """
    T = np.asarray(v.number("tokens", tokens, "positive", "tokens"), dtype=float)
    pc = param_counts(arch)
    gather = pc.embedding if pc.lm_head > 0 else 0.0
    read = pc.total - gather + (T * float(arch.d_model) if gather else 0.0)
    if arch.is_moe:
        D = np.asarray(expected_distinct_experts(arch.n_experts, arch.experts_per_token, T))
        read = read - pc.routed_experts + arch.n_moe_layers * D * pc.expert
    return read * np.ones_like(T)


ALLREDUCE_BYTES_PER_ELEM = 2.0
"""Bytes per element of a tensor-parallel all-reduce: the BF16 output of a row-parallel GEMM,
whatever the weights' and matrix units' precision (an FP8 GEMM writes the activations' dtype:
vLLM's ``apply_fp8_linear`` returns ``input.dtype``, and ``RowParallelLinear`` all-reduces
that output).  The Decode page's and the Serving page's all-reduces both use it."""


def allreduce_seconds(arch: ModelArch, tokens: Any, tp: int, link_bw: Optional[float] = None,
                      bytes_per_elem: float = ALLREDUCE_BYTES_PER_ELEM, *,
                      tier: Optional[NetworkTier] = None):
    """Tensor-parallel all-reduce time of one forward step over ``tokens`` tokens   [s].

        2·L · all_reduce(T·d·e bytes over t GPUs)
        all_reduce = 2·(t − 1)/t · T·d·e / (bw·η) + 2·(t − 1)·α

    Two all-reduces per layer (after attention and after the FFN), each of T·d·e bytes,
    timed by the one ring formula, :func:`calc.parallel.network.collective_seconds` (the
    Training layout and Serving pages' too).  ``tier``: the network tier the group runs on
    (bandwidth per GPU one way, efficiency η, latency α per ring step); by default the
    datasheet link, ``link_bw`` at η = 1 and α = 0: the bound, latency ignored
    (hardware.toml's interconnect figure counts both directions: pass half).  0 when t = 1
    or neither is given.  Accepts arrays.
    Sources: Shoeybi et al., Megatron-LM (2019) §3; Patarasuk & Yuan 2009 (ring all-reduce).
    """
    T = np.asarray(v.number("tokens", tokens, "positive", "tokens"), dtype=float)
    if (link_bw is None and tier is None) or tp <= 1:
        return 0.0 * T
    if tier is None:
        tier = NetworkTier("scale_up", v.number("link_bw", link_bw, "positive", "bytes/s"), 1.0, 0.0)
    e = v.number("bytes_per_elem", bytes_per_elem, "positive", "bytes")
    one = collective_seconds("all_reduce", T * float(arch.d_model) * e, tp, tier)
    return 2.0 * arch.n_layers * np.asarray(one, dtype=float)


@dataclass(frozen=True)
class DecodeStep:
    """One decode step of ``batch`` sequences on a ``tp``-GPU group   [per GPU unless said].

    Arrays (one entry per batch) when batch is an array; ``bound`` then an array of str.
    """

    batch: Any
    context_len: float
    tp: int
    ep: int
    weight_bytes: Any        # weights one GPU reads (gather excluded, distinct experts)
    expert_bytes: Any        # the routed-expert part of weight_bytes
    distinct_experts: Any    # D(B) per MoE layer (0 for a dense model)
    kv_bytes: Any            # KV cache one GPU reads
    bytes: Any               # weight_bytes + kv_bytes
    flops: Any               # FLOP one GPU does
    model_flops: Any         # useful FLOP of the whole group: B · (2·N_active + A(c))
    compute_seconds: Any     # flops / peak_flops
    memory_seconds: Any      # bytes / mem_bw
    comm_seconds: Any        # tensor-parallel all-reduce (0 without link_bw)
    seconds: Any             # max(compute, memory) + comm
    bound: Any               # "memory" or "compute" (which of the two is larger)
    tokens_per_s: Any        # whole batch: B / seconds
    tokens_per_s_per_request: Any   # 1 / seconds
    mfu: Any                 # model_flops / (tp · peak_flops · seconds)
    placement: Placement     # what one GPU holds (weights, the batch's KV cache)
    fit: Optional[MemoryFit]  # placement.total_bytes against memory_bytes (None: unknown)
    peak_flops: float
    mem_bw: float

    @property
    def intensity(self) -> Any:
        """flops / bytes per GPU   [FLOP/byte] (the point on the roofline)."""
        return np.divide(self.flops, self.bytes)

    @property
    def memory_per_gpu(self) -> Any:
        """Bytes one GPU holds: its weights and its share of the batch's KV cache."""
        return self.placement.total_bytes


def _device(peak_flops, mem_bw, memory_bytes):
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    if not isinstance(p, float) or not isinstance(bw, float):
        raise ValueError("peak_flops and mem_bw must be single numbers (one GPU's)")
    if memory_bytes is not None:
        memory_bytes = v.number("memory_bytes", memory_bytes, "positive", "bytes")
    return p, bw, memory_bytes


def decode_step(arch: ModelArch, batch: Any, context_len: Any, *, peak_flops: float,
                mem_bw: float, memory_bytes: Optional[float] = None, tp: Any = 1, ep: Any = 1,
                bytes_per_param: float = 2.0, kv_bytes_per_elem: float = 2.0,
                link_bw: Optional[float] = None) -> DecodeStep:
    """One decode step of ``batch`` sequences at ``context_len`` tokens of context.

    Formulas: the module docstring.  The new token attends to all c cached keys
    (window-capped); MLA in its absorbed form (DeepSeek-V2 §2.1: what engines run at
    decode).  Ignores kernel launches, scheduling and latency: a ceiling.
    context_len 0 leaves the KV cache (and attention) out: the seed's weights-only lesson.
    Worked examples (tests/calc/test_inference.py): the seed's 7B bf16 at 2 TB/s, batch 1:
    2e12 / 14e9 = 143 tok/s; Llama-2-7B on one A100 80GB, batch 32 at 4096 tokens:
    (13.2 GB + 68.7 GB) / 2.039 TB/s = 40.2 ms per step, 796 tok/s.
    Vectorized in ``batch`` (one call per curve).
    """
    p, bw, mem = _device(peak_flops, mem_bw, memory_bytes)
    t, e = check_tp(arch, tp, ep)
    B = v.number("batch", batch, "positive", "sequences")
    c = v.number("context_len", context_len, "non_negative", "tokens")
    w = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    scalar = isinstance(B, float)
    Ba = np.asarray(B, dtype=float)
    pl = place(arch, t, e, w, kv_bytes_per_elem, c, B)
    pc = param_counts(arch)
    read = decode_weight_params(arch, Ba)
    if arch.is_moe:
        D = np.asarray(expected_distinct_experts(arch.n_experts, arch.experts_per_token, Ba))
        experts = arch.n_moe_layers * D * pc.expert * w / t
    else:
        D = experts = 0.0 * Ba
    wbytes = params_per_gpu(arch, t, read) * w
    kv = Ba * pl.kv_bytes_per_seq
    total = wbytes + kv
    attn = float(attention_flops_per_token(arch, c, causal=False, mla_absorbed=True))
    flops = Ba * (2.0 * params_per_gpu(arch, t, pc.active) + attn / t)
    useful = Ba * (2.0 * pc.active + attn)
    t_cmp, t_mem = flops / p, total / bw
    comm = allreduce_seconds(arch, Ba, t, link_bw)
    secs = np.maximum(t_cmp, t_mem) + comm
    bound = np.where(t_mem >= t_cmp, "memory", "compute")
    fit = memory_fit(pl.total_bytes, mem)
    return DecodeStep(
        batch=B, context_len=c, tp=t, ep=e, weight_bytes=_out(wbytes, scalar),
        expert_bytes=_out(experts, scalar), distinct_experts=_out(D, scalar),
        kv_bytes=_out(kv, scalar), bytes=_out(total, scalar), flops=_out(flops, scalar),
        model_flops=_out(useful, scalar), compute_seconds=_out(t_cmp, scalar),
        memory_seconds=_out(t_mem, scalar), comm_seconds=_out(comm, scalar),
        seconds=_out(secs, scalar), bound=str(bound) if scalar else bound,
        tokens_per_s=_out(Ba / secs, scalar), tokens_per_s_per_request=_out(1.0 / secs, scalar),
        mfu=_out(useful / (t * p * secs), scalar), placement=pl, fit=fit, peak_flops=p,
        mem_bw=bw)


@dataclass(frozen=True)
class Prefill:
    """The forward pass over ``batch`` prompts of ``prompt_len`` tokens on ``tp`` GPUs.

    ``flops``: the whole group's; ``flops_per_gpu``, ``weight_bytes`` (one read of the
    weights the prompt tokens route to): one GPU's; ``seconds`` is the time-to-first-token
    bound; ``tokens_per_s``: prompt tokens processed per second.  Arrays when an input is.
    """

    prompt_len: Any
    batch: Any
    tp: int
    flops: Any
    flops_per_gpu: Any
    attention_flops: Any     # the attention part of flops (causal, non-absorbed MLA)
    weight_bytes: Any
    compute_seconds: Any
    memory_seconds: Any
    comm_seconds: Any
    seconds: Any
    bound: Any
    tokens_per_s: Any
    mfu: Any


def prefill(arch: ModelArch, prompt_len: Any, *, peak_flops: float, mem_bw: float,
            tp: Any = 1, ep: Any = 1, bytes_per_param: float = 2.0, batch: Any = 1,
            link_bw: Optional[float] = None) -> Prefill:
    """Prefill of ``batch`` prompts of P = ``prompt_len`` tokens: FLOP, TTFT bound, bound.

        FLOP    = B · (P · (2·(N_active − N_head) + A_causal(P)) + 2·N_head)
        per GPU = B · (P · (2·(params_per_gpu(N_active) − N_head/t) + A/t) + 2·N_head/t)
        TTFT    = max(FLOP_gpu / peak, weights read for B·P tokens / bw) + all-reduce

    N_head = the LM head V·d: logits for the last position only (what engines do).
    A_causal = :func:`calc.arch.attention_flops_per_token` (P, causal) with MLA in its
    **non-absorbed** form (each head attends with d_qk = nope + rope, d_v = v_head_dim
    after the K/V up-projection of every prompt token), as vLLM computes prefill
    (``v1/attention/backends/mla/common.py``: the absorbed form is for decode).
    DeepSeek-V3, one prompt of 4096 tokens: 334 TFLOP (the absorbed form would give
    435); 32768 tokens: 5.02e15 in all, 6.87e14 per GPU on 8 × H200 (more than an
    eighth: the replicated down-projections and router run whole on every GPU), TTFT
    6.87e14 / 989e12 = 0.69 s.
    Queueing and the KV-cache write are not counted.  Accepts arrays (broadcast).
    Sources: Kaplan et al. 2020 (2N per token); PaLM (2022) App. B; Pope et al. 2022.
    """
    p, bw, _ = _device(peak_flops, mem_bw, None)
    t, e = check_tp(arch, tp, ep)
    P = v.number("prompt_len", prompt_len, "positive", "tokens")
    B = v.number("batch", batch, "positive", "sequences")
    w = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    scalar = isinstance(P, float) and isinstance(B, float)
    Pa, Ba = np.asarray(P, dtype=float), np.asarray(B, dtype=float)
    pc = param_counts(arch)
    head = pc.lm_head if pc.lm_head > 0 else pc.embedding          # tied: the table is the head
    attn = np.asarray(attention_flops_per_token(arch, Pa, causal=True, mla_absorbed=False))
    flops = Ba * (Pa * (2.0 * (pc.active - head) + attn) + 2.0 * head)
    body_gpu = params_per_gpu(arch, t, pc.active) - head / t
    flops_gpu = Ba * (Pa * (2.0 * body_gpu + attn / t) + 2.0 * head / t)
    T = Ba * Pa
    wbytes = params_per_gpu(arch, t, decode_weight_params(arch, T)) * w
    t_cmp, t_mem = flops_gpu / p, wbytes / bw
    comm = allreduce_seconds(arch, T, t, link_bw)
    secs = np.maximum(t_cmp, t_mem) + comm
    bound = np.where(t_cmp >= t_mem, "compute", "memory")
    return Prefill(prompt_len=P, batch=B, tp=t, flops=_out(flops, scalar),
                   flops_per_gpu=_out(flops_gpu, scalar),
                   attention_flops=_out(Ba * Pa * attn, scalar), weight_bytes=_out(wbytes, scalar),
                   compute_seconds=_out(t_cmp, scalar), memory_seconds=_out(t_mem, scalar),
                   comm_seconds=_out(comm, scalar), seconds=_out(secs, scalar),
                   bound=str(bound) if scalar else bound, tokens_per_s=_out(T / secs, scalar),
                   mfu=_out(flops / (t * p * secs), scalar))


def link_bw_one_way(interconnect_bytes_per_s: Optional[float]) -> Optional[float]:
    """Per-GPU link bandwidth in one direction = the datasheet's both-directions figure ÷ 2
    [bytes/s] (hardware.toml's ``interconnect_gbs``: H100 SXM NVLink 900 GB/s → 450 GB/s);
    None stays None.  Source: NVIDIA H100 datasheet ("900 GB/s" bidirectional NVLink)."""
    if interconnect_bytes_per_s is None:
        return None
    return v.number("interconnect_bytes_per_s", interconnect_bytes_per_s, "positive", "bytes/s") / 2.0


BISECT_POINTS = 64
"""Points per round of :func:`_bisect_batch`'s vectorized search."""


def _bisect_batch(f, lo: float = 1e-6, hi: float = 1e12) -> float:
    """The B in [lo, hi] where the increasing f(B) crosses 0, to 1e-12 in log B;
    inf when f(hi) < 0, lo when f(lo) >= 0.

    ``f`` takes an array of batches (decode_step is vectorized): each round evaluates it
    at BISECT_POINTS − 1 log-spaced points inside the bracket and keeps the sub-interval
    where it changes sign, so 8 calls of 63 points replace ~45 scalar bisection steps (the
    Decode page asks three of these per rerun)."""
    ends = np.asarray(f(np.array([lo, hi])), dtype=float)
    if ends[1] < 0:
        return math.inf
    if not ends[0] < 0:
        return lo
    llo, lhi = math.log(lo), math.log(hi)
    for _ in range(32):
        if lhi - llo < 1e-12:
            break
        grid = np.linspace(llo, lhi, BISECT_POINTS + 1)
        below = np.asarray(f(np.exp(grid[1:-1])), dtype=float) < 0
        k = int(np.argmin(below)) + 1 if not below.all() else BISECT_POINTS
        llo, lhi = float(grid[k - 1]), float(grid[k])
    return math.exp(0.5 * (llo + lhi))


def _device_kw(kw: dict) -> dict:
    kw = dict(kw)
    kw.pop("link_bw", None)          # the knee and the MFU targets compare FLOP and bytes
    return kw


def decode_knee(arch: ModelArch, context_len: Any, **device: Any) -> float:
    """Batch at which a decode step turns compute-bound (the knee)   [sequences, fractional].

    The B where :func:`decode_step`'s compute_seconds = memory_seconds.  Dense, no KV:
    B* = b_w · peak / (2 · bw) = ridge × b_w / 2 (A100 bf16: 156 × 2 / 2 = 156).  For MoE
    the read grows with the distinct experts, so B* moves right.  FLOP(B) is linear and
    bytes(B) concave, so there is one crossing (bisection on log B).  ``inf`` when each
    sequence's KV read costs more time than its FLOP.  ``device``: decode_step's keywords.
    Sources: Pope et al. 2022 §3; seed chapter 04.
    """
    kw = _device_kw(device)

    def gap(b: float) -> float:
        s = decode_step(arch, b, context_len, **kw)
        return s.compute_seconds - s.memory_seconds

    return _bisect_batch(gap)


def batch_for_decode_mfu(target: Any, arch: ModelArch, context_len: Any, **device: Any) -> float:
    """Batch at which :func:`decode_step`'s MFU reaches ``target`` (0 < target ≤ 1)
    [sequences, fractional; ``inf`` when it never does].  Without KV, dense:
    target × b_w × ridge / 2 (A100 80GB bf16, ridge 153: 1 % at batch 1.53).
    """
    m = v.number("target", target, "fraction")
    kw = _device_kw(device)
    return _bisect_batch(lambda b: decode_step(arch, b, context_len, **kw).mfu - m)


def max_batch_that_fits(arch: ModelArch, context_len: Any, *, memory_bytes: Optional[float],
                        tp: Any = 1, ep: Any = 1, bytes_per_param: float = 2.0,
                        kv_bytes_per_elem: float = 2.0, **_ignored: Any) -> Optional[float]:
    """Largest whole batch whose per-GPU weights + KV cache meet the memory rule
    (:func:`calc.placement.memory_fit`)   [sequences].

        floor((memory · (1 − MEMORY_RESERVE) − weights per GPU) / KV per GPU per sequence)

    0 when the weights alone do not fit; ``inf`` without a KV cache (context 0); None
    when the memory is unknown.  E.g. Llama-2-70B bf16 on 8 × 80 GiB at 128k tokens:
    weights 17.25 GB per GPU, cache 5.37 GB per sequence per GPU (8 KV heads on 8 GPUs):
    floor((77.31 − 17.25) / 5.37) = 11.  Source: Kwon et al., vLLM (2023).
    """
    if memory_bytes is None:
        return None
    pl = place(arch, tp, ep, bytes_per_param, kv_bytes_per_elem, context_len, 1)
    fit = memory_fit(pl.weight_bytes, memory_bytes)
    if fit.headroom_bytes < 0:
        return 0.0
    if pl.kv_bytes_per_seq == 0:
        return math.inf
    return float(math.floor(fit.headroom_bytes / pl.kv_bytes_per_seq * (1 + 1e-12)))


@dataclass(frozen=True)
class DecodeReport:
    """Everything the Decode page shows for one setup, each number from the records above.

    ``step_1`` / ``step``: batch 1 and the chosen batch; ``weights_only_1``: batch 1
    without the KV cache (the seed's lesson, shown beside the ceiling); ``knee`` and
    ``knee_step`` (None when never compute-bound); ``max_fit`` (None: memory unknown);
    ``curve``: the step vectorized over ``curve_batches``; ``mfu_reach``: the batches
    reaching 1 % and 5 % MFU; ``prefill``: the TTFT bound of ``prompt_len`` (None when
    not asked).
    """

    step_1: DecodeStep
    step: DecodeStep
    weights_only_1: DecodeStep
    knee: float
    knee_step: Optional[DecodeStep]
    max_fit: Optional[float]
    curve_batches: Any
    curve: DecodeStep
    mfu_reach: tuple
    prefill: Optional[Prefill]


def decode_report(arch: ModelArch, batch: Any, context_len: Any, *, curve_batches: Any,
                  prompt_len: Any = None, **device: Any) -> DecodeReport:
    """The Decode page's numbers for ``arch`` at ``batch`` and ``context_len``: one call of
    :func:`decode_step` per question (batch 1, the batch, the curve, the knee), the knee
    (:func:`decode_knee`), the largest batch that fits (:func:`max_batch_that_fits`), the
    batches reaching 1 % and 5 % MFU (:func:`batch_for_decode_mfu`) and, given
    ``prompt_len``, :func:`prefill`.  ``device``: :func:`decode_step`'s keywords.
    ``curve_batches`` is where the batch curve is drawn (the knee is added when inside).
    """
    s1 = decode_step(arch, 1.0, context_len, **device)
    sb = decode_step(arch, batch, context_len, **device)
    w1 = decode_step(arch, 1.0, 0.0, **device)
    knee = decode_knee(arch, context_len, **device)
    b = np.asarray(curve_batches, dtype=float)
    if math.isfinite(knee) and b[0] < knee < b[-1]:
        b = np.union1d(b, [knee])          # the curves' corner, drawn exactly
    curve = decode_step(arch, b, context_len, **device)
    fit_kw = {k: device[k] for k in ("tp", "ep", "bytes_per_param", "kv_bytes_per_elem")
              if k in device}
    max_fit = max_batch_that_fits(arch, context_len, memory_bytes=device.get("memory_bytes"),
                                  **fit_kw)
    reach = tuple(batch_for_decode_mfu(m, arch, context_len, **device) for m in (0.01, 0.05))
    pf = None
    if prompt_len is not None:
        pf_kw = {k: device[k] for k in ("peak_flops", "mem_bw", "tp", "ep", "bytes_per_param",
                                        "link_bw") if k in device}
        pf = prefill(arch, prompt_len, **pf_kw)
    return DecodeReport(step_1=s1, step=sb, weights_only_1=w1, knee=knee,
                        knee_step=decode_step(arch, knee, context_len, **device)
                        if math.isfinite(knee) else None,
                        max_fit=max_fit, curve_batches=b, curve=curve, mfu_reach=reach,
                        prefill=pf)
