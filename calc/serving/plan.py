"""The serving questions, one function each: one configuration's numbers
(:func:`serving_point`), the most tokens/s a replica reaches when every request is queued at
once (:func:`max_throughput`, what an offline benchmark measures), the fewest GPUs for a
rate at a TTFT / TPOT target (:func:`size_deployment`), and the frontier the Serving page draws (:func:`frontier`,
:func:`pareto_front`).

Every number is computed from the one decode and prefill records (calc.inference via
calc.serving.replica.step_time) at the published achievable fractions
(:func:`calc.serving.replica.published_efficiency`) for the estimate, and at 100 % for
the ceiling (``ceiling_tokens_per_s_per_gpu``): no measured run can beat the ceiling for
the same work.  Definitions: :mod:`calc.serving.workload`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

import numpy as np

from .cost import cost_per_mtok, joules_per_token
from .replica import BOUND, Efficiency, Replica, published_efficiency, replica_memory
from .simulate import simulate as run_simulation
from .speculative import SpecDecode
from .steady import (AggregatedCurve, aggregated_curve, decode_pool, disaggregated, prefill_pool,
                     prefill_pool_ttft, prompt_queue_ttft)
from .workload import Workload

__all__ = ["DEFINITIONS", "MODES", "DEFAULT_BATCHES", "DEFAULT_TPS", "ServingPoint", "serving_point",
           "ThroughputPoint", "max_throughput", "PoolLayout", "DeploymentOption", "Deployment",
           "size_deployment", "full_curve", "frontier", "pareto_front", "default_act", "STEADY_STATE_LOAD_LIMIT"]

MODES = ("aggregated", "disaggregated")
DEFAULT_BATCHES = tuple(sorted({1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384,
                                512, 768, 1024}))
DEFAULT_TPS = (1, 2, 4, 8)

DEFINITIONS = ("Throughput counts output (generated) tokens unless labelled input + output; "
               "TPOT = mean time between output tokens after the first; TTFT = arrival to first "
               "token, queueing and prefill included; tokens/s per user = 1 / TPOT.")


def default_act(device: Any, weights: str) -> str:
    """The compute precision for ``weights``: the same when the device has a peak for it
    (FP8 weights run FP8 GEMMs on Hopper: W8A8), else BF16 (weight-only quantization)."""
    return weights if weights in device.peaks else "bf16"


@dataclass(frozen=True)
class ServingPoint:
    """One serving configuration's numbers (seconds, tokens/s of OUTPUT tokens, bytes per GPU).

    ``batch``: sequences decoding together (per decode instance when disaggregated);
    ``gpus``: of one replica (aggregated) or of the smallest whole prefill + decode unit
    (disaggregated, ``ratio`` prefill instances per decode instance); ``*_p90`` /
    ``*_p99``: from the simulator (None when not simulated); ``stable``: the replica keeps
    up with the offered rate (else TTFT grows without bound: ``ttft_seconds`` = inf).
    ``bound``: what sets the step — "weights", "kv", "compute", "network", or "budget"
    (the KV budget caps the batch below the concurrency asked for).
    """
    mode: str
    device_id: str
    gpus: int
    tp: int
    prefill_tp: int
    batch: float
    max_batch: int
    ttft_seconds: float
    tpot_seconds: float
    tokens_per_s_per_gpu: float
    tokens_per_s_per_user: float
    requests_per_s: float
    kv_bytes_per_gpu: float
    weight_bytes_per_gpu: float
    memory_bytes_per_gpu: float
    fits: bool
    bound: str
    ceiling_tokens_per_s_per_gpu: float
    ttft_p90_seconds: Optional[float] = None
    tpot_p90_seconds: Optional[float] = None
    ttft_p99_seconds: Optional[float] = None
    tpot_p99_seconds: Optional[float] = None
    simulated: bool = False
    stable: bool = True
    ratio: Optional[float] = None
    kv_transfer_seconds: float = 0.0
    cost_per_mtok: Optional[float] = None
    joules_per_token: Optional[float] = None
    efficiency: str = ""
    definitions: str = DEFINITIONS


def _cost(tps_gpu: float, price: Optional[float], watts: Optional[float]):
    if not (tps_gpu > 0 and math.isfinite(tps_gpu)):
        return None, None
    c = float(cost_per_mtok(price, tps_gpu)) if price is not None else None
    j = float(joules_per_token(watts, tps_gpu)) if watts is not None else None
    return c, j


def _replica_batches(arch: Any, device: Any, gpus: int, weights: str, kv_dtype: str,
                     act: Optional[str], ep: int, wl: Workload, spec: Optional[SpecDecode] = None):
    """The replica (act: :func:`default_act` when None), its KV budget at the workload's full
    context (the draft's memory out of it), and the batches 1 … max sequences that fit
    (just 1 when none does)."""
    r = Replica(arch=arch, device=device, tp=int(gpus), ep=ep, weights=weights, kv=kv_dtype,
                act=act or default_act(device, weights))
    mem = replica_memory(r, wl.context_len, spec)
    return r, mem, np.arange(1, max(mem.max_seqs, 1) + 1)


def _pick_batch(curve: AggregatedCurve, concurrency: Optional[int], rate: Optional[float]):
    """Index into the curve for a closed-loop concurrency or a Poisson rate, and stability."""
    if curve.batch.size == 0:
        return None, False
    if concurrency is not None:
        i = int(np.searchsorted(curve.batch, float(concurrency), side="right") - 1)
        return max(i, 0), True
    ok = np.nonzero(curve.requests_per_s >= rate)[0]
    if ok.size == 0:
        return curve.batch.size - 1, False
    return int(ok[0]), True


def _carrying(rate: float, requests_per_s, batch, *curves):
    """The batch that carries ``rate`` requests/s per replica, the index of the first curve
    point at or above it (whose bound names the step), and each of ``curves`` there.

        B = interp(rate; requests/s(B), B)      Little's law on the curve: B in flight carry
        y = interp(B; B, y(B))                  B / (TPOT · osl) requests/s, linear between

    ``requests_per_s`` grows with ``batch`` on one replica's curve (memory-bound steps grow
    slower than the batch); where a chunked-prefill share makes it dip, the running maximum
    is read (the smallest batch that carries the rate, as :func:`_pick_batch` picks).  A
    rate beyond the curve's last point is not carried (the caller checks)."""
    batch = np.asarray(batch, dtype=float)
    B = float(np.interp(rate, np.maximum.accumulate(np.asarray(requests_per_s, dtype=float)), batch))
    j = min(int(np.searchsorted(batch, B, side="left")), batch.size - 1)
    return (B, j) + tuple(float(np.interp(B, batch, y)) for y in curves)


