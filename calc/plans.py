"""Plans side by side: training and serving setups as records, evaluated with the same
functions as the Training and Decode pages, compared against a baseline.

A :class:`Plan` is one row of the planning table.  ``kind`` says which fields apply:

* ``"training"`` — model (catalog id or "" for parameters only), ``n_params`` N,
  ``n_tokens`` D, device, precision, ``n_gpus``, ``mfu``, ``recompute``, ``price``.
  Results (:func:`evaluate`): C = 6·N·D (:func:`calc.training.training_flops`),
  T = C / (GPUs × peak × MFU) (:func:`calc.training.training_seconds`), days,
  GPU-hours = C / (peak × MFU) / 3600, cost = GPU-hours × price — exactly the Training
  page's numbers — plus the MFU range published runs reached at that scale
  (:func:`calc.published.mfu_range`) and the days and cost at both ends of it.
* ``"serving"`` — model, ``n_params``, device, precision (compute), ``weights`` and
  ``kv_dtype`` precisions, ``n_gpus`` (tensor parallel), ``batch``, ``prompt_len``,
  ``output_len``, ``context`` (KV-cache tokens per sequence, counted when ``kv``),
  the KV shape (``n_layers``, ``kv_heads``, ``head_dim``), ``price`` and a stated
  ``efficiency`` (the share of the bandwidth bound the server reaches).
  Results: the Decode page's records (:func:`calc.inference.decode_step` on ``n_gpus``
  tensor-parallel GPUs, "parameters only" as :func:`calc.arch.params_only`) for the
  per-token bound and the tokens/s per user, in total and per GPU; the TTFT bound
  (:func:`calc.inference.prefill`); what one GPU holds (:mod:`calc.placement`) against its
  memory by the one rule (:func:`calc.placement.memory_fit`); cost per million output tokens =
  price × GPUs / 3600 / (tokens/s) × 1e6; the same at the stated efficiency and at the
  published efficiency range (:func:`calc.published.decode_efficiency_range`).

:func:`relative` compares a result to the baseline's (× and Δ).  The whole table
travels in a share link (:func:`encode_plans`, the kernel table's token format,
:func:`calc.scenario.pack_token`) and a JSON file (:func:`dump_plans` /
:func:`load_plans`, format ``roofline-lab.plans`` version 1); :func:`plans_csv` writes
inputs and results with SI units in the column names.  Units: SI base units; fractions
0..1; money in the price's currency.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Mapping, Optional, Sequence

from calc import decode as dec
from calc import inference as inf
from calc.arch import params_only
from calc.placement import MEMORY_RESERVE   # the one reserve (re-exported here)
from calc import training as tr
from calc.training_flops import flops_per_token, params_only_arch
from calc.training_memory import OPTIMIZERS, SCHEDULES, data_parallel_size, training_memory
from calc.published import EfficiencyRange, MfuRange, Published, decode_efficiency_range, mfu_range
from calc.csv_out import write_csv
from calc.scenario import ScenarioError, pack_token, unpack_token

__all__ = [
    "TRAINING", "SERVING", "KINDS", "RECOMPUTE", "WEIGHT_PRECISIONS", "KV_PRECISIONS",
    "MEMORY_RESERVE", "MAX_PLANS", "PLANS_FORMAT", "PLANS_VERSION",
    "Plan", "DeviceFacts", "TrainingResult", "ServingResult", "Relative", "PlanTable",
    "device_facts", "model_arch", "evaluate", "evaluate_all", "relative", "cost_per_million_tokens",
    "encode_plans", "decode_plans", "dump_plans", "load_plans", "plan_from_dict",
    "plan_to_dict", "plans_csv", "default_plans", "count_text", "auto_name", "display_name",
    "precision_differs",
    "is_examples",
]

TRAINING = "training"
SERVING = "serving"
KINDS = (TRAINING, SERVING)
RECOMPUTE = ("none", "selective", "full")
WEIGHT_PRECISIONS = ("bf16", "fp16", "fp8", "int8", "int4")
KV_PRECISIONS = ("bf16", "fp16", "fp8", "int8")
MAX_PLANS = 40
PLANS_FORMAT = "roofline-lab.plans"
PLANS_VERSION = 1
_MAX_TEXT = 120


@dataclass(frozen=True)
class Plan:
    """One row of the plan table (see the module docstring for which fields apply).

    Custom devices carry ``peak_flops`` (FLOP/s), ``mem_bw`` (bytes/s) and optionally
    ``memory_bytes``; catalog devices take them from hardware.toml.  ``price`` is per
    GPU-hour in the page's currency, or None.  ``model``: a models.toml id, or "" for
    "parameters only" (``n_params`` is then N); with a model, ``n_params`` is ignored and
    the architecture gives the FLOPs (attention included), memory and KV bytes.
    Training memory per GPU (calc.training_memory.training_memory, as on the Training page):
    tensor- and pipeline-parallel sizes ``tp``, ``pp``, data parallelism over the rest
    (``n_gpus`` ÷ (tp × pp)) with ``zero_stage`` (3 = FSDP full shard), ``micro_batch``
    sequences of ``seq_len`` tokens, bf16 weights and gradients, ``optimizer``,
    ``flash_attention``, context- and expert-parallel sizes ``cp``, ``ep``,
    ``sequence_parallel``, the pipeline ``schedule`` and ``interleave`` (model chunks per
    stage).  ``causal`` applies to the attention FLOP term.
    """
    kind: str = TRAINING
    name: str = ""
    model: str = ""
    n_params: float = 7e9
    device: str = "a100-80gb-sxm"
    precision: str = "bf16"
    n_gpus: int = 64
    price: Optional[float] = None
    peak_flops: Optional[float] = None
    mem_bw: Optional[float] = None
    memory_bytes: Optional[float] = None
    # training
    n_tokens: float = 1e12
    mfu: float = 0.45
    recompute: str = "none"
    seq_len: int = 4096
    causal: bool = True
    micro_batch: int = 1
    zero_stage: int = 3
    tp: int = 1
    pp: int = 1
    optimizer: str = "adam-mixed"
    flash_attention: bool = True
    cp: int = 1
    ep: int = 1
    sequence_parallel: bool = True
    schedule: str = "1f1b"
    interleave: int = 1
    # serving
    weights: str = "bf16"
    kv_dtype: str = "bf16"
    batch: int = 1
    prompt_len: int = 1024
    output_len: int = 256
    kv: bool = True
    context: int = 4096
    tp_comm: bool = False
    n_layers: int = 32
    kv_heads: int = 32
    head_dim: int = 128
    efficiency: float = 0.6


def default_plans() -> list[Plan]:
    """The newcomer's table: the seed's 7B / 1T tokens on 64 A100s at MFU 45 % (54 days),
    the same at 25 % (97 days), and a 7B bf16 serving plan on one A100.  Their names are
    automatic (:func:`auto_name`: "7B · 64 × A100 · MFU 45 %")."""
    return [
        Plan(kind=TRAINING, n_params=7e9, n_tokens=1e12, device="a100-80gb-sxm", n_gpus=64,
             mfu=0.45),
        Plan(kind=TRAINING, n_params=7e9, n_tokens=1e12, device="a100-80gb-sxm", n_gpus=64,
             mfu=0.25),
        Plan(kind=SERVING, n_params=7e9, device="a100-80gb-sxm", n_gpus=1, batch=16),
    ]


def is_examples(plans: Sequence[Plan]) -> bool:
    """True when ``plans`` are exactly :func:`default_plans` (the examples, untouched)."""
    return tuple(plans) == tuple(default_plans())


def count_text(x: float) -> str:
    """A count with 3 significant digits and a T / B / M / k suffix ("7B", "1.5T")."""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{suffix}"
    return f"{x:.3g}"


def _device_word(device_id: str) -> str:
    """The short device word of a name: the hardware id's first word in capitals
    ("a100-80gb-sxm" -> "A100", "h200-sxm" -> "H200"), two words for ids whose first word
    is a series ("rtx-4090" -> "RTX 4090", "tpu-v5e" -> "TPU V5E"); "custom" stays."""
    parts = str(device_id).split("-")
    if device_id == "custom" or not parts[0]:
        return str(device_id)
    word = parts[0] if any(ch.isdigit() for ch in parts[0]) or len(parts) == 1 \
        else " ".join(parts[:2])
    return word.upper()


def auto_name(plan: Plan, model_name: str = "", precision: bool = False) -> str:
    """The automatic name of a plan, from what makes plans differ: the model (its catalog
    name, else N), the GPUs and the device, and MFU (training) or the weights' precision
    and the batch (serving): "7B · 64 × A100 · MFU 45 %", "Llama 3.1 8B bf16 · 1 × H100 ·
    batch 16"; ``precision`` adds the compute precision after the device ("7B · 64 × H100 ·
    FP8 · MFU 45 %"), for a table whose plans differ in it (:func:`precision_differs`).
    A plan whose ``name`` is "" shows this, so the name follows the setup until the user
    types one."""
    what = model_name or (plan.model if plan.model else count_text(plan.n_params))
    where = f"{plan.n_gpus:,} × {_device_word(plan.device)}"
    if precision:
        where += f" · {plan.precision.upper()}"
    if plan.kind == SERVING:
        return f"{what} {plan.weights} · {where} · batch {plan.batch:,}"
    return f"{what} · {where} · MFU {plan.mfu * 100:.3g} %"


def precision_differs(plans: Sequence[Plan], kind: str) -> bool:
    """True when the plans of ``kind`` compute in more than one precision: then their
    automatic names say which (two H100 plans, BF16 and FP8, were named alike)."""
    return len({p.precision for p in plans if p.kind == kind}) > 1


def display_name(plan: Plan, model_name: str = "", precision: bool = False) -> str:
    """The name a plan shows: the one the user typed, else :func:`auto_name`."""
    return plan.name or auto_name(plan, model_name, precision)


@dataclass(frozen=True)
class DeviceFacts:
    """What a plan needs from its device: dense peak (FLOP/s) of the plan's precision,
    bandwidth (bytes/s), memory (bytes or None) and a display name."""
    peak_flops: float
    mem_bw: float
    memory_bytes: Optional[float]
    name: str
    interconnect: Optional[float] = None     # bytes/s, both directions (hardware.toml)


def device_facts(plan: Plan, devices: Mapping[str, Any]) -> DeviceFacts:
    """The plan's device figures; ValueError naming the field when they are missing."""
    if plan.device == "custom":
        if plan.peak_flops is None or plan.mem_bw is None:
            raise ValueError("a custom device needs peak_flops and mem_bw")
        return DeviceFacts(float(plan.peak_flops), float(plan.mem_bw), plan.memory_bytes,
                           "custom")
    dev = devices.get(plan.device)
    if dev is None:
        raise ValueError(f"device {plan.device!r} is not in hardware.toml")
    if plan.precision not in dev.precisions:
        raise ValueError(f"precision: {dev.name} has no {plan.precision!r} peak "
                         f"(available: {', '.join(dev.precisions)})")
    return DeviceFacts(dev.peak_flops(plan.precision), dev.mem_bw, dev.memory_bytes, dev.name,
                       dev.interconnect_bytes_per_s)


