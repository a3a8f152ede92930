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

"Custom: parameters only" is :class:`ParamsOnlyArch`: a dense architecture with N given
(and, when known, L layers of width h for the attention term), not a second code path:
A = Σ_layers 2·keys·(h + h) = 4·L·h·keys, so model = 6N + 12·L·h·s non-causal (the seed's
formula) or 6N + 6·L·h·s causal.  The seed's 7B: 6 × 7e9 = 42 GFLOP per token.

Sources: seed chapter "04 · Roofline 与 MFU" (6N + 12·L·h·s); Kaplan et al. 2020 §2.1;
PaLM (Chowdhery et al. 2022) App. B (MFU vs HFU); Korthikanti et al. 2022 §5 (selective
recompute); Narayanan et al. 2021 (eq. 3: 8N with full recompute).  Units: FLOP per token.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

import numpy as np

from . import _validate as v
from .arch import ModelArch, attention_flops_per_token, keys_per_query, param_counts

__all__ = ["CAUSAL_DEFAULT", "RECOMPUTE_MODES", "ParamsOnlyArch", "FlopsPerToken",
           "flops_per_token", "recompute_flops_per_token", "params_only_attention_forward"]

CAUSAL_DEFAULT = True
"""The one causal-attention default of every page, plan and lesson (s/2 keys per query)."""

RECOMPUTE_MODES = ("none", "selective", "full")
"""Activation recomputation: none; selective (core attention recomputed, Korthikanti
et al. 2022 §5); full (every layer's forward pass recomputed in the backward pass)."""


@dataclass(frozen=True)
class ParamsOnlyArch:
    """"Custom: parameters only": a dense architecture given by its parameter count N
    (all active), with ``n_layers`` × ``d_model`` for the attention term (0: 6N alone)."""

    n_params: float
    n_layers: float = 0.0
    d_model: float = 0.0
    name: str = ""

    def __post_init__(self):
        v.number("n_params", self.n_params, "positive", "parameters")
        v.number("n_layers", self.n_layers, "non_negative", "layers")
        v.number("d_model", self.d_model, "non_negative", "hidden size")


Arch = Union[ModelArch, ParamsOnlyArch]


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
    return v.finish(4.0 * np.multiply(np.multiply(L, h), keys), L, h)


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


def flops_per_token(arch: Arch, seq_len: Any = 0, causal: bool = CAUSAL_DEFAULT,
                    recompute: str = "none") -> FlopsPerToken:
    """Training FLOP per token of ``arch`` at ``seq_len``, for MFU and HFU   [FLOP/token].

        model    = 6·N_active + 3·A(s)       hardware: see :func:`recompute_flops_per_token`

    A = :func:`calc.arch.attention_flops_per_token` (forward; attention width heads ×
    head_dim; causal or not; sliding windows capped; MLA in its training, non-absorbed
    form).  A :class:`ParamsOnlyArch` gives A = 4·L·h·keys (0 without L and h): the seed's
    6N + 12·L·h·s non-causal.  Scalar seq_len (0: no attention term).
    Sources: PaLM (2022) App. B; Korthikanti et al. 2022; Narayanan et al. 2021.
    """
    _check_recompute(recompute)
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    s = v.number("seq_len", seq_len, "non_negative", "tokens")
    if not isinstance(s, float):
        raise ValueError("seq_len must be a single number")
    if isinstance(arch, ParamsOnlyArch):
        attn_fwd = float(params_only_attention_forward(arch.n_layers, arch.d_model, s, causal))
        n = float(arch.n_params)
    else:
        attn_fwd = float(attention_flops_per_token(arch, s, causal))
        n = param_counts(arch).active
    return recompute_flops_per_token(n, attn_fwd, recompute, s, causal)