def _carrying_queued(curve: AggregatedCurve, rate: float, quantile: Optional[float], end: Optional[int] = None):
    """(B, j, TPOT, queued TTFT) where one replica on ``curve`` (its points up to ``end``)
    carries ``rate`` requests/s: :func:`_carrying` for the batch and the terms there, then
    :func:`calc.serving.steady.prompt_queue_ttft` at that rate (the mean, or ``quantile``)."""
    k = slice(None, end)
    B, j, tpot, ttft, s_w, res = _carrying(rate, curve.requests_per_s[k], curve.batch[k],
                                           curve.tpot_seconds[k], curve.ttft_seconds[k],
                                           curve.prompt_seconds[k], curve.residual_seconds[k])
    return B, j, tpot, float(prompt_queue_ttft(ttft, rate, s_w, res, quantile))


def serving_point(arch: Any, *, device: Any, gpus: int, weights: str, kv_dtype: str,
                  isl: float, osl: float, concurrency: Optional[int] = None,
                  request_rate: Optional[float] = None, mode: str = "aggregated",
                  act: Optional[str] = None, ep: int = 1, prefix_hit: float = 0.0,
                  distribution: str = "fixed", spread: float = 0.0, token_budget: int = 8192,
                  spec: Optional[SpecDecode] = None, efficiency: Optional[Efficiency] = None,
                  simulate: bool = False, n_requests: int = 10_000, prefill_gpus: Optional[int] = None,
                  ttft_target: Optional[float] = None, price_per_gpu_hour: Optional[float] = None,
                  watts_per_gpu: Optional[float] = None, seed: int = 0,
                  ttft_quantile: Optional[float] = None) -> ServingPoint:
    """One configuration: ``gpus`` tensor-parallel GPUs of ``device`` per replica (decode
    instance when disaggregated; ``prefill_gpus`` per prefill instance, default the same),
    a workload of ``isl`` / ``osl`` tokens at a ``concurrency`` (closed loop) or a
    ``request_rate`` (Poisson, per replica / decode instance).

    Aggregated: :func:`calc.serving.steady.aggregated_curve` at the batch the load asks for
    (never beyond the KV budget: extra requests wait, their wait is in TTFT by Little's law,
    wait = C / requests_per_s − (osl − 1)·TPOT − prefill); at a ``request_rate`` the TTFT is
    the mean with queueing: the rest of the step in flight and the M/D/1 wait for the prompt
    tokens ahead in the token budget (Pollaczek–Khinchine,
    :func:`calc.serving.steady.prompt_queue_ttft`); ``simulate=True`` runs
    :func:`calc.serving.simulate.simulate` for the percentiles.  Disaggregated:
    :func:`calc.serving.steady.disaggregated`, the unit's ceil(ratio) prefill instances
    queueing the rate as M/D/c (:func:`calc.serving.steady.prefill_pool_ttft`): one decode
    instance's own prefill instances, so with several decode instances this TTFT is above
    :func:`size_deployment`'s, whose prefill instances are one pool for the whole rate.
    ``ttft_quantile`` (0.9: p90) makes a queued TTFT (at a ``request_rate``, and the prefill
    pool's sizing to ``ttft_target``) that percentile instead of the mean.  Cost and energy when a price
    (per GPU-hour) and watts per GPU are given.  ``efficiency`` None: the published
    estimate; :data:`BOUND` for the ceiling.
    """
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if concurrency is None and request_rate is None:
        raise ValueError("give a concurrency (requests in flight) or a request_rate (requests/s)")
    wl = Workload(isl=float(isl), osl=float(osl), distribution=distribution, spread=spread,
                  prefix_hit=prefix_hit, request_rate=request_rate, concurrency=concurrency)
    eff = efficiency if efficiency is not None else published_efficiency()
    r, mem, batches = _replica_batches(arch, device, gpus, weights, kv_dtype, act, ep, wl, spec)
    dev_id = getattr(device, "id", "")
    if mode == "aggregated":
        # a closed loop admits a prompt as a sequence finishes (evenly); a rate, at random
        arrivals = "fluid" if concurrency is not None else "poisson"
        curve = aggregated_curve(r, wl, batches, eff, token_budget, spec, arrivals)
        ceiling = aggregated_curve(r, wl, batches, BOUND, token_budget, spec, arrivals)
        i, stable = _pick_batch(curve, concurrency, request_rate)
        if i is None:
            return ServingPoint(mode, dev_id, r.tp, r.tp, r.tp, 0.0, mem.max_seqs, math.inf, math.inf,
                                0.0, 0.0, 0.0, 0.0, mem.weight_bytes, mem.weight_bytes, False, "kv", 0.0,
                                efficiency=eff.source, stable=False)
        B = float(curve.batch[i])
        tpot = float(curve.tpot_seconds[i])
        ttft = float(curve.ttft_seconds[i])
        rps = float(curve.requests_per_s[i])
        bound = str(curve.bound[i])
        if concurrency is not None and concurrency > B:
            bound = "budget"
            ttft = max(ttft, concurrency / rps - (wl.osl - 1.0) * tpot)
        if request_rate is not None:
            if stable:
                # the batch that carries the rate: Little's law on the curve (interpolated)
                B, _, tpot, ttft = _carrying_queued(curve, request_rate, ttft_quantile)
                rps = float(request_rate)
                stable = math.isfinite(ttft)
            else:
                ttft = math.inf
        j = min(int(np.searchsorted(ceiling.batch, B, side="left")), ceiling.batch.size - 1)
        ceil_tps = float(ceiling.tokens_per_s_per_gpu[j]) if ceiling.batch.size else 0.0
        tps_gpu = rps * wl.osl / r.tp
        point = dict(mode=mode, device_id=dev_id, gpus=r.tp, tp=r.tp, prefill_tp=r.tp, batch=B,
                     max_batch=mem.max_seqs, ttft_seconds=ttft, tpot_seconds=tpot,
                     tokens_per_s_per_gpu=tps_gpu, tokens_per_s_per_user=1.0 / tpot, requests_per_s=rps,
                     kv_bytes_per_gpu=B * mem.kv_bytes_per_seq, weight_bytes_per_gpu=mem.weight_bytes,
                     memory_bytes_per_gpu=mem.weight_bytes + B * mem.kv_bytes_per_seq, fits=mem.fits,
                     bound=bound, ceiling_tokens_per_s_per_gpu=max(ceil_tps, tps_gpu), stable=stable,
                     efficiency=eff.source)
        if simulate:
            sim = run_simulation(r, wl, n_requests=n_requests, eff=eff, token_budget=token_budget, seed=seed,
                                 spec=spec)
            point.update(ttft_seconds=sim.ttft_mean, tpot_seconds=sim.tpot_mean,
                         ttft_p90_seconds=sim.ttft_p90, tpot_p90_seconds=sim.tpot_p90,
                         ttft_p99_seconds=sim.ttft_p99, tpot_p99_seconds=sim.tpot_p99,
                         tokens_per_s_per_gpu=sim.tokens_per_s_per_gpu,
                         tokens_per_s_per_user=1.0 / sim.tpot_mean, requests_per_s=sim.requests_per_s,
                         batch=sim.mean_batch, simulated=True, stable=sim.stable)
        c, jt = _cost(point["tokens_per_s_per_gpu"], price_per_gpu_hour, watts_per_gpu)
        return ServingPoint(**point, cost_per_mtok=c, joules_per_token=jt)
    # disaggregated
    pr = Replica(arch=arch, device=device, tp=int(prefill_gpus or gpus), ep=ep, weights=weights,
                 kv=kv_dtype, act=r.act)
    arrivals = "fluid" if concurrency is not None else "poisson"    # a closed loop holds B
    B_all, tpot_all, _, _, _ = decode_pool(r, wl, batches, eff, spec, arrivals)
    if B_all.size == 0:
        return ServingPoint(mode, dev_id, r.tp + pr.tp, r.tp, pr.tp, 0.0, mem.max_seqs, math.inf, math.inf,
                            0.0, 0.0, 0.0, 0.0, mem.weight_bytes, mem.weight_bytes, False, "kv", 0.0,
                            efficiency=eff.source, stable=False)
    rps_d = B_all / (tpot_all * wl.osl)            # requests/s a decode instance carries at B
    if concurrency is not None:
        B = float(B_all[max(int(np.searchsorted(B_all, float(concurrency), side="right")) - 1, 0)])
    else:
        ok = np.nonzero(rps_d >= request_rate)[0]
        B = float(B_all[ok[0]] if ok.size else B_all[-1])
    p = disaggregated(pr, r, wl, B, eff, token_budget, spec, ttft_target, arrivals)
    pc = disaggregated(pr, r, wl, B, BOUND, token_budget, spec, ttft_target, arrivals)
    stable = True
    if request_rate is not None and p.decode_requests_per_s < request_rate:
        stable = False
    bound = p.bound if not (concurrency is not None and concurrency > B) else "budget"
    c, jt = _cost(p.tokens_per_s_per_gpu, price_per_gpu_hour, watts_per_gpu)
    n_prefill = max(int(math.ceil(p.ratio - 1e-9)), 1)
    unit_gpus = int(r.tp + n_prefill * pr.tp)
    ttft = p.ttft_seconds
    batch, tpot, tps_gpu, rps, kv_gpu = B, p.tpot_seconds, p.tokens_per_s_per_gpu, p.decode_requests_per_s, \
        p.kv_bytes_per_gpu
    if request_rate is not None and stable:
        # the unit carries the rate, not its capacity: the prefill instances queue it (M/D/c),
        # the decode instance runs the batch Little's law puts on its curve (as aggregated),
        # and the unit's whole GPUs share rate · osl
        ttft = prefill_pool_ttft(request_rate, n_prefill, p.prompts_per_step, p.ttft_seconds,
                                 p.prefill_requests_per_s, ttft_quantile)
        stable = math.isfinite(ttft)
        batch, _, tpot = _carrying(request_rate, rps_d, B_all, tpot_all)
        rps, tps_gpu = float(request_rate), float(request_rate) * wl.osl / unit_gpus
        kv_gpu = batch * p.kv_bytes_per_gpu / B
        c, jt = _cost(tps_gpu, price_per_gpu_hour, watts_per_gpu)
    return ServingPoint(mode=mode, device_id=dev_id, gpus=unit_gpus, tp=r.tp, prefill_tp=pr.tp, batch=batch,
                        max_batch=mem.max_seqs, ttft_seconds=ttft if stable else math.inf,
                        tpot_seconds=tpot, tokens_per_s_per_gpu=tps_gpu,
                        tokens_per_s_per_user=1.0 / tpot,
                        requests_per_s=rps, kv_bytes_per_gpu=kv_gpu,
                        weight_bytes_per_gpu=mem.weight_bytes,
                        memory_bytes_per_gpu=mem.weight_bytes + kv_gpu, fits=p.fits,
                        bound=bound, ceiling_tokens_per_s_per_gpu=max(pc.tokens_per_s_per_gpu,
                                                                      p.tokens_per_s_per_gpu),
                        stable=stable, ratio=p.ratio, kv_transfer_seconds=p.kv_transfer_seconds,
                        cost_per_mtok=c, joules_per_token=jt, efficiency=eff.source)


