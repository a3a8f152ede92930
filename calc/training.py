"""How long, how many GPUs, and how much a training run costs.

    training FLOP  C = 6·N·D                       (N parameters, D tokens)
    time           T = C / (n_gpus × peak_flops × MFU)

Sources: seed chapter "04 · Roofline 与 MFU" (section 四 ①: 7B, 1T tokens, 64 × A100,
MFU 45 % ⇒ ≈ 54 days; 25 % ⇒ ≈ 97 days); Kaplan et al. 2020 (C ≈ 6ND);
Hoffmann et al., "Training Compute-Optimal Large Language Models" (Chinchilla,
2022: ≈ 20 tokens per parameter).  Units: counts, FLOP, FLOP/s, seconds; MFU 0..1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from . import _validate as v

__all__ = [
    "SECONDS_PER_DAY",
    "SECONDS_PER_HOUR",
    "CHINCHILLA_TOKENS_PER_PARAM",
    "training_flops",
    "training_seconds",
    "gpus_for_deadline",
    "gpu_hours",
    "mfu_from_gpu_hours",
    "training_cost",
    "tokens_for_params",
    "days",
    "seconds_from_days",
    "MfuGain",
    "mfu_gain",
    "TrainingRun",
    "training_run",
    "days_curve",
]

SECONDS_PER_DAY = 86400.0
SECONDS_PER_HOUR = 3600.0
CHINCHILLA_TOKENS_PER_PARAM = 20.0
"""Compute-optimal tokens per parameter, Hoffmann et al. 2022 (Chinchilla)."""


def _mul(*xs):
    out = xs[0]
    for x in xs[1:]:
        out = np.multiply(out, x) if not v.is_scalar(out, x) else out * x
    return out


def _flops(n_params, n_tokens, flops_per_token):
    N = v.number("n_params", n_params, "positive", "parameters")
    D = v.number("n_tokens", n_tokens, "positive", "tokens")
    if flops_per_token is None:
        return (N, D), _mul(6.0, N, D)
    fpt = v.number("flops_per_token", flops_per_token, "positive", "FLOP/token")
    return (N, D, fpt), _mul(fpt, D)


def training_flops(n_params: Any, n_tokens: Any, flops_per_token: Optional[Any] = None):
    """Total training FLOP  C = 6·N·D  (or flops_per_token·D when given)   [FLOP].

    6 = forward 2N + backward 4N per token (see calc.mfu.training_flops_per_token).
    Seed: 6 × 7e9 × 1e12 = 4.2e22 FLOP.  Accepts arrays.  Sources: seed chapter 04;
    Kaplan et al. 2020 §2.1.
    """
    ins, c = _flops(n_params, n_tokens, flops_per_token)
    return v.finish(c, *ins)


def training_seconds(n_params: Any, n_tokens: Any, n_gpus: Any, peak_flops: Any, mfu: Any,
                     flops_per_token: Optional[Any] = None):
    """Wall-clock training time  T = 6·N·D / (n_gpus × peak_flops × mfu)   [s].

    peak_flops: dense per-GPU FLOP/s; mfu: fraction in (0, 1].  Accepts arrays
    (e.g. a curve over MFU).  Seed: 6·7e9·1e12 / (64·312e12·0.45)
    = 4.2e22 / 8.9856e15 ≈ 4.67e6 s ≈ 54 days; at MFU 0.25 ≈ 97 days.
    Source: seed chapter 04 (四 ①).
    """
    ins, c = _flops(n_params, n_tokens, flops_per_token)
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    m = v.number("mfu", mfu, "fraction")
    return v.finish(np.divide(c, _mul(g, p, m)), *ins, g, p, m)


def gpus_for_deadline(n_params: Any, n_tokens: Any, seconds: Any, peak_flops: Any, mfu: Any,
                      flops_per_token: Optional[Any] = None):
    """GPUs needed to finish within ``seconds``:  n = 6·N·D / (seconds × peak_flops × mfu).

    The inverse of :func:`training_seconds`.  Returns a fractional count; round it
    up (math.ceil / np.ceil) for a real cluster.  Accepts arrays.  Source: seed chapter 04.
    """
    ins, c = _flops(n_params, n_tokens, flops_per_token)
    s = v.number("seconds", seconds, "positive", "s")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    m = v.number("mfu", mfu, "fraction")
    return v.finish(np.divide(c, _mul(s, p, m)), *ins, s, p, m)


def gpu_hours(n_params: Any, n_tokens: Any, peak_flops: Any, mfu: Any,
              flops_per_token: Optional[Any] = None):
    """GPU-hours of a run = 6·N·D / (peak_flops × mfu) / 3600   [GPU·h].

    Equal to n_gpus × training_seconds / 3600 for any n_gpus: the machine time does
    not depend on how many GPUs share it (at constant MFU).  Accepts arrays.
    Source: seed chapter 04 ("在开始训练之前就能估算成本").
    """
    ins, c = _flops(n_params, n_tokens, flops_per_token)
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    m = v.number("mfu", mfu, "fraction")
    return v.finish(np.divide(c, _mul(p, m, SECONDS_PER_HOUR)), *ins, p, m)


def training_cost(gpu_hours: Any, price_per_gpu_hour: Any):
    """Cost = gpu_hours × price_per_gpu_hour  (in the price's currency; >= 0 each).

    Accepts arrays.  Source: seed chapter 04 (MFU 25 % → 45 % saves the difference).
    """
    h = v.number("gpu_hours", gpu_hours, "non_negative", "GPU-hours")
    pr = v.number("price_per_gpu_hour", price_per_gpu_hour, "non_negative", "currency per GPU-hour")
    return v.finish(_mul(h, pr), h, pr)


def tokens_for_params(n_params: Any, tokens_per_param: Any = CHINCHILLA_TOKENS_PER_PARAM):
    """Compute-optimal training tokens D ≈ tokens_per_param × N (Chinchilla: 20).

    Accepts arrays.  Source: Hoffmann et al. 2022, "Training Compute-Optimal Large
    Language Models" (≈ 20 tokens per parameter).
    """
    N = v.number("n_params", n_params, "positive", "parameters")
    k = v.number("tokens_per_param", tokens_per_param, "positive", "tokens per parameter")
    return v.finish(_mul(N, k), N, k)


def days(seconds: Any):
    """Seconds → days (seconds / 86 400).  Accepts arrays; seconds >= 0."""
    s = v.number("seconds", seconds, "non_negative", "s")
    return v.finish(np.divide(s, SECONDS_PER_DAY) if not isinstance(s, float) else s / SECONDS_PER_DAY, s)


def seconds_from_days(n_days: Any):
    """Days → seconds (n_days × 86 400), the inverse of :func:`days`.  Accepts arrays; > 0."""
    d = v.number("n_days", n_days, "positive", "days")
    return v.finish(_mul(d, SECONDS_PER_DAY), d)


class MfuGain(tuple):
    """What moving from ``mfu_from`` to ``mfu_to`` changes: (days, gpu_hours, cost) saved.

    Fields ``days``, ``gpu_hours``, ``cost`` (positive when ``mfu_to`` is faster).
    """

    __slots__ = ()

    def __new__(cls, days_saved: float, gpu_hours_saved: float, cost_saved: float):
        return tuple.__new__(cls, (days_saved, gpu_hours_saved, cost_saved))

    days = property(lambda self: self[0])
    gpu_hours = property(lambda self: self[1])
    cost = property(lambda self: self[2])


def mfu_gain(n_params: Any, n_tokens: Any, n_gpus: Any, peak_flops: Any, mfu_from: float,
             mfu_to: float, price_per_gpu_hour: float = 0.0,
             flops_per_token: Optional[Any] = None) -> MfuGain:
    """Days, GPU-hours and money saved by raising MFU from ``mfu_from`` to ``mfu_to``.

        days saved      = days(T(mfu_from)) − days(T(mfu_to))       (T = training_seconds)
        GPU-hours saved = gpu_hours(mfu_from) − gpu_hours(mfu_to)
        cost saved      = GPU-hours saved × price_per_gpu_hour

    Scalars only.  Seed: 7B, 1T tokens, 64 × 312 TFLOP/s, 25 % → 45 %:
    97.38 − 54.10 ≈ 43.3 days (the seed's "差了 43 天").  flops_per_token as in
    :func:`training_flops` (default 6·N).  Source: seed chapter 04.
    """
    fpt = flops_per_token
    d_from = days(training_seconds(n_params, n_tokens, n_gpus, peak_flops, mfu_from, fpt))
    d_to = days(training_seconds(n_params, n_tokens, n_gpus, peak_flops, mfu_to, fpt))
    h_from = gpu_hours(n_params, n_tokens, peak_flops, mfu_from, fpt)
    h_to = gpu_hours(n_params, n_tokens, peak_flops, mfu_to, fpt)
    saved_h = h_from - h_to
    price = v.number("price_per_gpu_hour", price_per_gpu_hour, "non_negative", "currency per GPU-hour")
    return MfuGain(d_from - d_to, saved_h, saved_h * price)


def mfu_from_gpu_hours(n_params: Any, n_tokens: Any, gpu_hours: Any, peak_flops: Any,
                       flops_per_token: Optional[Any] = None):
    """The MFU a run's GPU-hours imply: the inverse of :func:`gpu_hours`   [fraction].

        MFU = 6·N·D / (gpu_hours × 3600 × peak_flops)     (or flops_per_token·D on top)

    Check a published run: its GPU-hours, tokens and model give the MFU it reached.
    A result above 1 means the inputs are inconsistent (wrong peak, tokens or hours).
    Accepts arrays.  Source: seed chapter 04 (GPU-hours = C / (peak × MFU) / 3600).
    """
    ins, c = _flops(n_params, n_tokens, flops_per_token)
    h = v.number("gpu_hours", gpu_hours, "positive", "GPU-hours")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    return v.finish(np.divide(c, _mul(h, SECONDS_PER_HOUR, p)), *ins, h, p)


# ----------------------------------------------------------------------------- the record

@dataclass(frozen=True)
class TrainingRun:
    """A planned training run, every number the Training page and Plans show.

    flops (:class:`calc.training_flops.FlopsPerToken`), n_tokens, n_gpus, peak_flops,
    mfu as given; total_flops C = flops.model × D [FLOP]; seconds, days; gpu_hours; cost
    (None without a price); hfu = mfu × flops.hardware / flops.model and its verdict
    (:func:`calc.mfu.utilisation_verdict`: "hfu_impossible" when recomputation would need
    more than the peak); deadline_days → gpus_for_deadline (fractional; round up) and
    one_gpu_seconds; published_gpu_hours → implied_mfu and implied_verdict
    ("mfu_impossible" above 100 %); compare_mfu → compare_seconds, compare_days and the
    gain (:class:`MfuGain`) of moving from compare_mfu to mfu.
    """

    flops: Any
    n_tokens: float
    n_gpus: float
    peak_flops: float
    mfu: float
    total_flops: float
    seconds: float
    days: float
    gpu_hours: float
    cost: Optional[float]
    price_per_gpu_hour: Optional[float]
    hfu: float
    verdict: str
    causes: tuple
    deadline_days: Optional[float] = None
    gpus_for_deadline: Optional[float] = None
    gpus_for_deadline_whole: Optional[int] = None
    one_gpu_seconds: Optional[float] = None
    published_gpu_hours: Optional[float] = None
    implied_mfu: Optional[float] = None
    implied_verdict: Optional[str] = None
    compare_mfu: Optional[float] = None
    compare_seconds: Optional[float] = None
    compare_days: Optional[float] = None
    saved_seconds: Optional[float] = None
    gain: Optional[MfuGain] = None


def training_run(flops, n_tokens: float, n_gpus: float, peak_flops: float, mfu: float, *,
                 price_per_gpu_hour: Optional[float] = None,
                 deadline_days: Optional[float] = None,
                 published_gpu_hours: Optional[float] = None,
                 compare_mfu: Optional[float] = None) -> TrainingRun:
    """Days, GPU-hours, cost, HFU and the inverse questions of one training run.

        C = flops.model · D                         T = C / (n_gpus · peak · MFU)
        GPU·h = C / (peak · MFU) / 3600             cost = GPU·h · price
        HFU = MFU · flops.hardware / flops.model    (> 1: impossible, the recompute can't fit)
        GPUs for a deadline = C / (deadline · peak · MFU)
        MFU implied by GPU·h = C / (GPU·h · 3600 · peak)

    flops from :func:`calc.training_flops.flops_per_token` (the one count; a
    ``params_only_arch`` at seq_len 0 gives the seed's 6N).  Seed: 7B, 1T tokens, 64 × A100 (312e12),
    MFU 45 % → 4.2e22 FLOP, 54.1 days; 25 % → 97.4 days.  Scalars.
    Sources: seed chapter 04; Kaplan et al. 2020; PaLM (2022) App. B (HFU).
    """
    from .mfu import utilisation_verdict

    N, fpt = flops.active_params, flops.model
    secs = float(training_seconds(N, n_tokens, n_gpus, peak_flops, mfu, fpt))
    hours = float(gpu_hours(N, n_tokens, peak_flops, mfu, fpt))
    cost = None if price_per_gpu_hour is None else float(training_cost(hours, price_per_gpu_hour))
    hfu = float(mfu) * flops.hardware_ratio
    verdict, causes = utilisation_verdict(float(mfu), hfu)
    need = one = None
    if deadline_days is not None:
        need = float(gpus_for_deadline(N, n_tokens, seconds_from_days(deadline_days), peak_flops,
                                       mfu, fpt))
        one = float(training_seconds(N, n_tokens, 1, peak_flops, mfu, fpt))
    implied = implied_verdict = None
    if published_gpu_hours is not None:
        implied = float(mfu_from_gpu_hours(N, n_tokens, published_gpu_hours, peak_flops, fpt))
        implied_verdict = "mfu_impossible" if implied > 1.0 else "ok"
    c_secs = c_days = gain = None
    if compare_mfu is not None:
        c_secs = float(training_seconds(N, n_tokens, n_gpus, peak_flops, compare_mfu, fpt))
        c_days = float(days(c_secs))
        gain = mfu_gain(N, n_tokens, n_gpus, peak_flops, compare_mfu, mfu,
                        price_per_gpu_hour=price_per_gpu_hour or 0.0, flops_per_token=fpt)
    return TrainingRun(flops=flops, n_tokens=float(n_tokens), n_gpus=float(n_gpus),
                       peak_flops=float(peak_flops), mfu=float(mfu),
                       total_flops=float(training_flops(N, n_tokens, fpt)), seconds=secs,
                       days=float(days(secs)), gpu_hours=hours, cost=cost,
                       price_per_gpu_hour=price_per_gpu_hour, hfu=hfu, verdict=verdict,
                       causes=causes, deadline_days=deadline_days, gpus_for_deadline=need,
                       gpus_for_deadline_whole=None if need is None else math.ceil(need),
                       one_gpu_seconds=one, published_gpu_hours=published_gpu_hours,
                       implied_mfu=implied, implied_verdict=implied_verdict,
                       compare_mfu=compare_mfu, compare_seconds=c_secs, compare_days=c_days,
                       saved_seconds=None if c_secs is None else c_secs - secs, gain=gain)


def days_curve(flops, n_tokens: float, n_gpus: float, peak_flops: float, mfu_grid):
    """Days of the run at each MFU of ``mfu_grid`` (array), for the days-vs-MFU chart   [days].

    days = flops.model · D / (n_gpus · peak · MFU) / 86 400.  Source: seed chapter 04.
    """
    return days(training_seconds(flops.active_params, n_tokens, n_gpus, peak_flops, mfu_grid,
                                 flops.model))
