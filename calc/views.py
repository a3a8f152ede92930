"""Arithmetic behind the roofline page's views: time shares, top-N, marker sizes,
per-memory-level intensities, and the speed-up bound between two devices.

Pure numpy (no Streamlit); the UI only draws what these return.
Units: seconds, FLOP, bytes, FLOP/s, bytes/s; intensity in FLOP/byte.
Source for the bound: the roofline model (Williams, Waterman, Patterson, CACM 52(4),
2009): a kernel cannot run faster than min(peak, intensity × bandwidth), so moving it to
another device can speed it up by at most the ratio of the two attainable values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from . import _validate as v
from .roofline import attainable_flops

__all__ = [
    "time_shares",
    "top_n_mask",
    "share_sizes",
    "name_mask",
    "level_intensities",
    "speedup_bound",
    "speedup_regime",
    "CompareRow",
    "compare_rows",
    "LevelPoints",
    "level_points",
]


def _seconds_array(seconds: Any) -> np.ndarray:
    """Seconds as float64; None / NaN / <= 0 / inf mean "not measured" (NaN)."""
    flat = np.atleast_1d(np.asarray(seconds, dtype=object)).ravel()
    out = np.array([np.nan if x is None else float(x) for x in flat], dtype=float)
    out[~np.isfinite(out) | (out <= 0)] = np.nan
    return out


def time_shares(seconds: Any) -> np.ndarray:
    """Each kernel's share (0..1) of the total measured time.

        share_i = seconds_i / Σ seconds      (kernels without a time count as 0)

    ``seconds``: total time per kernel (s); None, NaN, 0 or negative = not measured.
    Returns zeros when no kernel has a time. The shares of measured kernels sum to 1.
    Example: [3, 1, None] -> [0.75, 0.25, 0.0].
    """
    s = _seconds_array(seconds)
    total = float(np.nansum(s))
    if not total > 0:
        return np.zeros(s.shape)
    return np.where(np.isnan(s), 0.0, s / total)


def top_n_mask(seconds: Any, n: int) -> np.ndarray:
    """Boolean mask of the ``n`` kernels with the largest total time.

    Kernels without a time are never selected; ties keep the earlier kernel (stable
    sort); ``n`` <= 0 selects nothing, ``n`` larger than the measured count selects
    every measured kernel.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise ValueError(f"n must be a whole number, got {n!r}")
    s = _seconds_array(seconds)
    mask = np.zeros(s.shape, dtype=bool)
    if n <= 0 or not s.size:
        return mask
    key = np.where(np.isnan(s), -np.inf, s)
    order = np.argsort(-key, kind="stable")[: int(n)]
    mask[order] = True
    mask &= ~np.isnan(s)
    return mask


def share_sizes(shares: Any, min_px: float = 6.0, max_px: float = 32.0) -> np.ndarray:
    """Marker diameters (px) whose AREA grows with the time share.

        size = min_px + (max_px - min_px) × sqrt(share / max(share))

    so the biggest kernel gets ``max_px``, a kernel with a quarter of its time half the
    extra diameter, and unmeasured kernels (share 0) ``min_px``.
    """
    sh = np.atleast_1d(np.asarray(shares, dtype=float))
    sh = np.where(np.isfinite(sh) & (sh > 0), sh, 0.0)
    if not (min_px > 0 and max_px >= min_px):
        raise ValueError(f"need 0 < min_px <= max_px, got {min_px!r}, {max_px!r}")
    top = float(sh.max()) if sh.size else 0.0
    if not top > 0:
        return np.full(sh.shape, float(min_px))
    return min_px + (max_px - min_px) * np.sqrt(sh / top)


def name_mask(names: Sequence[str], pattern: str | None) -> np.ndarray:
    """Boolean mask of names containing ``pattern`` (case-insensitive substring).

    A blank pattern keeps every name.
    """
    names = list(names)
    p = (pattern or "").strip().casefold()
    if not p:
        return np.ones(len(names), dtype=bool)
    return np.fromiter((p in str(n).casefold() for n in names), dtype=bool, count=len(names))


def level_intensities(flops: float, level_bytes: Any) -> dict[str, float]:
    """Intensity per memory level (FLOP/byte): flops / bytes at that level.

    ``level_bytes``: {level: bytes} or ((level, bytes), ...) as in
    ``KernelRecord.level_bytes``. Levels with bytes <= 0 or not finite are left out.
    The hierarchical roofline (NERSC; Nsight Compute's "hierarchical roofline" sections)
    draws a kernel once per level at the same FLOP/s: more bytes at a level -> lower
    intensity there.
    """
    f = v.number("flops", flops, "positive", "FLOP")
    items = level_bytes.items() if hasattr(level_bytes, "items") else level_bytes
    out: dict[str, float] = {}
    for level, b in items:
        try:
            bf = float(b)
        except (TypeError, ValueError):
            continue
        if np.isfinite(bf) and bf > 0:
            out[str(level)] = float(f) / bf
    return out


