"""One serving replica: what each GPU holds, the KV budget, and the time of one engine step.

A replica is ``tp`` GPUs (tensor parallel; a mixture of experts splits its experts over
``ep`` GPUs, a divisor of ``tp``; 1 by default, and calc.placement splits the experts over
``tp`` either way) running one copy of the model with weights, KV cache
and activations in their own precisions.  Everything here is per GPU of the replica.

Memory first (what a serving engine does at start-up: vLLM's ``gpu_memory_utilization``):

    usable        = memory · (1 − reserve)                   reserve = calc.plans.MEMORY_RESERVE
    KV budget     = usable − weights per GPU     (the reserve holds the activation workspace)
    max sequences = floor(KV budget / KV bytes per sequence per GPU at its full context)

No batch beyond ``max sequences`` is ever reported: a request that does not fit waits.

One engine step (continuous batching, chunked prefill — Sarathi-Serve, Agrawal et al.
2024): ``B`` sequences each decode one token at context ``c`` and ``P`` prompt tokens are
prefilled in the same forward pass, ``B + P`` at most the token budget.

    bytes  = weights read (B + P tokens route to experts) / tp  +  B · KV(c) / kv_split
             + P · KV per token / kv_split                                   (KV written)
    FLOP   = [B · (2·N_active + A_dec(c))  +  P · F_prefill] / tp
    time   = max(bytes / (mem_bw · η_mem), FLOP / (peak · η_compute)) + all-reduce(B + P)
             + t_fixed                              (a step's fixed cost; 0 unless typed)

The all-reduce is the Decode page's, ``calc.inference.allreduce_seconds``: (B + P)·d elements
of ``calc.inference.ALLREDUCE_BYTES_PER_ELEM`` (2: BF16) whatever the matrix units compute in, since an FP8
or FP4 GEMM writes its output in the activations' BF16.

The ceiling (``BOUND``) takes η = 1 and no communication; the estimate takes the
published band (:func:`published_efficiency`).  Sources: seed chapter 04 (bytes over
bandwidth); Pope et al. 2022 §2 (decode vs prefill); Shoeybi et al. 2019 (two all-reduces
per layer); Kwon et al. 2023 (vLLM, the KV budget after weights).
"""

from __future__ import annotations

import functools
import os
from types import MappingProxyType
import math
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Optional

import numpy as np

from .. import _validate as v
from ..arch import ModelArch, kv_bytes_per_token, kv_cache_bytes_per_seq
from ..inference import allreduce_seconds, decode_step, link_bw_one_way, max_batch_that_fits, prefill
from ..parallel.compute import gemm_efficiency
from ..parallel.network import (SCALE_OUT_EFFICIENCY, SCALE_UP_EFFICIENCY, Network, NetworkTier,
                                custom_network, network_for)
from ..placement import MEMORY_RESERVE, check_tp, kv_split, place
from ..published import device_family

__all__ = [
    "SERVING_PRECISIONS",
    "STORAGE_BYTES_PER_ELEM",
    "NETWORK_BW",
    "replica_network",
    "Efficiency",
    "BOUND",
    "published_efficiency",
    "named_efficiency",
    "Replica",
    "ReplicaMemory",
    "replica_memory",
    "StepTime",
    "step_time",
    "prefill_flops_per_token",
]

SERVING_PRECISIONS = ("bf16", "fp8", "fp4")
"""Precisions a serving replica can store weights / KV in and compute activations at."""

STORAGE_BYTES_PER_ELEM = {"bf16": 2.0, "fp8": 1.0, "fp4": 0.5 + 1.0 / 16.0}
"""Bytes per element: BF16 2; FP8 (E4M3, per-tensor or per-channel scale) 1; FP4 as NVFP4,
4 bits plus one FP8 scale per 16 values = 0.5625 (NVIDIA, "Introducing NVFP4", 2025)."""

NETWORK_BW = 50e9
"""Bytes/s per GPU on the scale-out network of a device whose hardware.toml entry gives no
network: 400 Gb/s InfiniBand/RoCE per GPU (JAX scaling book, ``gpus.md``: H100 nodes)."""


