"""A decoder-only transformer architecture (``ModelArch``) and what follows from its shape
alone: parameters term by term, attention widths and FLOP, KV-cache bytes per token, the
experts a batch routes to; its field schema and validation, and the round trip to a dict
and to a compact URL token.  Numpy and the standard library only.

Loading it from ``models.toml`` is ``calc.model_catalog``; from a Hugging Face
``config.json``, ``calc.hf_config``; FLOP per training token, training memory, decode and
prefill are ``calc.models``.

Which parameters count (everywhere in the app)
----------------------------------------------
* **total** = every stored weight (embeddings, all experts, norms, biases): what memory holds.
* **active** = weights one token multiplies by: everything except the input embedding
  table (a lookup, no FLOP), learned position tables, and the routed experts the token
  is *not* sent to.  The output projection (LM head) counts, tied or not.  This is the
  convention of DeepSeek-V3 (36.6B "activated") and gpt-oss (5.1B / 3.6B active);
  Mistral and Qwen publish active counts *with* the input embedding
  (``ParamCounts.active_with_embedding``).  FLOP per token use ``active``.
"""

from __future__ import annotations

import functools

import json
import math
import re
from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

import numpy as np

from . import _validate as v
from .notes import NotesInLanguages

FFN_KINDS = ("gated", "plain")
NORMS = ("rmsnorm", "layernorm", "layernorm-nobias")
ATTENTION_BIAS = ("none", "qkv", "all")
SLIDING_PATTERNS = ("all", "even", "odd")

_ID = re.compile(r"^[a-z0-9]+(?:[.\-][a-z0-9]+)*$")



class ModelConfigError(ValueError):
    """A pasted config.json cannot be turned into an architecture; names the key."""


