"""What each GPU holds and reads under tensor (and expert) parallelism, and the one
memory-fit rule.  Written once; the decode step and prefill (``calc.inference``), the
Model page's operators (``calc.model_ops``), Plans and training memory use it.

The placement rule (Megatron-LM tensor parallelism as serving engines implement it)
-----------------------------------------------------------------------------------
A tensor-parallel group of ``tp`` GPUs splits every layer (Shoeybi et al. 2019, §3):

* **split ÷ tp**: the query and output projections (heads ÷ tp), the FFN and the shared
  experts (columns / rows ÷ tp), the input embedding and the LM head (vocabulary ÷ tp:
  vLLM ``VocabParallelEmbedding`` / ``ParallelLMHead``), MLA's up-projections
  (``q_b_proj``, ``kv_b_proj``) and the attention core (heads ÷ tp).
* **routed experts ÷ ep, each expert ÷ (tp / ep)**: with expert parallelism over ``ep``
  of the group's GPUs each GPU keeps E / ep experts, split tp / ep ways, so a GPU holds
  routed / tp of the expert weights whatever ep is; under uniform routing it also reads
  D(B) / tp of them per step on average (ep moves whole experts, not bytes; load
  imbalance, which raises the busiest GPU's share, is not modelled).
* **K, V ÷ min(tp, K)**: the K and V projections and the KV cache split over the K KV
  heads; with more GPUs than KV heads every KV head is stored tp / K times (vLLM
  ``QKVParallelLinear``: "the KV heads are replicated"): 8 KV heads on 16 GPUs, each
  GPU keeps one KV head, every KV head lives on two GPUs.
* **replicated on every GPU**: the norms, the MoE router, MLA's down-projections
  (``q_a_proj``, ``kv_a_proj_with_mqa`` and their norms: vLLM ``ReplicatedLinear``) and
  MLA's latent KV cache (one latent per token shared by all heads: each GPU keeps the
  whole cache; DeepSeek-V2 §2.1, vLLM ``v1/attention/backends/mla``).

Divisibility (:func:`check_tp`): tp must divide the attention heads; tp and the KV heads
must divide one another (vLLM's rule); ep must divide tp and the routed experts.  The
messages name the field, the same on every page.

One memory-fit rule (:func:`memory_fit`): what a GPU needs must fit in its memory less
:data:`MEMORY_RESERVE` (10 %: vLLM's default ``gpu_memory_utilization`` = 0.9 leaves a
tenth of the GPU to the CUDA context, activations and fragmentation).  A need between
the usable memory and the whole memory is "tight": it eats into the reserve.

Public API (stable; add, never rename)
--------------------------------------
``MEMORY_RESERVE``                      0.10, the share of a GPU's memory kept free
``PlacementError``                      ValueError naming the field (tp, ep)
``check_tp(arch, tp, ep=1) -> (tp, ep)``  validate the split, return whole numbers
``kv_split(arch, tp) -> int``           ways the KV cache splits: min(tp, K); MLA 1
``WeightSplit`` / ``weight_split(arch)``  parameters split ÷ tp, ÷ min(tp, K), replicated
``params_per_gpu(arch, tp, params=None)``  parameters one GPU holds (or of ``params``)
``Placement`` / ``place(arch, tp=1, ep=1, bytes_per_param=2, kv_bytes_per_elem=2,
context_len=0, batch=1)``              per GPU: weights, KV cache (vectorized in batch)
``MemoryFit`` / ``memory_fit(needed_bytes, memory_bytes, reserve_fraction=MEMORY_RESERVE)``
                                        needed, capacity, reserve, fits, headroom, verdict

Units: bytes, parameter counts, GPUs; fractions 0..1.  Activations during training are
``calc.models.training_memory``'s (Korthikanti et al. 2022), placed with the same tp.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from . import _validate as v
from .arch import ModelArch, kv_cache_bytes_per_seq, param_counts

__all__ = [
    "MEMORY_RESERVE",
    "PlacementError",
    "check_tp",
    "kv_split",
    "WeightSplit",
    "weight_split",
    "params_per_gpu",
    "Placement",
    "place",
    "MemoryFit",
    "memory_fit",
]

MEMORY_RESERVE = 0.10
"""Share of each GPU's memory kept free for the CUDA context, activations, temporary
buffers and fragmentation: vLLM's default ``gpu_memory_utilization`` is 0.9 (vLLM engine
arguments, "The fraction of GPU memory to be used for the model executor ... default
0.9").  The one reserve of the app (Decode, Model, Plans, Training)."""


