"""Compute time of one micro-batch on one pipeline stage: GEMMs at the efficiency their size
reaches, attention at FlashAttention's, and the memory-bound operators at the bandwidth.

The operators are :func:`calc.model_ops.model_operators`' (the Model page's list) for a
forward pass of ``micro_batch`` sequences of s/cp tokens on one GPU of a tensor-parallel
group of ``tp``; attention and the LM head are counted for training here (all s keys of
the sequence, every position's logits):

    GEMM (matmul, router, experts)   t = max(FLOP / (peak · η_gemm(FLOP)), bytes / (bw · η_mem(bytes)))
    attention (fused)                t = FLOP / (peak · η_attn)
    attention (unfused, flash=False) QKᵀ and ·V as batched GEMMs (η_gemm of their FLOP, every
                                     score computed even when causal), the softmax as a
                                     memory-bound operator over the s×s scores (model_ops)
    attention dropout (unfused, dropout=True)  t = bytes / (bw · η_mem(bytes)), bytes = P read,
                                     P' written (b_a each) and a 1-byte mask per element,
                                     forward and backward alike (the backward reads the
                                     gradient and the mask, writes the gradient)
    norm, rope, activation, residual t = bytes / (bw · η_mem(bytes))

    forward F = Σ t;   backward B = 2 · GEMM + 2 · attention GEMMs + 1.5 · memory-bound;
    W (weight gradients) = the GEMMs' forward time (one of the two backward GEMMs)

η_gemm = f_dev · c(FLOP) / 0.95, where c is Calculon's matrix efficiency table (calculon-ai/calculon ``systems/a100_80g.json``
and ``h100_80g_nvl8.json``, "gflops_efficiency"): 0.95 at ≥ 128 GFLOP per GEMM, 0.90 at
≥ 16, 0.60 at ≥ 1, 0.10 below; and f_dev the device's measured best-GEMM share of its
peak (hardware.toml ``matmul_fraction``: the "maximum achievable matmul FLOPS" of
stas00/ml-engineering, H100 SXM 0.803, A100 SXM 0.869); Calculon's 0.95 where none is
measured, so c keeps its shape and its top is what the device was measured to reach.  η_mem: the same files' "MB_efficiency" of HBM: 0.90 at
≥ 100 MB, 0.75 at ≥ 10, 0.60 at ≥ 1, 0.30 below.  η_attn = 0.5: FlashAttention-2 (Dao
2023, abstract) reaches 50–73 % of the A100's peak; the low end, since the backward pass
(2.5 of the 3.5 forward-equivalents of work, ``FLASH_BACKWARD_FLOPS``) is its slower part.  The backward of an elementwise operator reads
the output gradient and the saved input and writes the input gradient: 3 tensors where the
forward moves 2, hence 1.5.  With sequence parallelism the norms and residual adds are
split ``tp`` ways too (Korthikanti et al. 2022 §4.2.2).

Recompute: "selective" runs the attention forward once more in the backward pass,
"full" the whole forward (Korthikanti et al. 2022 §5).

Attention dropout: Megatron-LM drops attention probabilities by default
(``--attention-dropout`` 0.1, megatron/training/arguments.py), and its unfused attention
does so as a separate kernel over the s×s probabilities (the 1-byte mask of Korthikanti et
al.'s Table 2, which :func:`calc.training_memory.activation_bytes_per_layer` stores).  A
fused attention kernel applies it in registers (no memory term), and most runs since
(Llama, MPT) train without it, so it is counted only when asked for.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..arch import ModelArch, attention_flops_per_token
from ..model_ops import model_operators

__all__ = ["GEMM_EFFICIENCY", "MEMORY_EFFICIENCY", "ATTENTION_EFFICIENCY", "FLASH_BACKWARD_FLOPS",
           "BACKWARD_MEMORY_FACTOR", "gemm_efficiency", "memory_efficiency", "StageCompute",
           "stage_compute", "layers_on_worst_stage"]

GEMM_EFFICIENCY = ((128e9, 0.95), (16e9, 0.90), (1e9, 0.60), (0.0, 0.10))
"""(FLOP of one GEMM at least, share of peak): Calculon's matrix "gflops_efficiency"."""
MEMORY_EFFICIENCY = ((100e6, 0.90), (10e6, 0.75), (1e6, 0.60), (0.0, 0.30))
"""(bytes moved by one operator at least, share of HBM bandwidth): Calculon's "MB_efficiency"
(the files write MB; 1 MB = 1e6 bytes here)."""
ATTENTION_EFFICIENCY = 0.5
"""Share of peak of fused attention, forward and backward: FlashAttention-2 (Dao 2023)."""
FLASH_BACKWARD_FLOPS = 2.5
"""A fused attention backward runs 2.5× its forward's FLOPs: it recomputes S = QKᵀ (5 matrix
products to the forward's 2).  The convention FlashAttention's measured shares of peak are
counted in (flash-attn ``benchmarks/benchmark_flash_attention.py``: ``flops(mode="bwd") =
2.5 * f``), so the backward takes 2.5× the forward's time at η_attn."""
BACKWARD_MEMORY_FACTOR = 1.5
"""Bytes of an elementwise operator's backward over its forward (3 tensors vs 2)."""
ACT_BYTES_PER_ELEM = 2.0
"""Bytes per activation element (BF16): the operators' and the ones sent between GPUs."""
DROPOUT_MASK_BYTES = 1.0
"""Bytes per element of a dropout mask (a torch.bool tensor; Korthikanti et al. Table 2)."""

