"""Run the benchmarks in a time budget and collect what they measured.

    plan(quick, gpu)  -> the benchmarks and their budgets (s)
    run(quick, ...)   -> Measurement (CPU always; GPU when torch sees one)

Budgets: a default run ≈ 22 s of samples on the CPU (≈ 24 s with a GPU, the CPU
part halved), ``quick`` ≈ 5.8 s (≈ 6.9 s with a GPU); allocation, warm-up, the
minimum samples and torch's start-up come on top. tests/measure check the budgets'
headroom; bench/measure_bench.py times whole runs against the 10 s / 30 s bounds.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Callable, Optional

from measure import cpu, gpu
from measure.cpu import GemmPoint, StreamPoint
from measure.gpu import GpuInfo, GpuStatus
from measure.system import HostInfo, host_info

__all__ = ["Benchmark", "Measurement", "plan", "run", "stream_max_bytes", "RunProgress"]

RunProgress = Callable[[str, float, str], None]
"""progress(benchmark id, fraction of it done 0..1, short text); may raise to cancel."""


@dataclass(frozen=True)
class Benchmark:
    """One benchmark of a run: id (see BENCHMARKS in the page texts) and budget (s)."""

    id: str
    budget_s: float


_CPU_QUICK = (("stream", 2.6), ("gemm_fp64", 1.3), ("gemm_fp32", 1.3), ("gemm_small", 0.6))
_CPU_FULL = (("stream", 9.0), ("gemm_fp64", 5.5), ("gemm_fp32", 5.5), ("gemm_small", 2.0))
_GPU_QUICK = (("gpu_matmul", 3.0), ("gpu_copy", 1.0))
_GPU_FULL = (("gpu_matmul", 10.0), ("gpu_copy", 3.0))
_GPU_SIZES_QUICK = (4096, 8192)
_GPU_SIZES_FULL = (2048, 4096, 8192, 16384)


SCALE_ENV = "ROOFLINE_LAB_MEASURE_SCALE"
"""Multiplies every budget (0 < scale <= 1): the AppTest page tests run a 0.25 × quick run."""


def budget_scale() -> float:
    """ROOFLINE_LAB_MEASURE_SCALE clamped to (0, 1]; 1 when unset or not a number."""
    try:
        value = float(os.environ.get(SCALE_ENV, "1"))
    except ValueError:
        return 1.0
    return min(1.0, value) if value > 0 else 1.0


def plan(quick: bool, with_gpu: bool) -> tuple[Benchmark, ...]:
    """The benchmarks of a run, in order, with their budgets (s). With a GPU the CPU
    budgets are halved so the whole run keeps its bound (times budget_scale())."""
    scale = (0.5 if with_gpu else 1.0) * budget_scale()
    out = [Benchmark(b, s * scale) for b, s in (_CPU_QUICK if quick else _CPU_FULL)]
    if with_gpu:
        out += [Benchmark(b, s * budget_scale()) for b, s in (_GPU_QUICK if quick else _GPU_FULL)]
    return tuple(out)


def stream_max_bytes(host: HostInfo, quick: bool) -> int:
    """Largest streaming working set (bytes): 4× (quick) or 8× the last-level cache,
    at least 64 MiB, at most 1 GiB and an eighth of the RAM."""
    llc = host.last_level_cache
    size = (4 if quick else 8) * (llc.size_bytes if llc else 32 * 2**20)
    size = max(size, 64 * 2**20)
    cap = 2**30
    if host.memory_bytes:
        cap = min(cap, host.memory_bytes // 8)
    return int(min(size, cap))


@dataclass
class Measurement:
    """Everything one run measured (SI units: bytes, bytes/s, FLOP/s, s)."""

    quick: bool
    started: datetime
    seconds: float
    host: HostInfo
    stream: list[StreamPoint]
    gemm: list[GemmPoint]
    gpu_status: GpuStatus
    gpu: Optional[GpuInfo] = None
    gpu_gemm: list[GemmPoint] = field(default_factory=list)
    gpu_copy: list[StreamPoint] = field(default_factory=list)
    gpu_skipped: dict[str, str] = field(default_factory=dict)

    @property
    def cpu_plateaus(self) -> dict[str, float]:
        """{"L1": .., "L2": .., "L3": .., "dram": ..} bytes/s (cpu.plateaus)."""
        return cpu.plateaus(self.stream, self.host.caches)

    @property
    def gpu_plateaus(self) -> dict[str, float]:
        """{"L2": .., "dram": ..} bytes/s from the device copy sweep."""
        if self.gpu is None or not self.gpu_copy:
            return {}
        from measure.system import CacheLevel
        caches = (CacheLevel(2, self.gpu.l2_bytes),) if self.gpu.l2_bytes else ()
        return cpu.plateaus(self.gpu_copy, caches)

    @staticmethod
    def peaks(points: list[GemmPoint]) -> dict[str, float]:
        """Precision -> highest rate over the sizes (FLOP/s, best sample of each size)."""
        out: dict[str, float] = {}
        for p in points:
            out[p.precision] = max(out.get(p.precision, 0.0), p.rate)
        return out

    @property
    def cpu_peaks(self) -> dict[str, float]:
        return self.peaks(self.gemm)

    @property
    def gpu_peaks(self) -> dict[str, float]:
        return self.peaks(self.gpu_gemm)


def run(quick: bool = False, *, use_gpu: bool = True, progress: Optional[RunProgress] = None,
        should_stop: Optional[Callable[[], bool]] = None,
        status: Optional[GpuStatus] = None) -> Measurement:
    """Measure this machine: the CPU always, the GPU when ``use_gpu`` and torch sees one.

    progress(benchmark id, fraction, text) is called as each benchmark advances (the
    Measure page draws a bar per benchmark; raising from it cancels the run);
    should_stop() is polled between samples (True raises measure.timing.Cancelled).
    """
    started = datetime.now(timezone.utc).replace(microsecond=0)
    t0 = time.perf_counter()
    host = host_info()
    gstatus = status if status is not None else (gpu.gpu_status() if use_gpu else
                                                 GpuStatus(False, "disabled"))
    with_gpu = use_gpu and gstatus.available
    budgets = {b.id: b.budget_s for b in plan(quick, with_gpu)}

    def reporter(bench: str):
        if progress is None:
            return None
        return lambda frac, text: progress(bench, frac, text)

    def deadline(bench: str) -> float:
        # each benchmark's hard stop: its budget and a fifth more, from when it starts
        return time.perf_counter() + 1.2 * budgets[bench]

    sizes = cpu.working_set_sizes(stream_max_bytes(host, quick), per_octave=2 if quick else 3)
    stream = cpu.stream_sweep(sizes, budgets["stream"], progress=reporter("stream"),
                              should_stop=should_stop, deadline=deadline("stream"))
    gemm: list[GemmPoint] = []
    for precision in ("fp64", "fp32"):
        bench = f"gemm_{precision}"
        gemm += cpu.gemm_sweep(precision, budgets[bench], progress=reporter(bench),
                               should_stop=should_stop, deadline=deadline(bench))
    small = reporter("gemm_small")
    small_end = deadline("gemm_small")
    for i, precision in enumerate(("fp16", "int8")):
        sub = None if small is None else (lambda f, t, i=i: small((i + f) / 2, t))
        gemm += cpu.gemm_sweep(precision, budgets["gemm_small"] / 2, max_n=1024,
                               progress=sub, should_stop=should_stop, deadline=small_end)
    m = Measurement(quick, started, 0.0, host, stream, gemm, gstatus)
    if with_gpu:
        m.gpu = gpu.gpu_info(gstatus)
        m.gpu_gemm, m.gpu_skipped = gpu.gpu_matmul_sweep(
            gstatus, m.gpu, budgets["gpu_matmul"],
            sizes=_GPU_SIZES_QUICK if quick else _GPU_SIZES_FULL,
            progress=reporter("gpu_matmul"), should_stop=should_stop)
        m.gpu_copy = gpu.gpu_copy_sweep(gstatus, m.gpu, budgets["gpu_copy"],
                                        max_bytes=2**30 if quick else 4 * 2**30,
                                        progress=reporter("gpu_copy"), should_stop=should_stop)
    m.seconds = time.perf_counter() - t0
    return m
