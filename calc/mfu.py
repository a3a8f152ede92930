"""Model FLOPs Utilisation (MFU): how far a training run is from the ceiling.

    MFU = (FLOP per token × tokens/s) / (n_gpus × peak FLOP/s)

with FLOP per token ≈ 6·N for a dense transformer (N parameters), plus the
attention term 12·L·h·s for long sequences.  Sources: the seed chapter
"04 · Roofline 与 MFU"; J. Kaplan et al., "Scaling Laws for Neural Language
Models" (2020), §2.1 (C ≈ 6N per token); A. Chowdhery et al., "PaLM" (2022),
Appendix B (MFU definition, 6N + 12·L·H·Q·T); nanoGPT ``estimate_mfu``.
Units: parameters and tokens are plain counts, FLOP/s, seconds; MFU is 0..1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from . import _validate as v
from .training_flops import CAUSAL_DEFAULT, FlopsPerToken, params_only_attention_forward

__all__ = [
    "ATTENTION_WARNING_SEQ_LEN",
    "MFU_PROBLEM_BELOW",
    "MFU_LOW_BELOW",
    "MFU_FAIR_BELOW",
    "MFU_GOOD_BELOW",
    "MFU_EXCELLENT_UP_TO",
    "MFU_BANDS",
    "MfuBand",
    "training_flops_per_token",
    "attention_flops_share",
    "mfu",
    "mfu_band",
    "required_tokens_per_s",
    "achieved_flops_per_gpu",
    "tokens_per_s_per_gpu",
    "per_gpu_mix_up",
    "IMPOSSIBLE_MFU_CAUSES",
    "IMPOSSIBLE_HFU_CAUSES",
    "MeasuredMfu",
    "utilisation_verdict",
    "measured_mfu",
]

ATTENTION_WARNING_SEQ_LEN = 8192
"""From this sequence length on the 12·L·h·s attention term should not be ignored
(seed: "序列 ≥ 8K 时这一项不能忽略")."""

# Band bounds (fractions).  Seed chapter 04, "MFU 该是多少".
MFU_PROBLEM_BELOW = 0.20    # < 20 %: something is clearly wrong (data pipeline first)
MFU_LOW_BELOW = 0.35        # 20–35 %: low (checkpointing, communication, fusion)
MFU_FAIR_BELOW = 0.45       # 35–45 %: fair, room for the usual optimisations
MFU_GOOD_BELOW = 0.55       # 45–55 %: good
MFU_EXCELLENT_UP_TO = 0.60  # 55–60 %: excellent; > 60 %: suspicious (check the formula, or FP8)


@dataclass(frozen=True)
class MfuBand:
    """An MFU band: ``key`` (translated advice lives in the UI), bounds as fractions.

    A value belongs to the band when lower <= value < upper, except "excellent",
    which includes its upper bound 0.60 (the seed: "55–60% 优秀", "> 60% 检查你的公式").
    """

    key: str
    lower: float
    upper: float


MFU_BANDS = (
    MfuBand("problem", 0.0, MFU_PROBLEM_BELOW),
    MfuBand("low", MFU_PROBLEM_BELOW, MFU_LOW_BELOW),
    MfuBand("fair", MFU_LOW_BELOW, MFU_FAIR_BELOW),
    MfuBand("good", MFU_FAIR_BELOW, MFU_GOOD_BELOW),
    MfuBand("excellent", MFU_GOOD_BELOW, MFU_EXCELLENT_UP_TO),
    MfuBand("suspicious", MFU_EXCELLENT_UP_TO, math.inf),
)


def _attention_term(L, h, s, causal: bool):
    """Training attention FLOP per token = 3 × forward (calc.training_flops, one formula)."""
    return 3.0 * params_only_attention_forward(L, h, s, causal)


def _shape(n_params, n_layers, d_model, seq_len, causal):
    """The checked (N, L, h, s) of the attention-aware FLOP count; ``causal`` a bool."""
    N = v.number("n_params", n_params, "positive", "parameters")
    L = v.number("n_layers", n_layers, "non_negative", "layers")
    h = v.number("d_model", d_model, "non_negative", "hidden size")
    s = v.number("seq_len", seq_len, "non_negative", "tokens")
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    return N, L, h, s


def training_flops_per_token(n_params: Any, n_layers: Any = 0, d_model: Any = 0, seq_len: Any = 0,
                             causal: bool = CAUSAL_DEFAULT):
    """Training FLOP per token ≈ 6·N + 12·L·h·s   [FLOP/token].

    Why 6: for each weight matrix W (m×n, i.e. m·n parameters) and one token the
    forward pass y = W·x costs 2·m·n FLOP (a multiply and an add), the backward pass
    costs two more such products -- the gradient w.r.t. the input (Wᵀ·∂y) and
    w.r.t. the weights (∂y·xᵀ) -- so forward 2N + backward 4N = 6N.

    The 6N rule ignores attention's O(s²) part (QKᵀ and attention·V).  Its cost per
    token is 12·L·h·s (L layers, h = d_model, s = sequence length): forward 2·2·L·s·h,
    times 3 for forward + backward.  It matters for long sequences, from about
    s ≥ 8K (``ATTENTION_WARNING_SEQ_LEN``); with ``causal=True`` (the one default,
    ``calc.training_flops.CAUSAL_DEFAULT``) it is halved (a causal mask skips half of the
    score matrix, as FlashAttention does).  Leave n_layers, d_model, seq_len at 0 for plain
    6N.  Accepts arrays; the record version is ``calc.training_flops.flops_per_token`` of a
    ``params_only_arch`` (same formula).
    Sources: seed chapter 04; Kaplan et al. 2020 §2.1; PaLM (Chowdhery et al. 2022) App. B.
    """
    N, L, h, s = _shape(n_params, n_layers, d_model, seq_len, causal)
    return v.finish(6.0 * N + _attention_term(L, h, s, causal), N, L, h, s)


def attention_flops_share(n_params: Any, n_layers: Any, d_model: Any, seq_len: Any,
                          causal: bool = CAUSAL_DEFAULT):
    """Share (0..1) of the attention term in the training FLOP per token.

        share = 12·L·h·s / (6·N + 12·L·h·s)      (attention term halved when causal)

    Use it to warn when 6N under-counts (e.g. share > a few % or seq_len ≥ 8192).
    Accepts arrays.  Source: seed chapter 04; PaLM (2022) App. B.
    """
    N, L, h, s = _shape(n_params, n_layers, d_model, seq_len, causal)
    attn = _attention_term(L, h, s, causal)
    return v.finish(attn / (6.0 * N + attn), N, L, h, s)


def _fpt(n_params, flops_per_token):
    N = v.number("n_params", n_params, "positive", "parameters")
    if flops_per_token is None:
        return N, 6.0 * N
    return N, v.number("flops_per_token", flops_per_token, "positive", "FLOP/token")


def mfu(n_params: Any, tokens_per_s: Any, n_gpus: Any, peak_flops: Any,
        flops_per_token: Optional[Any] = None):
    """Model FLOPs Utilisation = flops_per_token × tokens_per_s / (n_gpus × peak_flops).

    flops_per_token defaults to 6·n_params (see :func:`training_flops_per_token`).
    tokens_per_s is the whole job's throughput (tokens/s), peak_flops the dense
    per-GPU peak (FLOP/s) for the precision you train in.  Result: fraction 0..1
    (can exceed 1 only when the inputs are wrong).  Accepts arrays (broadcast).

    Seed example: 7B model, 8 × A100 (312e12), 12 000 tokens/s:
    6·7e9·12000 / (8·312e12) = 5.04e14 / 2.496e15 ≈ 0.202 (20.2 %).
    Sources: seed chapter 04; PaLM (2022) App. B; nanoGPT estimate_mfu.
    """
    N, fpt = _fpt(n_params, flops_per_token)
    t = v.number("tokens_per_s", tokens_per_s, "non_negative", "tokens/s")
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    return v.finish(np.multiply(fpt, t) / np.multiply(g, p) if not v.is_scalar(fpt, t, g, p)
                    else fpt * t / (g * p), N, fpt, t, g, p)


def mfu_band(value: float) -> MfuBand:
    """The :class:`MfuBand` an MFU (fraction, >= 0) falls in.

    problem < 0.20 <= low < 0.35 <= fair < 0.45 <= good < 0.55 <= excellent <= 0.60
    < suspicious.  Source: seed chapter 04 ("MFU 该是多少（对照基准）").
    """
    x = v.number("value", value, "non_negative", "MFU fraction")
    if not isinstance(x, float):
        raise ValueError("value must be a single number, not an array")
    if x > MFU_EXCELLENT_UP_TO:
        return MFU_BANDS[-1]
    for band in MFU_BANDS[:-1]:
        if x < band.upper or band.key == "excellent":
            return band
    raise AssertionError("unreachable")  # pragma: no cover


def required_tokens_per_s(n_params: Any, target_mfu: Any, n_gpus: Any, peak_flops: Any,
                            flops_per_token: Optional[Any] = None):
    """Throughput (tokens/s) needed to reach ``target_mfu``: the inverse of :func:`mfu`.

        tokens/s = target_mfu × n_gpus × peak_flops / flops_per_token   (default 6·N)

    target_mfu is a fraction in (0, 1].  Accepts arrays.  Source: seed chapter 04.
    """
    N, fpt = _fpt(n_params, flops_per_token)
    m = v.number("target_mfu", target_mfu, "fraction")
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    if v.is_scalar(N, fpt, m, g, p):
        return m * g * p / fpt
    return v.finish(np.multiply(np.multiply(m, g), p) / fpt, N, fpt, m, g, p)


def achieved_flops_per_gpu(n_params: Any, tokens_per_s: Any, n_gpus: Any,
                           flops_per_token: Optional[Any] = None):
    """Useful (model) FLOP/s each GPU delivers = flops_per_token × tokens_per_s / n_gpus.

    The numerator of MFU, per GPU (FLOP/s); MFU = this / peak_flops.
    flops_per_token defaults to 6·N.  Accepts arrays.  Source: seed chapter 04.
    """
    N, fpt = _fpt(n_params, flops_per_token)
    t = v.number("tokens_per_s", tokens_per_s, "non_negative", "tokens/s")
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    if v.is_scalar(N, fpt, t, g):
        return fpt * t / g
    return v.finish(np.multiply(fpt, t) / g, N, fpt, t, g)


def tokens_per_s_per_gpu(tokens_per_s: Any, n_gpus: Any):
    """Throughput per GPU = tokens_per_s / n_gpus   [tokens/s].

    The MFU inputs take the whole job's throughput; this is the figure a per-GPU log
    line prints (seed example: 12 000 tok/s on 8 GPUs = 1 500 tok/s per GPU).
    Accepts arrays.
    """
    t = v.number("tokens_per_s", tokens_per_s, "non_negative", "tokens/s")
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    return v.finish(np.divide(t, g) if not v.is_scalar(t, g) else t / g, t, g)


def per_gpu_mix_up(mfu_value: float, n_gpus: float) -> Optional[float]:
    """The MFU the run would have if its tokens/s had been a per-GPU figure, when that
    explains an implausibly low MFU; else None.

    Returns mfu_value × n_gpus when mfu_value is in the "problem" band (< MFU_PROBLEM_BELOW,
    20 %), n_gpus > 1 and mfu_value × n_gpus lies in the plausible range 20 %–60 %
    (MFU_PROBLEM_BELOW .. MFU_EXCELLENT_UP_TO).  Seed run typed per GPU: 1 500 tok/s on
    8 × A100 gives 6·7e9·1500 / (8·312e12) = 2.52 %, and 2.52 % × 8 = 20.2 % is plausible.
    Source: seed chapter 04 (MFU bands); the tokens/s field wants the whole job's figure.
    """
    m = v.number("mfu_value", mfu_value, "non_negative", "MFU fraction")
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    if not isinstance(m, float) or not isinstance(g, float):
        raise ValueError("per_gpu_mix_up takes single numbers")
    if g <= 1 or m >= MFU_PROBLEM_BELOW:
        return None
    whole = m * g
    return whole if MFU_PROBLEM_BELOW <= whole <= MFU_EXCELLENT_UP_TO else None


# ----------------------------------------------------------------------------- the record

IMPOSSIBLE_MFU_CAUSES = ("peak_too_small", "flops_too_high", "time_too_short")
"""Why a measured MFU above 100 % happens: a peak too small (BF16 peak for an FP8 run, the
PCIe part's peak for an SXM part), FLOPs counted too high (a MoE's total instead of its
active parameters, a non-causal attention term for a causal run), a time measured too short
(tokens/s over a window that misses the optimizer step or the data wait)."""

IMPOSSIBLE_HFU_CAUSES = ("recompute_counted_twice",)
"""Why HFU above 100 % with a possible MFU happens: the recomputation counted is more than
the run does (full recompute chosen for a run that keeps its activations, or a FLOP count
that already includes it counted again)."""


@dataclass(frozen=True)
class MeasuredMfu:
    """A measured run's MFU and HFU, and what to make of them (every page shows it as is).

    flops: the FLOP per token used (:class:`calc.training_flops.FlopsPerToken`);
    tokens_per_s (the whole job's), n_gpus, peak_flops (dense, per GPU) as given;
    tokens_per_s_per_gpu; achieved_flops_per_gpu (model FLOP/s per GPU); mfu, hfu
    (fractions; above 1 only when the inputs are wrong); band (:class:`MfuBand` of the MFU);
    verdict: "ok", "mfu_impossible" (MFU > 100 %) or "hfu_impossible" (MFU ≤ 100 % < HFU);
    causes: the likely causes of an impossible value (keys of IMPOSSIBLE_*_CAUSES);
    per_gpu_mfu: the MFU had tokens/s been per GPU (:func:`per_gpu_mix_up`; None when that
    does not explain the number), per_gpu_tokens_per_s: the whole job's figure then;
    target_mfu / target_tokens_per_s: the inverse (None when no target was given).
    """

    flops: FlopsPerToken
    tokens_per_s: float
    n_gpus: float
    peak_flops: float
    tokens_per_s_per_gpu: float
    achieved_flops_per_gpu: float
    mfu: float
    hfu: float
    band: MfuBand
    verdict: str
    causes: tuple[str, ...]
    per_gpu_mfu: Optional[float] = None
    per_gpu_tokens_per_s: Optional[float] = None
    target_mfu: Optional[float] = None
    target_tokens_per_s: Optional[float] = None

    @property
    def impossible(self) -> bool:
        return self.verdict != "ok"


def utilisation_verdict(mfu_value: float, hfu_value: float) -> tuple[str, tuple[str, ...]]:
    """("ok" | "mfu_impossible" | "hfu_impossible", likely causes) for an MFU and its HFU.

    No run does more useful work than its peak: MFU > 1 is impossible (IMPOSSIBLE_MFU_CAUSES);
    nor more hardware work: HFU > 1 with MFU ≤ 1 means the recomputation counted is not what
    the run does (IMPOSSIBLE_HFU_CAUSES).  Source: PaLM (2022) App. B (MFU, HFU ≤ 1 by
    definition); seed chapter 04 ("> 60 % check your formula").
    """
    if mfu_value > 1.0:
        return "mfu_impossible", IMPOSSIBLE_MFU_CAUSES
    if hfu_value > 1.0:
        return "hfu_impossible", IMPOSSIBLE_HFU_CAUSES
    return "ok", ()


def measured_mfu(flops: FlopsPerToken, tokens_per_s: float, n_gpus: float, peak_flops: float,
                 target_mfu: Optional[float] = None) -> MeasuredMfu:
    """MFU, HFU, band and verdict of a measured run   [fractions].

        MFU = flops.model    × tokens_per_s / (n_gpus × peak_flops)       (:func:`mfu`)
        HFU = flops.hardware × tokens_per_s / (n_gpus × peak_flops)
        achieved per GPU = flops.model × tokens_per_s / n_gpus            [FLOP/s]
        tokens/s for a target = target × n_gpus × peak_flops / flops.model

    flops from :func:`calc.training_flops.flops_per_token` (the one count).  Seed: 7B
    (42 GFLOP/token), 8 × A100 (312e12), 12 000 tok/s: 5.04e14 / 2.496e15 = 20.2 %, "low".
    Scalars.  Sources: seed chapter 04; PaLM (2022) App. B; nanoGPT estimate_mfu.
    """
    n = flops.active_params
    t = v.number("tokens_per_s", tokens_per_s, "non_negative", "tokens/s")
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    if not all(isinstance(x, float) for x in (t, g, p)):
        raise ValueError("measured_mfu takes single numbers")
    m = float(mfu(n, t, g, p, flops_per_token=flops.model))
    h = float(mfu(n, t, g, p, flops_per_token=flops.hardware))
    verdict, causes = utilisation_verdict(m, h)
    whole = per_gpu_mix_up(m, g)
    need = None
    if target_mfu is not None:
        need = float(required_tokens_per_s(n, target_mfu, g, p, flops_per_token=flops.model))
    return MeasuredMfu(
        flops=flops, tokens_per_s=t, n_gpus=g, peak_flops=p,
        tokens_per_s_per_gpu=float(tokens_per_s_per_gpu(t, g)),
        achieved_flops_per_gpu=float(achieved_flops_per_gpu(n, t, g, flops_per_token=flops.model)),
        mfu=m, hfu=h, band=mfu_band(m), verdict=verdict, causes=causes, per_gpu_mfu=whole,
        per_gpu_tokens_per_s=None if whole is None else float(
            required_tokens_per_s(n, whole, g, p, flops_per_token=flops.model)),
        target_mfu=None if target_mfu is None else float(target_mfu), target_tokens_per_s=need)