@dataclass(frozen=True)
class ThroughputPoint:
    """The offline maximum of one aggregated replica (output tokens; seconds; per GPU where
    named).  ``tokens_per_s``: the whole replica (``tp`` GPUs); ``batch``: the sequences
    decoding together at that maximum (at most ``max_batch``, the KV budget);
    ``ceiling_tokens_per_s``: the same replica at 100 % of the datasheet (:data:`BOUND`);
    ``bound``: what sets the step there ("weights", "kv", "compute", "network");
    ``fits`` False: not one sequence fits (every rate 0)."""
    device_id: str
    tp: int
    batch: float
    max_batch: int
    tokens_per_s: float
    tokens_per_s_per_gpu: float
    tokens_per_s_per_user: float
    tpot_seconds: float
    ceiling_tokens_per_s: float
    bound: str
    fits: bool
    efficiency: str = ""
    definitions: str = DEFINITIONS


def max_throughput(arch: Any, *, device: Any, gpus: int, weights: str, kv_dtype: str, isl: float,
                   osl: float, act: Optional[str] = None, ep: int = 1, prefix_hit: float = 0.0,
                   token_budget: int = 8192, spec: Optional[SpecDecode] = None,
                   efficiency: Optional[Efficiency] = None) -> ThroughputPoint:
    """The most output tokens/s one aggregated replica of ``gpus`` tensor-parallel GPUs
    reaches when every request of ``isl`` / ``osl`` tokens is queued at once (an offline
    benchmark: ``trtllm-bench throughput``, vLLM's ``benchmark_throughput``)   [tokens/s].

        tokens/s = max over B of  B / TPOT(B)          B = 1 … max sequences that fit

    on :func:`calc.serving.steady.aggregated_curve` (continuous batching, chunked prefill in
    a ``token_budget`` of 8,192 tokens per step, TensorRT-LLM's default ``max_num_tokens``,
    as many prompts per step as the budget holds, so B · n_new / osl <= T − B), each
    sequence's KV reserved at its full isl + osl (:func:`calc.serving.replica.replica_memory`:
    what TensorRT-LLM's default GUARANTEED_NO_EVICT scheduler admits).  Queueing does not
    lower an offline rate, so TTFT is not a limit here.  ``efficiency`` None: the published
    estimate; :data:`BOUND`: the ceiling.  The ceiling is computed too
    (``ceiling_tokens_per_s``): no engine exceeds it for the same work.
    """
    wl = Workload(isl=float(isl), osl=float(osl), prefix_hit=prefix_hit)
    eff = efficiency if efficiency is not None else published_efficiency()
    r, mem, batches = _replica_batches(arch, device, gpus, weights, kv_dtype, act, ep, wl, spec)
    dev_id = getattr(device, "id", "")
    best = []
    for e in (eff, BOUND):
        c = aggregated_curve(r, wl, batches, e, token_budget, spec, "fluid")   # all queued at once
        if c.batch.size == 0:
            best.append(None)
            continue
        best.append((c, int(np.argmax(c.tokens_per_s_per_gpu))))
    if best[0] is None:
        return ThroughputPoint(dev_id, r.tp, 0.0, mem.max_seqs, 0.0, 0.0, 0.0, math.inf, 0.0,
                               "kv", False, efficiency=eff.source)
    (c, i), ceiling = best[0], best[1]
    per_gpu = float(c.tokens_per_s_per_gpu[i])
    ceil_total = float(ceiling[0].tokens_per_s_per_gpu[ceiling[1]]) * r.tp if ceiling else 0.0
    return ThroughputPoint(device_id=dev_id, tp=r.tp, batch=float(c.batch[i]), max_batch=mem.max_seqs,
                           tokens_per_s=per_gpu * r.tp, tokens_per_s_per_gpu=per_gpu,
                           tokens_per_s_per_user=float(c.tokens_per_s_per_user[i]),
                           tpot_seconds=float(c.tpot_seconds[i]),
                           ceiling_tokens_per_s=max(ceil_total, per_gpu * r.tp), bound=str(c.bound[i]),
                           fits=mem.fits, efficiency=eff.source)


