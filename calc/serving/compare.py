"""The Serving page's whole question in one call: every candidate (device × precision ×
tensor-parallel size) on the frontier, and for each device × precision the fewest GPUs
that meet the targets at the rate, with cost and energy (:func:`compare_candidates`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from .cost import INFERENCEX_ALL_IN_KW, INFERENCEX_PRICE_PER_GPU_HOUR, joules_per_token
from .plan import (DEFAULT_BATCHES, Deployment, DeploymentOption, default_act, full_curve, pareto_front,
                   size_deployment)
from .replica import Efficiency, Replica, named_efficiency, replica_memory
from .speculative import SpecDecode
from .steady import AggregatedCurve, aggregated_curve
from .workload import Workload

__all__ = ["Candidate", "SizedOption", "Comparison", "Fastest", "compare_candidates",
           "per_user_target", "all_in_watts"]


def per_user_target(tpot_target: float) -> float:
    """tokens/s per user a TPOT target means = 1 / TPOT   [tokens/s] (50 ms -> 20)."""
    return 1.0 / float(tpot_target)


def all_in_watts(device_id: str) -> Optional[float]:
    """InferenceX's all-in power per GPU in W (kW × 1000), or None for other devices."""
    kw = INFERENCEX_ALL_IN_KW.get(device_id)
    return None if kw is None else kw * 1000.0


@dataclass(frozen=True)
class Candidate:
    """One configuration's aggregated curve (``meets``: TTFT and TPOT within the targets)."""
    device_id: str
    precision: str
    kv: str
    tp: int
    curve: AggregatedCurve
    meets: np.ndarray


@dataclass(frozen=True)
class ModeEconomics:
    """Cost and energy per output token of one mode's layout at the rate (None: no price, or
    no power figure, for the device). $/Mtok = $/GPU-hour ÷ (tokens/s per GPU × 3600 / 1e6),
    J/token = W per GPU ÷ tokens/s per GPU (calc.serving.cost)."""
    cost_per_mtok: Optional[float]
    joules_per_token_tdp: Optional[float]
    joules_per_token_all_in: Optional[float]


@dataclass(frozen=True)
class SizedOption:
    """The fewest GPUs of one device × precision for the rate (``option`` None: no layout
    meets the targets), its price and power, and cost / energy per token of each mode that
    has a layout (``by_mode``, so a table can set aggregated beside disaggregated; the
    better one's: ``economics``)."""
    device_id: str
    precision: str
    kv: str
    deployment: Deployment
    option: Optional[DeploymentOption]
    price_per_gpu_hour: Optional[float]
    price_source: str                 # "typed", "inferencex" or ""
    by_mode: Mapping[str, ModeEconomics]

    @property
    def economics(self) -> Optional[ModeEconomics]:
        """The better mode's (``option``'s) cost and energy; None without a layout."""
        return self.by_mode.get(self.option.mode) if self.option is not None else None


@dataclass(frozen=True)
class Comparison:
    candidates: tuple[Candidate, ...]
    skipped: tuple[tuple[str, str, int, str], ...]     # (device, precision, tp, why: "no_fit" or the error)
    pareto_x: np.ndarray            # the Pareto front over every point meeting the TTFT target
    pareto_y: np.ndarray
    sized: tuple[SizedOption, ...]
    efficiency: Efficiency

    @property
    def best(self) -> Optional[SizedOption]:
        ok = [s for s in self.sized if s.option is not None]
        return min(ok, key=lambda s: (s.option.gpus, s.option.tpot_seconds)) if ok else None

    def fastest(self) -> Optional["Fastest"]:
        """The lowest TPOT and the lowest unqueued TTFT any candidate reaches (at any batch),
        and which candidate reaches each: what an unmeetable target is measured against.
        None without a candidate."""
        if not self.candidates:
            return None
        tp_best = min(self.candidates, key=lambda c: float(c.curve.tpot_seconds.min()))
        tt_best = min(self.candidates, key=lambda c: float(c.curve.ttft_seconds.min()))
        return Fastest(float(tp_best.curve.tpot_seconds.min()), tp_best,
                       float(tt_best.curve.ttft_seconds.min()), tt_best)


