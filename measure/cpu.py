"""CPU microbenchmarks through numpy: streaming bandwidth against working-set size,
and matrix-multiply throughput per precision.

Streaming (one thread: numpy's copy and ufuncs do not use the BLAS threads):

    copy   b[:] = a                          bytes per call = 2 · n · 8
                                             (read a, write b; the STREAM count, no
                                             write-allocate traffic)
    triad  a = b + s · c, as numpy runs it:  bytes per call = 5 · n · 8
           np.multiply(c, s, out=a)          (read c, write a)
           np.add(a, b, out=a)               (read a, read b, write a)

    bandwidth = bytes per call / seconds per call            [bytes/s]

The working set (2 · n · 8 for copy, 3 · n · 8 for triad) is swept from 4 KiB to
well beyond the last-level cache; the curve's plateaus are the cache and DRAM
bandwidths (:func:`plateaus`). Small working sets include numpy's per-call overhead
(~0.5-1 µs), so the L1 figure is what numpy code gets, below the hardware's.

GEMM (numpy.matmul; float64/float32 go to the BLAS with its threads, float16 and
int8 to numpy's own loops):

    FLOP per call = 2 · n³  (calc.kernels.gemm)     rate = FLOP / seconds  [FLOP/s]

Sizes grow ×2 while the next one is predicted to fit the budget (time ∝ n³).
Source: J. McCalpin, STREAM (https://www.cs.virginia.edu/stream/); Williams et al. 2009.
"""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import numpy as np

from calc import kernels
from measure.system import CacheLevel
from measure.timing import Timing, time_op

__all__ = ["StreamPoint", "GemmPoint", "STREAM_KERNELS", "CPU_GEMM_DTYPES",
           "working_set_sizes", "stream_sweep", "gemm_sweep", "plateaus", "Progress"]

Progress = Callable[[float, str], None]
"""progress(fraction done 0..1, short text); may raise to cancel the measurement."""

STREAM_KERNELS = ("copy", "triad")
_ARRAYS = {"copy": 2, "triad": 3}          # arrays in the working set
_TRAFFIC = {"copy": 2, "triad": 5}         # arrays' worth of bytes moved per call
_TRIAD_SCALAR = 3.0

CPU_GEMM_DTYPES = {"fp64": np.float64, "fp32": np.float32, "fp16": np.float16, "int8": np.int8}
"""Precision name (calc.hardware.PRECISIONS) -> numpy dtype."""

_BLAS_PRECISIONS = ("fp64", "fp32")


@dataclass(frozen=True)
class StreamPoint:
    """One streaming kernel at one working set: sizes in bytes, timing in s."""

    kernel: str
    working_set_bytes: int
    bytes_per_call: int
    timing: Timing

    @property
    def bandwidth(self) -> float:
        """bytes_per_call / best seconds per call   [bytes/s]."""
        return self.bytes_per_call / self.timing.best

    @property
    def bandwidth_median(self) -> float:
        """bytes_per_call / median seconds per call   [bytes/s]."""
        return self.bytes_per_call / self.timing.median


@dataclass(frozen=True)
class GemmPoint:
    """One square matrix multiply n×n×n at one precision: FLOP per call, timing in s."""

    precision: str
    n: int
    flops: float
    timing: Timing
    library: str = "numpy"

    @property
    def rate(self) -> float:
        """flops / best seconds per call   [FLOP/s] (ops/s for int8)."""
        return self.flops / self.timing.best

    @property
    def rate_median(self) -> float:
        """flops / median seconds per call   [FLOP/s]."""
        return self.flops / self.timing.median


def working_set_sizes(max_bytes: int, per_octave: int = 2, min_bytes: int = 4096) -> list[int]:
    """Log-spaced working sets (bytes) from min_bytes to max_bytes, per_octave points per
    doubling, each a multiple of 192 bytes (whole float64 elements for 2 and 3 arrays)."""
    if max_bytes < min_bytes:
        raise ValueError(f"max_bytes ({max_bytes}) must be >= min_bytes ({min_bytes})")
    octaves = math.log2(max_bytes / min_bytes)
    count = max(2, int(round(octaves * per_octave)) + 1)
    sizes = sorted({int(round(s / 192.0)) * 192 for s in np.geomspace(min_bytes, max_bytes, count)})
    return [s for s in sizes if s > 0]


