"""How long `python -m measure` takes against its bounds (not a timed test).

    python bench/measure_bench.py [--runs 1] [--default]

Runs `python -m measure --quick` (and, with --default, the default run) in a fresh
interpreter, `--runs` times each, and prints wall time / bound (10 s quick, 30 s default)
with the load average, since a loaded 2-core machine stretches every sample. Results go
to bench/results/measure-<time>.json (gitignored).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOUNDS = {"quick": 10.0, "default": 30.0}


def once(kind: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "m.toml"
        cmd = [sys.executable, "-m", "measure", "--out", str(out)] + (["--quick"] if kind == "quick" else [])
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise RuntimeError(proc.stderr[-2000:])
    return {"kind": kind, "wall_s": wall, "bound_s": BOUNDS[kind], "ratio": wall / BOUNDS[kind],
            "load_before": load, "load_after": os.getloadavg()[0]}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--default", action="store_true", help="also time the default (30 s) run")
    args = ap.parse_args()
    kinds = ["quick"] + (["default"] if args.default else [])
    rows = [once(k) for k in kinds for _ in range(args.runs)]
    for r in rows:
        print(f"{r['kind']:<8} {r['wall_s']:6.1f} s of {r['bound_s']:.0f} s  = {r['ratio']:.2f} of the bound"
              f"  (load average {r['load_before']:.1f} -> {r['load_after']:.1f})")
    res = ROOT / "bench" / "results"
    res.mkdir(parents=True, exist_ok=True)
    (res / f"measure-{time.strftime('%Y%m%d-%H%M%S')}.json").write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
