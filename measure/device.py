"""A measurement as devices in the hardware.toml format (loaded by calc.hardware).

    [devices.measured-cpu-<host>]          the CPU through numpy, always
    [devices.measured-gpu-<host>]          the GPU through torch, when one was measured

Each has the datasheet fields (name, vendor, year, memory_gb, mem_bw_gbs, l2_mb,
sparse_headline = false, source, notes, [peak_tflops]) filled with MEASURED values,
plus ``measured = true``, ``date`` (UTC, ISO 8601), ``host`` (a one-line description),
``[cache_bw_gbs]`` (l1, l2, l3 plateaus) and ``[versions]`` (python, numpy, the BLAS,
torch...). Units as in hardware.toml: TFLOP/s, GB/s (1e9 bytes/s), GB, MiB.

peak_tflops.<precision> = the highest rate over the sizes measured (each size's best
sample); mem_bw_gbs = the DRAM/HBM plateau (measure.cpu.plateaus), the best of copy
and triad.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from measure.run import Measurement

__all__ = ["device_tables", "to_toml", "write_toml", "device_id"]

_SIG = 4  # significant digits written


def _round(x: float) -> float:
    return float(f"{x:.{_SIG}g}")


def _slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return (s[:32].strip("-") or "host")


def device_id(kind: str, hostname: str) -> str:
    """'measured-cpu-<host slug>' (kebab-case, as hardware.toml requires)."""
    return f"measured-{kind}-{_slug(hostname)}"


def _host_line(m: Measurement) -> str:
    h = m.host
    mem = f", {h.memory_bytes / 1e9:.1f} GB RAM" if h.memory_bytes else ""
    blas = (f"; numpy {h.versions.get('numpy', '')} with {h.blas.library} {h.blas.version}"
            f" ({h.blas.architecture or 'generic'} kernels, {h.blas.threads} threads)"
            if h.blas.library else f"; numpy {h.versions.get('numpy', '')} without a BLAS found")
    return f"{h.hostname}: {h.platform}, {h.cpu_model}, {h.logical_cpus} logical CPUs{mem}{blas}"


def _spread_note(points) -> str:
    if not points:
        return ""
    spreads = sorted(p.timing.spread for p in points)
    return f"{spreads[len(spreads) // 2] * 100:.0f} %"


def device_tables(m: Measurement) -> list[tuple[str, dict[str, Any]]]:
    """(device id, table) pairs in hardware.toml's field names and units."""
    date = m.started.strftime("%Y-%m-%dT%H:%M:%SZ")
    run_kind = "quick run" if m.quick else "default run"
    source = f"measured by `python -m measure` (Roofline Lab) on {m.host.hostname}, {date}, {run_kind}"
    out: list[tuple[str, dict[str, Any]]] = []

    cpu_pl = m.cpu_plateaus
    peaks = m.cpu_peaks
    if peaks and "dram" in cpu_pl:
        h = m.host
        table: dict[str, Any] = {
            "name": f"{h.cpu_model} ({h.logical_cpus} CPUs, measured {m.started:%Y-%m-%d %H:%M})",
            "vendor": h.cpu_vendor or "unknown",
            "kind": "cpu",
            "year": m.started.year,
        }
        if h.memory_bytes:
            table["memory_gb"] = _round(h.memory_bytes / 1e9)
            table["memory_binary"] = False      # bytes counted by the OS, written in 1e9
        table["mem_bw_gbs"] = _round(cpu_pl["dram"] / 1e9)
        llc = h.last_level_cache
        if llc:
            table["l2_mb"] = _round(llc.size_bytes / 2**20)
        table.update({
            "sparse_headline": False,
            "source": source,
            "notes": (f"Measured, not a datasheet. GEMM: numpy.matmul, best sample per size, highest "
                      f"over n = {', '.join(sorted({str(p.n) for p in m.gemm}, key=int))}; fp64/fp32 "
                      f"through {h.blas.library or 'numpy'} with {h.blas.threads or '?'} threads, fp16 "
                      f"and int8 through numpy's own loops (no BLAS). Bandwidth: numpy copy and "
                      f"triad on one thread (copy counts 2 arrays of traffic, triad the 5 that numpy's "
                      f"two passes move); l2_mb holds the last-level cache "
                      f"size. Median sample spread {_spread_note(m.stream + m.gemm)}."),
            "measured": True,
            "date": date,
            "host": _host_line(m),
        })
        table["peak_tflops"] = {p: _round(v / 1e12) for p, v in peaks.items()}
        table["cache_bw_gbs"] = {k.lower(): _round(v / 1e9) for k, v in cpu_pl.items() if k != "dram"}
        table["versions"] = dict(h.versions)
        out.append((device_id("cpu", h.hostname), table))

    gpu_pl = m.gpu_plateaus
    gpeaks = m.gpu_peaks
    if m.gpu is not None and gpeaks and "dram" in gpu_pl:
        g = m.gpu
        table = {"name": f"{g.name} (measured {m.started:%Y-%m-%d %H:%M})",
                 "vendor": g.vendor or "unknown", "year": m.started.year}
        if g.memory_bytes:
            table["memory_gb"] = _round(g.memory_bytes / 1e9)
            table["memory_binary"] = False
        table["mem_bw_gbs"] = _round(gpu_pl["dram"] / 1e9)
        if g.l2_bytes:
            table["l2_mb"] = _round(g.l2_bytes / 2**20)
        skipped = "; ".join(f"{p}: {why}" for p, why in m.gpu_skipped.items())
        table.update({
            "sparse_headline": False,
            "source": source,
            "notes": (f"Measured, not a datasheet. matmul: torch, best sample per size, highest over "
                      f"n = {', '.join(sorted({str(p.n) for p in m.gpu_gemm}, key=int))}; tf32 = float32 "
                      f"with TF32 allowed, fp32 with it off; fp8 = e4m3 torch._scaled_mm. Bandwidth: "
                      f"device-to-device copy (read + write counted). "
                      + (f"Not measured: {skipped}. " if skipped else "")
                      + f"Median sample spread {_spread_note(m.gpu_copy + m.gpu_gemm)}."),
            "measured": True,
            "date": date,
            "host": f"{_host_line(m)}; GPU {g.name} via {g.backend}",
        })
        table["peak_tflops"] = {p: _round(v / 1e12) for p, v in gpeaks.items()}
        table["cache_bw_gbs"] = {k.lower(): _round(v / 1e9) for k, v in gpu_pl.items() if k != "dram"}
        table["versions"] = {**m.host.versions, **g.versions}
        out.append((device_id("gpu", m.host.hostname), table))
    return out


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    return json.dumps(str(v), ensure_ascii=False)   # a TOML basic string


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)


def to_toml(m: Measurement) -> str:
    """The measured devices as hardware.toml text (with a comment saying how it was made)."""
    lines = [
        "# Measured by `python -m measure` (Roofline Lab): the machine's real ceilings, not a datasheet.",
        "# Same format as hardware.toml (see its header); load it with",
        "# ROOFLINE_LAB_HARDWARE=<this file> or on the Measure page.",
        "",
    ]
    for dev_id, table in device_tables(m):
        lines.append(f"[devices.{dev_id}]")
        subtables = {k: v for k, v in table.items() if isinstance(v, dict)}
        for k, v in table.items():
            if not isinstance(v, dict):
                lines.append(f"{_key(k)} = {_value(v)}")
        for name, sub in subtables.items():
            lines.append(f"[devices.{dev_id}.{name}]")
            lines += [f"{_key(k)} = {_value(v)}" for k, v in sub.items()]
        lines.append("")
    return "\n".join(lines)


def write_toml(m: Measurement, path: str | Path) -> Path:
    """Write :func:`to_toml` to ``path`` (UTF-8) and return the path."""
    p = Path(path)
    p.write_text(to_toml(m), encoding="utf-8")
    return p
