"""python -m measure [--quick] [--out FILE.toml] [--cpu-only]

Measure this machine (CPU through numpy, GPU through torch when present), print the
ceilings and write them as a hardware.toml-format file.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from measure.run import plan


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m measure", description=(
        "Measure this machine's ceilings (peak FLOP/s per precision, cache and DRAM "
        "bandwidth) and write them in the hardware.toml format."))
    ap.add_argument("--quick", action="store_true", help="a shorter run (about 10 s instead of 30 s)")
    ap.add_argument("--out", metavar="FILE.toml", default="measured.toml",
                    help="where to write the measured device(s) (default: measured.toml)")
    ap.add_argument("--cpu-only", action="store_true", help="skip the GPU even when torch sees one")
    args = ap.parse_args(argv)
    out = Path(args.out)
    if out.suffix.lower() != ".toml":
        ap.error(f"--out must name a .toml file, got {args.out!r}")
    if out.parent and not out.parent.exists():
        ap.error(f"--out: the folder {str(out.parent)!r} does not exist")

    from measure import gpu, run as runner
    from measure.device import write_toml
    from measure.report import format_table

    status = gpu.gpu_status() if not args.cpu_only else gpu.GpuStatus(False, "disabled")
    if status.available:
        print(f"GPU: torch {status.torch_version} sees a {status.backend} device; measuring it too.")
    elif status.reason == "no_torch":
        print('GPU: torch is not installed, so only the CPU is measured '
              '(pip install -e ".[gpu]" to measure a GPU).')
    elif status.reason == "no_device":
        print(f"GPU: torch {status.torch_version} sees no CUDA, ROCm or MPS device; CPU only.")
    benches = plan(args.quick, status.available)
    print(f"Running {len(benches)} benchmarks, ~{sum(b.budget_s for b in benches):.0f} s of samples "
          f"({'quick' if args.quick else 'default'} run)...", flush=True)
    started: dict[str, float] = {}
    finished: set[str] = set()

    def progress(bench: str, frac: float, text: str) -> None:
        started.setdefault(bench, time.perf_counter())
        if frac >= 1.0 and bench not in finished:
            finished.add(bench)
            print(f"  {bench:<11} done in {time.perf_counter() - started[bench]:.1f} s", flush=True)

    try:
        m = runner.run(args.quick, use_gpu=not args.cpu_only, progress=progress, status=status)
    except KeyboardInterrupt:
        print("cancelled; nothing written", file=sys.stderr)
        return 130
    print()
    print(f"Host: {m.host.hostname}, {m.host.cpu_model}, {m.host.logical_cpus} logical CPUs; "
          f"BLAS {m.host.blas.library or 'none'} {m.host.blas.version} ({m.host.blas.threads} threads)")
    if m.gpu is not None:
        print(f"GPU: {m.gpu.name} ({m.gpu.backend}); not measured: "
              + (", ".join(f"{p} ({why})" for p, why in m.gpu_skipped.items()) or "none"))
    print(format_table(m))
    path = write_toml(m, out)
    print(f"\nWrote {path} in {m.seconds:.1f} s (load it with ROOFLINE_LAB_HARDWARE={path} "
          "or on the Measure page).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