class PlacementError(ValueError):
    """A tensor- or expert-parallel size that cannot split the model; names the field.

    ``field`` ("tp" or "ep"), ``rule`` ("whole", "heads", "kv_heads", "dense", "ep_tp",
    "experts") and ``limit`` (the count the size must fit: heads, KV heads, tp, experts)
    let a page say the same in its language."""

    def __init__(self, message: str, field: str = "tp", rule: str = "whole", limit: int = 0):
        super().__init__(message)
        self.field, self.rule, self.limit = field, rule, limit


def _whole(name: str, value: Any, what: str) -> int:
    x = v.number(name, value, "positive", what)
    if not isinstance(x, float) or not x.is_integer():
        raise PlacementError(f"{name} must be a whole number > 0 ({what}), got {value!r}", name)
    return int(x)


def check_tp(arch: ModelArch, tp: Any, ep: Any = 1) -> tuple[int, int]:
    """Validate a tensor-parallel size ``tp`` (and expert-parallel ``ep``) for ``arch``.

    Rules (vLLM ``ModelConfig.verify_with_parallel_config`` / ``QKVParallelLinear``):
        tp divides the attention heads H          (each GPU computes H / tp whole heads)
        tp divides K, or K divides tp             (K KV heads split, or replicated tp / K times)
        ep divides tp, and the routed experts E   (ep = 1 for a dense model)
    A :func:`calc.arch.params_only` model knows its KV heads only: the second rule.
    Returns (tp, ep) as ints; raises :class:`PlacementError` whose message names the field.
    E.g. tp 3 for Llama-2-7B: "tp (tensor-parallel GPUs) must divide the 32 attention heads,
    got 3".
    """
    try:
        t = _whole("tp", tp, "tensor-parallel GPUs")
        e = _whole("ep", ep, "expert-parallel GPUs")
    except PlacementError:
        raise
    except ValueError as exc:
        raise PlacementError(str(exc), str(exc).split()[0]) from None
    H, K = arch.n_heads, arch.n_kv_heads
    if not arch.is_params_only and H % t:
        raise PlacementError(f"tp (tensor-parallel GPUs) must divide the {H} attention heads, "
                             f"got {t}", "tp", "heads", H)
    if not arch.is_mla and (K % t if t < K else t % K):
        raise PlacementError(f"tp (tensor-parallel GPUs) must divide the {K} KV heads or be a "
                             f"multiple of them, got {t}", "tp", "kv_heads", K)
    if e > 1:
        if not arch.is_moe:
            raise PlacementError(f"ep (expert-parallel GPUs) must be 1 for a dense model, got {e}",
                                 "ep", "dense", 1)
        if t % e:
            raise PlacementError(f"ep (expert-parallel GPUs) must divide tp ({t}), got {e}",
                                 "ep", "ep_tp", t)
        if arch.n_experts % e:
            raise PlacementError(f"ep (expert-parallel GPUs) must divide the {arch.n_experts} "
                                 f"routed experts, got {e}", "ep", "experts", arch.n_experts)
    return t, e


def kv_split(arch: ModelArch, tp: int) -> int:
    """Ways the KV cache (and the K, V projections) split over ``tp`` GPUs   [count].

        min(tp, K)     grouped / multi-query / multi-head attention (K KV heads)
        1              MLA: the latent is shared by every head, each GPU keeps all of it

    Each GPU keeps at least one KV head, so beyond K GPUs the heads are replicated
    (Llama-3.1-70B, K = 8, tp 16: split 8 ways, every head on 2 GPUs).
    Source: vLLM ``QKVParallelLinear``; DeepSeek-V2 (arXiv 2405.04434) §2.1.
    """
    return 1 if arch.is_mla else min(int(tp), arch.n_kv_heads)