def replica_network(device) -> Network:
    """The network a replica's GPUs talk over: the device's own from hardware.toml
    (:func:`calc.parallel.network.network_for`, the Training layout page's, with Calculon's
    efficiencies and latencies), else an 8-GPU NVLink domain at the interconnect figure ÷ 2
    and :data:`NETWORK_BW` beyond it (no interconnect figure: every group on the scale-out
    network).  A tensor-parallel group of tp GPUs runs on ``replica_network(d).tier(tp)``;
    the KV cache of a disaggregated request crosses ``.scale_out``."""
    net = network_for(device)
    if net is not None:
        return net
    nvlink = link_bw_one_way(device.interconnect_bytes_per_s)
    return custom_network(8 if nvlink else 1, nvlink or NETWORK_BW, NETWORK_BW,
                          source="hardware.toml gives no network: NVLink = interconnect ÷ 2 in 8 "
                                 "GPUs, 50 GB/s per GPU beyond (JAX scaling book, gpus.md)")


@dataclass(frozen=True)
class Efficiency:
    """Achievable fractions of the datasheet figures the step time uses.

    mem_bw: of the HBM bandwidth; compute: None = by GEMM size
    (:func:`calc.parallel.compute.gemm_efficiency`, the Training layout page's),
    capped per device family by ``compute_caps`` (calc.published.device_family -> fraction),
    else a fixed fraction; communication: False = hidden (the bound), True = each
    collective at its tier's efficiency and latency (:func:`replica_network`, the one ring
    formula :func:`calc.parallel.network.collective_seconds`); source: where they come from.

    step_overhead: a fixed cost of every engine step that processes tokens  [s], added
    after the roofline terms — the host's scheduling, kernel launches and sampling, which
    no datasheet figure contains (TensorRT-LLM's batch-1 TTFT of a 128-token prompt is
    1.6-2.4× this estimate, README "First-token latency at batch 1").  0 in the bound and
    in the estimate: nothing published isolates it for every stack, so it is the user's
    measured figure (one short request through their server, minus this estimate), never
    a constant here.
    """
    mem_bw: float
    compute: Optional[float]
    communication: bool
    source: str
    label: str = "estimate"
    compute_caps: Mapping[str, float] = field(default_factory=dict, hash=False)
    step_overhead: float = 0.0

    def __post_init__(self) -> None:
        x = self.step_overhead
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not (0.0 <= x <= 1.0):
            raise ValueError(f"Efficiency.step_overhead must be 0-1 s per engine step, got {x!r}")
        object.__setattr__(self, "step_overhead", float(x))


BOUND = Efficiency(mem_bw=1.0, compute=1.0, communication=False,
                   source="datasheet peaks, communication hidden", label="bound")
"""The ceiling: 100 % of the datasheet, communication fully overlapped.  No published
measurement can sit above it (for the same work)."""


def published_efficiency(published: Any = None, devices: Optional[Mapping[str, Any]] = None,
                         end: str = "hi") -> Efficiency:
    """The realistic fractions, from published measurements (not tuned to one run).

    mem_bw: achieved ÷ datasheet bandwidth of the single-GPU decode rows of
    published_mfu.toml (gpt-fast, :func:`calc.published.decode_efficiency_range` at 1 GPU:
    0.42-0.65 on A100s power-limited to 330 W); ``end`` "hi" (default: the parts run
    below their rated power, so the top of the band is nearest an unthrottled GPU), "lo"
    or "mid".  compute: by GEMM size, Calculon's table (``systems/a100_80g.json``: 95 %
    above 128 GFLOP per GEMM, 90 % above 16, 60 % above 1, 10 % below) scaled so its top
    is the device's measured best GEMM (hardware.toml ``matmul_fraction``), as on the
    Training layout page (:func:`calc.parallel.compute.gemm_efficiency`), capped at the best MFU a
    published run reached on the device's family (published_mfu.toml [[training]]: H100 /
    H200 0.47, A100 0.64; a family without runs, e.g. B200, is not capped): a whole forward
    pass does not keep the matrix units busier than the best published runs did.
    Communication counted on the device's network (:func:`replica_network`): NVLink at
    :data:`~calc.parallel.network.SCALE_UP_EFFICIENCY` and 1 µs per ring step, the network
    at :data:`~calc.parallel.network.SCALE_OUT_EFFICIENCY` and 2 µs (Calculon's system files).
    """
    if published is None and devices is None:
        # the repository's files: read once per version of them (they are what every
        # Serving rerun asks for; parsing both TOML files took ~30 ms of each rerun)
        from ..hardware import DEFAULT_HARDWARE_PATH
        from ..published import DEFAULT_PUBLISHED_PATH
        return _repository_efficiency(end, _file_version(DEFAULT_HARDWARE_PATH),
                                      _file_version(DEFAULT_PUBLISHED_PATH))
    return _published_efficiency(published, devices, end)