@dataclass(frozen=True)
class PoolLayout:
    """One pool: ``instances`` × ``tp`` GPUs, each decoding ``batch`` (prefill: prompts per step).

    ``load``: the share of its capacity each instance runs at, ρ = (rate / instances) ÷ the
    most requests/s one instance reaches (aggregated: its curve's maximum over every batch
    its memory holds; decode: at its largest batch; prefill: r_p, k prompts per step), the
    capacity ``size_deployment(max_load=)`` sizes against."""
    role: str            # "aggregated", "prefill" or "decode"
    tp: int
    instances: int
    batch: float
    load: Optional[float] = None

    @property
    def gpus(self) -> int:
        return self.tp * self.instances


@dataclass(frozen=True)
class DeploymentOption:
    """The fewest GPUs of one mode that meet the targets at the rate."""
    mode: str
    gpus: int
    pools: tuple[PoolLayout, ...]
    ttft_seconds: float
    tpot_seconds: float
    tokens_per_s_per_gpu: float        # at the rate: rate · osl / gpus
    tokens_per_s_per_user: float
    bound: str
    cost_per_mtok: Optional[float] = None
    joules_per_token: Optional[float] = None

    @property
    def busiest_pool(self) -> Optional[PoolLayout]:
        """The pool that runs nearest its capacity (its ``load`` is this option's)."""
        loaded = [p for p in self.pools if p.load is not None]
        return max(loaded, key=lambda p: p.load) if loaded else None

    @property
    def load(self) -> Optional[float]:
        """The busiest pool's :attr:`PoolLayout.load` (aggregated: its replicas'); None when
        no pool says one."""
        pool = self.busiest_pool
        return None if pool is None else pool.load

    @property
    def near_capacity(self) -> bool:
        """A layout with a pool above :data:`STEADY_STATE_LOAD_LIMIT` of its capacity: a few
        per cent more traffic than planned overloads it (an aggregated replica's or a prefill
        pool's prompt queue, a decode pool's admission, which waits for KV room), and the
        steady state and the engine simulator part (README, "Where the steady state and the
        simulator part")."""
        return self.load is not None and self.load > STEADY_STATE_LOAD_LIMIT


