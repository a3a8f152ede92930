"""The roofline model: where a kernel sits, and how far it is from its ceiling.

Source: S. Williams, A. Waterman, D. Patterson, "Roofline: an insightful visual
performance model for multicore architectures", CACM 52(4), 2009; and the seed
chapter "04 · Roofline 与 MFU" (A100: 312 TFLOP/s bf16, 2 TB/s, ridge 156 FLOP/B).

    attainable FLOP/s = min(peak_flops, intensity × mem_bw)

Left of the ridge (intensity < peak/bw) a kernel is memory-bound (the slope,
"can't move the bytes fast enough"); right of it compute-bound (the flat roof).
Units: FLOP, bytes, seconds, FLOP/s, bytes/s; intensity in FLOP/byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from . import _validate as v

__all__ = [
    "ABOVE_ROOF_FRACTION",
    "NEAR_ROOF_FRACTION",
    "VERDICTS",
    "BOUNDS",
    "ridge_point",
    "arithmetic_intensity",
    "attainable_flops",
    "verdict_for",
    "verdict_decimals",
    "roofline_curve",
    "KernelPlacement",
    "KernelPlacements",
    "place_kernel",
    "place_kernels",
    "min_seconds",
    "conv_algorithm_cause",
]

ABOVE_ROOF_FRACTION = 1.05
"""A measured kernel faster than 105 % of its attainable roof is "above_roof": the
numbers are wrong.  Causes that push a point ABOVE the roof: a peak that is too small
(the roof of a lower precision than the kernel's -- BF16 for an FP8 kernel -- or of a
PCIe part for an SXM one), FLOPs counted too high (counted twice), bytes counted too high
for a kernel whose data really comes from cache (its true DRAM intensity is higher, so it
belongs further right under a higher ceiling), or a time measured too short (asynchronous
launches timed without synchronising, ms read as µs).  Counting MACs as FLOPs halves the
FLOPs and a 2:4-sparse peak doubles the roof: both put a point BELOW the roof, never
above.  5 % leaves room for clock boost and timer noise."""

NEAR_ROOF_FRACTION = 0.70
"""At or above 70 % of the attainable roof a kernel is "near_roof": it is done,
optimise elsewhere (seed: "接近理论上限 → 这个 kernel 已经到头了，去优化别的")."""

VERDICTS = ("above_roof", "near_roof", "below_roof")
BOUNDS = ("memory", "compute")


def ridge_point(peak_flops: float, mem_bw: float) -> float:
    """Ridge point (FLOP/byte): the intensity where the bandwidth slope meets the roof.

    ridge = peak_flops / mem_bw        [FLOP/s ÷ bytes/s = FLOP/byte]

    Seed example: A100 bf16 312e12 FLOP/s ÷ 2e12 bytes/s = 156 FLOP/byte.
    Accepts arrays (broadcast).  Source: Williams et al. 2009; seed chapter 04.
    """
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    b = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    return v.finish(np.divide(p, b) if not v.is_scalar(p, b) else p / b, p, b)


def arithmetic_intensity(flops: Any, bytes_moved: Any):
    """Arithmetic intensity (FLOP/byte) = flops / bytes_moved.

    flops in FLOP (>= 0), bytes_moved in bytes (> 0, the DRAM/HBM traffic).
    Accepts arrays (broadcast).  Source: Williams et al. 2009.
    """
    f = v.number("flops", flops, "non_negative", "FLOP")
    b = v.number("bytes_moved", bytes_moved, "positive", "bytes")
    if v.is_scalar(f, b):
        return f / b
    return v.finish(np.divide(f, b), f, b)


def attainable_flops(intensity: Any, peak_flops: Any, mem_bw: Any):
    """Attainable FLOP/s = min(peak_flops, intensity × mem_bw).

    intensity in FLOP/byte (>= 0), peak_flops in FLOP/s, mem_bw in bytes/s.
    Seed example: intensity 2 on 312e12 / 2e12 ⇒ min(312e12, 2 × 2e12) = 4e12 FLOP/s
    ("一个算术强度只有 2 的 kernel ... 都不可能超过 4 TFLOPS").
    Accepts arrays (broadcast).  Source: Williams et al. 2009; seed chapter 04.
    """
    i = v.number("intensity", intensity, "non_negative", "FLOP/byte")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    b = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    if v.is_scalar(i, p, b):
        return min(p, i * b)
    return v.finish(np.minimum(p, np.multiply(i, b)), i, p, b)


def verdict_for(fraction_of_roof: float) -> str:
    """Verdict for a measured fraction of the attainable roof (dimensionless, >= 0).

    "above_roof" when fraction > ABOVE_ROOF_FRACTION (1.05): the numbers are wrong;
    "near_roof" when fraction >= NEAR_ROOF_FRACTION (0.70): done, optimise elsewhere;
    "below_roof" otherwise: worth digging into.  Source: seed chapter 04 (three steps).
    """
    f = v.number("fraction_of_roof", fraction_of_roof, "non_negative")
    if not isinstance(f, float):
        raise ValueError("fraction_of_roof must be a single number; use place_kernels for arrays")
    if f > ABOVE_ROOF_FRACTION:
        return "above_roof"
    if f >= NEAR_ROOF_FRACTION:
        return "near_roof"
    return "below_roof"


def verdict_decimals(fraction_of_roof: float, decimals: int = 0) -> int:
    """The digits after the point a percentage of the roof needs so that it does not read
    across a verdict threshold: 0.6996 is "below_roof", but "70%" at 0 decimals reads as
    the 70 % that is "near_roof", so it gets 2 ("69.96%"); 1.0504 ("above_roof", > 105 %)
    gets 2 ("105.04%").  ``decimals`` or more, at most 6; NaN and inf keep ``decimals``."""
    x = float(fraction_of_roof)
    if not np.isfinite(x):
        return decimals
    for d in range(int(decimals), 7):
        r = round(x * 100.0, d) / 100.0
        if (r >= NEAR_ROOF_FRACTION) == (x >= NEAR_ROOF_FRACTION) and \
                (r > ABOVE_ROOF_FRACTION) == (x > ABOVE_ROOF_FRACTION):
            return d
    return 6


_CONV_NAME = re.compile(r"conv", re.IGNORECASE)
_SHAPE = re.compile(r"\[([0-9, ]+)\]")


def conv_algorithm_cause(name: str) -> str:
    """Why a convolution can sit above the roof without wrong numbers: its FLOPs are the
    direct count, 2 · numel(out) · C_in/groups · k_h · k_w, but cuDNN / MIOpen may run a
    fast algorithm that does fewer multiplications than that.

    * ``"winograd"``: a convolution whose weight (the bracket ``[C_out, C_in, k, k]`` in
      the kernel's name, as the trace importer writes it) has a small window, 2..7
      (3×3 typically). Winograd F(2×2, 3×3) does 2.25× fewer multiplications than the
      direct count, F(4×4, 3×3) 4× (Lavin & Gray, "Fast Algorithms for Convolutional
      Neural Networks", CVPR 2016, §4); FFT convolution also does fewer (Vasilache et al.,
      "Fast Convolutional Nets With fbfft", ICLR 2015).
    * ``"conv"``: a convolution whose window the name does not show (a backward-weight
      call names its two activations): one of these algorithms may have run.
    * ``""``: not a convolution, or a 1×1 one (a plain GEMM: no fast algorithm applies).

    The name test is the word "conv" (``aten::cudnn_convolution``, ``conv2d``,
    ``implicit_convolve_sgemm``, ``winograd`` kernels say so in their names too).
    """
    if not isinstance(name, str) or not (_CONV_NAME.search(name) or "winograd" in name.lower()):
        return ""
    if "winograd" in name.lower() or "fft" in name.lower():
        return "winograd"
    windows = []
    for m in _SHAPE.finditer(name):
        dims = [int(x) for x in m.group(1).replace(" ", "").split(",") if x]
        if len(dims) >= 3:
            windows.append(dims[2:])
    # the weight: the last bracket whose trailing (spatial) dims are all small (<= 7)
    weight = [w for w in windows if w and all(1 <= k <= 7 for k in w)]
    if not weight:
        return "conv"
    w = weight[-1]
    if all(k == 1 for k in w):
        return ""
    return "winograd"


def roofline_curve(peak_flops: float, mem_bw: float, intensity_min: float = 1 / 16,
                   intensity_max: float = 4096.0, n: int = 256):
    """Points of the roof for a chart: (intensity array, attainable FLOP/s array).

    Log-spaced intensities from intensity_min to intensity_max (FLOP/byte), with the
    ridge point (peak_flops / mem_bw) inserted exactly so the corner is drawn sharp.
    attainable = min(peak_flops, intensity × mem_bw).  Source: Williams et al. 2009.
    """
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    b = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    lo = v.number("intensity_min", intensity_min, "positive", "FLOP/byte")
    hi = v.number("intensity_max", intensity_max, "positive", "FLOP/byte")
    if not all(isinstance(x, float) for x in (p, b, lo, hi)):
        raise ValueError("roofline_curve takes single numbers, not arrays")
    if hi <= lo:
        raise ValueError(f"intensity_max must be > intensity_min ({lo!r}), got {hi!r}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    x = np.geomspace(lo, hi, n)
    ridge = p / b
    if lo < ridge < hi:
        x = np.sort(np.append(x, ridge))
    return x, np.minimum(p, x * b)


@dataclass(frozen=True)
class KernelPlacement:
    """One kernel on the roofline.  Units: FLOP/byte, FLOP/s, fraction 0..; str labels.

    ``bound`` is "memory" when intensity < ridge point, else "compute".
    ``achieved_flops``, ``fraction_of_roof`` and ``verdict`` are None when no time
    was given.
    """

    intensity: float
    attainable_flops: float
    bound: str
    achieved_flops: Optional[float] = None
    fraction_of_roof: Optional[float] = None
    verdict: Optional[str] = None

    @property
    def is_memory_bound(self) -> bool:
        return self.bound == "memory"


def place_kernel(flops: float, bytes_moved: float, peak_flops: float, mem_bw: float,
                 seconds: Optional[float] = None) -> KernelPlacement:
    """Place one kernel on the roofline and, given its measured time, judge it.

        intensity        = flops / bytes_moved                      [FLOP/byte]
        attainable_flops = min(peak_flops, intensity × mem_bw)      [FLOP/s]
        bound            = "memory" if intensity < peak_flops / mem_bw else "compute"
        achieved_flops   = flops / seconds                          [FLOP/s]
        fraction_of_roof = achieved_flops / attainable_flops
        verdict          = "above_roof" (> 1.05) | "near_roof" (>= 0.70) | "below_roof"

    flops (FLOP) >= 0 and bytes_moved (bytes) > 0; seconds > 0 or None.  A zero-FLOP
    kernel (copy, fill) has intensity 0 and fraction_of_roof = (bytes / seconds) / mem_bw,
    its bandwidth utilisation (in general fraction_of_roof = min_seconds / seconds).
    Source: Williams et al. 2009; seed chapter 04 ("三步用起来").
    """
    f = v.number("flops", flops, "non_negative", "FLOP")
    b = v.number("bytes_moved", bytes_moved, "positive", "bytes")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    s = None if seconds is None else v.number("seconds", seconds, "positive", "s")
    if not v.is_scalar(f, b, p, bw) or (s is not None and not isinstance(s, float)):
        raise ValueError("place_kernel takes single numbers; use place_kernels for arrays")
    intensity = f / b
    attainable = min(p, intensity * bw)
    bound = "memory" if intensity < p / bw else "compute"
    if s is None:
        return KernelPlacement(intensity, attainable, bound)
    achieved = f / s
    fraction = max(f / p, b / bw) / s
    return KernelPlacement(intensity, attainable, bound, achieved, fraction, verdict_for(fraction))


@dataclass(frozen=True)
class KernelPlacements:
    """Many kernels on the roofline (arrays of equal length, one entry per kernel).

    intensity, attainable_flops: float64 arrays; bound: str array ("memory"/"compute");
    is_memory_bound: bool array; achieved_flops, fraction_of_roof: float64 arrays with
    NaN where no time was measured; verdict: object array of "above_roof" /
    "near_roof" / "below_roof" / None; achieved_bw: bytes / seconds (bytes/s, NaN when
    not measured).  The last four are None (not arrays) when place_kernels was called
    without ``seconds``.  Zero-FLOP kernels (copies, fills: intensity 0) have attainable
    0 FLOP/s, bound "memory", and their fraction_of_roof is the fraction of the memory
    roof they reach: achieved_bw / mem_bw.
    """

    intensity: np.ndarray
    attainable_flops: np.ndarray
    bound: np.ndarray
    is_memory_bound: np.ndarray
    achieved_flops: Optional[np.ndarray] = None
    fraction_of_roof: Optional[np.ndarray] = None
    verdict: Optional[np.ndarray] = None
    achieved_bw: Optional[np.ndarray] = None

    @property
    def zero_flop(self) -> np.ndarray:
        """True for kernels that move bytes but do no arithmetic (copy, fill, memset):
        intensity 0, judged by bandwidth (achieved_bw / mem_bw)."""
        return self.intensity == 0

    def __len__(self) -> int:
        return int(self.intensity.shape[0]) if self.intensity.ndim else 1

    def __getitem__(self, i: int) -> KernelPlacement:
        """Element ``i`` as a :class:`KernelPlacement` (None for an unmeasured time)."""
        ach = None if self.achieved_flops is None or np.isnan(self.achieved_flops[i]) else float(self.achieved_flops[i])
        frac = None if ach is None else float(self.fraction_of_roof[i])
        ver = None if ach is None else str(self.verdict[i])
        return KernelPlacement(float(self.intensity[i]), float(self.attainable_flops[i]),
                               str(self.bound[i]), ach, frac, ver)


def place_kernels(flops: Any, bytes_moved: Any, peak_flops: Any, mem_bw: Any,
                  seconds: Any = None) -> KernelPlacements:
    """Vectorized :func:`place_kernel` over numpy arrays (no Python loop over kernels).

    Same formulas as :func:`place_kernel`, element-wise.  ``flops`` and
    ``bytes_moved`` are 1-D arrays (FLOP, bytes; all finite, bytes > 0, flops >= 0).
    A kernel with 0 FLOPs (a copy, fill or memset: real GPU time) has intensity 0 and
    is judged against the memory roof: fraction_of_roof = (bytes / seconds) / mem_bw,
    i.e. its bandwidth utilisation.  For every kernel fraction_of_roof = min_seconds /
    seconds, which equals achieved_flops / attainable_flops when flops > 0.
    ``peak_flops`` and ``mem_bw`` are scalars or arrays broadcastable to them
    (e.g. a per-kernel precision peak).  ``seconds`` is None or an array of
    times in seconds, where NaN means "no time measured for this kernel"
    (its achieved_flops and fraction_of_roof are NaN and its verdict None).
    A bad element raises ValueError naming the argument and its index.
    Source: Williams et al. 2009; seed chapter 04.
    """
    f = np.atleast_1d(v.number("flops", flops, "non_negative", "FLOP"))
    b = np.atleast_1d(v.number("bytes_moved", bytes_moved, "positive", "bytes"))
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    try:
        shape = np.broadcast_shapes(np.shape(f), np.shape(b), np.shape(p), np.shape(bw))
    except ValueError:
        raise ValueError(
            f"flops, bytes_moved, peak_flops and mem_bw must have matching lengths, got shapes "
            f"{np.shape(f)}, {np.shape(b)}, {np.shape(p)}, {np.shape(bw)}"
        ) from None
    intensity = np.broadcast_to(f / b, shape)
    attainable = np.minimum(p, intensity * bw)
    memory = intensity < np.divide(p, bw)
    bound = np.where(memory, "memory", "compute")
    if seconds is None:
        return KernelPlacements(intensity, attainable, bound, memory)
    s = np.atleast_1d(v.number("seconds", seconds, "positive", "s", allow_nan=True))
    try:
        np.broadcast_shapes(shape, s.shape)
    except ValueError:
        raise ValueError(f"seconds must have the same length as flops ({shape}), got shape {s.shape}") from None
    achieved = np.broadcast_to(f / s, shape)
    achieved_bw = np.broadcast_to(b / s, shape)
    floor = np.maximum(np.divide(f, p), np.divide(b, bw))
    fraction = np.broadcast_to(floor / s, shape)
    has = ~np.isnan(fraction)
    verdict = np.full(shape, None, dtype=object)
    verdict[has & (fraction > ABOVE_ROOF_FRACTION)] = "above_roof"
    verdict[has & (fraction <= ABOVE_ROOF_FRACTION) & (fraction >= NEAR_ROOF_FRACTION)] = "near_roof"
    verdict[has & (fraction < NEAR_ROOF_FRACTION)] = "below_roof"
    return KernelPlacements(intensity, attainable, bound, memory, achieved, fraction, verdict,
                            achieved_bw)


def min_seconds(flops: Any, bytes_moved: Any, peak_flops: Any, mem_bw: Any):
    """The roofline's time floor (s): no kernel can finish faster than this on the device.

        min_seconds = max(flops / peak_flops, bytes_moved / mem_bw)

    = flops / attainable_flops. A memory-bound kernel's floor is its bytes over the
    bandwidth (e.g. 1 GB at 2.039 TB/s ⇒ 0.49 ms), a compute-bound one's its FLOPs over the
    peak. flops (FLOP, >= 0), bytes_moved (bytes, > 0), peak_flops (FLOP/s), mem_bw (B/s);
    arrays broadcast (no Python loop).  Source: Williams et al. 2009; seed chapter 04.
    """
    f = v.number("flops", flops, "non_negative", "FLOP")
    b = v.number("bytes_moved", bytes_moved, "positive", "bytes")
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    if v.is_scalar(f, b, p, bw):
        return max(f / p, b / bw)
    return v.finish(np.maximum(np.divide(f, p), np.divide(b, bw)), f, b, p, bw)