@dataclass(frozen=True)
class TrainingResult:
    """A training plan's numbers: FLOP, seconds, days, GPU-hours, cost (None without a
    price), the published MFU range used (None when unknown) and the days / cost / GPU-hours
    at its high (fast) and low (slow) ends.  memory_per_gpu / fits: None until known."""
    plan: Plan
    device: DeviceFacts
    flops: float
    seconds: float
    days: float
    gpu_hours: float
    cost: Optional[float]
    hfu: Optional[float]
    published: Optional[MfuRange]
    days_at_hi: Optional[float]
    days_at_lo: Optional[float]
    cost_at_hi: Optional[float]
    cost_at_lo: Optional[float]
    memory_per_gpu: Optional[float] = None
    fits: Optional[str] = None
    run: Any = None          # calc.training.TrainingRun (verdict: "hfu_impossible" when HFU > 100 %)
    memory: Any = None       # calc.training_memory.TrainingMemory (None without a model)
    model_name: str = ""          # the catalog model's name ("" for parameters only)
    gpu_hours_at_hi: Optional[float] = None   # GPU-hours at the published range's high MFU
    gpu_hours_at_lo: Optional[float] = None   # ... and at its low MFU


@dataclass(frozen=True)
class ServingResult:
    """A serving plan's numbers (bounds unless named "_at_eff" / "_lo" / "_hi").

    step_seconds: one decode step of the batch; ttft: prefill bound of one prompt;
    per_user / total / per_gpu: output tokens/s; request_seconds = ttft + output_len ×
    step; cost_per_m: currency per million output tokens (None without a price);
    weight_bytes, kv_bytes: what ONE GPU of the tensor-parallel group holds (its share of
    the weights and of the batch's KV cache at ``context``, calc.placement);
    memory_per_gpu = the two; memory: one GPU's memory; fits: calc.placement.memory_fit's
    verdict, "fits" / "tight" (within the GPU but not the 10 % reserve) / "no" / None;
    step / prefill: the calc.inference records themselves; per_user_lo / per_user_hi:
    tokens/s per user at the published efficiency range's ends (None without one).
    """
    plan: Plan
    device: DeviceFacts
    step_seconds: float
    ttft: float
    per_user: float
    total: float
    per_gpu: float
    request_seconds: float
    cost_per_m: Optional[float]
    per_user_at_eff: float
    total_at_eff: float
    cost_per_m_at_eff: Optional[float]
    published: Optional[EfficiencyRange]
    total_lo: Optional[float]
    total_hi: Optional[float]
    cost_per_m_lo: Optional[float]
    cost_per_m_hi: Optional[float]
    weight_bytes: float
    kv_bytes: float
    memory: Optional[float]
    fits: Optional[str]
    memory_per_gpu: Optional[float] = None
    step: Any = None          # calc.inference.DecodeStep (the Decode page's record)
    prefill: Any = None       # calc.inference.Prefill
    model_name: str = ""          # the catalog model's name ("" for parameters only)
    per_user_lo: Optional[float] = None
    per_user_hi: Optional[float] = None

    @property
    def memory_needed(self) -> float:
        """Memory the plan needs in the TP group (bytes): weights + the batch's KV cache."""
        return self.weight_bytes + self.kv_bytes