STEADY_STATE_LOAD_LIMIT = 0.9
"""Above this share of a replica's capacity the plan has little headroom: at load ρ a rise
of 1/ρ − 1 in traffic exceeds the capacity and the queue grows without bound (a simulated
Llama 3.1 8B FP8 replica on an H100, 2,000 / 300 tokens, sized at 0.95 of its capacity (23
requests/s): p90 TTFT 0.24-0.42 s in four 12,000-request runs, but at 5 % more traffic
1.4-5.0 s), and near it the simulated TTFT varies widely from run to run (the steady state
reads 0.62-0.99 × its mean at 0.95, four workloads, README) while TPOT stays within 14 %.
Past it the page says so and points to the simulator and the headroom input
(``size_deployment(max_load=)``)."""


@dataclass(frozen=True)
class Deployment:
    """:func:`size_deployment`'s answer: each mode's best layout (None: no layout meets the
    targets) and the one with fewer GPUs (``best``)."""
    request_rate: float
    ttft_target: float
    tpot_target: float
    aggregated: Optional[DeploymentOption]
    disaggregated: Optional[DeploymentOption]
    ttft_quantile: Optional[float] = None     # None: the target holds the mean TTFT; 0.9: p90

    @property
    def best(self) -> Optional[DeploymentOption]:
        opts = [o for o in (self.aggregated, self.disaggregated) if o is not None]
        return min(opts, key=lambda o: (o.gpus, o.tpot_seconds)) if opts else None