def named_efficiency(name: str = "estimate", step_overhead: float = 0.0) -> Efficiency:
    """The efficiency a page names: "bound" (:data:`BOUND`) or "estimate"
    (:func:`published_efficiency`), with the user's fixed cost per step (``step_overhead``,
    s; :attr:`Efficiency.step_overhead`) when one is typed."""
    if name not in ("estimate", "bound"):
        raise ValueError(f"efficiency must be 'estimate' or 'bound', got {name!r}")
    eff = BOUND if name == "bound" else published_efficiency()
    return replace(eff, step_overhead=step_overhead) if step_overhead else eff


def _file_version(path) -> tuple:
    """(path, modification time in ns, size): changes when the file is edited."""
    try:
        st = os.stat(path)
    except OSError:
        return (str(path), None, None)
    return (str(path), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=8)
def _repository_efficiency(end: str, hardware_version: tuple, published_version: tuple) -> Efficiency:
    return _published_efficiency(None, None, end)


def _published_efficiency(published: Any, devices: Optional[Mapping[str, Any]],
                          end: str) -> Efficiency:
    from ..hardware import load_hardware
    from ..published import decode_efficiency_range, device_family, load_published
    pub = published if published is not None else load_published()
    devs = devices if devices is not None else load_hardware()
    rng = decode_efficiency_range(1, pub, devs)
    if rng is None:
        raise ValueError("published_mfu.toml has no decode rows to take an achievable bandwidth from")
    if end not in ("lo", "mid", "hi"):
        raise ValueError(f"end must be 'lo', 'mid' or 'hi', got {end!r}")
    bw = {"lo": rng.lo, "hi": rng.hi, "mid": 0.5 * (rng.lo + rng.hi)}[end]
    caps: dict[str, float] = {}
    for run in pub.training:
        if run.mfu is not None:
            fam = device_family(run.device)
            caps[fam] = max(caps.get(fam, 0.0), run.mfu)
    return Efficiency(mem_bw=bw, compute=None, communication=True,
                      source=f"gpt-fast decode bandwidth {rng.lo:.0%}-{rng.hi:.0%} "
                             f"(published_mfu.toml), Calculon GEMM efficiency and network "
                             f"(NVLink {SCALE_UP_EFFICIENCY:.0%}, network {SCALE_OUT_EFFICIENCY:.0%}), "
                             f"compute capped at the family's best published MFU",
                      label="estimate", compute_caps=MappingProxyType(caps))