def cost_per_million_tokens(price_per_gpu_hour: float, n_gpus: float, tokens_per_s: float) -> float:
    """Serving cost per million generated tokens = price × GPUs / 3600 / tokens_per_s × 1e6.

    price in currency per GPU-hour, tokens_per_s of the whole TP group.  1 A100 at
    2 per hour serving 2000 tok/s: 2 / 3600 / 2000 × 1e6 = 0.278 per million tokens.
    """
    from calc import _validate as v
    pr = v.number("price_per_gpu_hour", price_per_gpu_hour, "non_negative", "currency per GPU-hour")
    g = v.number("n_gpus", n_gpus, "positive", "GPUs")
    t = v.number("tokens_per_s", tokens_per_s, "positive", "tokens/s")
    return pr * g / tr.SECONDS_PER_HOUR / t * 1e6


def training_flops(plan: Plan, arch=None):
    """The plan's FLOP per token through the one count (calc.training_flops.flops_per_token):
    the architecture when a model is chosen, else a dense architecture of ``n_params``."""
    if arch is None:
        return flops_per_token(params_only_arch(plan.n_params), 0, causal=plan.causal,
                               recompute=plan.recompute)
    return flops_per_token(arch, plan.seq_len, causal=plan.causal, recompute=plan.recompute)