def _stream_op(kernel: str, working_set: int) -> tuple[Callable[[], object], int]:
    n = max(1, working_set // (8 * _ARRAYS[kernel]))
    a = np.ones(n)
    b = np.full(n, 2.0)
    if kernel == "copy":
        return (lambda: np.copyto(b, a)), _TRAFFIC[kernel] * n * 8
    c = np.full(n, 0.5)

    def triad() -> None:
        np.multiply(c, _TRIAD_SCALAR, out=a)
        np.add(a, b, out=a)
    return triad, _TRAFFIC[kernel] * n * 8


def stream_sweep(sizes: Sequence[int], budget_s: float, *, kernels_: Sequence[str] = STREAM_KERNELS,
                 progress: Optional[Progress] = None,
                 should_stop: Optional[Callable[[], bool]] = None,
                 deadline: Optional[float] = None) -> list[StreamPoint]:
    """Copy and triad bandwidth at each working set (bytes); about budget_s seconds in all.

    Each (kernel, size) gets an equal share of the budget for its samples (at least 3;
    2 with one warm-up call once the sweep runs 25 % behind its schedule; 1 past
    ``deadline``, a time.perf_counter() time).
    """
    jobs = [(k, s) for s in sizes for k in kernels_]
    share = budget_s / max(1, len(jobs))
    out: list[StreamPoint] = []
    start = time.perf_counter()
    for i, (kernel, ws) in enumerate(jobs):
        op, nbytes = _stream_op(kernel, ws)
        # Behind schedule (a loaded machine makes every call slower): the remaining sizes
        # take the fewest samples, so the sweep still reaches DRAM within its bound.
        now = time.perf_counter()
        late = now - start > budget_s * (i + 1) / len(jobs) * 1.25 or (
            deadline is not None and now >= deadline)
        timing = time_op(op, budget_s=share, warmup=1 if late else 2,
                         min_samples=2 if late else 3, max_samples=30, should_stop=should_stop,
                         deadline=deadline)
        out.append(StreamPoint(kernel, ws, nbytes, timing))
        if progress is not None:
            progress((i + 1) / len(jobs), f"{kernel} {ws / 2**10:,.0f} KiB")
    return out


def _matrices(precision: str, n: int, rng: np.random.Generator):
    dtype = CPU_GEMM_DTYPES[precision]
    if np.issubdtype(dtype, np.integer):
        a = rng.integers(-3, 4, size=(n, n), dtype=dtype)
        b = rng.integers(-3, 4, size=(n, n), dtype=dtype)
    else:
        a = rng.standard_normal((n, n)).astype(dtype)
        b = rng.standard_normal((n, n)).astype(dtype)
    return a, b, np.empty((n, n), dtype=dtype)


def gemm_sweep(precision: str, budget_s: float, *, start_n: Optional[int] = None,
               max_n: int = 8192, progress: Optional[Progress] = None,
               should_stop: Optional[Callable[[], bool]] = None,
               clock: Callable[[], float] = time.perf_counter,
               deadline: Optional[float] = None) -> list[GemmPoint]:
    """numpy.matmul n×n at ``precision`` for n = start_n, 2·start_n, ... within budget_s (s).

    start_n defaults to 256 for the BLAS precisions (fp64, fp32) and 64 for numpy's own
    loops (fp16, int8). The next size runs only if (warm-up + calibration + 3 samples) ×
    8 × (the last size's median time) fits in the remaining budget.
    """
    if precision not in CPU_GEMM_DTYPES:
        raise ValueError(f"precision must be one of {', '.join(CPU_GEMM_DTYPES)}, got {precision!r}")
    n = start_n or (256 if precision in _BLAS_PRECISIONS else 64)
    rng = np.random.default_rng(0)
    out: list[GemmPoint] = []
    start = clock()
    while n <= max_n:
        a, b, c = _matrices(precision, n, rng)
        left = budget_s - (clock() - start)
        timing = time_op(lambda: np.matmul(a, b, out=c), budget_s=max(left / 2, 1e-3),
                         warmup=1, min_samples=3, max_samples=30, should_stop=should_stop,
                         deadline=deadline)
        out.append(GemmPoint(precision, n, kernels.gemm(n, n, n, c.itemsize).flops, timing))
        spent = clock() - start
        if progress is not None:
            progress(min(1.0, spent / budget_s), f"{precision} n={n}")
        predicted = 5 * 8 * timing.median      # the median: a loaded machine stays loaded
        if spent + predicted > budget_s or (deadline is not None and clock() >= deadline):
            break
        n *= 2
    if progress is not None:
        progress(1.0, f"{precision} n≤{out[-1].n}")
    return out


def plateaus(points: Sequence[StreamPoint], caches: Sequence[CacheLevel]) -> dict[str, float]:
    """Bandwidth plateaus (bytes/s) of a stream sweep: {"L1": ..., "L2": ..., "dram": ...}.

    Band of cache level k: working sets in (C[k-1], C[k] / 2], C[0] = 0 (half the
    capacity, so the set still fits with the code, stack and the other arrays around).
    DRAM band: working sets >= 2 × the last level's capacity (>= 1/4 of the largest
    size measured when the caches are unknown; >= half the largest when no set reached
    the DRAM band). A plateau = max over kernels of the
    median, over the band's sizes, of each size's best bandwidth. A band without a
    measured size has no entry.
    """
    by_kernel: dict[str, list[StreamPoint]] = {}
    for p in points:
        by_kernel.setdefault(p.kernel, []).append(p)

    def band(lo: float, hi: float) -> Optional[float]:
        vals = []
        for pts in by_kernel.values():
            sel = [p.bandwidth for p in pts if lo < p.working_set_bytes <= hi]
            if sel:
                vals.append(statistics.median(sel))
        return max(vals) if vals else None

    out: dict[str, float] = {}
    lo = 0.0
    for level in caches:
        bw = band(lo, level.size_bytes / 2)
        if bw is not None:
            out[level.name] = bw
        lo = float(level.size_bytes)
    largest = max((p.working_set_bytes for p in points), default=0)
    dram_lo = 2.0 * caches[-1].size_bytes if caches else largest / 4
    bw = band(dram_lo - 1, math.inf)
    if bw is None and points:
        # a last-level cache too big for the sweep's largest set (capped at 1 GiB): the
        # largest sets measured stand in, so a device is always written
        bw = band(largest / 2 - 1, math.inf)
    if bw is not None:
        out["dram"] = bw
    return out