_ATTN_KEYS = {"attn_fused", "attn_qk", "attn_softmax", "attn_pv"}
_SP_SPLIT = {"norm_in", "norm_post", "norm_extra", "residual_attn", "residual_mlp"}


def _lookup(table, x: float) -> float:
    for threshold, eff in table:
        if x >= threshold:
            return eff
    return table[-1][1]


CALCULON_TOP = GEMM_EFFICIENCY[0][1]


def gemm_efficiency(flops, matmul_fraction: float | None = None):
    """Share of peak a GEMM of ``flops`` FLOP reaches: Calculon's step table, scaled so its
    top step is the device's measured ``matmul_fraction`` (as is when None).  The one GEMM
    efficiency of the product: the Training layout page's and the Serving estimate's.
    Accepts arrays (one share per GEMM size)."""
    top = CALCULON_TOP if matmul_fraction is None else matmul_fraction
    if isinstance(flops, (int, float)):
        return _lookup(GEMM_EFFICIENCY, flops) * top / CALCULON_TOP
    import numpy as np
    f = np.asarray(flops, dtype=float)
    out = np.select([f >= threshold for threshold, _ in GEMM_EFFICIENCY],
                    [eff for _, eff in GEMM_EFFICIENCY], GEMM_EFFICIENCY[-1][1]) * top / CALCULON_TOP
    return float(out) if out.ndim == 0 else out


def memory_efficiency(nbytes: float) -> float:
    """Share of HBM bandwidth an operator moving ``nbytes`` reaches (Calculon's table)."""
    return _lookup(MEMORY_EFFICIENCY, nbytes)


@dataclass(frozen=True)
class StageCompute:
    """One micro-batch on one GPU of one stage (seconds, FLOP).

    per layer (mean over the model's layers): ``gemm``, ``attention``, ``memory`` forward
    seconds, ``attention_backward``; ``attention_flops`` forward; ``lm_head`` forward seconds (last stage);
    ``forward`` / ``backward`` / ``weight_grad`` of ``layers`` layers (recompute included
    in backward); ``gemm_eff`` the FLOP-weighted GEMM efficiency; ``flops_hw`` the FLOP
    executed per micro-batch on this GPU (recompute included)."""

    layers: int
    gemm: float
    attention: float
    attention_backward: float
    memory: float
    lm_head: float
    forward: float
    backward: float
    weight_grad: float
    recompute_seconds: float
    gemm_eff: float
    gemm_flops: float
    attention_flops: float
    flops_hw: float


