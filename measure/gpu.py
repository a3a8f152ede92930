"""GPU microbenchmarks through PyTorch (optional: ``pip install -e ".[gpu]"``).

Used when ``torch`` imports and sees a CUDA, ROCm (HIP builds of torch report it as
``torch.cuda``) or Apple MPS device. Never imported by the rest of the app unless
:func:`gpu_status` finds one.

    matmul   C = A · B, n×n, per precision the device runs:
             fp64, fp32 (TF32 off), tf32 (CUDA capability >= 8.0), bf16, fp16,
             fp8 (e4m3 through torch._scaled_mm, capability >= 8.9, bf16 output)
             FLOP per call = 2 · n³ (calc.kernels.gemm)
    copy     dst.copy_(src): bytes per call = 2 · nbytes (read + write), over working
             sets from an eighth of the L2 cache to 4 GiB: the L2 and HBM/DRAM plateaus

Each call is timed to completion (the backend's synchronize after every sample; a
sample is many calls back to back so launch latency is amortised).
Reference (H200 SXM): ~790 TFLOP/s on a large bf16 matmul, ~4.3 TB/s read+write on a
device copy (the datasheet: 989 TFLOP/s dense bf16, 4.8 TB/s).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from calc import kernels
from measure.cpu import GemmPoint, Progress, StreamPoint
from measure.timing import time_op

__all__ = ["GpuStatus", "GpuInfo", "gpu_status", "gpu_info", "gpu_matmul_sweep",
           "gpu_copy_sweep", "GPU_PRECISIONS"]

GPU_PRECISIONS = ("fp64", "fp32", "tf32", "bf16", "fp16", "fp8")
_ELEM_BYTES = {"fp64": 8, "fp32": 4, "tf32": 4, "bf16": 2, "fp16": 2, "fp8": 1}


@dataclass(frozen=True)
class GpuStatus:
    """Whether a GPU can be measured. reason: "" when available, else "no_torch"
    (torch does not import) or "no_device" (torch imports but sees no device)."""

    available: bool
    reason: str = ""
    backend: str = ""           # "cuda", "rocm" or "mps"
    torch_version: str = ""
    detail: str = ""            # the import error, for "no_torch"


@dataclass(frozen=True)
class GpuInfo:
    """The measured GPU: name, vendor, memory (bytes), L2 (bytes), versions."""

    name: str
    vendor: str
    backend: str
    memory_bytes: Optional[int]
    l2_bytes: Optional[int]
    capability: tuple[int, int] = (0, 0)
    versions: dict[str, str] = field(default_factory=dict)


def gpu_status() -> GpuStatus:
    """Is torch importable, and does it see a CUDA, ROCm or MPS device?"""
    try:
        import torch
    except Exception as exc:  # ImportError, or a broken CUDA install raising OSError
        return GpuStatus(False, "no_torch", detail=f"{type(exc).__name__}: {exc}")
    version = str(torch.__version__)
    if torch.cuda.is_available():
        backend = "rocm" if getattr(torch.version, "hip", None) else "cuda"
        return GpuStatus(True, "", backend, version)
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return GpuStatus(True, "", "mps", version)
    return GpuStatus(False, "no_device", "", version)


def _torch():
    import torch
    return torch


def _device(backend: str):
    torch = _torch()
    return torch.device("mps" if backend == "mps" else "cuda")


def _sync(backend: str) -> Callable[[], None]:
    torch = _torch()
    return torch.mps.synchronize if backend == "mps" else torch.cuda.synchronize


def gpu_info(status: GpuStatus) -> GpuInfo:
    """Name, memory and L2 of device 0 and the torch / CUDA / HIP versions."""
    torch = _torch()
    versions = {"torch": status.torch_version}
    if status.backend == "mps":
        import platform
        versions["macos"] = platform.mac_ver()[0]
        return GpuInfo("Apple GPU (MPS)", "Apple", "mps", None, None, (0, 0), versions)
    props = torch.cuda.get_device_properties(0)
    if status.backend == "rocm":
        versions["hip"] = str(torch.version.hip)
    else:
        versions["cuda"] = str(torch.version.cuda)
        cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
        if cudnn:
            versions["cudnn"] = str(cudnn)
    name = str(props.name)
    vendor = "AMD" if status.backend == "rocm" else ("NVIDIA" if "nvidia" in name.lower() or
                                                   status.backend == "cuda" else "")
    if vendor and not name.startswith(vendor):
        name = f"{vendor} {name}"
    l2 = getattr(props, "L2_cache_size", None)
    return GpuInfo(name, vendor, status.backend, int(props.total_memory),
                   int(l2) if l2 else None, (int(props.major), int(props.minor)), versions)


def _supported(precision: str, info: GpuInfo) -> bool:
    torch = _torch()
    if info.backend == "mps":
        return precision in ("fp32", "fp16", "bf16")
    major, minor = info.capability
    if precision == "tf32":
        return info.backend == "cuda" and major >= 8
    if precision == "bf16":
        return torch.cuda.is_bf16_supported()
    if precision == "fp8":
        return hasattr(torch, "_scaled_mm") and hasattr(torch, "float8_e4m3fn") and (
            (info.backend == "cuda" and (major, minor) >= (8, 9)) or info.backend == "rocm")
    return True


def _matmul_op(precision: str, n: int, dev, backend: str):
    torch = _torch()
    if precision == "fp8":
        a = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn)
        b = torch.randn(n, n, device=dev).to(torch.float8_e4m3fn).t()  # column-major
        one = torch.ones((), device=dev, dtype=torch.float32)
        return lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    dtype = {"fp64": torch.float64, "fp32": torch.float32, "tf32": torch.float32,
             "bf16": torch.bfloat16, "fp16": torch.float16}[precision]
    a = torch.randn(n, n, device=dev, dtype=dtype)
    b = torch.randn(n, n, device=dev, dtype=dtype)
    c = torch.empty(n, n, device=dev, dtype=dtype)
    return lambda: torch.matmul(a, b, out=c)


def _set_tf32(enabled: bool) -> None:
    torch = _torch()
    if hasattr(torch.backends, "cuda"):
        torch.backends.cuda.matmul.allow_tf32 = enabled


def gpu_matmul_sweep(status: GpuStatus, info: GpuInfo, budget_s: float, *,
                     sizes: Sequence[int] = (2048, 4096, 8192),
                     precisions: Sequence[str] = GPU_PRECISIONS,
                     progress: Optional[Progress] = None,
                     should_stop: Optional[Callable[[], bool]] = None,
                     clock: Callable[[], float] = time.perf_counter) -> tuple[list[GemmPoint], dict[str, str]]:
    """Matmul rate per precision and size; budget_s (s) split over the precisions.

    Sizes run smallest first; the next runs only if its predicted time (∝ n³ from the last
    size's median) fits what is left of the precision's share.

    Returns (points, skipped) where skipped maps a precision to why it did not run
    ("not supported by this device", or the error torch raised).
    """
    torch = _torch()
    dev = _device(status.backend)
    sync = _sync(status.backend)
    todo = [p for p in precisions if _supported(p, info)]
    skipped = {p: "not supported by this device" for p in precisions if p not in todo}
    points: list[GemmPoint] = []
    old_tf32 = torch.backends.cuda.matmul.allow_tf32 if hasattr(torch.backends, "cuda") else False
    try:
        for i, precision in enumerate(todo):
            _set_tf32(precision == "tf32")
            share = budget_s / len(todo)          # seconds for this precision, all sizes
            start = clock()
            last = None                           # (n, median seconds per call)
            for n in sorted(sizes):
                if last is not None:
                    # warm-up 2 + calibration 1 + 3 samples at the predicted time (∝ n³): a
                    # slow precision (fp64 on a consumer GPU) stops before it blows the bound
                    predicted = 6 * last[1] * (n / last[0]) ** 3
                    if clock() - start + predicted > share:
                        break
                try:
                    op = _matmul_op(precision, n, dev, status.backend)
                    timing = time_op(op, budget_s=max(share / len(sizes), 1e-3), warmup=2,
                                     min_samples=3, max_samples=20, target_sample_s=5e-3,
                                     sync=sync, should_stop=should_stop)
                except (RuntimeError, TypeError, NotImplementedError) as exc:
                    skipped[precision] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
                    break
                last = (n, timing.median)
                points.append(GemmPoint(precision, n, kernels.gemm(n, n, n, _ELEM_BYTES[precision]).flops,
                                        timing, library=f"torch {status.torch_version}"))
            if progress is not None:
                progress((i + 1) / len(todo), precision)
    finally:
        _set_tf32(old_tf32)
        if status.backend != "mps":
            torch.cuda.empty_cache()
    return points, skipped


def gpu_copy_sweep(status: GpuStatus, info: GpuInfo, budget_s: float, *,
                   max_bytes: int = 4 * 2**30, per_octave: int = 1,
                   progress: Optional[Progress] = None,
                   should_stop: Optional[Callable[[], bool]] = None) -> list[StreamPoint]:
    """Device-to-device copy bandwidth over working sets from L2/8 (or 1 MiB) to max_bytes.

    Working set = src + dst = 2 · nbytes; bytes per call = 2 · nbytes. max_bytes is capped
    at a quarter of the device memory.
    """
    from measure.cpu import working_set_sizes

    torch = _torch()
    dev = _device(status.backend)
    sync = _sync(status.backend)
    if info.memory_bytes:
        max_bytes = min(max_bytes, info.memory_bytes // 4)
    lo = max(2**20, (info.l2_bytes or 8 * 2**20) // 8)
    sizes = working_set_sizes(max_bytes, per_octave=per_octave, min_bytes=lo)
    share = budget_s / len(sizes)
    out: list[StreamPoint] = []
    try:
        for i, ws in enumerate(sizes):
            n = ws // 2
            src = torch.empty(n, dtype=torch.uint8, device=dev).fill_(1)
            dst = torch.empty_like(src)
            timing = time_op(lambda: dst.copy_(src), budget_s=share, warmup=3, min_samples=3,
                             max_samples=20, target_sample_s=5e-3, sync=sync, should_stop=should_stop)
            out.append(StreamPoint("copy", ws, 2 * n, timing))
            del src, dst
            if progress is not None:
                progress((i + 1) / len(sizes), f"copy {ws / 2**20:,.0f} MiB")
    finally:
        if status.backend != "mps":
            torch.cuda.empty_cache()
    return out
