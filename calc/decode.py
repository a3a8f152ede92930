"""Autoregressive decoding is bandwidth-bound: every step reads all the weights.

    fastest decode (batch 1) = mem_bw / model_bytes          [tokens/s]

Seed ("04 · Roofline 与 MFU", 四 ②): 7B in bf16 = 14 GB; A100 at 2 TB/s ⇒
2000 / 14 ≈ 143 tokens/s for one request.  This explains why quantisation speeds
decoding up directly (half the bytes ⇒ twice the speed) and why batching is
"free" (one read of the weights serves every sequence in the batch).

The step model used here (one decoding step for a batch of ``batch`` sequences):

    bytes read   = weights + KV cache = n_params·bytes_per_param + batch·kv_bytes_per_seq
    FLOP         = 2·n_params·batch                    (forward only, 2 per weight)
    step time    = max(bytes read / mem_bw, FLOP / peak_flops)       [s]
    tokens/s     = batch / step time

It ignores attention FLOP (small at decode), activations, kernel-launch and
communication overheads: a ceiling, not a prediction.  Sources: seed chapter 04;
Pope et al., "Efficiently Scaling Transformer Inference" (2022), §2;
Kwon et al., vLLM (2023) for the KV-cache size.  Units: bytes, bytes/s, FLOP/s, s.
"""

from __future__ import annotations

import math
from types import MappingProxyType
from typing import Any, Optional

import numpy as np

from . import _validate as v