@lru_cache(maxsize=4096)
def _layer_costs(arch: ModelArch, micro_batch: int, seq_len: int, tp: int, cp: int, ep: int,
                 sequence_parallel: bool, peak: float, mem_bw: float, top: float | None,
                 flash: bool = True, dropout: bool = False):
    s_local = max(1, seq_len // cp)
    ops = model_operators(arch, phase="prefill", batch=micro_batch, tokens=s_local,
                          peak_flops=peak, mem_bw=mem_bw, tp=tp, flash=flash,
                          act_bytes_per_elem=ACT_BYTES_PER_ELEM)
    L = arch.n_layers
    gemm_t = gemm_f = gemm_eff_num = mem_t = 0.0
    unfused_gemm = unfused_mem = drop_t = 0.0
    for op in ops.operators:
        if not flash and op.key in ("attn_qk", "attn_pv"):
            unfused_gemm += op.count * max(op.flops / (peak * gemm_efficiency(op.flops, top)),
                                           op.bytes_moved / (mem_bw * memory_efficiency(op.bytes_moved)))
            continue
        if not flash and op.key == "attn_softmax":
            unfused_mem += op.count * op.bytes_moved / (mem_bw * memory_efficiency(op.bytes_moved))
            if dropout:     # the softmax's bytes are S in and P out: 2·b_a per element
                drop = op.bytes_moved * (1.0 + DROPOUT_MASK_BYTES / (2.0 * ACT_BYTES_PER_ELEM))
                drop_t += op.count * drop / (mem_bw * memory_efficiency(drop))
            continue
        if op.key in _ATTN_KEYS or op.key in ("lm_head", "embedding", "norm_final"):
            continue
        n = op.count
        if op.op_class in ("matmul", "moe"):
            size = op.flops
            if op.key == "experts":
                # one expert's matrix: tokens per expert × d × F_e, ep GPUs' tokens routed to E/ep experts
                T = micro_batch * s_local
                per_expert_tokens = T * arch.experts_per_token * ep / max(1, arch.n_experts)
                size = 2.0 * per_expert_tokens * arch.d_model * arch.expert_ffn_size / tp
            eff = gemm_efficiency(size, top)
            t = max(op.flops / (peak * eff), op.bytes_moved / (mem_bw * memory_efficiency(op.bytes_moved)))
            gemm_t += n * t
            gemm_f += n * op.flops
            gemm_eff_num += n * op.flops * eff
        else:
            nbytes = op.bytes_moved / (tp if (sequence_parallel and op.key in _SP_SPLIT) else 1)
            mem_t += n * nbytes / (mem_bw * memory_efficiency(nbytes))
    T_local = micro_batch * s_local
    # executed attention FLOP: a fused kernel skips the masked half, unfused QKᵀ and ·V do not
    attn_f = float(attention_flops_per_token(arch, seq_len, causal=flash)) * T_local / tp
    if flash:
        attn_t = attn_f / (peak * ATTENTION_EFFICIENCY)
        attn_b = FLASH_BACKWARD_FLOPS * attn_t
    else:
        attn_t = unfused_gemm + unfused_mem + drop_t
        attn_b = 2 * unfused_gemm + BACKWARD_MEMORY_FACTOR * unfused_mem + drop_t
    head_f = 2.0 * T_local * arch.d_model * arch.vocab_size / tp
    head_eff = gemm_efficiency(head_f, top)
    head_t = head_f / (peak * head_eff)
    return (gemm_t / L, gemm_f / L, gemm_eff_num / max(gemm_f, 1e-300), mem_t / L,
            attn_t / L, attn_b / L, attn_f / L, head_t, head_f)


def stage_compute(arch: ModelArch, *, micro_batch: int, seq_len: int, tp: int, cp: int = 1,
                  ep: int = 1, layers: int, recompute: str = "selective",
                  sequence_parallel: bool = True, peak_flops: float, mem_bw: float,
                  matmul_fraction: float | None = None, last_stage: bool = True,
                  flash_attention: bool = True, attention_dropout: bool = False) -> StageCompute:
    """F, B and W of one micro-batch on a stage of ``layers`` layers (formulas: module
    docstring).  The LM head (2·T·d·V/tp, forward) is added on the last stage.
    ``attention_dropout``: count the unfused attention's dropout kernel (no effect with
    ``flash_attention``)."""
    g, gf, geff, mem, at, ab, af, head_t, head_f = _layer_costs(
        arch, int(micro_batch), int(seq_len), int(tp), int(cp), int(ep), bool(sequence_parallel),
        float(peak_flops), float(mem_bw), matmul_fraction, bool(flash_attention),
        bool(attention_dropout) and not flash_attention)
    head = head_t if last_stage else 0.0
    fwd_layer = g + at + mem
    forward = layers * fwd_layer + head
    if recompute == "full":
        rec = layers * fwd_layer
    elif recompute == "selective":
        rec = layers * at
    else:
        rec = 0.0
    backward = layers * (2 * g + ab + BACKWARD_MEMORY_FACTOR * mem) + 2 * head + rec
    weight_grad = layers * g + head
    flops_fwd = layers * (gf + af) + (head_f if last_stage else 0.0)
    rec_f = layers * (gf + af) if recompute == "full" else (layers * af if recompute == "selective" else 0.0)
    return StageCompute(layers=layers, gemm=g, attention=at, attention_backward=ab, memory=mem,
                        lm_head=head,
                        forward=forward, backward=backward, weight_grad=weight_grad,
                        recompute_seconds=rec, gemm_eff=geff, gemm_flops=gf, attention_flops=af,
                        flops_hw=3 * flops_fwd + rec_f)


def layers_on_worst_stage(n_layers: int, pp: int, interleave: int = 1) -> int:
    """ceil(L / (p·v))·v: the most layers one GPU holds (Llama 3's 126 layers on 16 stages:
    8; its report removes one layer from the first and the last stage, §3.3.2)."""
    return math.ceil(n_layers / (pp * interleave)) * interleave