@dataclass(frozen=True)
class Fastest:
    """The floors of a comparison: the lowest TPOT (s) and the lowest TTFT without queueing
    (s) over every candidate and batch, with the candidate that reaches each."""
    tpot_seconds: float
    tpot_candidate: Candidate
    ttft_seconds: float
    ttft_candidate: Candidate


def compare_candidates(arch: Any, devices: Mapping[str, Any], device_ids: Sequence[str],
                       precisions: Sequence[str], kv: str, tps: Sequence[int], wl: Workload, *,
                       request_rate: float, ttft_target: float, tpot_target: float,
                       modes: Sequence[str] = ("aggregated", "disaggregated"),
                       token_budget: int = 8192, spec: Optional[SpecDecode] = None,
                       efficiency: str = "estimate", price_per_gpu_hour: Optional[float] = None,
                       all_in_w: Optional[float] = None, batches: Any = DEFAULT_BATCHES,
                       ttft_quantile: Optional[float] = None, step_overhead: float = 0.0,
                       max_load: float = 1.0) -> Comparison:
    """Curves for every device × precision × tp, the Pareto front of the points that meet
    the TTFT target, and :func:`size_deployment` for each device × precision.  ``kv``
    "same" stores the KV cache in the weights' precision.  A precision the device has no
    peak for is computed weight-only (BF16 math) when it is a storage format only.
    Price: ``price_per_gpu_hour`` for every device, else InferenceX's hyperscaler price
    where it has one (USD).  Energy: TDP, and ``all_in_w`` (else InferenceX's all-in).
    ``ttft_quantile`` (0.9: p90) holds the TTFT target by that percentile, not the mean.
    ``step_overhead`` (s): the stack's fixed cost per engine step, added to every step of
    the estimate or the bound (:attr:`calc.serving.replica.Efficiency.step_overhead`).
    ``max_load`` (1: none): the highest share of its capacity a sized replica may run at
    (:func:`calc.serving.plan.size_deployment`'s headroom)."""
    eff = named_efficiency(efficiency, step_overhead)
    cands, skipped = [], []
    full = {}       # (device, precision) -> {tp: every batch's curve}, which the sizing searches
    grid = np.asarray(batches, dtype=float)
    share = "aggregated" in modes and bool(np.all(grid == np.round(grid)))
    xs, ys = [], []
    replicas = {}
    for dev_id in device_ids:
        dev = devices[dev_id]
        for p in precisions:
            kv_p = p if kv == "same" else kv
            for tp in tps:
                try:
                    replicas[dev_id, p, int(tp)] = Replica(arch=arch, device=dev, tp=int(tp), weights=p, kv=kv_p,
                                                           act=default_act(dev, p))
                except ValueError as exc:
                    replicas[dev_id, p, int(tp)] = exc
    # every device's curve of a precision and tp on one batch grid (up to the largest max_seqs;
    # each keeps its own), so their device-free step work is computed once (replica._work)
    upto = {}
    for (dev_id, p, tp), r in replicas.items():
        if isinstance(r, Replica):
            upto[p, tp] = max(upto.get((p, tp), 0), replica_memory(r, wl.context_len, spec).max_seqs)
    for (dev_id, p, tp), r in replicas.items():         # device × precision × tp, in that order
        if not isinstance(r, Replica):
            skipped.append((dev_id, p, tp, str(r)))
            continue
        if share:   # one curve at every batch for the sizing below; the chart's points cut from it
            whole = full.setdefault((dev_id, p), {})[tp] = full_curve(r, wl, eff, token_budget, spec, upto[p, tp])
            c = whole.at(grid)
        else:
            c = aggregated_curve(r, wl, grid, eff, token_budget, spec)
        if c.batch.size == 0:
            skipped.append((dev_id, p, tp, "no_fit"))
            continue
        # the TTFT a point holds under Poisson traffic at its own rate (queued mean,
        # or the quantile the target is held by)
        ttft_q = c.queued_ttft(ttft_quantile)
        meets = (ttft_q <= ttft_target) & (c.tpot_seconds <= tpot_target)
        cands.append(Candidate(dev_id, p, r.kv, tp, c, meets))
        ok = ttft_q <= ttft_target
        xs.append(c.tokens_per_s_per_user[ok])
        ys.append(c.tokens_per_s_per_gpu[ok])
    x = np.concatenate(xs) if xs else np.zeros(0)
    y = np.concatenate(ys) if ys else np.zeros(0)
    mask = pareto_front(x, y) if x.size else np.zeros(0, dtype=bool)
    order = np.argsort(x[mask])
    sized = []
    for dev_id in device_ids:
        dev = devices[dev_id]
        typed = price_per_gpu_hour is not None
        price = price_per_gpu_hour if typed else (INFERENCEX_PRICE_PER_GPU_HOUR.get(dev_id) or (None,))[0]
        src = "typed" if typed else ("inferencex" if price is not None else "")
        watts_all = all_in_w if all_in_w is not None else all_in_watts(dev_id)
        for p in precisions:
            kv_p = p if kv == "same" else kv
            dep = size_deployment(arch, device=dev, weights=p, kv_dtype=kv_p, isl=wl.isl, osl=wl.osl,
                                  request_rate=request_rate, ttft_target=ttft_target,
                                  tpot_target=tpot_target, tps=tps, act=default_act(dev, p),
                                  prefix_hit=wl.prefix_hit, token_budget=token_budget, spec=spec,
                                  efficiency=eff, modes=modes, price_per_gpu_hour=price,
                                  watts_per_gpu=dev.tdp_w or None, ttft_quantile=ttft_quantile,
                                  max_load=max_load, curves=full.get((dev_id, p)))
            by_mode = {}
            for o in (dep.aggregated, dep.disaggregated):
                if o is not None:
                    ja = joules_per_token(watts_all, o.tokens_per_s_per_gpu) if watts_all else None
                    by_mode[o.mode] = ModeEconomics(o.cost_per_mtok, o.joules_per_token,
                                                    None if ja is None else float(ja))
            sized.append(SizedOption(dev_id, p, kv_p, dep, dep.best, price, src, by_mode))
    return Comparison(candidates=tuple(cands), skipped=tuple(skipped), pareto_x=x[mask][order],
                      pareto_y=y[mask][order], sized=tuple(sized), efficiency=eff)


