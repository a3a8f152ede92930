"""Model architectures and everything computed from them (no streamlit, numpy only).

The code lives by concern: ``calc.arch`` (the architecture, its counts and KV bytes),
``calc.model_catalog`` (``models.toml``), ``calc.hf_config`` (``config.json``) and this module
(FLOP per training token, training memory, decode and prefill).  This module re-exports
the public names of all four, so ``from calc.models import ...`` keeps working.

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
    (both live in ``calc.training_flops``)
    ``training_memory(arch, ...)``  TrainingMemory: lives in ``calc.training_memory``
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

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _validate as v
from .arch import (ModelArch, ModelConfigError, ParamCounts, arch_from_dict, arch_to_dict,
                   attention_flops_per_token, attention_width, decode_arch, encode_arch,
                   expected_distinct_experts, keys_per_query, kv_bytes_per_token, kv_cache_bytes_per_seq,
                   param_counts)
from .hf_config import SUPPORTED_HF_TYPES, from_hf_config
from .model_catalog import DEFAULT_MODELS_PATH, ModelFileError, load_models
from .training_flops import FlopsPerToken, flops_per_token, recompute_flops_per_token
from .training_memory import (OPTIMIZER_BYTES_PER_PARAM, RECOMPUTE_MODES, ZERO_STAGES,
                              TrainingMemory, activation_bytes_per_layer, training_memory)

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

@dataclass(frozen=True)
class DecodeStep:
    """One decoding step of ``batch`` sequences (arrays when batch is an array)."""

    weight_bytes: Any      # weights read (dense + distinct routed experts)
    kv_bytes: Any          # KV cache read, whole batch
    bytes: Any             # weight_bytes + kv_bytes
    flops: Any             # 2·active·batch + attention over the context
    seconds: Any           # max(bytes / mem_bw, flops / peak)
    tokens_per_s: Any    # batch / seconds
    memory_bound: Any      # bytes / mem_bw >= flops / peak


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
                      seconds=v.finish(secs, B), tokens_per_s=v.finish(np.divide(B, secs), B),
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