@dataclass(frozen=True)
class Replica:
    """One model replica: ``tp`` GPUs of ``device`` (an Accelerator), experts over ``ep``.

    weights / kv / act: precision names of :data:`SERVING_PRECISIONS` (act is the precision
    the matrix units compute in: the device must have a peak for it).
    """
    arch: ModelArch
    device: Any
    tp: int = 1
    ep: int = 1                    # expert-parallel GPUs (divides tp; 1 for a dense model)
    weights: str = "bf16"
    kv: str = "bf16"
    act: str = "bf16"

    def __post_init__(self) -> None:
        for name in ("weights", "kv", "act"):
            val = getattr(self, name)
            if val not in SERVING_PRECISIONS:
                raise ValueError(f"{name} must be one of {', '.join(SERVING_PRECISIONS)}, got {val!r}")
        check_tp(self.arch, self.tp, self.ep)      # names the field (calc.placement)
        if self.act not in self.device.peaks:
            raise ValueError(f"{self.device.name} has no {self.act.upper()} peak: activation "
                             f"precision must be one of {', '.join(p for p in SERVING_PRECISIONS if p in self.device.peaks)}")
        if self.device.memory_bytes is None:
            raise ValueError(f"{self.device.name} has no memory size: a KV budget needs one")

    @property
    def gpus(self) -> int:
        return self.tp

    @property
    def weight_bytes_per_elem(self) -> float:
        return STORAGE_BYTES_PER_ELEM[self.weights]

    @property
    def kv_bytes_per_elem(self) -> float:
        return STORAGE_BYTES_PER_ELEM[self.kv]

    @property
    def kv_split(self) -> int:
        """GPUs one sequence's KV cache is divided over (:func:`calc.placement.kv_split`)."""
        return kv_split(self.arch, self.tp)

    @property
    def peak_flops(self) -> float:
        return self.device.peak_flops(self.act)

    @property
    def tp_tier(self) -> NetworkTier:
        """The network tier the tensor-parallel group runs on: scale-up when its tp GPUs fit
        in one domain of :func:`replica_network`, else scale-out."""
        return replica_network(self.device).tier(self.tp)


@dataclass(frozen=True)
class ReplicaMemory:
    """Bytes per GPU of a replica and the KV budget (all per GPU)."""
    memory_bytes: float          # the device's memory
    usable_bytes: float          # memory · (1 − MEMORY_RESERVE)
    reserve_fraction: float
    weight_bytes: float          # weights stored on one GPU (calc.placement.place)
    kv_budget_bytes: float       # usable − weights (< 0: the weights alone do not fit)
    kv_bytes_per_seq: float      # one sequence at its full context, on one GPU
    max_seqs: int                # sequences that fit (0: not even one)
    fits: bool                   # max_seqs >= 1