PLAN_WEIGHTS = {"bf16": "bf16", "fp8": "fp8", "fp4": "int4"}
"""Serving precision -> the Plans table's weight precision (FP4 is stored as int4 there:
0.5 B per weight, without the NVFP4 scales)."""


def serving_plan(comp: Comparison, arch_id: str, devices: Mapping[str, Any], models: Mapping[str, Any],
                 wl: Workload, *, request_rate: float, price_per_gpu_hour: Optional[float] = None):
    """A Plans-table serving plan for the best aggregated layout of ``comp`` (None when no
    aggregated layout meets the targets): one replica (its tp, its batch), named with the
    replicas and GPUs the rate needs, and with ``efficiency`` = this page's estimate ÷ the
    Plans table's decode bound for that replica, so the Plans page's "at efficiency"
    tokens/s and $/Mtok are the Serving page's (prefill interference included)."""
    from ..plans import SERVING, Plan, evaluate
    ok = [s for s in comp.sized if s.deployment.aggregated is not None]
    if not ok:
        return None
    s = min(ok, key=lambda x: (x.deployment.aggregated.gpus, x.deployment.aggregated.tpot_seconds))
    o = s.deployment.aggregated
    pool = o.pools[0]
    dev = devices[s.device_id]
    act = default_act(dev, s.precision)
    kv = s.kv if s.kv in ("bf16", "fp8") else "fp8"
    name = (f"{models[arch_id].name} {s.precision.upper()} · {pool.instances} × TP{pool.tp} {dev.name} · "
            f"batch {int(pool.batch)} · {request_rate:g} req/s")
    plan = Plan(kind=SERVING, name=name[:120], model=arch_id, device=s.device_id, precision=act,
                n_gpus=int(pool.tp), weights=PLAN_WEIGHTS[s.precision], kv_dtype=kv, batch=int(pool.batch),
                prompt_len=int(round(wl.new_tokens)), output_len=int(round(wl.osl)), kv=True,
                context=int(round(wl.decode_context)), price=price_per_gpu_hour, efficiency=1.0)
    bound = evaluate(plan, devices, None, models)
    est_replica = o.tokens_per_s_per_gpu * o.gpus / pool.instances      # output tokens/s of one replica
    eff = min(1.0, est_replica / bound.total) if bound.total > 0 else 1.0
    return Plan(**{**plan.__dict__, "efficiency": round(eff, 4)})
