"""Model architectures: the catalog ``models.toml``, pasted Hugging Face ``config.json``
files, and everything computed from an architecture (no streamlit, numpy only).

A bare parameter count N is the seed's lesson and stays available ("Custom:
parameters only" in the UI).  The models people plan with are mixtures of experts,
use grouped-query or latent attention, and have attention widths that differ from
``d_model``; with N alone the MFU, the memory fit and the decode speed are wrong.
This module turns an architecture into the numbers the pages need.

Public API (stable; add, never rename)
--------------------------------------
Data
    ``ModelArch``            one architecture (frozen dataclass, plain counts)
    ``ParamCounts``          parameters term by term (``param_counts``)
    ``FlopsPerToken``        training FLOP per token: matmul + attention, model vs hardware
    ``TrainingMemory``       bytes per GPU: weights, grads, optimizer, activations
    ``DecodeStep``           bytes, FLOP, seconds of one decode step
    ``ModelFileError``       models.toml is malformed (names file, model id, field)
    ``ModelConfigError``     a pasted config.json cannot be read (names the key)
    ``DEFAULT_MODELS_PATH``, ``RECOMPUTE_MODES``, ``ZERO_STAGES``, ``SUPPORTED_HF_TYPES``,
    ``OPTIMIZER_BYTES_PER_PARAM``
Loading
    ``load_models(path=None) -> dict[id, ModelArch]``   read + validate models.toml
    ``from_hf_config(config, id=..., name=...) -> ModelArch``   parse a config.json
    ``arch_to_dict(arch)`` / ``arch_from_dict(d)``      round trip (URLs, tests)
    ``encode_arch(arch) -> str`` / ``decode_arch(token)``  compact URL token (zlib + base64url)
Parameters and attention
    ``param_counts(arch)``         total / active / by term (embeddings stated)
    ``attention_width(arch)``      heads × head dim (query-key and value widths)
    ``keys_per_query(seq_len, window, causal)``   mean attended keys (vectorized)
    ``attention_flops_per_token(arch, seq_len, causal)``   forward attention FLOP/token
Training
    ``flops_per_token(arch, seq_len, causal=True, recompute="none")``   FlopsPerToken
    ``recompute_flops_per_token(n_params, attention_forward, recompute)``  the same from N alone
    ``training_memory(arch, ...)``  TrainingMemory (ZeRO / FSDP, Korthikanti activations)
    ``activation_bytes_per_layer(seq_len, micro_batch, d_model, n_heads, recompute, ...)``
Inference
    ``kv_bytes_per_token(arch, bytes_per_elem)``       KV bytes per token of context (GQA/MQA/MLA)
    ``kv_cache_bytes_per_seq(arch, context_len, bytes_per_elem)``  sliding windows capped
    ``expected_distinct_experts(n_experts, experts_per_token, batch)``  uniform routing
    ``decode_weight_bytes(arch, batch, bytes_per_param)``  weights one decode step reads
    ``decode_step(arch, batch, context_len, bytes_per_param, kv_bytes_per_elem, peak_flops, mem_bw)``
    ``decode_critical_batch(arch, context_len, bytes_per_param, kv_bytes_per_elem, peak_flops, mem_bw)``
    ``prefill_flops(arch, prompt_len)``    forward FLOP of a prompt (attention included)
    ``prefill_seconds(arch, prompt_len, bytes_per_param, peak_flops, mem_bw)``  TTFT bound
    ``prefill_flops_params(n_params, prompt_len)``  2·N·P for "Custom: parameters only"
    ``time_to_first_token(prefill_flops, weight_bytes, peak_flops, mem_bw)``  max of the two
    ``tp_allreduce_seconds_per_token(arch, batch, tp, link_bw, bytes_per_elem)``

Which parameters count (everywhere in the app)
----------------------------------------------
* **total** = every stored weight (embeddings, all experts, norms, biases): what memory holds.
* **active** = weights one token multiplies by: everything except the input embedding
  table (a lookup, no FLOP), learned position tables, and the routed experts the token
  is *not* sent to.  The output projection (LM head) counts, tied or not.  This is the
  convention of DeepSeek-V3 (36.6B "activated") and gpt-oss (5.1B / 3.6B active);
  Mistral and Qwen publish active counts *with* the input embedding
  (``ParamCounts.active_with_embedding``).  FLOP per token use ``active``.

Units: parameter and token counts are plain numbers, bytes, FLOP, seconds, FLOP/s,
bytes/s.  Sources are cited per function.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, Mapping, Optional

import numpy as np

from . import _validate as v
from ._toml import locate_toml_error

__all__ = [
    "DEFAULT_MODELS_PATH",
    "RECOMPUTE_MODES",
    "ZERO_STAGES",
    "SUPPORTED_HF_TYPES",
    "OPTIMIZER_BYTES_PER_PARAM",
    "ModelArch",
    "ParamCounts",
    "FlopsPerToken",
    "TrainingMemory",
    "DecodeStep",
    "ModelFileError",
    "ModelConfigError",
    "load_models",
    "from_hf_config",
    "arch_to_dict",
    "arch_from_dict",
    "param_counts",
    "attention_width",
    "keys_per_query",
    "attention_flops_per_token",
    "flops_per_token",
    "recompute_flops_per_token",
    "encode_arch",
    "decode_arch",
    "decode_critical_batch",
    "activation_bytes_per_layer",
    "training_memory",
    "kv_bytes_per_token",
    "kv_cache_bytes_per_seq",
    "expected_distinct_experts",
    "decode_weight_bytes",
    "decode_step",
    "prefill_flops",
    "prefill_seconds",
    "prefill_flops_params",
    "time_to_first_token",
    "tp_allreduce_seconds_per_token",
]

DEFAULT_MODELS_PATH = Path(__file__).resolve().parent.parent / "models.toml"
"""The repository's models.toml, found relative to this package."""

RECOMPUTE_MODES = ("none", "selective", "full")
"""Activation recomputation: none; selective (core attention recomputed, Korthikanti
et al. 2022); full (every layer's forward pass recomputed in the backward pass)."""

ZERO_STAGES = (0, 1, 2, 3)
"""ZeRO stages (Rajbhandari et al. 2020): 0 plain data parallel, 1 optimizer states
sharded, 2 + gradients, 3 + weights (= PyTorch FSDP FULL_SHARD)."""

OPTIMIZER_BYTES_PER_PARAM = {
    "adam-mixed": 12.0,   # fp32 master weights + fp32 m + fp32 v (Rajbhandari et al. 2020, §3.1)
    "adam-fp32": 8.0,     # fp32 m + v (weights already fp32)
    "adam-8bit": 2.0,     # 8-bit m + v (Dettmers et al. 2022), no master copy
    "sgd-momentum": 4.0,  # one fp32 momentum buffer
}
"""Optimizer state bytes per parameter (what ZeRO stage 1 shards)."""

FFN_KINDS = ("gated", "plain")
NORMS = ("rmsnorm", "layernorm", "layernorm-nobias")
ATTENTION_BIAS = ("none", "qkv", "all")
SLIDING_PATTERNS = ("all", "even", "odd")

_ID = re.compile(r"^[a-z0-9]+(?:[.\-][a-z0-9]+)*$")


class ModelFileError(ValueError):
    """models.toml is malformed; the message names the file, the model id and the field."""


class ModelConfigError(ValueError):
    """A pasted config.json cannot be turned into an architecture; names the key."""