def replica_memory(r: Replica, context_len: float, spec: Any = None) -> ReplicaMemory:
    """The KV budget per GPU and the most sequences that fit at ``context_len`` tokens.

        usable    = M · (1 − MEMORY_RESERVE)            (calc.placement: 10 %, vLLM's 0.9)
        KV budget = usable − weights per GPU             (calc.placement.place)
        max_seqs  = floor(KV budget / (KV(context_len) / kv_split))
                  = calc.inference.max_batch_that_fits   (the Decode page's answer)

    With speculative decoding (``spec``, a :class:`calc.serving.speculative.SpecDecode`) the
    draft's weights come out of the budget and its cache is added to each sequence's
    (:func:`draft_memory`).  The reserve holds the activations, the CUDA context and
    fragmentation (vLLM profiles them inside its 0.9).  Sources: Kwon et al. 2023 (vLLM,
    PagedAttention §4).
    """
    c = v.number("context_len", context_len, "positive", "tokens")
    mem = _memory(r.arch, r.tp, r.ep, r.weight_bytes_per_elem, r.kv_bytes_per_elem, c,
                  float(r.device.memory_bytes))
    if spec is None:
        return mem
    w_x, kv_x = draft_memory(r, spec, c)
    budget = mem.kv_budget_bytes - w_x
    per_seq = mem.kv_bytes_per_seq + kv_x
    n = int(budget // per_seq) if budget > 0 and per_seq > 0 else 0
    return ReplicaMemory(memory_bytes=mem.memory_bytes, usable_bytes=mem.usable_bytes,
                         reserve_fraction=mem.reserve_fraction, weight_bytes=mem.weight_bytes + w_x,
                         kv_budget_bytes=budget, kv_bytes_per_seq=per_seq, max_seqs=max(n, 0),
                         fits=n >= 1)


def draft_memory(r: Replica, spec: Any, context_len: float) -> tuple[float, float]:
    """(weight bytes per GPU, KV bytes per sequence per GPU) a speculative draft adds to the
    replica   [B, B].

    "draft": the draft model placed on :func:`calc.serving.speculative.draft_tp` of the
    replica's GPUs at the replica's weight and KV precisions (calc.placement.place), its
    cache at the same context.  "mtp": one transformer layer of the target per MTP module
    (DeepSeek-V3 §2.2: each module is one block sharing the embedding and the output head),
    weights per GPU / L and KV per sequence / L — the one-layer cost the step time charges
    (:func:`calc.serving.steady.decode_pass`).  The KV part: :func:`draft_kv_bytes`.
    """
    from .speculative import draft_tp

    c = float(context_len)
    if spec.method == "draft":
        d = spec.draft
        pl = place(d, draft_tp(d, r.tp), 1, r.weight_bytes_per_elem, r.kv_bytes_per_elem, c, 1)
        return float(pl.weight_bytes), float(draft_kv_bytes(r, spec, c))
    base = _memory(r.arch, r.tp, r.ep, r.weight_bytes_per_elem, r.kv_bytes_per_elem, c,
                   float(r.device.memory_bytes))
    return base.weight_bytes * _mtp_layers(r) / r.arch.n_layers, float(draft_kv_bytes(r, spec, c))


def _mtp_layers(r: Replica) -> int:
    return max(int(getattr(r.arch, "mtp_layers", 0)), 1)


def draft_kv_bytes(r: Replica, spec: Any, context_len: Any):
    """KV bytes per sequence per GPU a speculative draft adds at ``context_len`` tokens
    (accepts arrays: one per request)   [B].

        "draft": kv_cache_bytes_per_seq(draft, c) / kv_split(draft, draft_tp)   (calc.placement.place)
        "mtp":   kv_cache_bytes_per_seq(target, c) / kv_split(target, tp) · layers / L

    Sources as :func:`draft_memory`.
    """
    from .speculative import draft_tp

    c = np.asarray(context_len, dtype=float)
    if spec.method == "draft":
        d = spec.draft
        kv = np.asarray(kv_cache_bytes_per_seq(d, c, r.kv_bytes_per_elem)) / kv_split(d, draft_tp(d, r.tp))
    else:
        kv = (np.asarray(kv_cache_bytes_per_seq(r.arch, c, r.kv_bytes_per_elem)) / r.kv_split
              * _mtp_layers(r) / r.arch.n_layers)
    return float(kv) if kv.ndim == 0 else kv


@functools.lru_cache(maxsize=1024)
def _memory(arch: ModelArch, tp: int, ep: int, w: float, kv_e: float, c: float, mem: float) -> ReplicaMemory:
    pl = place(arch, tp, ep, w, kv_e, c, 1)
    usable = mem * (1.0 - MEMORY_RESERVE)
    n = max_batch_that_fits(arch, c, memory_bytes=mem, tp=tp, ep=ep, bytes_per_param=w,
                            kv_bytes_per_elem=kv_e)
    n = int(n) if n is not None and math.isfinite(n) else 0
    return ReplicaMemory(memory_bytes=mem, usable_bytes=usable, reserve_fraction=MEMORY_RESERVE,
                         weight_bytes=pl.weight_bytes, kv_budget_bytes=usable - pl.weight_bytes,
                         kv_bytes_per_seq=pl.kv_bytes_per_seq, max_seqs=max(n, 0), fits=n >= 1)


def prefill_flops_per_token(r: Replica, isl: float, prefix: float = 0.0) -> float:
    """Forward FLOP per GPU per prompt token that is computed (not served from the prefix
    cache)   [FLOP/token].

        (prefill(isl).flops_per_gpu − prefill(prefix).flops_per_gpu) / (isl − prefix)

    :func:`calc.inference.prefill` (MLA non-absorbed, as engines prefill).  Causal
    attention: the new tokens attend to the cached prefix too, so the difference of the two
    prompts' FLOP is exactly the work of the new tokens (the one-off LM-head term cancels).
    """
    isl = float(isl)
    prefix = float(prefix)
    if not 0 <= prefix < isl:
        raise ValueError(f"the cached prefix ({prefix:g}) must be at least 0 and shorter than the prompt ({isl:g})")
    return _prefill_per_token(r.arch, r.tp, r.ep, r.weight_bytes_per_elem, isl, prefix)


@functools.lru_cache(maxsize=1024)
def _prefill_per_token(arch: ModelArch, tp: int, ep: int, w: float, isl: float, prefix: float) -> float:
    kw = dict(peak_flops=1.0, mem_bw=1.0, tp=tp, ep=ep, bytes_per_param=w)
    hi = float(prefill(arch, isl, **kw).flops_per_gpu)
    lo = float(prefill(arch, prefix, **kw).flops_per_gpu) if prefix > 0 else 0.0
    return (hi - lo) / (isl - prefix)


def _decode_record(r: Replica, batch: Any, context_len: float):
    """:func:`calc.inference.decode_step` of this replica (the Decode page's record), device
    numbers left out (1 FLOP/s, 1 byte/s): only its bytes and FLOP per GPU are used here."""
    return decode_step(r.arch, batch, context_len, peak_flops=1.0, mem_bw=1.0, tp=r.tp, ep=r.ep,
                       bytes_per_param=r.weight_bytes_per_elem, kv_bytes_per_elem=r.kv_bytes_per_elem)


@functools.lru_cache(maxsize=512)
def _work(arch: ModelArch, tp: int, ep: int, w: float, kv_e: float, c: float,
          n_raw: bytes, n_shape: tuple, b_raw: bytes, b_shape: tuple):
    """The device-free part of a step (bytes and FLOP per GPU) from the decode record,
    cached: a frontier over many devices shares it per (model, tp, precisions, batches).
    Returns read-only arrays (weights read for n tokens, KV read and FLOP of B sequences)."""
    n = np.frombuffer(n_raw, dtype=float).reshape(n_shape)
    B = np.frombuffer(b_raw, dtype=float).reshape(b_shape)
    kw = dict(peak_flops=1.0, mem_bw=1.0, tp=tp, ep=ep, bytes_per_param=w, kv_bytes_per_elem=kv_e)
    by_tokens = decode_step(arch, np.maximum(n, 1.0), c, **kw)          # weights read for B + P tokens
    same = n_raw == b_raw and n_shape == b_shape
    by_batch = by_tokens if same else decode_step(arch, np.maximum(B, 1.0), c, **kw)
    w_read = np.where(n > 0, by_tokens.weight_bytes, 0.0)
    kv = np.where(B > 0, by_batch.kv_bytes, 0.0)
    flops = np.where(B > 0, by_batch.flops, 0.0)
    for x in (w_read, kv, flops):
        x.setflags(write=False)
    return w_read, kv, flops


@dataclass(frozen=True)
class StepTime:
    """One engine step of a replica, per GPU (arrays when an input is an array).

    seconds = max(memory_seconds, compute_seconds) + network_seconds + overhead_seconds;
    bound: "weights" | "kv" | "compute" | "network" — the roofline term that sets
    ``seconds`` (the fixed ``overhead_seconds``, :attr:`Efficiency.step_overhead`, is no
    resource and sets no bound).
    """
    weight_bytes: Any
    kv_bytes: Any
    flops: Any
    memory_seconds: Any
    compute_seconds: Any
    network_seconds: Any
    seconds: Any
    bound: Any
    overhead_seconds: Any = 0.0


def step_time(r: Replica, decode_tokens: Any, context_len: Any, prefill_tokens: Any = 0.0,
              prefill_flops_token: float = 0.0, eff: Efficiency = BOUND) -> StepTime:
    """Time of one engine step with ``decode_tokens`` sequences decoding at ``context_len``
    and ``prefill_tokens`` prompt tokens of ``prefill_flops_token`` FLOP each   [s].

        weights read = decode_weight_bytes(arch, B + P, w) / tp        (MoE: experts the tokens route to)
        KV read      = B · KV(c) / kv_split;   KV written = P · KV per token / kv_split
        FLOP         = [B · (2·N_active + A_dec(c)) + P · F_prefill] / tp
        memory       = (weights + KV) / (mem_bw · η_mem)
        compute      = FLOP / (peak · η_gemm)      η_gemm by the per-GPU GEMM size (d × F/tp × tokens),
                                                   calc.parallel.compute.gemm_efficiency
        network      = 2·L · all_reduce((B+P)·d·a bytes over tp GPUs)              (tp > 1)
                     = 2·L · [2·(tp−1)/tp · (B+P)·d·a / (bw · η) + 2·(tp−1)·α]
                       on the group's tier (:attr:`Replica.tp_tier`: bw, η, α per ring step)
        seconds      = max(memory, compute) + network + t_fixed
        t_fixed      = eff.step_overhead when the step has tokens (B + P > 0), else 0

    A_dec(c): attention FLOP of one new token over c cached keys (absorbed MLA, as
    calc.models.decode_step).  The decode terms are the ones calc.models.decode_step
    uses, divided over the GPUs as the placement rule says (weights / tp, KV / kv_split).
    Vectorized over B, c and P (numpy broadcasting).  Sources: seed chapter 04; Pope et al.
    2022 §2-3; Agrawal et al. 2024 (Sarathi-Serve: chunked prefill mixes into decode
    steps); Shoeybi et al. 2019 §3 (two all-reduces per layer); Patarasuk & Yuan 2009 (ring).
    """
    arch = r.arch
    B = np.asarray(v.number("decode_tokens", decode_tokens, "non_negative", "sequences"), dtype=float)
    c = v.number("context_len", context_len, "non_negative", "tokens")
    if not isinstance(c, float):
        raise ValueError("context_len must be a single number (one workload per call)")
    P = np.asarray(v.number("prefill_tokens", prefill_tokens, "non_negative", "tokens"), dtype=float)
    n = B + P
    scalar = B.ndim == 0 and P.ndim == 0
    w_read, kv_dec, flops_dec = _work(r.arch, r.tp, r.ep, r.weight_bytes_per_elem, r.kv_bytes_per_elem,
                                      c, n.tobytes(), n.shape, B.tobytes(), B.shape)
    kv_tok = float(kv_bytes_per_token(arch, r.kv_bytes_per_elem)) / r.kv_split
    kv = kv_dec + P * kv_tok
    flops = flops_dec + P * np.asarray(prefill_flops_token, dtype=float)
    t_mem = (w_read + kv) / (r.device.mem_bw * eff.mem_bw)
    ffn = max(arch.ffn_size, arch.expert_ffn_size)
    eta_c = (eff.compute if eff.compute is not None
             else gemm_efficiency(2.0 * n * arch.d_model * ffn / r.tp, r.device.matmul_fraction))
    cap = eff.compute_caps.get(device_family(r.device.id)) if eff.compute_caps else None
    if cap:
        eta_c = np.minimum(eta_c, cap)
    t_cmp = flops / (r.peak_flops * eta_c)
    if r.tp > 1 and eff.communication:
        t_ar = allreduce_seconds(arch, np.maximum(n, 1.0), r.tp, tier=r.tp_tier)
        t_net = np.where(n > 0, t_ar, 0.0)
    else:
        t_net = np.zeros_like(n)
    t_fixed = np.where(n > 0, eff.step_overhead, 0.0)
    secs = np.maximum(t_mem, t_cmp) + t_net + t_fixed
    mem_kind = np.where(kv > w_read, "kv", "weights")
    bound = np.where(t_net > np.maximum(t_mem, t_cmp), "network",
                     np.where(t_cmp > t_mem, "compute", mem_kind))

    shape = np.broadcast(B, P).shape

    def out(x):
        x = np.asarray(x)
        if scalar:
            return x.item()
        return x if x.shape == shape else np.broadcast_to(x, shape).copy()
    return StepTime(weight_bytes=out(w_read), kv_bytes=out(kv), flops=out(flops),
                    memory_seconds=out(t_mem), compute_seconds=out(t_cmp), network_seconds=out(t_net),
                    seconds=out(secs), bound=out(bound), overhead_seconds=out(t_fixed))
