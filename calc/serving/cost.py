"""What a token costs: money per million output tokens and energy per token.

    $/Mtok   = price per GPU-hour ÷ (tokens/s per GPU × 3600 / 1e6)
    J/token  = watts per GPU ÷ tokens/s per GPU

H100 at $1.30 per GPU-hour and 2,568 tokens/s per GPU: 1.30 / (2568 × 3600 / 1e6) =
1.30 / 9.2448 = $0.1406 per million tokens.  Watts: the board's TDP (hardware.toml
``tdp_w``), or an "all-in" facility figure per GPU (InferenceX: H100 1.73 kW, H200 1.73,
B200 2.17 — cooling, CPUs, network and power conversion included).
Source: SemiAnalysis InferenceX (cost formula and its price / power constants).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import _validate as v

__all__ = ["INFERENCEX_PRICE_PER_GPU_HOUR", "INFERENCEX_ALL_IN_KW", "cost_per_mtok", "joules_per_token"]

INFERENCEX_PRICE_PER_GPU_HOUR = {
    # device id: (hyperscaler, neocloud, 3-year) USD per GPU-hour (InferenceX price constants)
    "h100-sxm": (1.30, 1.69, 1.30),
    "h200-sxm": (1.41, 1.74, 1.60),
    "b200": (1.95, 2.34, 2.90),
}
"""USD per GPU-hour, as SemiAnalysis InferenceX prices them (reference/published-figures.md)."""

INFERENCEX_ALL_IN_KW = {"h100-sxm": 1.73, "h200-sxm": 1.73, "b200": 2.17}
"""All-in kW per GPU (facility, not TDP), InferenceX."""


def cost_per_mtok(price_per_gpu_hour: Any, tokens_per_s_per_gpu: Any):
    """Money per million output tokens = price / (tokens/s per GPU · 3600 / 1e6)  [currency/Mtok].

    Accepts arrays.  Source: InferenceX.
    """
    p = v.number("price_per_gpu_hour", price_per_gpu_hour, "non_negative", "per GPU-hour")
    tps = v.number("tokens_per_s_per_gpu", tokens_per_s_per_gpu, "positive", "tokens/s")
    mtok_per_hour = np.multiply(tps, 3600.0 / 1e6)
    return v.finish(np.divide(p, mtok_per_hour), p, tps)


def joules_per_token(watts_per_gpu: Any, tokens_per_s_per_gpu: Any):
    """Energy per output token = watts per GPU / tokens/s per GPU   [J/token].

    Accepts arrays.  Source: definition (1 W = 1 J/s).
    """
    w = v.number("watts_per_gpu", watts_per_gpu, "non_negative", "W")
    tps = v.number("tokens_per_s_per_gpu", tokens_per_s_per_gpu, "positive", "tokens/s")
    return v.finish(np.divide(w, tps), w, tps)