@dataclass(frozen=True)
class ModelArch:
    """A decoder-only transformer architecture (plain counts, no units).

    Attention: ``n_heads`` query heads of ``head_dim``; ``n_kv_heads`` key/value heads
    (= n_heads: MHA, 1: MQA, between: GQA).  The attention width heads × head_dim may
    differ from d_model (PaLM 540B: 48 × 256 = 12288 vs 18432; Gemma 2 9B: 4096 vs 3584).
    MLA (DeepSeek): ``kv_lora_rank`` > 0; queries/keys have qk_nope + qk_rope dims,
    values v_head_dim; the cache holds kv_lora_rank + qk_rope_head_dim per layer.
    FFN: ``ffn_kind`` "gated" (SwiGLU/GeGLU: 3 matrices) or "plain" (2 matrices).
    MoE: ``n_experts`` routed experts (0 = dense) of ``expert_ffn_size``, ``experts_per_token``
    chosen per token, ``n_shared_experts`` always on; ``dense_layers`` (0-based) keep a
    dense FFN of ``ffn_size``.  Sliding window: ``sliding_window`` tokens (0 = none) on
    ``sliding_layers`` ("all", "even", "odd" or a tuple of layer indices).
    """

    id: str
    name: str
    source: str
    n_layers: int
    d_model: int
    n_heads: int
    n_kv_heads: int
    head_dim: int
    ffn_size: int
    vocab_size: int
    ffn_kind: str = "gated"
    tied_embeddings: bool = False
    norm: str = "rmsnorm"
    norms_per_layer: int = 2
    attention_bias: str = "none"
    mlp_bias: bool = False
    qk_norm: bool = False
    learned_positions: int = 0
    context_length: int = 0
    # mixture of experts
    n_experts: int = 0
    experts_per_token: int = 0
    n_shared_experts: int = 0
    expert_ffn_size: int = 0
    shared_expert_ffn_size: int = 0
    dense_layers: tuple[int, ...] = ()
    # attention variants
    sliding_window: int = 0
    sliding_layers: Any = "all"
    q_lora_rank: int = 0
    kv_lora_rank: int = 0
    qk_nope_head_dim: int = 0
    qk_rope_head_dim: int = 0
    v_head_dim: int = 0
    # what the publisher says (for display and tests)
    family: str = ""
    notes: str = ""
    published_params_b: float = 0.0
    published_active_b: float = 0.0
    published_active_includes_embedding: bool = False

    @property
    def is_moe(self) -> bool:
        return self.n_experts > 0

    @property
    def is_mla(self) -> bool:
        return self.kv_lora_rank > 0

    @property
    def moe_layer_indices(self) -> tuple[int, ...]:
        if not self.is_moe:
            return ()
        dense = set(self.dense_layers)
        return tuple(i for i in range(self.n_layers) if i not in dense)

    @property
    def n_moe_layers(self) -> int:
        return len(self.moe_layer_indices)

    @property
    def n_dense_ffn_layers(self) -> int:
        return self.n_layers - self.n_moe_layers

    def layer_window(self, layer: int) -> int:
        """Sliding window of layer ``layer`` (0 = full attention)."""
        if self.sliding_window <= 0:
            return 0
        pat = self.sliding_layers
        if pat == "all":
            return self.sliding_window
        if pat == "even":
            return self.sliding_window if layer % 2 == 0 else 0
        if pat == "odd":
            return self.sliding_window if layer % 2 == 1 else 0
        return self.sliding_window if layer in tuple(pat) else 0

    @property
    def windows(self) -> tuple[int, ...]:
        """Per-layer sliding windows (0 = full attention), layer 0 first."""
        return tuple(self.layer_window(i) for i in range(self.n_layers))

    @property
    def n_sliding_layers(self) -> int:
        return sum(1 for w in self.windows if w > 0)


@dataclass(frozen=True)
class ParamCounts:
    """Parameters term by term (counts).  total = sum of the stored terms;
    active = what one token multiplies by (see the module docstring)."""

    embedding: float        # input table V·d
    lm_head: float          # output projection V·d when untied (0 when tied: it is the embedding)
    positions: float        # learned position table (GPT-3)
    attention: float        # all layers: Q, K, V, O (+ MLA down/up projections, biases, qk norms)
    dense_ffn: float        # dense FFN layers
    routed_experts: float   # all routed experts of all MoE layers
    shared_experts: float   # shared experts of all MoE layers
    router: float           # router (gate) matrices
    norms: float            # layer norms incl. the final one
    total: float
    active: float
    active_routed: float    # routed-expert weights one token uses (experts_per_token of them)
    expert: float           # one routed expert (3·d·f gated)

    @property
    def active_with_embedding(self) -> float:
        """Active parameters counting the input embedding too (Mistral/Qwen convention)."""
        return self.active + (self.embedding if self.lm_head > 0 else 0.0)

    @property
    def non_embedding(self) -> float:
        """Total minus embedding, LM head and position tables (Kaplan et al. 2020's N)."""
        head = self.lm_head if self.lm_head > 0 else 0.0
        return self.total - self.embedding - head - self.positions


@dataclass(frozen=True)
class FlopsPerToken:
    """Training FLOP per token.  ``model`` counts forward + backward once (MFU);
    ``hardware`` adds what recomputation re-runs (HFU).  Attention terms are included."""

    matmul: float            # 6 · active parameters
    attention: float         # 3 · forward attention (QKᵀ and AV)
    model: float             # matmul + attention                              (MFU numerator)
    hardware: float          # + recomputed forward work                       (HFU numerator)
    recompute: str
    attention_forward: float  # forward attention FLOP per token
    active_params: float

    @property
    def attention_share(self) -> float:
        return self.attention / self.model


