"""The measured ceilings as rows (for the command line's table and the Measure page).

A :class:`Ceiling` is one roof: a compute peak (FLOP/s) at one precision or a
bandwidth plateau (bytes/s) at one memory level, with the median and spread of the
samples it came from and where it was reached (matrix size, working-set band).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Optional

from calc.units import format_si
from measure.cpu import GemmPoint, StreamPoint
from measure.run import Measurement

__all__ = ["Ceiling", "ceilings", "datasheet_percent", "format_table", "format_bytes"]


@dataclass(frozen=True)
class Ceiling:
    """unit: "FLOP/s" (ops/s for int8) or "B/s"; value = best, median from the median
    samples; spread (dimensionless) of the samples behind the value; where: n (matrix
    size) or the working-set band (bytes, lo..hi)."""

    device: str          # "cpu" or "gpu"
    kind: str            # "peak" or "bw"
    key: str             # precision (fp64...) or level (L1, L2, L3, dram)
    value: float
    median: float
    spread: float
    unit: str
    n: Optional[int] = None
    band: Optional[tuple[int, int]] = None



def datasheet_percent(measured: float, datasheet: float) -> float:
    """What a machine measured as a percentage of its datasheet figure:
    100 · measured / datasheet (same unit for both: FLOP/s, OP/s or B/s)."""
    if not datasheet > 0:
        raise ValueError(f"datasheet must be > 0, got {datasheet!r}")
    return 100.0 * float(measured) / float(datasheet)

def format_bytes(x: float) -> str:
    """Binary sizes as people say them for caches: '32 KiB', '1.5 MiB', '4 GiB'."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if x >= scale:
            return f"{x / scale:.3g} {unit}"
    return f"{x:.0f} B"


def _peaks(device: str, points: list[GemmPoint]) -> list[Ceiling]:
    out = []
    for precision in dict.fromkeys(p.precision for p in points):
        pts = [p for p in points if p.precision == precision]
        top = max(pts, key=lambda p: p.rate)
        out.append(Ceiling(device, "peak", precision, top.rate, top.rate_median, top.timing.spread,
                           "FLOP/s", n=top.n))
    return out


def _bands(device: str, points: list[StreamPoint], plateaus: dict[str, float],
           caches: list[tuple[str, int]]) -> list[Ceiling]:
    out = []
    edges = {}
    lo = 0
    for name, size in caches:
        edges[name] = (lo, size // 2)
        lo = size
    largest = max((p.working_set_bytes for p in points), default=0)
    edges["dram"] = (2 * caches[-1][1] if caches else largest // 4, largest)
    for level, bw in plateaus.items():
        a, b = edges[level]
        sel = [p for p in points if (a < p.working_set_bytes <= b) or
               (level == "dram" and p.working_set_bytes >= a)]
        med = max((statistics.median([p.bandwidth_median for p in sel if p.kernel == k])
                   for k in {p.kernel for p in sel}), default=bw)
        spread = statistics.median([p.timing.spread for p in sel]) if sel else 0.0
        lo_ws = min((p.working_set_bytes for p in sel), default=a)
        hi_ws = max((p.working_set_bytes for p in sel), default=b)
        out.append(Ceiling(device, "bw", level, bw, med, spread, "B/s", band=(lo_ws, hi_ws)))
    return out


def ceilings(m: Measurement) -> list[Ceiling]:
    """Every measured roof: CPU peaks, CPU bandwidths, then the GPU's (when measured)."""
    out = _peaks("cpu", m.gemm)
    out += _bands("cpu", m.stream, m.cpu_plateaus, [(c.name, c.size_bytes) for c in m.host.caches])
    if m.gpu is not None:
        out += _peaks("gpu", m.gpu_gemm)
        caches = [("L2", m.gpu.l2_bytes)] if m.gpu.l2_bytes else []
        out += _bands("gpu", m.gpu_copy, m.gpu_plateaus, caches)
    return out


_LABELS = {"dram": "DRAM", "L1": "L1 cache", "L2": "L2 cache", "L3": "L3 cache"}


def format_table(m: Measurement) -> str:
    """The command line's table (English, fixed width)."""
    rows = [("device", "ceiling", "best", "median", "spread", "where")]
    for c in ceilings(m):
        if c.kind == "peak":
            name = f"{c.key} matmul" + (" (ops/s)" if c.key == "int8" else "")
            unit = "OP/s" if c.key == "int8" else c.unit
            where = f"n = {c.n}"
        else:
            name = f"{_LABELS.get(c.key, c.key)} bandwidth"
            unit = c.unit
            where = f"{format_bytes(c.band[0])} – {format_bytes(c.band[1])}" if c.band else ""
        rows.append((c.device.upper(), name, format_si(c.value, unit), format_si(c.median, unit),
                     f"{c.spread * 100:.0f} %", where))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