def full_curve(r: Replica, wl: Workload, eff: Efficiency, token_budget: int = 8192,
               spec: Optional[SpecDecode] = None, upto: Optional[int] = None) -> AggregatedCurve:
    """:func:`aggregated_curve` at every batch 1 … max_seqs the replica's memory admits
    (Poisson arrivals): what :func:`size_deployment` searches, and what a chart's coarser grid
    is cut from (:meth:`AggregatedCurve.at`).  ``upto`` (>= max_seqs): compute on the grid
    1 … upto, the one several devices' curves share so that their device-free step work is
    computed once; the points beyond max_seqs are dropped, the rest are the same (each
    point depends on its own batch only)."""
    mem = replica_memory(r, wl.context_len, spec)
    n = max(mem.max_seqs, 0) if upto is None else max(int(upto), mem.max_seqs, 0)
    return aggregated_curve(r, wl, np.arange(1, n + 1), eff, token_budget, spec)


def _check_curve(c: AggregatedCurve, r: Replica, wl: Workload, eff: Efficiency, token_budget: int,
                 spec: Optional[SpecDecode]) -> None:
    """ValueError unless ``c`` is :func:`full_curve` of these inputs (what the curve depends
    on: the replica, the lengths and prefix hit, the budget, the efficiency, the speculation)."""
    same = (c.replica == r and c.token_budget == int(token_budget) and c.efficiency == eff
            and c.spec == spec and c.arrivals == "poisson" and c.workload.concurrency is None
            and (c.workload.isl, c.workload.osl, c.workload.prefix_hit) == (wl.isl, wl.osl, wl.prefix_hit))
    if not same:
        raise ValueError(f"curves[{r.tp}] was computed for other inputs than this sizing "
                         f"(replica, workload, token_budget, efficiency or spec differ)")