def speedup_bound(intensity: Any, from_peak: float, from_bw: float,
                  to_peak: float, to_bw: float) -> Any:
    """Most a kernel can speed up when moved from device A to device B (dimensionless).

        bound = min(to_peak, I × to_bw) / min(from_peak, I × from_bw)

    i.e. the ratio of attainable FLOP/s at the kernel's intensity I (FLOP/byte).
    A kernel memory-bound on both devices gets the bandwidth ratio to_bw / from_bw
    (A100 80GB SXM -> H100 SXM: 3350 / 2039 ≈ 1.643); compute-bound on both, the peak
    ratio; in between, something between the two. It is an upper bound: the kernel's
    measured time on A may already be below A's roof. Peaks in FLOP/s, bandwidths in
    bytes/s (numbers or arrays, one per kernel); ``intensity`` a number or an array (≥ 0).
    At I = 0 (a copy, a fill: bytes and no arithmetic) the bound is its limit I → 0, the
    bandwidth ratio to_bw / from_bw: such a kernel's time is bytes ÷ bandwidth on both.
    """
    i = v.number("intensity", intensity, "non_negative", "FLOP/byte")
    p0 = v.number("from_peak", from_peak, "positive", "FLOP/s")
    b0 = v.number("from_bw", from_bw, "positive", "bytes/s")
    p1 = v.number("to_peak", to_peak, "positive", "FLOP/s")
    b1 = v.number("to_bw", to_bw, "positive", "bytes/s")
    if v.is_scalar(i, p0, b0, p1, b1):
        return b1 / b0 if i == 0 else min(p1, i * b1) / min(p0, i * b0)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = np.minimum(p1, np.multiply(i, b1)) / np.minimum(p0, np.multiply(i, b0))
    return v.finish(np.where(np.asarray(i) == 0, np.divide(b1, b0), ratio), i, p0, b0, p1, b1)


def speedup_regime(intensity: Any, from_peak: float, from_bw: float,
                   to_peak: float, to_bw: float) -> Any:
    """Which ratio :func:`speedup_bound` is, at intensity I (FLOP/byte):

    "memory" when I is left of both ridge points (peak / bw): the bandwidth ratio (I = 0
    included); "compute" when I is at or right of both: the peak ratio; "mixed" otherwise
    (memory-bound on one device, compute-bound on the other). A str, or an array of str.
    """
    i = v.number("intensity", intensity, "non_negative", "FLOP/byte")
    r0 = v.number("from_peak", from_peak, "positive", "FLOP/s") / v.number(
        "from_bw", from_bw, "positive", "bytes/s")
    r1 = v.number("to_peak", to_peak, "positive", "FLOP/s") / v.number(
        "to_bw", to_bw, "positive", "bytes/s")
    arr = np.atleast_1d(i)
    out = np.where((arr < r0) & (arr < r1), "memory",
                   np.where((arr >= r0) & (arr >= r1), "compute", "mixed"))
    return str(out[0]) if isinstance(i, float) else out


@dataclass(frozen=True)
class CompareRow:
    """One kernel compared: attainable FLOP/s on the main device and on each compared one
    (FLOP/s), the speed-up bound main -> compared (:func:`speedup_bound`, dimensionless),
    its regime ("memory", "compute", "mixed") and ``slowdown`` = 1 / ratio (how many
    times slower at least, where the compared device is the slower one; inf at ratio 0)."""

    name: str
    intensity: float
    seconds: float | None
    attainable_main: float
    attainable: tuple[float, ...]
    ratio: tuple[float, ...]
    regime: tuple[str, ...]
    slowdown: tuple[float, ...] = ()
    precision: str = ""       # the kernel's own precision ("" : judged at each device's chosen one)


def kernel_peaks(kernels: Sequence[Any], peak: float, peaks: Mapping[str, float] | None) -> np.ndarray:
    """Each kernel's roof (FLOP/s): ``peaks[k.precision]`` (a device's precision -> FLOP/s)
    for a kernel that names a precision the device has, else ``peak`` (the chosen
    precision's): the Results table's rule, so both sections judge a kernel alike."""
    table = peaks or {}
    return np.array([table.get(k.precision, peak) if k.precision else peak for k in kernels],
                    dtype=float)


