"""What machine is this: host, CPU model and vendor, caches, memory, library versions.

Read from the operating system (Linux /proc and /sys, macOS sysctl) and from
threadpoolctl (which BLAS numpy calls and with how many threads). Nothing here times
anything. A value the OS does not tell is None, never a guess.
"""
from __future__ import annotations

import os
import platform
import re
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

__all__ = ["CacheLevel", "HostInfo", "BlasInfo", "cache_levels", "host_info", "blas_info",
           "parse_size"]

_SYS_CACHE = Path("/sys/devices/system/cpu/cpu0/cache")
_VENDORS = {"AuthenticAMD": "AMD", "GenuineIntel": "Intel", "HygonGenuine": "Hygon",
            "CentaurHauls": "Centaur", "Apple": "Apple"}


@dataclass(frozen=True)
class CacheLevel:
    """One data (or unified) cache level as one core sees it.

    level: 1, 2, 3...; size_bytes: capacity (bytes) of one instance; shared_cpus: how
    many logical CPUs share one instance (0 when unknown).
    """

    level: int
    size_bytes: int
    shared_cpus: int = 0

    @property
    def name(self) -> str:
        return f"L{self.level}"


@dataclass(frozen=True)
class BlasInfo:
    """The BLAS numpy uses: library (openblas, mkl, blis, accelerate...), version,
    threads, CPU kernel architecture; all "" / 0 when threadpoolctl finds none."""

    library: str = ""
    version: str = ""
    threads: int = 0
    architecture: str = ""


@dataclass(frozen=True)
class HostInfo:
    """The measured host: names, CPU, memory (bytes), caches and library versions."""

    hostname: str
    cpu_model: str
    cpu_vendor: str
    logical_cpus: int
    memory_bytes: Optional[int]
    caches: tuple[CacheLevel, ...]
    blas: BlasInfo
    versions: dict[str, str] = field(default_factory=dict)
    platform: str = ""

    @property
    def last_level_cache(self) -> Optional[CacheLevel]:
        return self.caches[-1] if self.caches else None


def parse_size(text: str) -> Optional[int]:
    """'32K' / '32768K' / '1M' / '512 KiB' / '4096' -> bytes (powers of two), else None."""
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)(?:i?B)?\s*", text or "", flags=re.I)
    if not m:
        return None
    return int(m.group(1)) * {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}[m.group(2).upper()]


def _cpu_list_count(text: str) -> int:
    """'0-1' -> 2, '0,2,4-7' -> 6, '' -> 0."""
    count = 0
    for part in text.strip().split(","):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        count += (int(hi) - int(lo) + 1) if hi else 1
    return count


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def cache_levels(sys_cache: Path = _SYS_CACHE) -> tuple[CacheLevel, ...]:
    """Data and unified caches of CPU 0, smallest level first (empty when unknown).

    Linux: /sys/devices/system/cpu/cpu0/cache/index*/{level,type,size,shared_cpu_list};
    macOS: sysctl hw.l1dcachesize, hw.l2cachesize, hw.l3cachesize.
    """
    levels: dict[int, CacheLevel] = {}
    if sys_cache.is_dir():
        for idx in sorted(sys_cache.glob("index*")):
            kind = _read(idx / "type")
            if kind not in ("Data", "Unified"):
                continue
            try:
                level = int(_read(idx / "level"))
            except ValueError:
                continue
            size = parse_size(_read(idx / "size"))
            if size:
                levels[level] = CacheLevel(level, size, _cpu_list_count(_read(idx / "shared_cpu_list")))
    elif sys.platform == "darwin":  # pragma: no cover - exercised on macOS only
        for level, key in ((1, "hw.l1dcachesize"), (2, "hw.l2cachesize"), (3, "hw.l3cachesize")):
            try:
                out = subprocess.run(["sysctl", "-n", key], capture_output=True, text=True,
                                     timeout=2).stdout.strip()
                if out.isdigit() and int(out) > 0:
                    levels[level] = CacheLevel(level, int(out))
            except (OSError, subprocess.SubprocessError):
                pass
    return tuple(levels[k] for k in sorted(levels))


def _cpuinfo() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in _read(Path("/proc/cpuinfo")).splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() not in out:
            out[key.strip()] = value.strip()
        if not line.strip() and out:
            break
    return out


def blas_info() -> BlasInfo:
    """The BLAS numpy links (threadpoolctl.threadpool_info), or an empty BlasInfo."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - a dependency; kept for a broken install
        return BlasInfo()
    for pool in threadpool_info():
        if pool.get("user_api") == "blas":
            return BlasInfo(str(pool.get("internal_api", "")), str(pool.get("version") or ""),
                            int(pool.get("num_threads") or 0), str(pool.get("architecture") or ""))
    return BlasInfo()


def _memory_bytes() -> Optional[int]:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def host_info() -> HostInfo:
    """Describe this machine (see the module docstring)."""
    import numpy

    info = _cpuinfo()
    model = info.get("model name") or platform.processor() or platform.machine() or "unknown CPU"
    vendor = _VENDORS.get(info.get("vendor_id", ""), info.get("vendor_id", ""))
    if not vendor:
        vendor = "Apple" if sys.platform == "darwin" and platform.machine() == "arm64" else \
            (model.split()[0] if model else "unknown")
    blas = blas_info()
    versions = {"python": platform.python_version(), "numpy": numpy.__version__}
    if blas.library:
        versions[blas.library] = blas.version or "unknown"
    try:
        import threadpoolctl
        versions["threadpoolctl"] = threadpoolctl.__version__
    except ImportError:  # pragma: no cover
        pass
    return HostInfo(
        hostname=socket.gethostname() or "localhost",
        cpu_model=model,
        cpu_vendor=vendor,
        logical_cpus=os.cpu_count() or 1,
        memory_bytes=_memory_bytes(),
        caches=cache_levels(),
        blas=blas,
        versions=versions,
        platform=f"{platform.system()} {platform.release()} {platform.machine()}".strip(),
    )