@dataclass(frozen=True)
class ModelArch(NotesInLanguages):
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
    # multi-token prediction (DeepSeek-V3 §2.2): modules that draft extra tokens (not counted
    # in the main model's parameters); 0 = none, and speculative decoding by MTP is not offered
    mtp_layers: int = 0
    # what the publisher says (for display and tests)
    family: str = ""
    notes: str = ""
    notes_zh: str = ""          # the notes in Chinese; "" = none (notes_for falls back)
    published_params_b: float = 0.0
    published_active_b: float = 0.0
    published_active_includes_embedding: bool = False
    # "Custom: parameters only": N given, the shape fields describe attention and the cache
    n_params: float = 0.0

    @property
    def is_params_only(self) -> bool:
        """True for :func:`params_only` ("Custom: parameters only"): every count is N."""
        return self.n_params > 0

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

    @functools.cached_property
    def windows(self) -> tuple[int, ...]:
        """Per-layer sliding windows (0 = full attention), layer 0 first.  Computed once per
        architecture (it is frozen): the KV and attention formulas ask for it on every step."""
        return tuple(self.layer_window(i) for i in range(self.n_layers))

    @functools.cached_property
    def window_counts(self) -> tuple[tuple[int, int], ...]:
        """(window, number of layers with it) for each distinct window, in first-layer order:
        a sum over layers of a term that depends only on the window is Σ_w n_w · term(w)."""
        counts: dict[int, int] = {}
        for w in self.windows:
            counts[w] = counts.get(w, 0) + 1
        return tuple(counts.items())

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
    A :func:`params_only` architecture has total = active = N (all of it "dense_ffn": no
    embedding, so nothing is excluded from FLOP or from a decode step's read: the seed's
    7B × 2 bytes = 14 GB per token).
    Sources: Vaswani et al. 2017; Shazeer 2020 (GLU); the models' config.json files and
    modelling code in Hugging Face transformers; DeepSeek-V3 report (arXiv 2412.19437).
    """
    a = arch
    if a.is_params_only:       # "Custom: parameters only": N is all there is
        n = float(a.n_params)
        return ParamCounts(embedding=0.0, lm_head=0.0, positions=0.0, attention=0.0,
                           dense_ffn=n, routed_experts=0.0, shared_experts=0.0, router=0.0,
                           norms=0.0, total=n, active=n, active_routed=0.0, expert=0.0)
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


def params_only(n_params: Any, n_layers: int = 32, n_kv_heads: int = 32,
                head_dim: int = 128) -> ModelArch:
    """"Custom: parameters only" as a dense architecture with N given   [ModelArch].

    N = ``n_params`` parameters, all dense and active (the seed's 7B: 7e9 × 2 bytes =
    14 GB read per token, 2·N FLOP per token).  ``n_layers``, ``n_kv_heads`` and
    ``head_dim`` give the KV cache (2·L·K·hd bytes per token and element, as a catalog
    model's) and the attention FLOP over the context; the query heads are taken equal to
    the KV heads (multi-head attention, the seed's 7B: 32 × 128), d_model = heads × head_dim.
    Every function of calc takes it where it takes a catalog model: one code path.
    """
    n = v.number("n_params", n_params, "positive", "parameters")
    if not isinstance(n, float):
        raise ValueError("n_params must be a single number")
    for name, x in (("n_layers", n_layers), ("n_kv_heads", n_kv_heads), ("head_dim", head_dim)):
        if isinstance(x, bool) or not float(x).is_integer() or x < 1:
            raise ValueError(f"{name} must be a whole number > 0, got {x!r}")
    L, K, hd = int(n_layers), int(n_kv_heads), int(head_dim)
    # Per-layer tuples (windows, MoE layers) are built from L: a catalog model's limit.
    check_limit("n_layers", L, lambda problem: ValueError(f"n_layers {problem}"))
    return ModelArch(id="custom-params", name="Custom: parameters only", source="user input",
                     n_layers=L, d_model=K * hd, n_heads=K, n_kv_heads=K, head_dim=hd,
                     ffn_size=1, vocab_size=1, n_params=n)


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
    for w, n in arch.window_counts:
        total = total + n * 2.0 * np.asarray(keys_per_query(s, w, causal)) * (wqk + wv)
    return v.finish(total, s)


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
    for w, n in arch.window_counts:         # Σ over layers, grouped by window
        out = out + n * per * (ca if w == 0 else np.minimum(ca, w))
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
    "mtp_layers": ("mtp_layers", "int0", False),
    "family": ("family", "str0", False),
    "notes": ("notes", "str0", False),
    "notes_zh": ("notes_zh", "str0", False),
    "published_params_b": ("published_params_b", "float", False),
    "published_active_b": ("published_active_b", "float", False),
    "published_active_includes_embedding": ("published_active_includes_embedding", "bool", False),
}


#: Upper bounds of the architecture's integer fields, as the pages bound their fields: an
#: architecture beyond them is a typo (10^12 layers), and finite bounds keep every count
#: (12·L·d², KV bytes) a finite float. About 50-100x the largest published model of each:
#: layers 118 (PaLM 540B), width 18,432 (PaLM), heads 128 (Llama 3.1 405B), vocabulary
#: 262,144 (Gemma 3), experts 256 (DeepSeek-V3), FFN 73,728 (PaLM); context 10M tokens
#: (Llama 4 Scout). Sources: the models' papers / config.json files (models.toml cites them).
ARCH_LIMITS: dict[str, int] = {
    "n_layers": 10_000, "d_model": 1_048_576, "n_heads": 65_536, "n_kv_heads": 65_536,
    "head_dim": 65_536, "ffn_size": 16_777_216, "vocab_size": 16_777_216,
    "norms_per_layer": 100, "learned_positions": 1 << 30, "context_length": 1 << 30,
    "n_experts": 65_536, "experts_per_token": 65_536, "n_shared_experts": 65_536,
    "expert_ffn_size": 16_777_216, "shared_expert_ffn_size": 16_777_216,
    "sliding_window": 1 << 30, "q_lora_rank": 1_048_576, "kv_lora_rank": 1_048_576,
    "qk_nope_head_dim": 65_536, "qk_rope_head_dim": 65_536, "v_head_dim": 65_536,
    "mtp_layers": 100,
}
#: Any other integer read from a config.json (layer counts of patterns, steps).
DEFAULT_INT_LIMIT = 1 << 30


def check_limit(attr: str, value: int, fail) -> int:
    """``value`` if it is at most ``ARCH_LIMITS[attr]`` (else DEFAULT_INT_LIMIT);
    otherwise raise ``fail(problem)``."""
    hi = ARCH_LIMITS.get(attr, DEFAULT_INT_LIMIT)
    if value > hi:
        raise fail(f"must be at most {hi:,}, got {value:,}")
    return value


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
        fail = (lambda problem, f=f: ModelConfigError(f"'{f}' {problem}"))
        v = _coerce(kind, getattr(arch, attr), fail)
        if kind in ("int", "int0"):
            check_limit(attr, v, fail)
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


