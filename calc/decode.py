"""Decoding helpers that are not the step itself: bytes per weight of a precision, a
measured decode speed turned into bandwidth (MBU), and the batch-1 MFU rule of thumb.

The decode step, prefill, the knee and the memory fit live ONCE, in
:mod:`calc.inference` (records) and :mod:`calc.placement` (what each GPU holds, the one
memory rule); "Custom: parameters only" is :func:`calc.arch.params_only` there.  The seed's
143 tok/s (7B bf16 at 2 TB/s) is ``decode_step(params_only(7e9), 1, 0, ...)``.
Sources: seed chapter 04; Pope et al., "Efficiently Scaling Transformer Inference" (2022).
Units: bytes, bytes/s, FLOP/s, s.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import numpy as np

from . import _validate as v

__all__ = [
    "BYTES_PER_PARAM",
    "bytes_per_param",
    "achieved_bandwidth",
    "bandwidth_utilisation",
    "batch1_decode_mfu",
]

BYTES_PER_PARAM = MappingProxyType({
    "fp32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    "int4": 0.5,
})
"""Bytes per weight for common storage precisions (quantisation scales ignored)."""


def bytes_per_param(precision: str) -> float:
    """Bytes per parameter for a precision name (see BYTES_PER_PARAM): "bf16" -> 2.0."""
    if not isinstance(precision, str) or precision.lower() not in BYTES_PER_PARAM:
        raise ValueError(
            f"precision must be one of {', '.join(BYTES_PER_PARAM)}, got {precision!r}"
        )
    return BYTES_PER_PARAM[precision.lower()]


def achieved_bandwidth(tokens_per_s: Any, model_bytes: Any, batch: Any = 1, kv_bytes: Any = 0):
    """Memory bandwidth a decoder actually uses   [bytes/s].

        steps/s = tokens_per_s / batch;  bandwidth = steps/s × (model_bytes + kv_bytes)

    tokens_per_s is the whole batch's generation rate, kv_bytes the KV bytes
    read per step for the whole batch.  Divide by the device's mem_bw for the
    bandwidth utilisation (MBU).  Accepts arrays.  Source: seed chapter 04.
    """
    t = v.number("tokens_per_s", tokens_per_s, "non_negative", "tokens/s")
    mb = v.number("model_bytes", model_bytes, "positive", "bytes")
    B = v.number("batch", batch, "positive", "sequences")
    kv = v.number("kv_bytes", kv_bytes, "non_negative", "bytes")
    ins = (t, mb, B, kv)
    if v.is_scalar(*ins):
        return t / B * (mb + kv)
    return v.finish(np.divide(t, B) * np.add(mb, kv), *ins)


def bandwidth_utilisation(achieved_bw: Any, mem_bw: Any):
    """Memory-bandwidth utilisation (MBU) = achieved_bw / mem_bw   [0..1, > 1 means a wrong input].

    With :func:`achieved_bandwidth`: the share of the bandwidth bound a measured decoder
    reaches.  Accepts arrays.
    """
    a = v.number("achieved_bw", achieved_bw, "non_negative", "bytes/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    return v.finish(np.divide(a, bw) if not v.is_scalar(a, bw) else a / bw, a, bw)


def batch1_decode_mfu(bytes_per_param: Any, ridge: Any):
    """Best-case MFU of batch-1 decoding (no KV cache) = 2 / (bytes_per_param × ridge)   [0..1].

    One token costs 2·N FLOP and reads N·bytes_per_param bytes, so its intensity is
    2 / bytes_per_param FLOP/byte; on the memory slope attainable = intensity × mem_bw,
    and MFU = attainable / peak = intensity / ridge.  A100 80GB bf16: ridge
    312e12 / 2.039e12 = 153.0 FLOP/B ⇒ 2 / (2 × 153.0) = 0.65 %.  Accepts arrays.
    Source: seed chapter 04; Pope et al. 2022.
    """
    b = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    r = v.number("ridge", ridge, "positive", "FLOP/byte")
    if v.is_scalar(b, r):
        return 2.0 / (b * r)
    return v.finish(2.0 / np.multiply(b, r), b, r)

