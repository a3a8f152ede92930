"""Live kernels: numpy operations the user picks, timed here, placed on the measured roofline.

    gemm  C = A · B, n×n            calc.kernels.gemm(n, n, n, b)
    gemv  y = A · x, m×n            calc.kernels.gemv(m, n, b)
    add   c = a + b, n elements     calc.kernels.elementwise(n, b, 1 FLOP, 2 inputs, 1 output)
    sum   s = Σ a, n elements       calc.kernels.reduction(n, b)

b = 8 (fp64) or 4 (fp32). The FLOP and byte counts come from calc.kernels (the same
formulas as the Roofline page); the time from measure.timing (the median sample; the
roofs use the best ones). A kernel's
footprint (its bytes touched, = the ideal traffic) decides which measured bandwidth
bounds it: the smallest cache level it (mostly) fits in, else DRAM (:func:`bandwidth_for`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Sequence

import numpy as np

from calc import kernels as K
from calc.kernels import KernelCost
from measure.system import CacheLevel
from measure.timing import Timing, time_op

__all__ = ["LIVE_KINDS", "LIVE_DTYPES", "MAX_FOOTPRINT_BYTES", "LiveKernel", "LiveResult",
           "kernel_cost", "bandwidth_for", "run_kernels", "predicted_seconds"]

LIVE_KINDS = ("gemm", "gemv", "add", "sum")
LIVE_DTYPES = {"fp64": np.float64, "fp32": np.float32}
MAX_FOOTPRINT_BYTES = 1 << 30
"""A live kernel may touch at most 1 GiB (the server is shared)."""


@dataclass(frozen=True)
class LiveKernel:
    """One kernel to run: kind (LIVE_KINDS), precision (fp64/fp32), sizes in elements:
    gemm uses n (n×n×n), gemv m×n, add and sum n."""

    kind: str
    precision: str
    n: int
    m: int = 0

    @property
    def label(self) -> str:
        return kernel_cost(self).label


def kernel_cost(k: LiveKernel) -> KernelCost:
    """FLOP and bytes of a live kernel (calc.kernels); raises ValueError for a bad kernel."""
    if k.kind not in LIVE_KINDS:
        raise ValueError(f"kind must be one of {', '.join(LIVE_KINDS)}, got {k.kind!r}")
    if k.precision not in LIVE_DTYPES:
        raise ValueError(f"precision must be one of {', '.join(LIVE_DTYPES)}, got {k.precision!r}")
    b = np.dtype(LIVE_DTYPES[k.precision]).itemsize
    if k.kind == "gemm":
        cost = K.gemm(k.n, k.n, k.n, b)
    elif k.kind == "gemv":
        cost = K.gemv(k.m, k.n, b)
    elif k.kind == "add":
        cost = K.elementwise(k.n, b, flops_per_elem=1, n_inputs=2, n_outputs=1)
    else:
        cost = K.reduction(k.n, b)
    if cost.bytes_moved > MAX_FOOTPRINT_BYTES:
        raise ValueError(f"{cost.label} touches {cost.bytes_moved / 2**20:,.0f} MiB; the limit is "
                         f"{MAX_FOOTPRINT_BYTES / 2**20:,.0f} MiB on a shared server")
    return cost


def bandwidth_for(footprint_bytes: float, caches: Sequence[CacheLevel],
                  bandwidths: Mapping[str, float]) -> tuple[str, float]:
    """(level, bytes/s) bounding a kernel that touches footprint_bytes.

    level: the smallest cache level whose capacity is at least half the footprint
    (footprint <= 2 × capacity: the set fits in, or mostly in, that level), else "dram".
    bytes/s: the highest measured plateau at that level or any larger one (DRAM
    included). Physically a smaller level is never slower; measured through numpy it can
    be (per-call overhead weighs most on the smallest sets), so the roof takes the
    envelope and stays an upper bound; between two plateaus it is the faster neighbour.
    """
    names = [c.name for c in caches] + ["dram"]
    level = "dram"
    for c in caches:
        if footprint_bytes <= 2 * c.size_bytes:
            level = c.name
            break
    below = names[names.index(level):]
    return level, max(bandwidths[n] for n in below if n in bandwidths)


def predicted_seconds(cost: KernelCost, peak_flops: float, mem_bw: float) -> float:
    """The roofline's floor max(FLOP / peak, bytes / bandwidth) (s), for a time estimate."""
    return max(cost.flops / peak_flops, cost.bytes_moved / mem_bw)


def _op(k: LiveKernel, rng: np.random.Generator) -> Callable[[], object]:
    dtype = LIVE_DTYPES[k.precision]
    if k.kind == "gemm":
        a = rng.standard_normal((k.n, k.n)).astype(dtype)
        b = rng.standard_normal((k.n, k.n)).astype(dtype)
        c = np.empty((k.n, k.n), dtype)
        return lambda: np.matmul(a, b, out=c)
    if k.kind == "gemv":
        a = rng.standard_normal((k.m, k.n)).astype(dtype)
        x = rng.standard_normal(k.n).astype(dtype)
        y = np.empty(k.m, dtype)
        return lambda: np.matmul(a, x, out=y)
    a = rng.standard_normal(k.n).astype(dtype)
    if k.kind == "add":
        b = rng.standard_normal(k.n).astype(dtype)
        c = np.empty(k.n, dtype)
        return lambda: np.add(a, b, out=c)
    return lambda: np.sum(a)


@dataclass(frozen=True)
class LiveResult:
    """A timed live kernel: its cost (FLOP, bytes) and timing (s)."""

    kernel: LiveKernel
    cost: KernelCost
    timing: Timing

    @property
    def seconds(self) -> float:
        """The kernel's time: the MEDIAN seconds per call (s). The roofs are built from the
        best samples (what the machine can do); a kernel's point is what it typically gets,
        so noise shows as a gap below the roof rather than a point above it."""
        return self.timing.median

    @property
    def achieved_flops(self) -> float:
        """FLOP / median seconds per call   [FLOP/s]."""
        return self.cost.flops / self.seconds

    @property
    def achieved_bw(self) -> float:
        """bytes / median seconds per call   [bytes/s]."""
        return self.cost.bytes_moved / self.seconds


def run_kernels(todo: Sequence[LiveKernel], budget_s: float, *,
                progress: Optional[Callable[[float, str], None]] = None,
                should_stop: Optional[Callable[[], bool]] = None) -> list[LiveResult]:
    """Time each kernel (warm-up, then samples within budget_s / len(todo) seconds each)."""
    rng = np.random.default_rng(1)
    share = budget_s / max(1, len(todo))
    out = []
    for i, k in enumerate(todo):
        cost = kernel_cost(k)
        timing = time_op(_op(k, rng), budget_s=share, warmup=1, min_samples=3, max_samples=20,
                         should_stop=should_stop)
        out.append(LiveResult(k, cost, timing))
        if progress is not None:
            progress((i + 1) / len(todo), cost.label)
    return out
