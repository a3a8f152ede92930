"""Training FLOP per token: the one count the MFU page, the Training page, Plans, the Trace
doctor and Learn all use (model FLOP for MFU, hardware FLOP for HFU).

    model    = 6·N + 3·A(s)          forward 2N + backward 4N, attention forward A once + twice
    hardware = model                 recompute "none"
             = 6·N + 4·A             "selective" (core attention re-run, Korthikanti et al. 2022 §5)
             = 8·N + 4·A             "full" (one more forward pass of every layer)

N = active parameters (``calc.arch.param_counts(arch).active``), A = forward attention FLOP
per token (QKᵀ and attention·V, ``calc.arch.attention_flops_per_token``).  One causal
default everywhere, :data:`CAUSAL_DEFAULT` = True: a causal mask attends to s/2 keys on
average, the halving FlashAttention's causal kernels realise (PaLM App. B counts the full
s×s matrix: ``causal=False``, 12·L·H·Q·T when ×3).

"Custom: parameters only" is :func:`params_only_arch` (``calc.arch.params_only``): a dense
architecture with N given and L layers of width h for the attention term, not a second
code path: A = Σ_layers 2·keys·(h + h) = 4·L·h·keys, so model = 6N + 12·L·h·s non-causal
(the seed's formula) or 6N + 6·L·h·s causal; seq_len 0 gives the seed's 6N = 42 GFLOP
per token for 7B.

Sources: seed chapter "04 · Roofline 与 MFU" (6N + 12·L·h·s); Kaplan et al. 2020 §2.1;
PaLM (Chowdhery et al. 2022) App. B (MFU vs HFU); Korthikanti et al. 2022 §5 (selective
recompute); Narayanan et al. 2021 (eq. 3: 8N with full recompute).  Units: FLOP per token.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _validate as v
from .arch import (ModelArch, attention_flops_per_token, keys_per_query, param_counts,
                   params_only)

__all__ = ["CAUSAL_DEFAULT", "RECOMPUTE_MODES", "params_only_arch", "FlopsPerToken",
           "flops_per_token", "recompute_flops_per_token", "params_only_attention_forward"]

CAUSAL_DEFAULT = True
"""The one causal-attention default of every page, plan and lesson (s/2 keys per query)."""

RECOMPUTE_MODES = ("none", "selective", "full")
"""Activation recomputation: none; selective (core attention recomputed, Korthikanti
et al. 2022 §5); full (every layer's forward pass recomputed in the backward pass)."""


def params_only_arch(n_params: Any, n_layers: Any = 32, d_model: Any = 4096) -> ModelArch:
    """"Custom: parameters only" for training: :func:`calc.arch.params_only` with N given and
    ``n_layers`` layers of attention width ``d_model`` (the seed's 7B: 32 × 4096)   [ModelArch].

    The width is split into heads of gcd(d_model, 128) so that heads × head_dim = d_model
    exactly (4096 = 32 × 128); only that product enters the FLOP.  Pass seq_len 0 to
    :func:`flops_per_token` for 6N alone.
    """
    L = v.number("n_layers", n_layers, "positive", "layers")
    h = v.number("d_model", d_model, "positive", "hidden size")
    if not (isinstance(h, float) and h.is_integer()):
        raise ValueError(f"d_model must be a whole number > 0, got {d_model!r}")
    hd = math.gcd(int(h), 128)
    return params_only(n_params, n_layers=L, n_kv_heads=int(h) // hd, head_dim=hd)


def params_only_attention_forward(n_layers: Any, d_model: Any, seq_len: Any,
                                  causal: bool = CAUSAL_DEFAULT):
    """Forward attention FLOP per token of L layers of width h (attention width = h)  [FLOP].

        A = L · 2 · keys · (h + h) = 4·L·h·keys,   keys = s (non-causal) or s/2 (causal)

    (× 3 for training: the seed's 12·L·h·s, halved when causal).  Accepts arrays.
    Sources: seed chapter 04; PaLM (2022) App. B; calc.arch.keys_per_query.
    """
    L = v.number("n_layers", n_layers, "non_negative", "layers")
    h = v.number("d_model", d_model, "non_negative", "hidden size")
    keys = keys_per_query(seq_len, 0, causal)
    if v.is_scalar(L, h, keys):
        return 4.0 * L * h * keys
    return v.finish(4.0 * np.multiply(np.multiply(L, h), keys), L, h, keys)


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
    seq_len: float = 0.0
    causal: bool = CAUSAL_DEFAULT

    @property
    def attention_share(self) -> float:
        """attention / model (0..1)."""
        return self.attention / self.model

    @property
    def hardware_ratio(self) -> float:
        """hardware / model: HFU = MFU × this (1, up to 4/3 with full recompute)."""
        return self.hardware / self.model


def _check_recompute(recompute: str) -> None:
    if recompute not in RECOMPUTE_MODES:
        raise ValueError(f"recompute must be one of {', '.join(RECOMPUTE_MODES)}, got {recompute!r}")


def recompute_flops_per_token(n_params: float, attention_forward: float,
                              recompute: str = "none", seq_len: float = 0.0,
                              causal: bool = CAUSAL_DEFAULT) -> FlopsPerToken:
    """Training FLOP per token from active parameters N and forward attention FLOP A.

        model    = 6·N + 3·A                 (forward 1×, backward 2×)
        hardware = model                     recompute "none"
                 = 6·N + 4·A                 "selective" (core attention re-run, Korthikanti 2022)
                 = 8·N + 4·A                 "full" (one more forward pass)

    MFU uses ``model`` (PaLM's definition: recomputation is not useful work); HFU uses
    ``hardware``.  MosaicML's llm-foundry counts HFU with activation checkpointing as 4/3
    of both terms (= "full").  Sources: PaLM (2022) App. B; Korthikanti et al. 2022 §4-5.
    """
    _check_recompute(recompute)
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
                         recompute=recompute, attention_forward=a, active_params=n,
                         seq_len=float(seq_len), causal=causal)


def flops_per_token(arch: ModelArch, seq_len: Any = 0, causal: bool = CAUSAL_DEFAULT,
                    recompute: str = "none") -> FlopsPerToken:
    """Training FLOP per token of ``arch`` at ``seq_len``, for MFU and HFU   [FLOP/token].

        model    = 6·N_active + 3·A(s)       hardware: see :func:`recompute_flops_per_token`

    A = :func:`calc.arch.attention_flops_per_token` (forward; attention width heads ×
    head_dim; causal or not; sliding windows capped; MLA in its training, non-absorbed
    form).  A :func:`params_only_arch` (N given) gives A = 4·L·h·keys: the seed's
    6N + 12·L·h·s non-causal.  Scalar seq_len (0: no attention term, the seed's 6N).
    Sources: PaLM (2022) App. B; Korthikanti et al. 2022; Narayanan et al. 2021.
    """
    _check_recompute(recompute)
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    s = v.number("seq_len", seq_len, "non_negative", "tokens")
    if not isinstance(s, float):
        raise ValueError("seq_len must be a single number")
    attn_fwd = float(attention_flops_per_token(arch, s, causal))
    n = param_counts(arch).active
    return recompute_flops_per_token(n, attn_fwd, recompute, s, causal)