@dataclass(frozen=True)
class TrainingMemory:
    """Bytes per GPU of a training run."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    total: float
    activations_per_layer: float
    layers_per_gpu: float

    @property
    def states(self) -> float:
        return self.weights + self.gradients + self.optimizer


@dataclass(frozen=True)
class DecodeStep:
    """One decoding step of ``batch`` sequences (arrays when batch is an array)."""

    weight_bytes: Any      # weights read (dense + distinct routed experts)
    kv_bytes: Any          # KV cache read, whole batch
    bytes: Any             # weight_bytes + kv_bytes
    flops: Any             # 2·active·batch + attention over the context
    seconds: Any           # max(bytes / mem_bw, flops / peak)
    tokens_per_sec: Any    # batch / seconds
    memory_bound: Any      # bytes / mem_bw >= flops / peak


# --------------------------------------------------------------------------------------
# Parameter counts
# --------------------------------------------------------------------------------------

def _ffn_params(d: float, f: float, kind: str, bias: bool) -> float:
    mats = 3.0 if kind == "gated" else 2.0
    out = mats * d * f
    if bias:
        out += (2.0 * f if kind == "gated" else f) + d
    return out


def _attention_params_per_layer(a: ModelArch) -> float:
    d, h = float(a.d_model), float(a.n_heads)
    if a.is_mla:
        qk = float(a.qk_nope_head_dim + a.qk_rope_head_dim)
        if a.q_lora_rank > 0:
            q = d * a.q_lora_rank + a.q_lora_rank + a.q_lora_rank * h * qk   # down, norm, up
        else:
            q = d * h * qk
        kv = (d * (a.kv_lora_rank + a.qk_rope_head_dim) + a.kv_lora_rank
              + a.kv_lora_rank * h * (a.qk_nope_head_dim + a.v_head_dim))
        o = h * a.v_head_dim * d
        return q + kv + o
    hd, kv = float(a.head_dim), float(a.n_kv_heads)
    out = d * h * hd + 2.0 * d * kv * hd + h * hd * d
    if a.attention_bias in ("qkv", "all"):
        out += h * hd + 2.0 * kv * hd
    if a.attention_bias == "all":
        out += d
    if a.qk_norm:
        out += 2.0 * hd
    return out


def param_counts(arch: ModelArch) -> ParamCounts:
    """Parameters of ``arch``, term by term   [counts].

        attention / layer  = d·H·hd (Q) + 2·d·K·hd (K, V) + H·hd·d (O)   [+ biases, qk-norms]
                   MLA:     d·r_q + r_q + r_q·H·(n+r)  +  d·(r_kv + r) + r_kv + r_kv·H·(n + v)  +  H·v·d
        FFN               = 3·d·f (gated: gate, up, down) or 2·d·f (plain)   [+ biases]
        MoE layer         = E·FFN(d, f_e) + S·FFN(d, f_s) + E·d (router)
        norms             = norms_per_layer·L·d (+ the final norm; × 2 with LayerNorm bias)
        embedding         = V·d; LM head V·d more when untied; learned positions P·d
        total             = sum of the above
        active            = total − embedding − positions − (E − k)·FFN(d, f_e)·L_moe
                            (+ V·d for the LM head when tied: the table is multiplied by)

    H heads, K KV heads, hd head dim, d d_model, f FFN size, E experts, k per token,
    S shared, L layers.  Checked against published totals in tests (within 1 %).
    Sources: Vaswani et al. 2017; Shazeer 2020 (GLU); the models' config.json files and
    modelling code in Hugging Face transformers; DeepSeek-V3 report (arXiv 2412.19437).
    """
    a = arch
    d, L, V = float(a.d_model), float(a.n_layers), float(a.vocab_size)
    attention = _attention_params_per_layer(a) * L
    dense_ffn = _ffn_params(d, a.ffn_size, a.ffn_kind, a.mlp_bias) * a.n_dense_ffn_layers
    expert = _ffn_params(d, a.expert_ffn_size, a.ffn_kind, a.mlp_bias) if a.is_moe else 0.0
    shared_size = a.shared_expert_ffn_size or a.expert_ffn_size
    shared_one = _ffn_params(d, shared_size, a.ffn_kind, a.mlp_bias) if a.n_shared_experts else 0.0
    n_moe = float(a.n_moe_layers)
    routed = expert * a.n_experts * n_moe
    shared = shared_one * a.n_shared_experts * n_moe
    router = (a.n_experts * d + (a.n_experts if a.mlp_bias else 0.0)) * n_moe if a.is_moe else 0.0
    norm_w = 2.0 if a.norm == "layernorm" else 1.0
    norms = norm_w * d * (a.norms_per_layer * L + 1.0)
    embedding = V * d
    lm_head = 0.0 if a.tied_embeddings else V * d
    positions = float(a.learned_positions) * d
    total = attention + dense_ffn + routed + shared + router + norms + embedding + lm_head + positions
    active_routed = expert * a.experts_per_token * n_moe
    active = attention + dense_ffn + active_routed + shared + router + norms + V * d
    return ParamCounts(embedding=embedding, lm_head=lm_head, positions=positions,
                       attention=attention, dense_ffn=dense_ffn, routed_experts=routed,
                       shared_experts=shared, router=router, norms=norms, total=total,
                       active=active, active_routed=active_routed, expert=expert)


def attention_width(arch: ModelArch, mla_absorbed: bool = False) -> tuple[int, int]:
    """(query-key width, value width) = (H·d_qk, H·d_v)   [elements].

    Standard attention: both heads × head_dim (PaLM App. B's "H·Q"), which may differ
    from d_model.  MLA: H·(qk_nope + qk_rope) and H·v_head_dim; with ``mla_absorbed``
    (inference: the K/V up-projections folded into the query and output, DeepSeek-V2 §2.1)
    each head attends over the cached latent: H·(kv_lora_rank + qk_rope) and H·kv_lora_rank.
    """
    if arch.is_mla and mla_absorbed:
        return (arch.n_heads * (arch.kv_lora_rank + arch.qk_rope_head_dim),
                arch.n_heads * arch.kv_lora_rank)
    if arch.is_mla:
        return (arch.n_heads * (arch.qk_nope_head_dim + arch.qk_rope_head_dim),
                arch.n_heads * arch.v_head_dim)
    w = arch.n_heads * arch.head_dim
    return w, w


# --------------------------------------------------------------------------------------
# Attention FLOPs
# --------------------------------------------------------------------------------------

def keys_per_query(seq_len: Any, window: Any = 0, causal: bool = True):
    """Mean number of keys a query attends to in a sequence of ``seq_len`` tokens  [tokens].

        non-causal:          s            (window w > 0: min(s, w))
        causal, full:        s / 2
        causal, window w:    s / 2                when s <= w
                             w − w² / (2·s)       when s > w   (mean of min(i, w), continuous)

    The causal s/2 is the halving FlashAttention's causal kernels exploit (the convention
    of calc.mfu's causal attention term).  Accepts arrays for seq_len.
    Sources: PaLM (Chowdhery et al. 2022) App. B; Mistral 7B (Jiang et al. 2023) for
    sliding-window attention.
    """
    s = v.number("seq_len", seq_len, "non_negative", "tokens")
    w = v.number("window", window, "non_negative", "tokens")
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    sa = np.asarray(s, dtype=float)
    if not causal:
        out = sa if w == 0 else np.minimum(sa, w)
    elif w == 0:
        out = sa / 2.0
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(sa <= w, sa / 2.0, w - w * w / (2.0 * np.where(sa > 0, sa, 1.0)))
    return v.finish(out, s, w)


def attention_flops_per_token(arch: ModelArch, seq_len: Any, causal: bool = True,
                              mla_absorbed: bool = False):
    """Forward attention FLOP per token (the s-dependent part 6N leaves out)  [FLOP/token].

        Σ_layers 2 · keys_l · (H·d_qk + H·d_v)      (QKᵀ and attention·V, 2 FLOP per MAC)

    keys_l = :func:`keys_per_query` (s, window of layer l, causal).  For standard
    attention and no window this is 4·L·H·hd·s (non-causal): times 3 for training gives
    PaLM's 12·L·H·Q·T.  ``mla_absorbed``: MLA widths of the absorbed (inference) form, see
    :func:`attention_width`; training uses the plain form.  Accepts arrays for seq_len.
    Source: PaLM (2022) App. B; DeepSeek-V2 (2024) §2.1.
    """
    wqk, wv = attention_width(arch, mla_absorbed)
    s = v.number("seq_len", seq_len, "non_negative", "tokens")
    total = 0.0
    counts: dict[int, int] = {}
    for w in arch.windows:
        counts[w] = counts.get(w, 0) + 1
    for w, n in counts.items():
        total = total + n * 2.0 * np.asarray(keys_per_query(s, w, causal)) * (wqk + wv)
    return v.finish(total, s)


def recompute_flops_per_token(n_params: float, attention_forward: float,
                              recompute: str = "none") -> FlopsPerToken:
    """Training FLOP per token from active parameters and forward attention FLOP.

        model    = 6·N + 3·A                 (forward 1×, backward 2×)
        hardware = model                     recompute "none"
                 = 6·N + 4·A                 "selective" (core attention re-run, Korthikanti 2022)
                 = 8·N + 4·A                 "full" (one more forward pass)

    N active parameters, A forward attention FLOP per token.  MFU uses ``model``
    (PaLM's definition: recomputation is not useful work); HFU uses ``hardware``.
    MosaicML's llm-foundry counts HFU with activation checkpointing as 4/3 of both terms
    (= "full").  Sources: PaLM (2022) App. B; Korthikanti et al. 2022 §4-5.
    """
    if recompute not in RECOMPUTE_MODES:
        raise ValueError(f"recompute must be one of {', '.join(RECOMPUTE_MODES)}, got {recompute!r}")
    n = v.number("n_params", n_params, "positive", "parameters")
    a = v.number("attention_forward", attention_forward, "non_negative", "FLOP/token")
    if not isinstance(n, float) or not isinstance(a, float):
        raise ValueError("n_params and attention_forward must be single numbers")
    matmul = 6.0 * n
    attention = 3.0 * a
    model = matmul + attention
    if recompute == "none":
        hw = model
    elif recompute == "selective":
        hw = matmul + 4.0 * a
    else:
        hw = 8.0 * n + 4.0 * a
    return FlopsPerToken(matmul=matmul, attention=attention, model=model, hardware=hw,
                         recompute=recompute, attention_forward=a, active_params=n)


def flops_per_token(arch: ModelArch, seq_len: Any, causal: bool = True,
                    recompute: str = "none") -> FlopsPerToken:
    """Training FLOP per token of ``arch`` with the attention term, for MFU and HFU  [FLOP/token].

        model    = 6·N_active + 3·A(s)       hardware: see :func:`recompute_flops_per_token`

    A = :func:`attention_flops_per_token` (forward, attention width heads × head_dim,
    causal or not, sliding windows capped).  Scalar seq_len.
    Sources: PaLM (2022) App. B; Korthikanti et al. 2022; Narayanan et al. 2021.
    """
    if recompute not in RECOMPUTE_MODES:
        raise ValueError(f"recompute must be one of {', '.join(RECOMPUTE_MODES)}, got {recompute!r}")
    s = v.number("seq_len", seq_len, "non_negative", "tokens")
    if not isinstance(s, float):
        raise ValueError("seq_len must be a single number")
    attn_fwd = float(attention_flops_per_token(arch, s, causal))
    return recompute_flops_per_token(param_counts(arch).active, attn_fwd, recompute)


# --------------------------------------------------------------------------------------
# Training memory
# --------------------------------------------------------------------------------------

def activation_bytes_per_layer(seq_len: Any, micro_batch: Any, d_model: Any, n_heads: Any,
                               recompute: str = "none", tensor_parallel: Any = 1,
                               sequence_parallel: bool = True, flash_attention: bool = False):
    """Activation memory of one transformer layer for one micro-batch   [bytes].

        none:       s·b·h·(34 + 5·a·s/h) / t
        selective:  s·b·h·34 / t                  (core attention recomputed)
        full:       2·s·b·h                       (only the layer input is kept, 16-bit)

    s sequence length, b micro-batch, h hidden size (d_model), a heads, t tensor-parallel
    size (with sequence parallelism; without it, the 10·s·b·h of the norms and dropouts
    is not divided: s·b·h·(10 + 24/t + 5·a·s/(h·t))).  16-bit activations, 1-byte
    dropout masks.  Assumes the paper's GPT layer (FFN 4h, MHA); a gated FFN or GQA
    changes the constant by a few percent.  ``flash_attention=True``: the s×s scores and
    softmax are never stored (FlashAttention recomputes them in its backward pass), so
    "none" keeps 34·s·b·h/t like "selective".  Accepts arrays.
    Sources: Korthikanti et al. 2022, Table 2 and eq. (1)-(2); Dao et al. 2022 (FlashAttention).
    """
    if recompute not in RECOMPUTE_MODES:
        raise ValueError(f"recompute must be one of {', '.join(RECOMPUTE_MODES)}, got {recompute!r}")
    s = v.number("seq_len", seq_len, "positive", "tokens")
    b = v.number("micro_batch", micro_batch, "positive", "sequences")
    h = v.number("d_model", d_model, "positive", "hidden size")
    a = v.number("n_heads", n_heads, "positive", "heads")
    t = v.number("tensor_parallel", tensor_parallel, "positive", "GPUs")
    sbh = np.multiply(np.multiply(s, b), h)
    if recompute == "full":
        out = 2.0 * sbh
    else:
        attn = 0.0 if (recompute == "selective" or flash_attention) else 5.0 * np.multiply(a, s) / h
        if sequence_parallel:
            out = sbh * (34.0 + attn) / t
        else:
            out = sbh * (10.0 + 24.0 / t + np.divide(attn, t))
    return v.finish(out, s, b, h, a, t)


def training_memory(arch: ModelArch, *, seq_len: float, micro_batch: float, dp: float,
                    zero_stage: int = 0, recompute: str = "none", tp: float = 1, pp: float = 1,
                    weight_bytes: float = 2.0, grad_bytes: float = 2.0,
                    optimizer: str = "adam-mixed", flash_attention: bool = False) -> TrainingMemory:
    """Training memory per GPU   [bytes].

        weights    = N·w / (t·p)          / dp when ZeRO-3 (FSDP FULL_SHARD)
        gradients  = N·g / (t·p)          / dp when ZeRO ≥ 2
        optimizer  = N·o / (t·p)          / dp when ZeRO ≥ 1     (o = 12 for Adam mixed precision)
        activations = L/p · activation_bytes_per_layer(s, b, d, H, recompute, t, flash_attention)

    N total parameters (all experts: every GPU of the data-parallel group holds them;
    expert parallelism is not modelled), w/g bytes per weight/gradient (2 for bf16),
    dp data-parallel GPUs, t tensor-, p pipeline-parallel size.  Ignores the CUDA context,
    fragmentation, temporary buffers and the logits (~ s·b·V·4 bytes).
    Sources: Rajbhandari et al., "ZeRO" (2020) §3 and §5; Korthikanti et al. 2022.
    """
    if zero_stage not in ZERO_STAGES:
        raise ValueError(f"zero_stage must be one of 0, 1, 2, 3, got {zero_stage!r}")
    if optimizer not in OPTIMIZER_BYTES_PER_PARAM:
        raise ValueError(f"optimizer must be one of {', '.join(OPTIMIZER_BYTES_PER_PARAM)}, got {optimizer!r}")
    dp_ = v.number("dp", dp, "positive", "GPUs")
    tp_ = v.number("tp", tp, "positive", "GPUs")
    pp_ = v.number("pp", pp, "positive", "GPUs")
    wb = v.number("weight_bytes", weight_bytes, "positive", "bytes")
    gb = v.number("grad_bytes", grad_bytes, "positive", "bytes")
    n_per_gpu = param_counts(arch).total / (tp_ * pp_)
    weights = n_per_gpu * wb / (dp_ if zero_stage >= 3 else 1.0)
    grads = n_per_gpu * gb / (dp_ if zero_stage >= 2 else 1.0)
    opt = n_per_gpu * OPTIMIZER_BYTES_PER_PARAM[optimizer] / (dp_ if zero_stage >= 1 else 1.0)
    per_layer = float(activation_bytes_per_layer(seq_len, micro_batch, arch.d_model, arch.n_heads,
                                                 recompute, tp_, flash_attention=flash_attention))
    layers = arch.n_layers / pp_
    acts = per_layer * layers
    return TrainingMemory(weights=weights, gradients=grads, optimizer=opt, activations=acts,
                          total=weights + grads + opt + acts, activations_per_layer=per_layer,
                          layers_per_gpu=layers)


# --------------------------------------------------------------------------------------
# KV cache, MoE routing, decode and prefill
# --------------------------------------------------------------------------------------

def _kv_elems_per_layer(arch: ModelArch) -> float:
    if arch.is_mla:
        return float(arch.kv_lora_rank + arch.qk_rope_head_dim)
    return 2.0 * arch.n_kv_heads * arch.head_dim


def kv_bytes_per_token(arch: ModelArch, bytes_per_elem: Any = 2.0):
    """KV-cache bytes per token of context, all layers   [bytes/token].

        GQA/MQA/MHA:  2 · K · hd · L · e        (K and V for K KV heads)
        MLA:          (r_kv + r_rope) · L · e   (compressed latent + decoupled RoPE key)

    e bytes per element.  Sliding-window layers stop growing at their window: use
    :func:`kv_cache_bytes_per_seq` for a given context.  Sources: Pope et al. 2022;
    Ainslie et al. 2023 (GQA); DeepSeek-V2 report (arXiv 2405.04434) §2.1 (MLA).
    """
    e = v.number("bytes_per_elem", bytes_per_elem, "positive", "bytes")
    return v.finish(np.multiply(_kv_elems_per_layer(arch) * arch.n_layers, e), e)


def kv_cache_bytes_per_seq(arch: ModelArch, context_len: Any, bytes_per_elem: Any = 2.0):
    """KV-cache bytes of one sequence with ``context_len`` tokens   [bytes].

        Σ_layers elems_l · min(c, w_l) · e      (w_l = window of layer l, ∞ when full)

    Accepts arrays for context_len.  Source: Mistral 7B (2023) rolling buffer cache.
    """
    c = v.number("context_len", context_len, "non_negative", "tokens")
    e = v.number("bytes_per_elem", bytes_per_elem, "positive", "bytes")
    per = _kv_elems_per_layer(arch)
    ca = np.asarray(c, dtype=float)
    out = 0.0
    for w in arch.windows:
        out = out + per * (ca if w == 0 else np.minimum(ca, w))
    return v.finish(np.multiply(out, e), c, e)


def expected_distinct_experts(n_experts: Any, experts_per_token: Any, batch: Any):
    """Expected number of distinct routed experts a batch of tokens uses in one MoE layer.

        E · (1 − (1 − k/E)^B)

    Assumption: uniform, independent routing -- each of the B tokens picks k of the E
    experts uniformly, so one expert is missed by a token with probability 1 − k/E.
    Real routers are skewed, which touches fewer experts.  B = 1 gives k; large B → E.
    Accepts arrays for batch.  Source: occupancy (balls in bins) argument, e.g.
    Feller, An Introduction to Probability Theory, vol. 1, ch. IV.
    """
    E = v.number("n_experts", n_experts, "positive", "experts")
    k = v.number("experts_per_token", experts_per_token, "positive", "experts")
    B = v.number("batch", batch, "positive", "tokens")
    if not isinstance(E, float) or not isinstance(k, float) or k > E:
        raise ValueError(f"experts_per_token must be a single number <= n_experts, got {experts_per_token!r}")
    return v.finish(E * (1.0 - np.power(1.0 - k / E, B)), E, k, B)


def decode_weight_bytes(arch: ModelArch, batch: Any, bytes_per_param: Any):
    """Weight bytes one decode step reads for ``batch`` sequences   [bytes].

        (N_total − E_in − routed experts) · w  +  B·d · w  +  L_moe · D(B) · expert · w

    E_in = the input embedding table V·d when it is not tied to the LM head: the lookup
    is a gather of one row per token (B·d weights), not a read of the table (gpt-oss-20b:
    the 0.58 G-parameter table is 14 % of its weights). A tied table is read whole by the
    LM head and stays in. D(B) = :func:`expected_distinct_experts` (E, k, B): dense
    weights, shared experts, attention and the LM head are read once; of the routed
    experts only those the batch routes to. Dense, tied: N_total · w.
    Accepts arrays for batch.  Sources: seed chapter 04 (bytes / bandwidth); uniform
    routing; the per-operator model of :mod:`calc.model_ops` (same bytes).
    """
    B = v.number("batch", batch, "positive", "sequences")
    w = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    pc = param_counts(arch)
    gather = pc.embedding if pc.lm_head > 0 else 0.0      # untied: only the rows are read
    rows = np.multiply(B, float(arch.d_model)) if gather else 0.0
    read = pc.total - gather + rows
    if arch.is_moe:
        distinct = np.asarray(expected_distinct_experts(arch.n_experts, arch.experts_per_token, B))
        read = read - pc.routed_experts + arch.n_moe_layers * distinct * pc.expert
    return v.finish(np.multiply(read, w) * np.ones_like(np.asarray(B, dtype=float)), B, w)


def decode_step(arch: ModelArch, batch: Any, context_len: Any, bytes_per_param: Any,
                kv_bytes_per_elem: Any, peak_flops: Any, mem_bw: Any) -> DecodeStep:
    """One decode step for ``batch`` sequences at ``context_len`` tokens of context.

        bytes   = decode_weight_bytes(B) + B · kv_cache_bytes_per_seq(c)
        FLOP    = B · (2·N_active + attention_flops_per_token over c keys, non-causal)
        seconds = max(bytes / mem_bw, FLOP / peak_flops);   tokens/s = B / seconds

    The new token attends to all c cached keys (window-capped); MLA in its absorbed form
    (as serving engines and calc.model_ops count it).  Ignores kernel launch,
    communication and scheduling: a ceiling.  Accepts arrays for batch.
    Sources: seed chapter 04; Pope et al. 2022 §2.
    """
    B = v.number("batch", batch, "positive", "sequences")
    c = v.number("context_len", context_len, "non_negative", "tokens")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    if not isinstance(c, float):
        raise ValueError("context_len must be a single number")
    wbytes = np.asarray(decode_weight_bytes(arch, B, bytes_per_param))
    kv = np.multiply(B, float(kv_cache_bytes_per_seq(arch, c, kv_bytes_per_elem)))
    total = wbytes + kv
    per_token = 2.0 * param_counts(arch).active + float(
        attention_flops_per_token(arch, c, causal=False, mla_absorbed=True))
    flops = np.multiply(B, per_token)
    t_mem, t_cmp = total / bw, flops / p
    secs = np.maximum(t_mem, t_cmp)
    return DecodeStep(weight_bytes=v.finish(wbytes, B), kv_bytes=v.finish(kv, B),
                      bytes=v.finish(total, B), flops=v.finish(flops, B),
                      seconds=v.finish(secs, B), tokens_per_sec=v.finish(np.divide(B, secs), B),
                      memory_bound=(bool(t_mem >= t_cmp) if isinstance(B, float)
                                    else np.asarray(t_mem >= t_cmp)))


def decode_critical_batch(arch: ModelArch, context_len: Any, bytes_per_param: Any,
                          kv_bytes_per_elem: Any, peak_flops: Any, mem_bw: Any) -> float:
    """Batch at which a decode step turns compute-bound (the knee)   [sequences].

    The B where bytes(B) / mem_bw = FLOP(B) / peak_flops with :func:`decode_step`'s terms.
    Dense models without KV: B* = bytes_per_param·peak / (2·mem_bw) (calc.decode's
    critical_batch).  For MoE the weight read grows with the distinct experts the batch
    routes to, so B* moves right.  FLOP(B) is linear and bytes(B) concave in B, so there
    is one crossing; found by bisection on log B.  Returns ``inf`` when every sequence's
    KV read costs more time than its FLOP (never compute-bound).  Fractional.
    """
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")

    def gap(b: float) -> float:
        st_ = decode_step(arch, b, context_len, bytes_per_param, kv_bytes_per_elem, p, bw)
        return st_.flops / p - st_.bytes / bw

    lo, hi = 1e-6, 1e12
    if gap(hi) <= 0:
        return math.inf
    if gap(lo) >= 0:
        return lo
    llo, lhi = math.log(lo), math.log(hi)
    for _ in range(200):
        mid = 0.5 * (llo + lhi)
        if gap(math.exp(mid)) < 0:
            llo = mid
        else:
            lhi = mid
        if lhi - llo < 1e-12:
            break
    return math.exp(0.5 * (llo + lhi))


def prefill_flops(arch: ModelArch, prompt_len: Any):
    """Forward FLOP to process a prompt of ``prompt_len`` tokens   [FLOP].

        P · (2·(N_active − V·d) + A_causal(P))  +  2·V·d

    A_causal = :func:`attention_flops_per_token` (P, causal).  Logits are computed for
    the last position only (what serving engines do); every other weight sees all P
    tokens; MLA in its absorbed form (calc.model_ops).  Accepts arrays.  Sources: Kaplan et al. 2020 (2N per token forward);
    PaLM (2022) App. B; Pope et al. 2022.
    """
    P = v.number("prompt_len", prompt_len, "positive", "tokens")
    head = float(arch.vocab_size) * arch.d_model
    body = param_counts(arch).active - head
    attn = np.asarray(attention_flops_per_token(arch, P, causal=True, mla_absorbed=True))
    return v.finish(np.multiply(P, 2.0 * body + attn) + 2.0 * head, P)


def prefill_seconds(arch: ModelArch, prompt_len: Any, bytes_per_param: Any, peak_flops: Any,
                    mem_bw: Any):
    """Time-to-first-token bound of a prompt   [s].

        max(prefill_flops(P) / peak_flops,  weight bytes (batch = P tokens) / mem_bw)

    Compute-bound for long prompts; for short ones the weight read dominates.  The
    MoE weight read uses the experts P tokens route to.  Accepts arrays.
    """
    P = v.number("prompt_len", prompt_len, "positive", "tokens")
    return time_to_first_token(prefill_flops(arch, P), decode_weight_bytes(arch, P, bytes_per_param),
                               peak_flops, mem_bw)


def time_to_first_token(prefill_flops: Any, weight_bytes: Any, peak_flops: Any, mem_bw: Any):
    """Time-to-first-token bound = max(prefill_flops / peak_flops, weight_bytes / mem_bw)  [s].

    The prompt's forward pass is compute-bound for long prompts; for short ones one read of
    the weights takes longer.  Queueing, scheduling and the KV-cache write are not counted.
    Accepts arrays.  Source: Pope et al. 2022 (prefill vs decode).
    """
    f = v.number("prefill_flops", prefill_flops, "positive", "FLOP")
    wb = v.number("weight_bytes", weight_bytes, "positive", "bytes")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    if v.is_scalar(f, wb, p, bw):
        return max(f / p, wb / bw)
    return v.finish(np.maximum(np.divide(f, p), np.divide(wb, bw)), f, wb, p, bw)


def prefill_flops_params(n_params: Any, prompt_len: Any):
    """Forward FLOP of a prompt from the parameter count alone = 2·N·P   [FLOP].

    For "Custom: parameters only": no attention term (it needs the architecture; choose a
    model for it) and the LM head counted for every position.  Accepts arrays.
    Source: Kaplan et al. 2020 (2N FLOP per token forward).
    """
    N = v.number("n_params", n_params, "positive", "parameters")
    P = v.number("prompt_len", prompt_len, "positive", "tokens")
    return v.finish(np.multiply(2.0 * np.asarray(N), P), N, P)


def tp_allreduce_seconds_per_token(arch: ModelArch, batch: Any, tp: Any, link_bw: Any,
                                   bytes_per_elem: Any = 2.0):
    """Tensor-parallel all-reduce time per decode step   [s].

        2 all-reduces per layer (after attention and after the FFN), each of B·d·e bytes;
        ring all-reduce moves 2·(t−1)/t of it per GPU:
        time = L · 2 · 2·(t−1)/t · B·d·e / link_bw

    link_bw: per-GPU interconnect bandwidth in one direction (bytes/s; hardware.toml's
    interconnect figure is both directions: pass half).  t = 1 gives 0.  Ignores latency,
    which dominates at small B.  Accepts arrays.  Sources: Shoeybi et al., Megatron-LM
    (2019) §3; Patarasuk & Yuan 2009 (ring all-reduce).
    """
    B = v.number("batch", batch, "positive", "sequences")
    t = v.number("tp", tp, "positive", "GPUs")
    bw = v.number("link_bw", link_bw, "positive", "bytes/s")
    e = v.number("bytes_per_elem", bytes_per_elem, "positive", "bytes")
    vol = np.multiply(np.multiply(B, float(arch.d_model)), e)
    frac = 2.0 * (np.asarray(t) - 1.0) / np.asarray(t)
    return v.finish(arch.n_layers * 2.0 * frac * vol / bw, B, t, bw, e)


# --------------------------------------------------------------------------------------
# models.toml
# --------------------------------------------------------------------------------------

# toml field -> (ModelArch field, kind, required)
_TOML_FIELDS: dict[str, tuple[str, str, bool]] = {
    "name": ("name", "str", True),
    "source": ("source", "str", True),
    "layers": ("n_layers", "int", True),
    "d_model": ("d_model", "int", True),
    "heads": ("n_heads", "int", True),
    "kv_heads": ("n_kv_heads", "int", True),
    "head_dim": ("head_dim", "int", True),
    "ffn_size": ("ffn_size", "int", True),
    "ffn_kind": ("ffn_kind", FFN_KINDS, True),
    "vocab_size": ("vocab_size", "int", True),
    "tied_embeddings": ("tied_embeddings", "bool", True),
    "norm": ("norm", NORMS, False),
    "norms_per_layer": ("norms_per_layer", "int0", False),
    "attention_bias": ("attention_bias", ATTENTION_BIAS, False),
    "mlp_bias": ("mlp_bias", "bool", False),
    "qk_norm": ("qk_norm", "bool", False),
    "learned_positions": ("learned_positions", "int0", False),
    "context_length": ("context_length", "int0", False),
    "experts": ("n_experts", "int0", False),
    "experts_per_token": ("experts_per_token", "int0", False),
    "shared_experts": ("n_shared_experts", "int0", False),
    "expert_ffn_size": ("expert_ffn_size", "int0", False),
    "shared_expert_ffn_size": ("shared_expert_ffn_size", "int0", False),
    "dense_layers": ("dense_layers", "layers", False),
    "sliding_window": ("sliding_window", "int0", False),
    "sliding_layers": ("sliding_layers", "pattern", False),
    "q_lora_rank": ("q_lora_rank", "int0", False),
    "kv_lora_rank": ("kv_lora_rank", "int0", False),
    "qk_nope_head_dim": ("qk_nope_head_dim", "int0", False),
    "qk_rope_head_dim": ("qk_rope_head_dim", "int0", False),
    "v_head_dim": ("v_head_dim", "int0", False),
    "family": ("family", "str0", False),
    "notes": ("notes", "str0", False),
    "published_params_b": ("published_params_b", "float", False),
    "published_active_b": ("published_active_b", "float", False),
    "published_active_includes_embedding": ("published_active_includes_embedding", "bool", False),
}


def _ferr(path: Path, model: Optional[str], fieldname: Optional[str], problem: str) -> ModelFileError:
    where = str(path)
    if model is not None:
        where += f": model '{model}'"
    if fieldname is not None:
        where += f": field '{fieldname}'"
    return ModelFileError(f"{where}: {problem}")


def _coerce(kind: Any, value: Any, fail) -> Any:
    """Check one value; ``fail(problem)`` builds the exception to raise."""
    if isinstance(kind, tuple):
        if not isinstance(value, str) or value not in kind:
            raise fail(f"must be one of {', '.join(kind)}, got {value!r}")
        return value
    if kind in ("str", "str0"):
        if not isinstance(value, str):
            raise fail(f"must be a string, got {type(value).__name__} {value!r}")
        if kind == "str" and not value.strip():
            raise fail("must not be empty")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise fail(f"must be true or false, got {value!r}")
        return value
    if kind in ("int", "int0"):
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"must be an integer, got {type(value).__name__} {value!r}")
        if value < (1 if kind == "int" else 0):
            raise fail(f"must be an integer {'> 0' if kind == 'int' else '>= 0'}, got {value!r}")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or value < 0:
            raise fail(f"must be a finite number >= 0, got {value!r}")
        return float(value)
    if kind == "layers":
        if not isinstance(value, (list, tuple)) or any(
                isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in value):
            raise fail(f"must be a list of layer indices (integers >= 0), got {value!r}")
        return tuple(sorted(set(value)))
    if kind == "pattern":
        if isinstance(value, str):
            if value not in SLIDING_PATTERNS:
                raise fail(f"must be one of {', '.join(SLIDING_PATTERNS)} or a list of layer indices, got {value!r}")
            return value
        if isinstance(value, (list, tuple)) and all(
                isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value):
            return tuple(sorted(set(value)))
        raise fail(f"must be one of {', '.join(SLIDING_PATTERNS)} or a list of layer indices, got {value!r}")
    raise AssertionError(kind)  # pragma: no cover


def _check_consistency(arch: ModelArch, fail_field) -> None:
    """Cross-field rules; ``fail_field(field, problem)`` builds the exception."""
    a = arch
    if a.n_kv_heads > a.n_heads:
        raise fail_field("kv_heads", f"must be <= heads ({a.n_heads}), got {a.n_kv_heads}")
    if a.n_heads % a.n_kv_heads:
        raise fail_field("kv_heads", f"must divide heads ({a.n_heads}), got {a.n_kv_heads}")
    moe_fields = (a.experts_per_token, a.expert_ffn_size, a.n_shared_experts, len(a.dense_layers))
    if a.n_experts == 0 and any(moe_fields):
        raise fail_field("experts", "is 0 (dense) but MoE fields are set; give experts > 0")
    if a.is_moe:
        if not 1 <= a.experts_per_token <= a.n_experts:
            raise fail_field("experts_per_token", f"must be between 1 and experts ({a.n_experts}), "
                                                  f"got {a.experts_per_token}")
        if a.expert_ffn_size <= 0:
            raise fail_field("expert_ffn_size", "is required (> 0) for a mixture of experts")
    if any(i >= a.n_layers for i in a.dense_layers):
        raise fail_field("dense_layers", f"layer indices must be < layers ({a.n_layers})")
    if isinstance(a.sliding_layers, tuple) and any(i >= a.n_layers for i in a.sliding_layers):
        raise fail_field("sliding_layers", f"layer indices must be < layers ({a.n_layers})")
    if a.kv_lora_rank:
        for f in ("qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"):
            if getattr(a, f) <= 0:
                raise fail_field(f, "is required (> 0) with kv_lora_rank (multi-head latent attention)")
    elif a.q_lora_rank:
        raise fail_field("q_lora_rank", "needs kv_lora_rank (multi-head latent attention)")


def _model(path: Path, model_id: str, d: Any) -> ModelArch:
    if not _ID.match(model_id):
        raise _ferr(path, model_id, "id", "must be kebab-case: lowercase letters, digits, dots and "
                                          "single dashes (e.g. llama-3.1-8b)")
    if not isinstance(d, dict):
        raise _ferr(path, model_id, None, f"must be a table [models.{model_id}], got {type(d).__name__}")
    for f, (_, _, required) in _TOML_FIELDS.items():
        if required and f not in d:
            raise _ferr(path, model_id, f, "is missing")
    unknown = [k for k in d if k not in _TOML_FIELDS]
    if unknown:
        raise _ferr(path, model_id, unknown[0], f"is not a known field (known: {', '.join(_TOML_FIELDS)})")
    kw: dict[str, Any] = {}
    for f, value in d.items():
        attr, kind, _ = _TOML_FIELDS[f]
        kw[attr] = _coerce(kind, value, lambda problem, f=f: _ferr(path, model_id, f, problem))
    arch = ModelArch(id=model_id, **kw)
    back = {attr: f for f, (attr, _, _) in _TOML_FIELDS.items()}
    _check_consistency(arch, lambda attr, problem: _ferr(
        path, model_id, back.get(attr, attr) if attr not in _TOML_FIELDS else attr, problem))
    return arch


_HEADER = re.compile(r"^\s*\[+\s*models\.([A-Za-z0-9_\-\.\"']+?)\s*\]")


def _toml_error(path: Path, text: str, msg: str) -> ModelFileError:
    dup, model, fieldname, problem = locate_toml_error(text, msg, "models", _HEADER)
    if dup is not None:
        return _ferr(path, dup, "id", f"duplicate model id: [models.{dup}] appears twice ({msg})")
    return _ferr(path, model, fieldname, f"{problem}: {msg}")


def load_models(path: Optional[str | Path] = None) -> dict[str, ModelArch]:
    """Read and validate a models file: {model id: ModelArch}, in file order.

    path defaults to DEFAULT_MODELS_PATH (the repository's models.toml).  Raises
    ModelFileError (a ValueError) naming the file, model id and field for: unreadable or
    non-TOML files, duplicate ids (TOML keys: a model id with a dot must be quoted),
    missing or unknown fields, wrong types, non-positive counts, inconsistent fields
    (kv_heads not dividing heads, MoE fields on a dense model, ...).  Pure: safe to cache.
    """
    p = DEFAULT_MODELS_PATH if path is None else Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise _ferr(p, None, None, f"cannot be read ({e.strerror or e})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _ferr(p, None, None, f"is not UTF-8 text ({e})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _toml_error(p, text, str(e)) from None
    models = data.get("models")
    if models is None:
        raise _ferr(p, None, "models", "is missing: expected [models.<id>] tables")
    if not isinstance(models, dict):
        raise _ferr(p, None, "models", f"must be a table of models, got {type(models).__name__}")
    if not models:
        raise _ferr(p, None, "models", "is empty")
    extra = [k for k in data if k != "models"]
    if extra:
        raise _ferr(p, None, extra[0], "is not a known top-level key (only [models.<id>] tables)")
    out: dict[str, ModelArch] = {}
    for model_id, d in models.items():
        if isinstance(d, dict) and "name" not in d and all(isinstance(x, dict) for x in d.values()) and d:
            inner = next(iter(d))
            raise _ferr(p, f"{model_id}.{inner}", "id",
                        f"a model id with a dot must be quoted: [models.\"{model_id}.{inner}\"]")
        out[model_id] = _model(p, model_id, d)
    return out


# --------------------------------------------------------------------------------------
# Round trip (URL state) and Hugging Face config.json
# --------------------------------------------------------------------------------------

def arch_to_dict(arch: ModelArch) -> dict[str, Any]:
    """A JSON-able dict of every field (tuples as lists); inverse of :func:`arch_from_dict`."""
    d = asdict(arch)
    for k, val in d.items():
        if isinstance(val, tuple):
            d[k] = list(val)
    return d


def arch_from_dict(d: Mapping[str, Any]) -> ModelArch:
    """Rebuild a ModelArch from :func:`arch_to_dict` output (validated; ModelConfigError)."""
    if not isinstance(d, Mapping):
        raise ModelConfigError(f"an architecture must be a JSON object, got {type(d).__name__}")
    known = {f.name: f for f in fields(ModelArch)}
    unknown = [k for k in d if k not in known]
    if unknown:
        raise ModelConfigError(f"unknown architecture key '{unknown[0]}'")
    kw = dict(d)
    for k in ("dense_layers",):
        if k in kw:
            kw[k] = tuple(kw[k])
    if isinstance(kw.get("sliding_layers"), list):
        kw["sliding_layers"] = tuple(kw["sliding_layers"])
    try:
        arch = ModelArch(**kw)
    except TypeError as e:
        raise ModelConfigError(f"incomplete architecture: {e}") from None
    _validate_arch(arch)
    return arch


def _validate_arch(arch: ModelArch) -> None:
    back = {attr: f for f, (attr, _, _) in _TOML_FIELDS.items()}
    for f, (attr, kind, _) in _TOML_FIELDS.items():
        _coerce(kind, getattr(arch, attr), lambda problem, f=f: ModelConfigError(f"'{f}' {problem}"))
    _check_consistency(arch, lambda attr, problem: ModelConfigError(f"'{back.get(attr, attr)}' {problem}"))


_TOKEN_VERSION = "1"
_MAX_TOKEN_CHARS = 20_000
_MAX_TOKEN_BYTES = 200_000


def encode_arch(arch: ModelArch) -> str:
    """A compact URL token for ``arch``: "1" + base64url(zlib9(JSON of the non-default
    fields)), no padding.  Inverse: :func:`decode_arch`.  (The kernel table's share-link
    scheme, calc.scenario.encode_kernels.)"""
    import base64
    import zlib

    defaults = {f.name: f.default for f in fields(ModelArch)}
    d = {k: val for k, val in arch_to_dict(arch).items()
         if k not in defaults or not _same_default(val, defaults[k])}
    raw = json.dumps(d, separators=(",", ":"), sort_keys=True).encode("utf-8")
    return _TOKEN_VERSION + base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def _same_default(val: Any, default: Any) -> bool:
    from dataclasses import MISSING
    if default is MISSING:
        return False
    if isinstance(default, tuple):
        return list(default) == val
    return val == default


def decode_arch(token: str) -> ModelArch:
    """Rebuild a ModelArch from :func:`encode_arch`'s token.  Raises ModelConfigError for
    an unknown version, bad base64, corrupt or oversized data, or an invalid architecture."""
    import base64
    import binascii
    import zlib

    if not isinstance(token, str) or not token or len(token) > _MAX_TOKEN_CHARS:
        raise ModelConfigError("the model link token is empty or too long")
    if token[0] != _TOKEN_VERSION:
        raise ModelConfigError(f"the model link token has an unknown version {token[0]!r}")
    body = token[1:]
    try:
        comp = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        dec = zlib.decompressobj()
        raw = dec.decompress(comp, _MAX_TOKEN_BYTES)
        if dec.unconsumed_tail:
            raise ModelConfigError("the model link token decompresses to too much data")
        d = json.loads(raw.decode("utf-8"))
    except ModelConfigError:
        raise
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError) as e:
        raise ModelConfigError(f"the model link token is corrupt ({e})") from None
    return arch_from_dict(d)


SUPPORTED_HF_TYPES = ("llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
                      "deepseek_v3", "deepseek_v2", "gemma2", "gpt_neox", "gpt_oss")
"""config.json ``model_type`` values :func:`from_hf_config` understands."""


def _need(cfg: Mapping[str, Any], key: str, model_type: str, kind: str = "int") -> Any:
    if key not in cfg or cfg[key] is None:
        raise ModelConfigError(f"config.json ({model_type}): key '{key}' is missing")
    val = cfg[key]
    if kind == "int":
        if isinstance(val, bool) or not isinstance(val, int) or val <= 0:
            raise ModelConfigError(f"config.json ({model_type}): key '{key}' must be a positive integer, got {val!r}")
    return val


def _opt_int(cfg: Mapping[str, Any], key: str, default: int, model_type: str) -> int:
    val = cfg.get(key)
    if val is None:
        return default
    if isinstance(val, bool) or not isinstance(val, int) or val < 0:
        raise ModelConfigError(f"config.json ({model_type}): key '{key}' must be an integer >= 0, got {val!r}")
    return val


def from_hf_config(config: Mapping[str, Any] | str | bytes, *, id: str = "pasted-config",
                   name: Optional[str] = None) -> ModelArch:
    """Parse a Hugging Face ``config.json`` (dict or JSON text) into a ModelArch.

    Supported ``model_type``: SUPPORTED_HF_TYPES (Llama, Mistral, Mixtral, Qwen2/2-MoE,
    Qwen3/3-MoE, DeepSeek-V2/V3, Gemma 2, GPT-NeoX, gpt-oss).  Multimodal wrappers with a
    ``text_config`` are read from it.  Raises ModelConfigError naming the missing or bad
    key, or the unknown architecture.  No download: the user brings the file.
    Sources: the configuration_*.py / modeling_*.py files of Hugging Face transformers.
    """
    if isinstance(config, (str, bytes)):
        try:
            config = json.loads(config)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise ModelConfigError(f"config.json is not valid JSON: {e}") from None
    if not isinstance(config, Mapping):
        raise ModelConfigError(f"config.json must be a JSON object, got {type(config).__name__}")
    cfg = config
    if "model_type" not in cfg and isinstance(cfg.get("text_config"), Mapping):
        cfg = cfg["text_config"]
    elif isinstance(cfg.get("text_config"), Mapping) and cfg.get("model_type") not in SUPPORTED_HF_TYPES:
        cfg = cfg["text_config"]
    mt = cfg.get("model_type")
    if mt is None:
        raise ModelConfigError("config.json: key 'model_type' is missing "
                               f"(supported: {', '.join(SUPPORTED_HF_TYPES)})")
    if mt not in SUPPORTED_HF_TYPES:
        raise ModelConfigError(f"config.json: model_type '{mt}' is not supported "
                               f"(supported: {', '.join(SUPPORTED_HF_TYPES)})")
    arch_name = name or cfg.get("_name_or_path") or (cfg.get("architectures") or [mt])[0]
    if not isinstance(arch_name, str) or not arch_name.strip():
        arch_name = mt
    if mt == "gpt_neox":
        L = _need(cfg, "num_hidden_layers", mt)
        d = _need(cfg, "hidden_size", mt)
        h = _need(cfg, "num_attention_heads", mt)
        kw = dict(n_layers=L, d_model=d, n_heads=h, n_kv_heads=h, head_dim=d // h,
                  ffn_size=_need(cfg, "intermediate_size", mt), ffn_kind="plain",
                  vocab_size=_need(cfg, "vocab_size", mt),
                  tied_embeddings=bool(cfg.get("tie_word_embeddings", False)),
                  norm="layernorm", attention_bias="all" if cfg.get("attention_bias", True) else "none",
                  mlp_bias=True, context_length=_opt_int(cfg, "max_position_embeddings", 0, mt))
        return _finish_hf(kw, id, arch_name, mt)
    L = _need(cfg, "num_hidden_layers", mt)
    d = _need(cfg, "hidden_size", mt)
    h = _need(cfg, "num_attention_heads", mt)
    kv = _opt_int(cfg, "num_key_value_heads", h, mt) or h
    hd = _opt_int(cfg, "head_dim", 0, mt) or d // h
    V = _need(cfg, "vocab_size", mt)
    tie_default = mt in ("gemma2",)
    kw: dict[str, Any] = dict(
        n_layers=L, d_model=d, n_heads=h, n_kv_heads=kv, head_dim=hd, vocab_size=V,
        ffn_kind="gated", tied_embeddings=bool(cfg.get("tie_word_embeddings", tie_default)),
        norm="rmsnorm", context_length=_opt_int(cfg, "max_position_embeddings", 0, mt),
        ffn_size=_opt_int(cfg, "intermediate_size", 0, mt))
    if cfg.get("attention_bias"):
        kw["attention_bias"] = "all"
    if cfg.get("mlp_bias"):
        kw["mlp_bias"] = True
    if mt in ("qwen2", "qwen2_moe"):
        kw["attention_bias"] = "qkv"
    if mt in ("qwen3", "qwen3_moe"):
        kw["qk_norm"] = True
    sw = cfg.get("sliding_window")
    use_sw = cfg.get("use_sliding_window", True)
    if mt in ("mistral", "mixtral") and isinstance(sw, int) and sw > 0:
        kw.update(sliding_window=sw, sliding_layers="all")
    if mt in ("qwen2", "qwen3", "qwen2_moe", "qwen3_moe") and use_sw and isinstance(sw, int) and sw > 0:
        mwl = _opt_int(cfg, "max_window_layers", 0, mt)
        layers = tuple(i for i in range(L) if i >= mwl)
        if layers:
            kw.update(sliding_window=sw, sliding_layers=layers)
    if mt == "gemma2":
        kw["norms_per_layer"] = 4
        kw["tied_embeddings"] = bool(cfg.get("tie_word_embeddings", True))
        if isinstance(sw, int) and sw > 0:
            kw.update(sliding_window=sw, sliding_layers="even")
    if mt == "gpt_oss":
        kw["attention_bias"] = "all" if cfg.get("attention_bias", True) else "none"
        kw["mlp_bias"] = True
        types = cfg.get("layer_types")
        if isinstance(sw, int) and sw > 0:
            if isinstance(types, list) and len(types) == L:
                layers = tuple(i for i, t_ in enumerate(types) if t_ == "sliding_attention")
                kw.update(sliding_window=sw, sliding_layers=layers)
            else:
                kw.update(sliding_window=sw, sliding_layers="even")
        E = cfg.get("num_local_experts", cfg.get("num_experts"))
        if E is None:
            raise ModelConfigError("config.json (gpt_oss): key 'num_local_experts' is missing")
        k = cfg.get("num_experts_per_tok", cfg.get("experts_per_token"))
        if k is None:
            raise ModelConfigError("config.json (gpt_oss): key 'num_experts_per_tok' is missing")
        f = _need(cfg, "intermediate_size", mt)
        kw.update(n_experts=E, experts_per_token=k, expert_ffn_size=f, ffn_size=f)
    if mt == "mixtral":
        kw.update(n_experts=_need(cfg, "num_local_experts", mt),
                  experts_per_token=_need(cfg, "num_experts_per_tok", mt),
                  expert_ffn_size=_need(cfg, "intermediate_size", mt))
    if mt in ("qwen2_moe", "qwen3_moe"):
        E = _need(cfg, "num_experts", mt)
        kw.update(n_experts=E, experts_per_token=_need(cfg, "num_experts_per_tok", mt),
                  expert_ffn_size=_need(cfg, "moe_intermediate_size", mt))
        step = _opt_int(cfg, "decoder_sparse_step", 1, mt) or 1
        only = cfg.get("mlp_only_layers") or []
        if not isinstance(only, list):
            raise ModelConfigError(f"config.json ({mt}): key 'mlp_only_layers' must be a list")
        dense = tuple(i for i in range(L) if i in only or (i + 1) % step != 0)
        kw["dense_layers"] = dense
        if mt == "qwen2_moe":
            sh = _opt_int(cfg, "shared_expert_intermediate_size", 0, mt)
            if sh:
                kw.update(n_shared_experts=1, shared_expert_ffn_size=sh)
            # the shared-expert gate (d → 1) is negligible and not counted
        if dense and not kw["ffn_size"]:
            raise ModelConfigError(f"config.json ({mt}): key 'intermediate_size' is missing")
    if mt in ("deepseek_v3", "deepseek_v2"):
        E = _need(cfg, "n_routed_experts", mt)
        kw.update(n_experts=E, experts_per_token=_need(cfg, "num_experts_per_tok", mt),
                  expert_ffn_size=_need(cfg, "moe_intermediate_size", mt),
                  n_shared_experts=_opt_int(cfg, "n_shared_experts", 0, mt),
                  kv_lora_rank=_need(cfg, "kv_lora_rank", mt),
                  q_lora_rank=_opt_int(cfg, "q_lora_rank", 0, mt),
                  qk_nope_head_dim=_need(cfg, "qk_nope_head_dim", mt),
                  qk_rope_head_dim=_need(cfg, "qk_rope_head_dim", mt),
                  v_head_dim=_need(cfg, "v_head_dim", mt),
                  head_dim=_need(cfg, "qk_nope_head_dim", mt) + _need(cfg, "qk_rope_head_dim", mt),
                  n_kv_heads=h)
        first = _opt_int(cfg, "first_k_dense_replace", 0, mt)
        freq = _opt_int(cfg, "moe_layer_freq", 1, mt) or 1
        kw["dense_layers"] = tuple(i for i in range(L) if i < first or i % freq != 0)
        if kw["dense_layers"] and not kw["ffn_size"]:
            raise ModelConfigError(f"config.json ({mt}): key 'intermediate_size' is missing")
    if not kw.get("n_experts") and not kw["ffn_size"]:
        raise ModelConfigError(f"config.json ({mt}): key 'intermediate_size' is missing")
    if not kw["ffn_size"]:
        kw["ffn_size"] = kw.get("expert_ffn_size", 1) or 1
    return _finish_hf(kw, id, arch_name, mt)


def _finish_hf(kw: dict[str, Any], id_: str, name: str, mt: str) -> ModelArch:
    arch = ModelArch(id=id_, name=name, source=f"pasted config.json (model_type {mt})", **kw)
    try:
        _validate_arch(arch)
    except ModelConfigError as e:
        raise ModelConfigError(f"config.json ({mt}): {e}") from None
    return arch
