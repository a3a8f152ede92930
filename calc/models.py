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
    (both live in ``calc.training_flops``)
    ``training_memory(arch, ...)``  TrainingMemory: lives in ``calc.training_memory``
    ``activation_bytes_per_layer(seq_len, micro_batch, d_model, n_heads, recompute, ...)``
Inference
    ``kv_bytes_per_token(arch, bytes_per_elem)``       KV bytes per token of context (GQA/MQA/MLA)
    ``kv_cache_bytes_per_seq(arch, context_len, bytes_per_elem)``  sliding windows capped
    ``expected_distinct_experts(n_experts, experts_per_token, batch)``  uniform routing
    The decode step, prefill, the knee and the all-reduce: :mod:`calc.inference` (records);
    what each GPU holds and the memory rule: :mod:`calc.placement`.

Which parameters count (total vs active): see :mod:`calc.arch`, the one statement of the rule.

Units: parameter and token counts are plain numbers, bytes, FLOP, seconds, FLOP/s,
bytes/s.  Sources are cited per function.
"""

from __future__ import annotations

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
