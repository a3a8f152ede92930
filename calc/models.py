"""Model architectures and everything computed from them (no streamlit, numpy only).

The code lives by concern: ``calc.arch`` (the architecture, its counts and KV bytes),
``calc.model_catalog`` (``models.toml``), ``calc.hf_config`` (``config.json``) and this module
(FLOP per training token, training memory; decode and prefill are calc.inference).  This module re-exports
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
    The decode step, prefill, the knee and the all-reduce: :mod:`calc.inference` (records);
    what each GPU holds and the memory rule: :mod:`calc.placement`.

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
    "activation_bytes_per_layer",
    "training_memory",
    "kv_bytes_per_token",
    "kv_cache_bytes_per_seq",
    "expected_distinct_experts",
]

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