@dataclass(frozen=True)
class WeightSplit:
    """The stored parameters of an architecture by how tensor parallelism places them
    [parameters]: ``sharded`` ÷ tp, ``kv_proj`` ÷ min(tp, K), ``replicated`` on every GPU.
    sharded + kv_proj + replicated = total."""

    sharded: float
    kv_proj: float
    replicated: float

    @property
    def total(self) -> float:
        return self.sharded + self.kv_proj + self.replicated


def weight_split(arch: ModelArch) -> WeightSplit:
    """Split the stored parameters by placement (see the module docstring)   [parameters].

        replicated = norms + router + MLA down-projections (d·r_q + r_q + d·(r_kv + r) + r_kv)·L
        kv_proj    = 2·d·K·hd·L (+ 2·K·hd·L with QKV biases)     (GQA/MQA/MHA; 0 for MLA)
        sharded    = total − replicated − kv_proj

    A :func:`calc.arch.params_only` model has no breakdown: all N is sharded.
    Sources: Shoeybi et al. 2019 §3; vLLM ``ReplicatedLinear``, ``QKVParallelLinear``.
    """
    pc = param_counts(arch)
    if arch.is_params_only:
        return WeightSplit(pc.total, 0.0, 0.0)
    L, d = float(arch.n_layers), float(arch.d_model)
    replicated = pc.norms + pc.router
    kv = 0.0
    if arch.is_mla:
        q_down = d * arch.q_lora_rank + arch.q_lora_rank if arch.q_lora_rank > 0 else 0.0
        kv_down = d * (arch.kv_lora_rank + arch.qk_rope_head_dim) + arch.kv_lora_rank
        replicated += (q_down + kv_down) * L
    else:
        per = 2.0 * d * arch.n_kv_heads * arch.head_dim
        if arch.attention_bias in ("qkv", "all"):
            per += 2.0 * arch.n_kv_heads * arch.head_dim
        kv = per * L
    return WeightSplit(pc.total - replicated - kv, kv, replicated)


def params_per_gpu(arch: ModelArch, tp: int, params: Any = None):
    """Parameters one GPU of a ``tp`` group holds (or, given ``params``, of that many
    parameters of the model, e.g. the weights a decode step reads)   [parameters].

        per GPU = (P − kv_proj − replicated) / tp + kv_proj / min(tp, K) + replicated

    ``params`` defaults to the stored total; the K, V and replicated parts are always read,
    so they come off ``params`` before it is split.  Accepts arrays for ``params``.
    """
    ws = weight_split(arch)
    P = ws.total if params is None else np.asarray(params, dtype=float)
    t = float(tp)
    out = (P - ws.kv_proj - ws.replicated) / t + ws.kv_proj / kv_split(arch, tp) + ws.replicated
    return float(out) if np.ndim(out) == 0 else out


@dataclass(frozen=True)
class Placement:
    """What one GPU of the tensor-parallel group holds   [bytes; arrays when batch is].

    ``weight_bytes``: its share of every stored weight; ``kv_bytes``: its share of the
    batch's KV cache at ``context_len``; ``total_bytes`` = the two.  ``kv_split``: ways
    the cache splits (min(tp, K); MLA 1), ``kv_copies`` = tp / kv_split GPUs holding each
    KV head (or the latent).  Activations and the CUDA context: :data:`MEMORY_RESERVE`.
    """

    tp: int
    ep: int
    kv_split: int
    kv_copies: float
    weight_bytes: float
    kv_bytes: Any
    kv_bytes_per_seq: float      # per GPU, one sequence at context_len
    total_bytes: Any