def _evaluate_training(plan: Plan, facts: DeviceFacts, published: Optional[Published],
                       arch=None) -> TrainingResult:
    D, G, peak = plan.n_tokens, plan.n_gpus, facts.peak_flops
    fpt = training_flops(plan, arch)
    run = tr.training_run(fpt, D, G, peak, plan.mfu, price_per_gpu_hour=plan.price)
    N = fpt.active_params
    rng = mfu_range(N, G, plan.device if plan.device != "custom" else None, published) \
        if published is not None else None
    d_hi = d_lo = c_hi = c_lo = h_hi = h_lo = None
    if rng is not None:
        hi = tr.training_run(fpt, D, G, peak, rng.hi, price_per_gpu_hour=plan.price)
        lo = tr.training_run(fpt, D, G, peak, rng.lo, price_per_gpu_hour=plan.price)
        d_hi, d_lo, c_hi, c_lo = hi.days, lo.days, hi.cost, lo.cost
        h_hi, h_lo = hi.gpu_hours, lo.gpu_hours
    tm = None
    if arch is not None:
        tm = training_memory(arch, seq_len=plan.seq_len, micro_batch=plan.micro_batch,
                             dp=data_parallel_size(G, plan.tp, plan.pp, plan.cp),
                             zero_stage=plan.zero_stage,
                             recompute=plan.recompute, tp=plan.tp, pp=plan.pp, cp=plan.cp,
                             ep=plan.ep, sequence_parallel=plan.sequence_parallel,
                             schedule=plan.schedule, interleave=plan.interleave,
                             optimizer=plan.optimizer, flash_attention=plan.flash_attention,
                             memory_bytes=facts.memory_bytes)
    return TrainingResult(plan, facts, run.total_flops, run.seconds, run.days, run.gpu_hours,
                          run.cost, run.hfu if plan.recompute != "none" else None,
                          rng, d_hi, d_lo, c_hi, c_lo,
                          None if tm is None else tm.total, None if tm is None else tm.fit,
                          run=run, memory=tm, model_name=arch.name if arch is not None else "",
                          gpu_hours_at_hi=h_hi, gpu_hours_at_lo=h_lo)


def serving_arch(plan: Plan, arch=None):
    """The architecture a serving plan decodes: the catalog model, or for "parameters
    only" :func:`calc.arch.params_only` (N and the plan's KV shape): one code path."""
    if arch is not None:
        return arch
    return params_only(plan.n_params, plan.n_layers, plan.kv_heads, plan.head_dim)