def size_deployment(arch: Any, *, device: Any, weights: str, kv_dtype: str, isl: float, osl: float,
                    request_rate: float, ttft_target: float, tpot_target: float,
                    tps: Sequence[int] = DEFAULT_TPS, act: Optional[str] = None, prefix_hit: float = 0.0,
                    token_budget: int = 8192, spec: Optional[SpecDecode] = None,
                    efficiency: Optional[Efficiency] = None, modes: Sequence[str] = MODES,
                    price_per_gpu_hour: Optional[float] = None, watts_per_gpu: Optional[float] = None,
                    ttft_quantile: Optional[float] = None, max_load: float = 1.0,
                    curves: Optional[Mapping[int, AggregatedCurve]] = None) -> Deployment:
    """The fewest GPUs that serve ``request_rate`` requests/s with TTFT <= ``ttft_target``
    and TPOT <= ``tpot_target`` (seconds), aggregated and disaggregated.

    The TTFT held to the target is the MEAN with queueing under Poisson arrivals
    (:mod:`calc.serving.queueing`), so no pool is sized to run at ~100 % load; with
    ``ttft_quantile`` (0.9: a p90 target) it is that percentile of it
    (:func:`calc.serving.queueing.mdc_wait_quantile`), and every TTFT reported is too.  TPOT
    has no spread in the steady state (every step of a batch takes one time), so its target
    holds for every percentile alike.

    Aggregated, for each tp: the batch on :func:`aggregated_curve` that carries the most
    requests/s r per replica while TPOT and the queued TTFT (``ttft_queued_seconds``, the
    prompt queue at that rate, :func:`calc.serving.steady.prompt_queue_ttft`) meet the
    targets; replicas = ceil(rate / r); GPUs = replicas · tp.
    Disaggregated, for each (tp_p, tp_d): prefill instances run k prompts per step
    (:func:`calc.serving.steady.prefill_pool`), decode instances the largest batch whose
    TPOT meets the target; decode instances = ceil(rate / r_d), prefill instances the fewest
    n >= ceil(rate / r_p) whose M/D/c mean TTFT (:func:`calc.serving.steady.prefill_pool_ttft`)
    meets it.  The batch, TTFT and TPOT
    reported are where the replicas (decode instances) run at the rate: each carries
    rate / replicas, at the batch Little's law puts on its curve (:func:`_carrying`, as
    :func:`serving_point` does), at or below the sized point; the prefill pool's TTFT is at
    its sized prompts per step.  Tokens/s per GPU is the rate's, tokens/s per user
    1 / that TPOT.  The layout with the fewest GPUs wins (ties: the lower TPOT).  The
    simulator on the page gives the p90 and p99 of continuous batching.

    Headroom: ``max_load`` (0 < ρ_max <= 1; 1: none, the targets alone size it) is the
    highest share of its capacity a sized replica or instance may run at, so that
    1 / ρ_max − 1 more traffic than planned still fits (0.7: 43 % more).  Capacity is the
    most requests/s one replica reaches over every batch its memory admits, whatever the
    targets: an aggregated replica's curve's maximum, a decode instance's at its largest
    batch, a prefill instance's r_p.  An aggregated replica is sized at a point at or below
    ρ_max · capacity, decode instances n_d >= rate / (ρ_max · capacity), prefill instances
    n_p >= rate / (ρ_max · r_p).  Each pool reports its load ρ = rate / (instances ·
    capacity) (:class:`PoolLayout`), each option its busiest pool's, and
    :attr:`DeploymentOption.near_capacity` flags one above :data:`STEADY_STATE_LOAD_LIMIT`.

    ``curves`` (tp -> :class:`AggregatedCurve` at every batch 1 … max_seqs, as
    :func:`full_curve` computes it): curves already computed for these replicas, used
    instead of computing them again (:func:`calc.serving.compare.compare_candidates` draws
    its chart from the same ones); a curve computed for another replica, workload, budget,
    efficiency or speculation is refused (ValueError).
    """
    wl = Workload(isl=float(isl), osl=float(osl), prefix_hit=prefix_hit)
    eff = efficiency if efficiency is not None else published_efficiency()
    act = act or default_act(device, weights)
    rate = float(request_rate)
    if not rate > 0:
        raise ValueError(f"request_rate must be > 0 requests/s, got {request_rate!r}")
    rho_max = float(max_load)
    if not 0.0 < rho_max <= 1.0:
        raise ValueError(f"max_load must be a share of capacity in (0, 1] (0.7: 30 % headroom), got {max_load!r}")
    replicas = []
    for tp in tps:
        try:
            replicas.append(Replica(arch=arch, device=device, tp=int(tp), weights=weights, kv=kv_dtype, act=act))
        except ValueError:
            continue
    agg = dis = None
    if "aggregated" in modes:
        for r in replicas:
            mem = replica_memory(r, wl.context_len, spec)
            if not mem.fits:
                continue
            c = (curves or {}).get(r.tp)
            if c is None:
                c = full_curve(r, wl, eff, token_budget, spec)
            else:
                _check_curve(c, r, wl, eff, token_budget, spec)
            headroom = c.requests_per_s <= rho_max * float(c.requests_per_s.max()) * (1.0 + 1e-12)
            ok = np.nonzero((c.tpot_seconds <= tpot_target) & (c.queued_ttft(ttft_quantile) <= ttft_target)
                            & headroom)[0]
            if ok.size == 0:
                continue
            i = int(ok[np.argmax(c.requests_per_s[ok])])
            n = int(math.ceil(rate / float(c.requests_per_s[i]) - 1e-9))
            # each of the n replicas carries rate / n: report the batch, TTFT and TPOT there
            # (at most the sized point's: the curve up to i meets both targets)
            B, j, tpot, ttft = _carrying_queued(c, rate / n, ttft_quantile, end=i + 1)
            load = rate / n / float(c.requests_per_s.max())
            opt = DeploymentOption("aggregated", n * r.tp, (PoolLayout("aggregated", r.tp, n, B, load),),
                                   ttft, tpot, rate * wl.osl / (n * r.tp), 1.0 / tpot, str(c.bound[j]))
            if agg is None or (opt.gpus, opt.tpot_seconds) < (agg.gpus, agg.tpot_seconds):
                agg = opt
    if "disaggregated" in modes:
        pre = []
        for r in replicas:
            if not replica_memory(r, wl.isl).fits:
                continue
            k, ttft, xfer, r_p = prefill_pool(r, wl, eff, token_budget, ttft_target)
            if ttft <= ttft_target:
                pre.append((r, k, ttft, r_p))
        dec = []
        for r in replicas:
            mem = replica_memory(r, wl.context_len, spec)
            if not mem.fits:
                continue
            B, tpot, bound, _, _ = decode_pool(r, wl, np.arange(1, mem.max_seqs + 1), eff, spec)
            ok = np.nonzero(tpot <= tpot_target)[0]
            if ok.size:
                i = int(ok[-1])
                rps = B / (tpot * wl.osl)        # Little's law: B in flight, osl tokens at TPOT
                dec.append((r, B[:i + 1], tpot[:i + 1], bound[:i + 1], rps[:i + 1], float(rps.max())))
        for rp, k, ttft0, r_p in pre:
            n_p = _prefill_instances(rate, k, ttft0, r_p, ttft_target, ttft_quantile, rho_max)
            if n_p is None:
                continue
            ttft = prefill_pool_ttft(rate, n_p, k, ttft0, r_p, ttft_quantile)
            for rd, Bs, tpots, bounds, rps, capacity in dec:
                per_instance = min(float(rps[-1]), rho_max * capacity)
                n_d = int(math.ceil(rate / per_instance - 1e-9))
                # each decode instance carries rate / n_d: its batch and TPOT there
                B, j, tpot = _carrying(rate / n_d, rps, Bs, tpots)
                bound = str(bounds[j])
                g = n_p * rp.tp + n_d * rd.tp
                pools = (PoolLayout("prefill", rp.tp, n_p, float(k), rate / (n_p * r_p)),
                         PoolLayout("decode", rd.tp, n_d, B, rate / (n_d * capacity)))
                opt = DeploymentOption("disaggregated", g, pools, ttft, tpot, rate * wl.osl / g,
                                       1.0 / tpot, bound)
                if dis is None or (opt.gpus, opt.tpot_seconds) < (dis.gpus, dis.tpot_seconds):
                    dis = opt

    def priced(o):
        if o is None:
            return None
        c, j = _cost(o.tokens_per_s_per_gpu, price_per_gpu_hour, watts_per_gpu)
        return DeploymentOption(o.mode, o.gpus, o.pools, o.ttft_seconds, o.tpot_seconds,
                                o.tokens_per_s_per_gpu, o.tokens_per_s_per_user, o.bound, c, j)
    return Deployment(rate, float(ttft_target), float(tpot_target), priced(agg), priced(dis),
                      ttft_quantile)