def place(arch: ModelArch, tp: Any = 1, ep: Any = 1, bytes_per_param: Any = 2.0,
          kv_bytes_per_elem: Any = 2.0, context_len: Any = 0, batch: Any = 1) -> Placement:
    """Per-GPU memory of a model served on ``tp`` GPUs   [bytes].

        weights = params_per_gpu(arch, tp) · bytes_per_param
        KV      = batch · kv_cache_bytes_per_seq(arch, context_len, kv_bytes_per_elem) / kv_split

    Validated by :func:`check_tp`.  Accepts an array for batch.  E.g. DeepSeek-V3, FP8
    weights, 8 GPUs, batch 64 at 32768 tokens: 84 GB of weights + the whole latent cache
    64 · 32768 · 576 · 61 · 2 B = 147 GB on every GPU.
    """
    t, e = check_tp(arch, tp, ep)
    w = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    e_kv = v.number("kv_bytes_per_elem", kv_bytes_per_elem, "positive", "bytes")
    c = v.number("context_len", context_len, "non_negative", "tokens")
    B = v.number("batch", batch, "positive", "sequences")
    if not isinstance(w, float) or not isinstance(e_kv, float) or not isinstance(c, float):
        raise ValueError("bytes_per_param, kv_bytes_per_elem and context_len must be single numbers")
    split = kv_split(arch, t)
    per_seq = float(kv_cache_bytes_per_seq(arch, c, e_kv)) / split
    weights = params_per_gpu(arch, t) * w
    kv = v.finish(np.multiply(B, per_seq), B)
    total = v.finish(np.add(weights, kv), B)
    return Placement(tp=t, ep=e, kv_split=split, kv_copies=t / split, weight_bytes=weights,
                     kv_bytes=kv, kv_bytes_per_seq=per_seq, total_bytes=total)


@dataclass(frozen=True)
class MemoryFit:
    """The one memory-fit rule's answer   [bytes; arrays when needed_bytes is an array].

    ``needed_bytes`` against ``capacity_bytes`` (one GPU) less ``reserve_bytes``
    (= capacity × reserve_fraction); ``usable_bytes`` = capacity − reserve;
    ``fits`` = needed ≤ usable; ``headroom_bytes`` = usable − needed (< 0: short by that
    much); ``verdict`` "fits", "tight" (needed ≤ capacity: it eats into the reserve) or
    "no" (more than the GPU has).
    """

    needed_bytes: Any
    capacity_bytes: float
    reserve_fraction: float
    reserve_bytes: float
    usable_bytes: float
    fits: Any
    headroom_bytes: Any
    verdict: Any

    @property
    def holds(self) -> Any:
        """needed ≤ the whole memory (fits or tight): the GPU can hold it at all."""
        return np.asarray(self.needed_bytes) <= self.capacity_bytes if not isinstance(
            self.needed_bytes, float) else self.needed_bytes <= self.capacity_bytes

    @property
    def share(self) -> Any:
        """needed / capacity   [fraction]."""
        return np.divide(self.needed_bytes, self.capacity_bytes)


def memory_fit(needed_bytes: Any, memory_bytes: Optional[float],
               reserve_fraction: float = MEMORY_RESERVE) -> Optional[MemoryFit]:
    """Whether ``needed_bytes`` fit in ``memory_bytes`` with the reserve kept free.

        usable = memory · (1 − reserve);  fits = needed ≤ usable;  headroom = usable − needed

    One GPU's need against one GPU's memory (the placement says what each GPU holds).
    ``memory_bytes`` None (a custom device without memory) gives None.  Accepts an array
    for needed_bytes.  E.g. Llama-2-7B bf16 + 32 × 4096 tokens of cache = 82.2 GB on an
    A100 80GB (85.9 GB, usable 77.3 GB): "tight".  Source: :data:`MEMORY_RESERVE`.
    """
    if memory_bytes is None:
        return None
    n = v.number("needed_bytes", needed_bytes, "non_negative", "bytes")
    cap = v.number("memory_bytes", memory_bytes, "positive", "bytes")
    r = v.number("reserve_fraction", reserve_fraction, "non_negative")
    if not isinstance(cap, float) or not isinstance(r, float) or r >= 1:
        raise ValueError(f"memory_bytes and reserve_fraction (in [0, 1)) must be single numbers, "
                         f"got {memory_bytes!r}, {reserve_fraction!r}")
    reserve = cap * r
    usable = cap - reserve
    if isinstance(n, float):
        verdict = "fits" if n <= usable else ("tight" if n <= cap else "no")
        return MemoryFit(n, cap, r, reserve, usable, n <= usable, usable - n, verdict)
    arr = np.asarray(n)
    verdict = np.where(arr <= usable, "fits", np.where(arr <= cap, "tight", "no"))
    return MemoryFit(arr, cap, r, reserve, usable, arr <= usable, usable - arr, verdict)
