"""Serving at a latency target: how many GPUs for a traffic, at what TTFT / TPOT, tokens/s
per GPU and per user, and what a million tokens cost (numpy + standard library only).

Built on the one decode and prefill records (:mod:`calc.inference`, :mod:`calc.placement`):
a serving step is those records' bytes and FLOP per GPU mixed as continuous batching mixes
them.  The modules, by concern:

``workload``     Workload (lengths, distribution, prefix-cache hits, rate or concurrency),
                 the definitions (TTFT, TPOT, per user, output tokens)
``replica``      Replica (model, device, tp/ep, precisions), replica_memory (the KV budget
                 first), step_time (one engine step: decode + prefill chunk), Efficiency,
                 BOUND (100 %) and published_efficiency (the published band)
``speculative``  expected_tokens_per_step (Leviathan et al. 2023), SpecDecode
``steady``       aggregated_curve (chunked prefill), disaggregated (prefill/decode pools)
``simulate``     simulate: Poisson or closed-loop continuous batching, percentiles; rate_sweep
``cost``         cost_per_mtok, joules_per_token (InferenceX constants)
``plan``         serving_point, max_throughput (offline), size_deployment, frontier,
                 pareto_front
``compare``      compare_candidates: the Serving page's question in one call

Public API (stable; add, never rename): every name in ``__all__``.
"""

from .compare import (PLAN_WEIGHTS, Candidate, Comparison, ModeEconomics, SizedOption, all_in_watts,
                      compare_candidates, per_user_target, serving_plan)
from .cost import INFERENCEX_ALL_IN_KW, INFERENCEX_PRICE_PER_GPU_HOUR, cost_per_mtok, joules_per_token
from .plan import (DEFAULT_BATCHES, DEFAULT_TPS, DEFINITIONS, MODES, Deployment, DeploymentOption,
                   PoolLayout, ServingPoint, ThroughputPoint, default_act, frontier, max_throughput,
                   pareto_front, serving_point, size_deployment)
from .replica import (BOUND, NETWORK_BW, SERVING_PRECISIONS,
                      STORAGE_BYTES_PER_ELEM, Efficiency, Replica, ReplicaMemory, StepTime,
                      named_efficiency, prefill_flops_per_token, published_efficiency,
                      replica_memory, replica_network, step_time)
from .simulate import (PassModel, RequestTooLongError, SimResult, StepModel, pass_model, rate_sweep, simulate,
                       step_model)
from .speculative import SPEC_METHODS, SpecDecode, expected_tokens_per_step
from .steady import (AggregatedCurve, DisaggregatedPoint, aggregated_curve, decode_pass, decode_pool,
                     disaggregated, prefill_pool)
from .workload import DISTRIBUTIONS, Workload, context_overflow, sample_lengths

__all__ = [
    "PLAN_WEIGHTS", "Candidate", "Comparison", "ModeEconomics", "SizedOption", "all_in_watts",
    "compare_candidates", "per_user_target", "serving_plan",
    "INFERENCEX_ALL_IN_KW", "INFERENCEX_PRICE_PER_GPU_HOUR", "cost_per_mtok", "joules_per_token",
    "DEFAULT_BATCHES", "DEFAULT_TPS", "DEFINITIONS", "MODES", "Deployment", "DeploymentOption",
    "PoolLayout", "ServingPoint", "ThroughputPoint", "default_act", "frontier", "max_throughput",
    "pareto_front", "serving_point", "size_deployment",
    "BOUND", "NETWORK_BW", "SERVING_PRECISIONS", "STORAGE_BYTES_PER_ELEM",
    "Efficiency", "Replica", "ReplicaMemory", "StepTime", "prefill_flops_per_token",
    "named_efficiency", "published_efficiency", "replica_memory", "replica_network", "step_time",
    "PassModel", "RequestTooLongError", "SimResult", "StepModel", "pass_model", "rate_sweep", "simulate",
    "step_model",
    "SPEC_METHODS", "SpecDecode", "expected_tokens_per_step",
    "AggregatedCurve", "DisaggregatedPoint", "aggregated_curve", "decode_pass", "decode_pool",
    "disaggregated", "prefill_pool",
    "DISTRIBUTIONS", "context_overflow", "Workload", "sample_lengths",
]