def _evaluate_serving(plan: Plan, facts: DeviceFacts, published: Optional[Published],
                      devices: Mapping[str, Any], arch=None) -> ServingResult:
    """The Decode page's numbers for the plan (calc.inference.decode_step and prefill on
    ``n_gpus`` tensor-parallel GPUs, calc.placement's memory per GPU and the one fit rule),
    plus cost and the published efficiency range."""
    G, B = plan.n_gpus, plan.batch
    a = serving_arch(plan, arch)
    w = dec.bytes_per_param(plan.weights)
    link = inf.link_bw_one_way(facts.interconnect) if plan.tp_comm else None
    st = inf.decode_step(a, float(B), float(plan.context) if plan.kv else 0.0,
                         peak_flops=facts.peak_flops, mem_bw=facts.mem_bw,
                         memory_bytes=facts.memory_bytes, tp=G, bytes_per_param=w,
                         kv_bytes_per_elem=dec.bytes_per_param(plan.kv_dtype), link_bw=link)
    pf = inf.prefill(a, float(plan.prompt_len), peak_flops=facts.peak_flops, mem_bw=facts.mem_bw,
                     tp=G, bytes_per_param=w, link_bw=link)
    step, total, per_user, ttft = st.seconds, st.tokens_per_s, st.tokens_per_s_per_request, pf.seconds
    eff = plan.efficiency
    total_eff, per_user_eff = total * eff, per_user * eff

    def cost(tps: Optional[float]) -> Optional[float]:
        if plan.price is None or tps is None:
            return None
        return cost_per_million_tokens(plan.price, G, tps)

    rng = decode_efficiency_range(G, published, devices) if published is not None else None
    t_lo = total * rng.lo if rng else None
    t_hi = total * rng.hi if rng else None
    pl = st.placement
    return ServingResult(
        plan, facts, step, ttft, per_user, total, total / G,
        ttft + plan.output_len * step, cost(total), per_user_eff, total_eff, cost(total_eff),
        rng, t_lo, t_hi, cost(t_lo), cost(t_hi), pl.weight_bytes, pl.kv_bytes,
        facts.memory_bytes, st.fit.verdict if st.fit is not None else None,
        memory_per_gpu=pl.total_bytes, step=st, prefill=pf,
        model_name=arch.name if arch is not None else "",
        per_user_lo=per_user * rng.lo if rng else None,
        per_user_hi=per_user * rng.hi if rng else None)


def model_arch(plan: Plan, models: Optional[Mapping[str, Any]]):
    """The plan's architecture (None for "parameters only"); ValueError for an id that
    is not in the catalog."""
    if not plan.model:
        return None
    if models is None or plan.model not in models:
        raise ValueError(f"model {plan.model!r} is not in models.toml")
    return models[plan.model]


def evaluate(plan: Plan, devices: Mapping[str, Any], published: Optional[Published] = None,
             models: Optional[Mapping[str, Any]] = None):
    """A plan's results: :class:`TrainingResult` or :class:`ServingResult`.

    ``models``: the catalog (calc.models.load_models()), needed for plans with a model.
    Raises ValueError naming the field when the plan cannot be evaluated (unknown
    device or model, precision the device lacks, a number out of range).
    """
    facts = device_facts(plan, devices)
    arch = model_arch(plan, models)
    if plan.kind == TRAINING:
        return _evaluate_training(plan, facts, published, arch)
    if plan.kind == SERVING:
        return _evaluate_serving(plan, facts, published, devices, arch)
    raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {plan.kind!r}")


def evaluate_all(plans: Sequence[Plan], devices: Mapping[str, Any],
                 published: Optional[Published] = None,
                 models: Optional[Mapping[str, Any]] = None) -> list:
    """:func:`evaluate` for each plan; a plan that cannot be evaluated gives its error
    message (str) in its place, so one bad row never hides the others."""
    out: list = []
    for p in plans:
        try:
            out.append(evaluate(p, devices, published, models))
        except ValueError as exc:
            out.append(str(exc))
    return out


@dataclass(frozen=True)
class Relative:
    """A result against the baseline's (same kind only).

    Training: ``ratio`` = days ÷ baseline days, ``delta`` = days − baseline days,
    ``cost_ratio`` / ``cost_delta`` likewise (None without both prices).
    Serving: ``ratio`` = per-user tokens/s ÷ baseline's (at the stated efficiencies),
    ``delta`` = per-user tokens/s − baseline's (the same quantity as the ratio; it was the
    total tokens/s, so a CSV's ratio and delta spoke of two things), ``cost_ratio`` /
    ``cost_delta`` of the cost per million tokens.
    """
    ratio: float
    delta: float
    cost_ratio: Optional[float]
    cost_delta: Optional[float]


def relative(result, baseline) -> Optional[Relative]:
    """``result`` against ``baseline`` (see :class:`Relative`); None when either is an
    error or the kinds differ.  Seed: 97.4 days (MFU 25 %) against 54.1 (45 %) is
    ×1.80 = 45/25, +43.3 days."""
    if isinstance(result, str) or isinstance(baseline, str) or result is None or baseline is None:
        return None
    if type(result) is not type(baseline):
        return None
    if isinstance(result, TrainingResult):
        a, b, ca, cb = result.days, baseline.days, result.cost, baseline.cost
    else:
        a, b = result.per_user_at_eff, baseline.per_user_at_eff
        ca, cb = result.cost_per_m_at_eff, baseline.cost_per_m_at_eff
    delta = a - b
    both = ca is not None and cb is not None
    return Relative(a / b, delta, (ca / cb) if both and cb > 0 else None,
                    (ca - cb) if both else None)


# ----------------------------------------------------------------------------- records