__all__ = [
    "BYTES_PER_PARAM",
    "bytes_per_param",
    "model_bytes",
    "max_decode_tokens_per_s",
    "kv_cache_bytes",
    "decode_step_seconds",
    "decode_tokens_per_s",
    "critical_batch",
    "decode_intensity",
    "achieved_bandwidth",
    "fits_in_memory",
    "aggregate",
    "per_sequence_tokens_per_s",
    "decode_step_work",
    "decode_mfu",
    "bandwidth_utilisation",
    "max_batch_in_memory",
    "decode_memory_bytes",
    "batch1_decode_mfu",
    "batch_for_decode_mfu",
    "prefill_seconds",
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


def _mul(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = np.multiply(out, x) if not v.is_scalar(out, x) else out * x
    return out


def model_bytes(n_params: Any, bytes_per_param: Any):
    """Weight bytes = n_params × bytes_per_param   [bytes].

    Seed: 7e9 parameters × 2 bytes (bf16) = 14e9 bytes (14 GB).  Accepts arrays.
    """
    N = v.number("n_params", n_params, "positive", "parameters")
    b = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    return v.finish(_mul(N, b), N, b)


def max_decode_tokens_per_s(model_bytes: Any, mem_bw: Any, kv_bytes_per_seq: Any = 0):
    """Batch-1 decoding ceiling = mem_bw / (model_bytes + kv_bytes_per_seq)   [tokens/s].

    Every generated token reads all the weights once and, when the KV cache is
    counted, the request's whole cache (kv_bytes_per_seq, see :func:`kv_cache_bytes`
    with batch 1).  Seed: 2e12 B/s / 14e9 B ≈ 142.9 ≈ 143 tokens/s (7B bf16 on an
    A100, no KV).  Llama-2-70B bf16 on 8 × A100 80GB with a 128k context:
    16.312e12 / (140e9 + 42.95e9) ≈ 89.2 tokens/s (116.5 without the cache).
    Accepts arrays.  Source: seed chapter 04 ("理论最快解码速度 = 显存带宽 / 模型大小");
    Pope et al. 2022 §2 (the KV cache is read every step).
    """
    mb = v.number("model_bytes", model_bytes, "positive", "bytes")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    kv = v.number("kv_bytes_per_seq", kv_bytes_per_seq, "non_negative", "bytes")
    if v.is_scalar(mb, bw, kv):
        return bw / (mb + kv)
    return v.finish(np.divide(bw, np.add(mb, kv)), mb, bw, kv)


def kv_cache_bytes(n_layers: Any, n_kv_heads: Any, head_dim: Any, context_len: Any, batch: Any,
                   bytes_per_elem: Any):
    """KV-cache size = 2 × n_layers × n_kv_heads × head_dim × context_len × batch × bytes_per_elem.

    The 2 is for K and V.  n_kv_heads is the number of key/value heads (fewer than
    query heads with GQA/MQA).  Result in bytes; it is also what one decode step
    reads on top of the weights.  Accepts arrays.  Source: Pope et al. 2022; vLLM 2023.
    """
    L = v.number("n_layers", n_layers, "positive", "layers")
    H = v.number("n_kv_heads", n_kv_heads, "positive", "heads")
    d = v.number("head_dim", head_dim, "positive", "elements")
    c = v.number("context_len", context_len, "positive", "tokens")
    b = v.number("batch", batch, "positive", "sequences")
    e = v.number("bytes_per_elem", bytes_per_elem, "positive", "bytes")
    return v.finish(_mul(2.0, L, H, d, c, b, e), L, H, d, c, b, e)


def _step(batch, n_params, bytes_per_param, peak_flops, mem_bw, kv_bytes, kv_bytes_per_seq):
    B = v.number("batch", batch, "positive", "sequences")
    N = v.number("n_params", n_params, "positive", "parameters")
    bpp = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    kv = v.number("kv_bytes", kv_bytes, "non_negative", "bytes")
    kvs = v.number("kv_bytes_per_seq", kv_bytes_per_seq, "non_negative", "bytes")
    ins = (B, N, bpp, p, bw, kv, kvs)
    if v.is_scalar(*ins):
        t = max((N * bpp + kv + B * kvs) / bw, 2.0 * N * B / p)
    else:
        read = N * bpp + np.add(kv, np.multiply(B, kvs))
        t = np.maximum(np.divide(read, bw), np.divide(np.multiply(2.0 * N, B), p))
    return B, t, ins


def decode_step_seconds(batch: Any, n_params: Any, bytes_per_param: Any, peak_flops: Any, mem_bw: Any,
                        kv_bytes: Any = 0, *, kv_bytes_per_seq: Any = 0):
    """Time of one decoding step for ``batch`` sequences   [s].

        step = max((n_params·bytes_per_param + kv_bytes + batch·kv_bytes_per_seq) / mem_bw,
                   2·n_params·batch / peak_flops)

    kv_bytes: total KV-cache bytes read per step for the whole batch (scalar or an
    array broadcast with batch); kv_bytes_per_seq: the same per sequence (scaled by
    batch).  Pass one or the other.  Below the knee (:func:`critical_batch`) the
    memory term dominates and the step time barely grows with batch: batching is
    "free".  Accepts arrays.  Sources: seed chapter 04; Pope et al. 2022.
    """
    _, t, ins = _step(batch, n_params, bytes_per_param, peak_flops, mem_bw, kv_bytes, kv_bytes_per_seq)
    return v.finish(t, *ins)


def decode_tokens_per_s(batch: Any, n_params: Any, bytes_per_param: Any, peak_flops: Any, mem_bw: Any,
                          kv_bytes: Any = 0, *, kv_bytes_per_seq: Any = 0):
    """Generated tokens/s of the whole batch = batch / decode_step_seconds(...).

    Per-sequence speed is 1 / step time.  Batch 1 without KV reduces to
    mem_bw / model_bytes (seed: ≈ 143 tokens/s for 7B bf16 at 2 TB/s).
    Accepts arrays of batch sizes.  Sources: seed chapter 04; Pope et al. 2022.
    """
    B, t, ins = _step(batch, n_params, bytes_per_param, peak_flops, mem_bw, kv_bytes, kv_bytes_per_seq)
    return v.finish(np.divide(B, t) if not v.is_scalar(*ins) else B / t, *ins)


def critical_batch(n_params: Any, bytes_per_param: Any, peak_flops: Any, mem_bw: Any,
                   kv_bytes_per_seq: Any = 0):
    """Batch size at which decoding turns compute-bound (the knee)   [sequences].

    Setting the two terms of the step model equal,
        (W + b·k) / mem_bw = 2·N·b / peak_flops,   W = N·bytes_per_param, k = kv_bytes_per_seq
    gives
        b* = W·peak_flops / (2·N·mem_bw − k·peak_flops).
    Without KV (k = 0): b* = bytes_per_param·peak_flops / (2·mem_bw)
    = ridge_point × bytes_per_param / 2, e.g. A100 bf16: 156 × 2 / 2 = 156.
    If every sequence's KV read already costs more time than its FLOP
    (k·peak >= 2·N·mem_bw), decoding never turns compute-bound: returns ``inf``.
    The result is fractional; accepts arrays.  Sources: Pope et al. 2022; seed chapter 04.
    """
    N = v.number("n_params", n_params, "positive", "parameters")
    bpp = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    k = v.number("kv_bytes_per_seq", kv_bytes_per_seq, "non_negative", "bytes")
    ins = (N, bpp, p, bw, k)
    if v.is_scalar(*ins):
        den = 2.0 * N * bw - k * p
        return N * bpp * p / den if den > 0 else math.inf
    num = np.multiply(np.multiply(N, bpp), p)
    den = np.multiply(2.0 * np.asarray(N), bw) - np.multiply(k, p)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.inf)
    return v.finish(out, *ins)


def decode_intensity(batch: Any, bytes_per_param: Any, kv_bytes_per_seq: Any = 0,
                     n_params: Optional[Any] = None):
    """Arithmetic intensity of a decode step   [FLOP/byte].

        intensity = 2·N·batch / (N·bytes_per_param + batch·kv_bytes_per_seq)
                  ≈ 2·batch / bytes_per_param     (no KV; N cancels)

    Batch 1 in bf16: 2 / 2 = 1 FLOP/byte, far left of any ridge (A100: 156), hence
    decode MFU of only a few percent.  n_params is needed only when
    kv_bytes_per_seq > 0.  Accepts arrays.  Sources: seed chapter 04; Pope et al. 2022.
    """
    B = v.number("batch", batch, "positive", "sequences")
    bpp = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    k = v.number("kv_bytes_per_seq", kv_bytes_per_seq, "non_negative", "bytes")
    if n_params is None:
        if np.any(np.asarray(k) > 0):
            raise ValueError("n_params must be given (a finite number > 0) when kv_bytes_per_seq > 0")
        return v.finish(np.multiply(2.0, B) / bpp if not v.is_scalar(B, bpp) else 2.0 * B / bpp, B, bpp, k)
    N = v.number("n_params", n_params, "positive", "parameters")
    ins = (B, bpp, k, N)
    if v.is_scalar(*ins):
        return 2.0 * N * B / (N * bpp + B * k)
    return v.finish(np.multiply(2.0 * np.asarray(N), B) / (np.multiply(N, bpp) + np.multiply(B, k)), *ins)


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


def fits_in_memory(model_bytes: Any, memory_bytes: Any, kv_bytes: Any = 0, reserve_fraction: float = 0.0):
    """Whether weights + KV cache fit:  model_bytes + kv_bytes <= memory_bytes × (1 − reserve_fraction).

    reserve_fraction (0 <= r < 1) keeps room for activations, the CUDA context and
    fragmentation (e.g. 0.1).  Returns bool, or a bool array for array inputs.
    """
    mb = v.number("model_bytes", model_bytes, "non_negative", "bytes")
    mem = v.number("memory_bytes", memory_bytes, "positive", "bytes")
    kv = v.number("kv_bytes", kv_bytes, "non_negative", "bytes")
    r = v.number("reserve_fraction", reserve_fraction, "non_negative")
    if not isinstance(r, float) or r >= 1:
        raise ValueError(f"reserve_fraction must be a single number in [0, 1), got {reserve_fraction!r}")
    if v.is_scalar(mb, mem, kv):
        return bool(mb + kv <= mem * (1.0 - r))
    return np.asarray(np.add(mb, kv) <= np.multiply(mem, 1.0 - r))


def aggregate(per_gpu: Any, n_gpus: Any):
    """Tensor-parallel aggregate of a per-GPU figure (bandwidth, peak FLOP/s, memory)
    = per_gpu × n_gpus.

    Ideal scaling: with tensor parallelism every GPU holds 1/n of each weight matrix
    and reads only its share per step, so the group behaves like one device with n
    times the bandwidth, compute and memory.  Ignores the all-reduce per layer
    (a ceiling, not a prediction).  Accepts arrays.
    """
    x = v.number("per_gpu", per_gpu, "positive")
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    return v.finish(_mul(x, g), x, g)


def per_sequence_tokens_per_s(batch: Any, n_params: Any, bytes_per_param: Any, peak_flops: Any,
                                mem_bw: Any, kv_bytes: Any = 0, *, kv_bytes_per_seq: Any = 0):
    """Speed one request sees in a batch = 1 / decode_step_seconds(...)   [tokens/s].

    Flat below the knee (:func:`critical_batch`), falling as 1/batch above it.
    Accepts arrays.  Source: Pope et al. 2022.
    """
    t = decode_step_seconds(batch, n_params, bytes_per_param, peak_flops, mem_bw, kv_bytes,
                            kv_bytes_per_seq=kv_bytes_per_seq)
    return np.divide(1.0, t) if not v.is_scalar(t) else 1.0 / t


def decode_step_work(batch: Any, n_params: Any, bytes_per_param: Any, kv_bytes_per_seq: Any = 0):
    """(FLOP, bytes) of one decode step:  FLOP = 2·N·batch,
    bytes = N·bytes_per_param + batch·kv_bytes_per_seq.

    The point to put on a roofline (intensity = FLOP / bytes, see
    :func:`decode_intensity`).  Accepts arrays.
    """
    B = v.number("batch", batch, "positive", "sequences")
    N = v.number("n_params", n_params, "positive", "parameters")
    bpp = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    k = v.number("kv_bytes_per_seq", kv_bytes_per_seq, "non_negative", "bytes")
    ins = (B, N, bpp, k)
    flops = _mul(2.0, N, B)
    read = _mul(N, bpp) + _mul(B, k)
    return v.finish(flops, *ins), v.finish(read, *ins)


def decode_mfu(batch: Any, n_params: Any, bytes_per_param: Any, peak_flops: Any, mem_bw: Any,
               kv_bytes_per_seq: Any = 0):
    """Best-case MFU of decoding = step FLOP / (step time × peak_flops)   [0..1].

    Batch 1, 7B bf16 on an A100 (312 TFLOP/s, 2.039 TB/s): 1.4e10 FLOP in
    14e9 / 2.039e12 s ⇒ 2.04 TFLOP/s ⇒ 0.65 %: decode MFU is low by physics.
    Accepts arrays.  Source: seed chapter 04.
    """
    flops, _ = decode_step_work(batch, n_params, bytes_per_param, kv_bytes_per_seq)
    t = decode_step_seconds(batch, n_params, bytes_per_param, peak_flops, mem_bw,
                            kv_bytes_per_seq=kv_bytes_per_seq)
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    return np.divide(flops, _mul(t, p)) if not v.is_scalar(flops, t, p) else flops / (t * p)


def bandwidth_utilisation(achieved_bw: Any, mem_bw: Any):
    """Memory-bandwidth utilisation (MBU) = achieved_bw / mem_bw   [0..1, > 1 means a wrong input].

    With :func:`achieved_bandwidth`: the share of the bandwidth bound a measured decoder
    reaches.  Accepts arrays.
    """
    a = v.number("achieved_bw", achieved_bw, "non_negative", "bytes/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    return v.finish(np.divide(a, bw) if not v.is_scalar(a, bw) else a / bw, a, bw)


def max_batch_in_memory(model_bytes: Any, memory_bytes: Any, kv_bytes_per_seq: Any,
                        reserve_fraction: float = 0.0) -> float:
    """Largest batch whose weights + KV cache fit   [sequences, a whole number].

        b_fit = floor((memory_bytes × (1 − reserve_fraction) − model_bytes) / kv_bytes_per_seq)

    0 when the weights alone do not fit; ``inf`` when kv_bytes_per_seq is 0 (the KV
    cache is not counted, so memory puts no limit on the batch).  The inverse of
    :func:`fits_in_memory`.  E.g. Llama-2-70B bf16 (140e9 B) on 8 × 80 GiB
    (687.2e9 B), 128k context (42.95e9 B per request): floor(547.2 / 42.95) = 12.
    Scalars only.  Source: Kwon et al., vLLM (2023): the cache, not compute, caps the batch.
    """
    mb = v.number("model_bytes", model_bytes, "non_negative", "bytes")
    mem = v.number("memory_bytes", memory_bytes, "positive", "bytes")
    k = v.number("kv_bytes_per_seq", kv_bytes_per_seq, "non_negative", "bytes")
    r = v.number("reserve_fraction", reserve_fraction, "non_negative")
    if not all(isinstance(x, float) for x in (mb, mem, k, r)) or r >= 1:
        raise ValueError("max_batch_in_memory takes single numbers, reserve_fraction in [0, 1)")
    room = mem * (1.0 - r) - mb
    if room < 0:
        return 0.0
    if k == 0:
        return math.inf
    return float(math.floor(room / k * (1 + 1e-12)))


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


def batch_for_decode_mfu(target_mfu: Any, n_params: Any, bytes_per_param: Any, peak_flops: Any,
                         mem_bw: Any, kv_bytes_per_seq: Any = 0):
    """Batch at which best-case decode MFU reaches ``target_mfu`` (0 < target <= 1)   [sequences].

    Below the knee MFU(b) = 2·N·b·mem_bw / ((W + b·k)·peak_flops), W = N·bytes_per_param,
    k = kv_bytes_per_seq; solving MFU(b) = m gives

        b = m·W·peak_flops / (2·N·mem_bw − m·k·peak_flops)

    (``inf`` when the KV reads keep MFU below m at any batch).  Without KV this is
    m × bytes_per_param × ridge / 2: A100 80GB bf16 (ridge 153.0) reaches 1 % at batch
    1.53 and 5 % at batch 7.65; m = 1 gives the knee (:func:`critical_batch`).
    Fractional; accepts arrays.  Source: seed chapter 04; Pope et al. 2022.
    """
    m = v.number("target_mfu", target_mfu, "fraction")
    N = v.number("n_params", n_params, "positive", "parameters")
    bpp = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    k = v.number("kv_bytes_per_seq", kv_bytes_per_seq, "non_negative", "bytes")
    ins = (m, N, bpp, p, bw, k)
    if v.is_scalar(*ins):
        den = 2.0 * N * bw - m * k * p
        return m * N * bpp * p / den if den > 0 else math.inf
    num = np.multiply(np.multiply(np.multiply(m, N), bpp), p)
    den = np.multiply(2.0 * np.asarray(N), bw) - np.multiply(np.multiply(m, k), p)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(den > 0, num / np.where(den > 0, den, 1.0), np.inf)
    return v.finish(out, *ins)


def decode_memory_bytes(model_bytes: Any, kv_bytes_per_seq: Any = 0, batch: Any = 1):
    """Memory a decoding batch needs = model_bytes + batch × kv_bytes_per_seq   [bytes].

    What :func:`fits_in_memory` compares with the device memory, and what the page shows
    instead of a throughput the memory cannot hold.  Accepts arrays.
    """
    mb = v.number("model_bytes", model_bytes, "non_negative", "bytes")
    k = v.number("kv_bytes_per_seq", kv_bytes_per_seq, "non_negative", "bytes")
    B = v.number("batch", batch, "positive", "sequences")
    if v.is_scalar(mb, k, B):
        return mb + B * k
    return v.finish(np.add(mb, np.multiply(B, k)), mb, k, B)


def prefill_seconds(prompt_len: Any, n_params: Any, bytes_per_param: Any, peak_flops: Any,
                    mem_bw: Any, batch: Any = 1):
    """Time-to-first-token bound from a bare parameter count   [s].

        prefill = max(2·n_params·prompt_len·batch / peak_flops,
                      n_params·bytes_per_param / mem_bw)

    Prefill processes every prompt token at once, so it is compute-bound (2 FLOP per
    weight per token) unless the prompt is so short that reading the weights once takes
    longer.  Ignores the attention FLOP and the KV-cache write; with an architecture use
    :func:`calc.models.prefill_seconds` (attention included).  7B bf16, prompt 1024, on
    an A100 (312 TFLOP/s, 2.039 TB/s): 1.434e13 / 3.12e14 = 46 ms > 14e9 / 2.039e12 =
    6.9 ms.  Accepts arrays.  Source: Pope et al. 2022, §2.
    """
    s = v.number("prompt_len", prompt_len, "positive", "tokens")
    N = v.number("n_params", n_params, "positive", "parameters")
    bpp = v.number("bytes_per_param", bytes_per_param, "positive", "bytes")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    B = v.number("batch", batch, "positive", "sequences")
    ins = (s, N, bpp, p, bw, B)
    if v.is_scalar(*ins):
        return max(2.0 * N * s * B / p, N * bpp / bw)
    return v.finish(np.maximum(np.divide(_mul(2.0, N, s, B), p), np.divide(_mul(N, bpp), bw)), *ins)