def compare_rows(kernels: Sequence[Any], main_peak: float, main_bw: float,
                 others: Sequence[tuple[float, float]], *,
                 main_peaks: Mapping[str, float] | None = None,
                 others_peaks: Sequence[Mapping[str, float] | None] = ()) -> list[CompareRow]:
    """Per placeable kernel (a calc.kernel_table.KernelRecord with FLOPs known and bytes > 0;
    a zero-FLOP copy or fill included, at the bandwidth ratio): attainable FLOP/s on the
    main device and on each of ``others`` ((peak FLOP/s, bandwidth bytes/s) per compared
    device), the speed-up bound and its regime (vectorized over the kernels).  A kernel that
    names its precision is judged at that precision's peak where the device has one
    (``main_peaks`` / ``others_peaks``: each device's precision -> FLOP/s;
    :func:`kernel_peaks`)."""
    ks = [k for k in kernels if k.flops is not None and k.bytes_moved > 0]
    if not ks:
        return []
    inten = np.array([k.intensity for k in ks], dtype=float)
    p_main = kernel_peaks(ks, main_peak, main_peaks)
    att_main = np.atleast_1d(attainable_flops(inten, p_main, main_bw))
    atts, ratios, regimes = [], [], []
    for j, (peak, bw) in enumerate(others):
        p_other = kernel_peaks(ks, peak, others_peaks[j] if j < len(others_peaks) else None)
        atts.append(np.atleast_1d(attainable_flops(inten, p_other, bw)))
        ratios.append(np.atleast_1d(speedup_bound(inten, p_main, main_bw, p_other, bw)))
        regimes.append(np.atleast_1d(speedup_regime(inten, p_main, main_bw, p_other, bw)))
    with np.errstate(divide="ignore"):
        slows = [np.where(r > 0, 1.0 / np.where(r > 0, r, 1.0), np.inf) for r in ratios]
    rows = []
    for i, k in enumerate(ks):
        rows.append(CompareRow(k.name, float(inten[i]), k.seconds, float(att_main[i]),
                               tuple(float(a[i]) for a in atts),
                               tuple(float(r[i]) for r in ratios),
                               tuple(str(g[i]) for g in regimes),
                               tuple(float(x[i]) for x in slows), k.precision or ""))
    return rows


@dataclass(frozen=True)
class LevelPoints:
    """Points of a hierarchical roofline, one per (kernel, memory level), equal-length
    arrays: ``kernel`` (index into the records given), ``level`` (str: "dram", "l2",
    "l1", ...), ``bytes`` (bytes at that level), ``intensity`` (FLOP/byte) and ``y``
    (FLOP/s, the same for every level of a kernel)."""

    kernel: np.ndarray
    level: np.ndarray
    bytes: np.ndarray
    intensity: np.ndarray
    y: np.ndarray

    def __len__(self) -> int:
        return int(self.kernel.shape[0])


def level_points(records: Sequence[Any], peak_flops: float, mem_bw: float,
                 peaks: Mapping[str, float] | None = None) -> LevelPoints:
    """The hierarchical roofline's points for kernels with per-level bytes.

    ``records``: objects with ``flops``, ``bytes_moved``, ``seconds`` and ``level_bytes``
    (:class:`calc.kernel_table.KernelRecord`). Kernels without FLOPs or without level
    bytes are left out. For each kernel and level:

        intensity_level = flops / bytes_level                       [FLOP/byte]
        y = flops / seconds            (achieved FLOP/s, when a time is known)
          = min(peak, (flops / bytes_moved) × mem_bw)   (else: where the main chart
                                                          draws an unmeasured kernel)

    so a kernel's points share one height and spread horizontally: the more bytes a
    level moves, the further left (NERSC / Nsight Compute hierarchical roofline).
    ``peak_flops`` (FLOP/s) and ``mem_bw`` (bytes/s) are the main (DRAM) roofline's; an
    unmeasured kernel that names a precision in ``peaks`` (the device's precision ->
    FLOP/s) sits under that precision's roof (:func:`kernel_peaks`, the Results table's rule).
    """
    p = v.number("peak_flops", peak_flops, "positive", "FLOP/s")
    roof = kernel_peaks(records, p, peaks)
    bw = v.number("mem_bw", mem_bw, "positive", "bytes/s")
    kern: list[int] = []
    lev: list[str] = []
    byt: list[float] = []
    inten: list[float] = []
    ys: list[float] = []
    for idx, r in enumerate(records):
        f = getattr(r, "flops", None)
        levels = getattr(r, "level_bytes", ()) or ()
        if f is None or not levels or not (float(f) > 0):
            continue
        f = float(f)
        s = getattr(r, "seconds", None)
        if s is not None and float(s) > 0:
            y = f / float(s)
        else:
            y = min(float(roof[idx]), f / float(r.bytes_moved) * bw)
        for level, b in (levels.items() if hasattr(levels, "items") else levels):
            b = float(b)
            if not (np.isfinite(b) and b > 0):
                continue
            kern.append(idx)
            lev.append(str(level))
            byt.append(b)
            inten.append(f / b)
            ys.append(y)
    return LevelPoints(np.asarray(kern, dtype=int), np.asarray(lev, dtype=object),
                       np.asarray(byt, dtype=float), np.asarray(inten, dtype=float),
                       np.asarray(ys, dtype=float))