def _prefill_instances(rate: float, k: int, ttft: float, r_p: float, ttft_target: float,
                       quantile: Optional[float] = None, max_load: float = 1.0) -> Optional[int]:
    """The fewest prefill instances n >= ceil(rate / (max_load · r_p)) whose mean TTFT with queueing
    (:func:`calc.serving.steady.prefill_pool_ttft`; its ``quantile`` when given) meets
    ``ttft_target``; None when even
    64 × that many do not (a step plus transfer at the target leaves no time to wait).
    The wait falls as n grows (the load per server a / n · k falls), so a doubling search
    then a bisection finds it in O(log n) evaluations."""
    lo = max(int(math.ceil(rate / (max_load * r_p) - 1e-9)), 1)
    meets = lambda n: prefill_pool_ttft(rate, n, k, ttft, r_p, quantile) <= ttft_target
    if meets(lo):
        return lo
    hi = lo
    while not meets(hi):
        hi *= 2
        if hi > 64 * lo:
            return None
    while hi - lo > 1:                 # meets(hi), not meets(lo)
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if meets(mid) else (mid, hi)
    return hi


def frontier(replicas: Sequence[Replica], wl: Workload, eff: Optional[Efficiency] = None,
             batches: Any = DEFAULT_BATCHES, token_budget: int = 8192,
             spec: Optional[SpecDecode] = None) -> list[AggregatedCurve]:
    """One aggregated curve per replica configuration (devices × precisions × tp), over
    ``batches`` (only those that fit).  What the Serving page draws."""
    e = eff if eff is not None else published_efficiency()
    return [aggregated_curve(r, wl, batches, e, token_budget, spec) for r in replicas]


def pareto_front(x: Any, y: Any) -> np.ndarray:
    """Mask of the points no other point beats on both x and y (higher is better on both):
    tokens/s per user against tokens/s per GPU.  O(n log n): sort by x descending, keep a
    point when its y exceeds every y seen so far."""
    xa = np.asarray(x, dtype=float)
    ya = np.asarray(y, dtype=float)
    order = np.lexsort((-ya, -xa))
    best = -np.inf
    mask = np.zeros(xa.shape, dtype=bool)
    for i in order:
        if ya[i] > best:
            mask[i] = True
            best = ya[i]
    return mask