_FIELDS = {f.name: f for f in fields(Plan)}
_DEFAULT = Plan()
_INT_FIELDS = ("n_gpus", "batch", "prompt_len", "output_len", "context", "n_layers",
               "kv_heads", "head_dim", "seq_len", "micro_batch", "tp", "pp", "cp", "ep",
               "interleave")
_POS_FIELDS = ("n_params", "n_tokens")
_OPT_POS_FIELDS = ("peak_flops", "mem_bw", "memory_bytes")
_FRACTION_FIELDS = ("mfu", "efficiency")
_CHOICES = {"kind": KINDS, "recompute": RECOMPUTE, "weights": WEIGHT_PRECISIONS,
            "kv_dtype": KV_PRECISIONS, "optimizer": tuple(OPTIMIZERS), "schedule": SCHEDULES}
_MAX_INT = 10 ** 9
_MAX_NUM = 1e30


def _q(v: object) -> str:
    try:
        s = json.dumps(v)
    except (TypeError, ValueError):
        s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _number(v: object, path: str, lo_ok: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ScenarioError(f"{path} must be a number, got {_q(v)}")
    x = float(v)
    if not math.isfinite(x) or x < 0 or (x == 0 and not lo_ok) or x > _MAX_NUM:
        raise ScenarioError(f"{path} must be a finite number > 0, got {_q(v)}")
    return x


def plan_from_dict(d: object, path: str = "plans[0]", known_devices=None) -> Plan:
    """Validate one plan's dict (keys = :class:`Plan` fields; missing keys take the
    defaults) and build the Plan.  Raises ScenarioError naming ``path.field``."""
    if not isinstance(d, dict):
        raise ScenarioError(f"{path} must be an object, got {_q(d)}")
    values: dict[str, Any] = {}
    for key, raw in d.items():
        if key not in _FIELDS:
            continue                                  # forward compatible
        p = f"{path}.{key}"
        if key in _CHOICES:
            if raw not in _CHOICES[key]:
                raise ScenarioError(f"{p} must be one of {', '.join(_CHOICES[key])}, got {_q(raw)}")
            values[key] = raw
        elif key in ("name", "model", "device", "precision"):
            if not isinstance(raw, str) or len(raw) > _MAX_TEXT:
                raise ScenarioError(f"{p} must be text of at most {_MAX_TEXT} characters, got {_q(raw)}")
            values[key] = raw
        elif key == "zero_stage":
            if raw not in (0, 1, 2, 3) or isinstance(raw, bool):
                raise ScenarioError(f"{p} must be 0, 1, 2 or 3, got {_q(raw)}")
            values[key] = int(raw)
        elif key in ("kv", "causal", "flash_attention", "tp_comm", "sequence_parallel"):
            if not isinstance(raw, bool):
                raise ScenarioError(f"{p} must be true or false, got {_q(raw)}")
            values[key] = raw
        elif key in _INT_FIELDS:
            x = _number(raw, p)
            if x != int(x) or x > _MAX_INT:
                raise ScenarioError(f"{p} must be a whole number from 1 to {_MAX_INT:,}, got {_q(raw)}")
            values[key] = int(x)
        elif key in _FRACTION_FIELDS:
            x = _number(raw, p)
            if x > 1:
                raise ScenarioError(f"{p} must be a fraction in (0, 1], got {_q(raw)}")
            values[key] = x
        elif key == "price":
            values[key] = None if raw is None else _number(raw, p, lo_ok=True)
        elif key in _OPT_POS_FIELDS:
            values[key] = None if raw is None else _number(raw, p)
        else:
            values[key] = _number(raw, p)
    plan = replace(_DEFAULT, **values)
    if not plan.device:
        raise ScenarioError(f"{path}.device must not be empty")
    if known_devices is not None and plan.device != "custom" and plan.device not in known_devices:
        raise ScenarioError(f"{path}.device: unknown device id {_q(plan.device)} (not in hardware.toml)")
    if plan.device == "custom" and (plan.peak_flops is None or plan.mem_bw is None):
        raise ScenarioError(f'{path}: a "custom" device needs peak_flops and mem_bw')
    return plan


def plan_to_dict(plan: Plan, compact: bool = False) -> dict:
    """The plan as a JSON-ready dict; ``compact`` leaves out fields equal to the
    defaults and the fields of the other kind (for share links)."""
    d = asdict(plan)
    if not compact:
        return d
    other = ("n_tokens", "mfu", "recompute", "seq_len", "micro_batch", "zero_stage", "causal",
             "tp", "pp", "optimizer", "flash_attention", "cp", "ep", "sequence_parallel",
             "schedule", "interleave") \
        if plan.kind == SERVING else (
        "weights", "kv_dtype", "batch", "prompt_len", "output_len", "kv", "context",
        "n_layers", "kv_heads", "head_dim", "efficiency", "tp_comm")
    return {k: v for k, v in d.items()
            if k == "kind" or (k not in other and v != getattr(_DEFAULT, k))}


@dataclass(frozen=True)
class PlanTable:
    """The whole table: plans, the baseline's index (or None) and the currency
    (symbol and ISO code, "" when not chosen)."""
    plans: tuple[Plan, ...] = ()
    baseline: Optional[int] = 0
    currency_symbol: str = ""
    currency_code: str = ""


def _table_from_doc(doc: object, what: str, known_devices=None) -> PlanTable:
    if not isinstance(doc, dict):
        raise ScenarioError(f"The {what} must be a JSON object.")
    raw = doc.get("plans")
    if not isinstance(raw, list):
        raise ScenarioError(f"plans must be a list, got {_q(raw)}")
    if len(raw) > MAX_PLANS:
        raise ScenarioError(f"plans has {len(raw)} entries; at most {MAX_PLANS}")
    plans = tuple(plan_from_dict(p, f"plans[{i}]", known_devices) for i, p in enumerate(raw))
    base = doc.get("baseline", 0 if plans else None)
    if base is not None and (isinstance(base, bool) or not isinstance(base, int)
                             or not 0 <= base < max(len(plans), 1)):
        raise ScenarioError(f"baseline must be the index of a plan (0 to {max(len(plans) - 1, 0)}) or null, got {_q(base)}")
    if not plans:
        base = None
    cur = doc.get("currency") or {}
    if not isinstance(cur, dict):
        raise ScenarioError(f"currency must be an object {{symbol, code}}, got {_q(cur)}")
    sym, code = cur.get("symbol", ""), cur.get("code", "")
    for name, val in (("symbol", sym), ("code", code)):
        if not isinstance(val, str) or len(val) > 8:
            raise ScenarioError(f"currency.{name} must be text of at most 8 characters, got {_q(val)}")
    return PlanTable(plans, base, sym, code)


def _doc(table: PlanTable, compact: bool) -> dict:
    doc: dict[str, Any] = {"plans": [plan_to_dict(p, compact) for p in table.plans],
                           "baseline": table.baseline}
    if table.currency_symbol or table.currency_code:
        doc["currency"] = {"symbol": table.currency_symbol, "code": table.currency_code}
    return doc


def encode_plans(table: PlanTable) -> str:
    """The plan table as a share-link token (URL name ``plans``): :func:`pack_token` of
    ``{"plans": [compact plan dicts], "baseline": i, "currency": {...}}``."""
    return pack_token(_doc(table, compact=True))


def decode_plans(token: str, known_devices=None) -> PlanTable:
    """Inverse of :func:`encode_plans`; ScenarioError naming the problem (bad token,
    ``plans[2].mfu must be a fraction in (0, 1]``, unknown device...)."""
    return _table_from_doc(unpack_token(token, "plan table"), "link's plan table", known_devices)


def dump_plans(table: PlanTable) -> str:
    """The plan table as a JSON file: ``{"format": "roofline-lab.plans", "version": 1,
    "baseline": i, "currency": {...}, "plans": [every field of every plan]}``."""
    doc = {"format": PLANS_FORMAT, "version": PLANS_VERSION}
    doc.update(_doc(table, compact=False))
    return json.dumps(doc, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def load_plans(text: str | bytes, known_devices=None) -> PlanTable:
    """Read a :func:`dump_plans` file; ScenarioError for another format or version,
    bad JSON, or a bad field (named by its path)."""
    from calc.json_in import read_json
    doc = read_json(text, "plans file", max_bytes=4 * 2 ** 20, error=ScenarioError)
    if not isinstance(doc, dict) or doc.get("format") != PLANS_FORMAT:
        raise ScenarioError(f'format must be "{PLANS_FORMAT}" (is this a Roofline Lab plans file?)')
    if doc.get("version") != PLANS_VERSION:
        raise ScenarioError(f"version {doc.get('version')!r} is not supported; this app reads version {PLANS_VERSION}")
    return _table_from_doc(doc, "plans file", known_devices)


# ----------------------------------------------------------------------------- CSV

_CSV_INPUTS = ("kind", "name", "model", "n_params", "n_tokens", "device", "precision", "n_gpus",
               "mfu", "recompute", "seq_len", "causal", "micro_batch", "zero_stage", "tp", "pp",
               "optimizer", "flash_attention", "cp", "ep", "sequence_parallel", "schedule",
               "interleave", "price", "weights", "kv_dtype", "batch", "prompt_len",
               "output_len", "kv", "context", "n_layers", "kv_heads", "head_dim", "efficiency",
               "tp_comm")
_TRAINING_ONLY = {"n_tokens", "mfu", "recompute", "seq_len", "micro_batch", "zero_stage",
                  "causal", "tp", "pp", "optimizer", "flash_attention", "cp", "ep",
                  "sequence_parallel", "schedule", "interleave"}
_SERVING_ONLY = {"weights", "kv_dtype", "batch", "prompt_len", "output_len", "kv", "context",
                 "n_layers", "kv_heads", "head_dim", "efficiency", "tp_comm"}


def plans_csv(table: PlanTable, results: Sequence) -> str:
    """Inputs and results of every plan as CSV (one row per plan; cells of the other
    kind empty; ``name`` the plan's :func:`display_name`, as the table shows it (with the
    precision where its kind's plans differ in it); ``memory_bytes_total`` the memory a
    serving plan needs, weights + KV, beside ``memory_capacity_bytes``, its GPUs' memory).  Column names carry SI units (``days``, ``ttft_s``, ``cost_<CODE>``);
    an ``error`` column holds the message of a plan that could not be evaluated."""
    money = f"_{table.currency_code}" if table.currency_code else ""
    out_cols = ["is_baseline", "error", "flops", "days", "gpu_hours", f"cost{money}", "hfu",
                "published_mfu_lo", "published_mfu_hi", "days_at_published_mfu_hi",
                "days_at_published_mfu_lo", f"cost{money}_at_published_mfu_hi",
                f"cost{money}_at_published_mfu_lo", "ttft_s", "step_s", "request_s",
                "tokens_per_s_per_user", "tokens_per_s_total", "tokens_per_s_per_gpu",
                f"cost{money}_per_million_tokens", "tokens_per_s_total_at_efficiency",
                f"cost{money}_per_million_tokens_at_efficiency", "published_efficiency_lo",
                "published_efficiency_hi", "weight_bytes", "kv_bytes", "memory_bytes_total",
                "memory_capacity_bytes", "memory_bytes_per_gpu",
                "memory_fit", "vs_baseline_ratio", "vs_baseline_delta",
                "vs_baseline_cost_ratio", "vs_baseline_cost_delta"]
    lines = []
    base = results[table.baseline] if table.baseline is not None and table.baseline < len(results) else None
    for i, (plan, res) in enumerate(zip(table.plans, results)):
        skip = _SERVING_ONLY if plan.kind == TRAINING else _TRAINING_ONLY
        row = [None if k in skip else getattr(plan, k) for k in _CSV_INPUTS]
        row[_CSV_INPUTS.index("name")] = display_name(plan, getattr(res, "model_name", ""),
                                                      precision_differs(table.plans, plan.kind))
        cells: dict[str, Any] = {"is_baseline": i == table.baseline}
        if isinstance(res, str):
            cells["error"] = res
        elif isinstance(res, TrainingResult):
            pr = res.published
            cells.update({"flops": res.flops, "days": res.days, "gpu_hours": res.gpu_hours,
                          f"cost{money}": res.cost, "hfu": res.hfu,
                          "published_mfu_lo": pr.lo if pr else None,
                          "published_mfu_hi": pr.hi if pr else None,
                          "days_at_published_mfu_hi": res.days_at_hi,
                          "days_at_published_mfu_lo": res.days_at_lo,
                          f"cost{money}_at_published_mfu_hi": res.cost_at_hi,
                          f"cost{money}_at_published_mfu_lo": res.cost_at_lo,
                          "memory_bytes_per_gpu": res.memory_per_gpu, "memory_fit": res.fits})
        else:
            pr = res.published
            cells.update({"ttft_s": res.ttft, "step_s": res.step_seconds,
                          "request_s": res.request_seconds,
                          "tokens_per_s_per_user": res.per_user, "tokens_per_s_total": res.total,
                          "tokens_per_s_per_gpu": res.per_gpu,
                          f"cost{money}_per_million_tokens": res.cost_per_m,
                          "tokens_per_s_total_at_efficiency": res.total_at_eff,
                          f"cost{money}_per_million_tokens_at_efficiency": res.cost_per_m_at_eff,
                          "published_efficiency_lo": pr.lo if pr else None,
                          "published_efficiency_hi": pr.hi if pr else None,
                          "weight_bytes": res.weight_bytes, "kv_bytes": res.kv_bytes,
                          "memory_bytes_total": res.memory_needed,
                          "memory_capacity_bytes": res.memory,
                          "memory_bytes_per_gpu": res.memory_per_gpu, "memory_fit": res.fits})
        rel = relative(res, base) if i != table.baseline else None
        if rel is not None:
            cells.update({"vs_baseline_ratio": rel.ratio, "vs_baseline_delta": rel.delta,
                          "vs_baseline_cost_ratio": rel.cost_ratio,
                          "vs_baseline_cost_delta": rel.cost_delta})
        row += [cells.get(c) for c in out_cols]
        lines.append(row)
    # the one CSV writer (calc.csv_out): 0.35 not 0.35000000000000003, names that look
    # like formulas escaped (CSV injection)
    return write_csv(list(_CSV_INPUTS) + out_cols, lines)
