"""The analytic steady state at a request rate against the engine simulator: the README
table of "Where the steady state and the simulator part".

For four aggregated replicas (FP8 weights and KV on H100 SXM, the page's estimate), at
shares of the curve's capacity, ``calc.serving.serving_point``'s mean TPOT and TTFT
(Poisson arrivals, the module docstring of calc/serving/steady.py) divided by the means of
``calc.serving.simulate`` (the same steps event by event, Poisson arrivals, fixed lengths).
A simulated run near capacity varies from seed to seed (a batch of hundreds of sequences
turns over slowly: the 3,000-request runs of the first table read Llama 3.1 70B at
1,000 / 1,000 and 0.9 of capacity anywhere from 0.93 to 1.09), so each cell is the mean of
``--seeds`` runs of ``--requests`` requests, with the lowest and highest ratio beside it.

    python bench/steady_vs_simulator.py [--requests 12000] [--seeds 6]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calc.hardware import load_hardware  # noqa: E402
from calc.models import load_models  # noqa: E402
from calc.serving import (Replica, Workload, aggregated_curve, published_efficiency,  # noqa: E402
                          replica_memory, serving_point, simulate)

WORKLOADS = (("llama-3.1-8b", "Llama 3.1 8B", 1, 2000, 300), ("qwen3-32b", "Qwen3 32B", 2, 4000, 500),
             ("llama-3.1-70b", "Llama 3.1 70B", 4, 1000, 1000), ("llama-3.1-70b", "Llama 3.1 70B", 4, 128, 128))
LOADS = (0.3, 0.5, 0.7, 0.9, 0.95)


def cell(model: str, tp: int, isl: int, osl: int, load: float, requests: int, seeds: int):
    """(TPOT ratios, TTFT ratios) over the seeds: analytic mean ÷ simulated mean."""
    models, devices = load_models(), load_hardware()
    arch, dev = models[model], devices["h100-sxm"]
    r = Replica(arch, dev, tp=tp, weights="fp8", kv="fp8", act="fp8")
    eff = published_efficiency()
    wl = Workload(isl=isl, osl=osl)
    curve = aggregated_curve(r, wl, np.arange(1, replica_memory(r, wl.context_len).max_seqs + 1), eff)
    rate = load * float(curve.requests_per_s.max())
    p = serving_point(arch, device=dev, gpus=tp, weights="fp8", kv_dtype="fp8", isl=isl, osl=osl,
                      request_rate=rate)
    tpot, ttft = [], []
    for seed in range(seeds):
        s = simulate(r, Workload(isl=isl, osl=osl, request_rate=rate), n_requests=requests, eff=eff, seed=seed)
        tpot.append(p.tpot_seconds / s.tpot_mean)
        ttft.append(p.ttft_seconds / s.ttft_mean)
    return np.array(tpot), np.array(ttft)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=12_000, help="requests per simulated run")
    ap.add_argument("--seeds", type=int, default=6, help="simulated runs per cell (seeds 0 …)")
    args = ap.parse_args(argv)
    fmt = lambda x: f"{x.mean():.2f} ({x.min():.2f}-{x.max():.2f})"
    print(f"TPOT ratio / TTFT ratio (analytic ÷ simulated mean; mean of {args.seeds} runs of "
          f"{args.requests:,} requests, range in brackets)\n")
    print("| replica, isl / osl | " + " | ".join(f"{x:g} of capacity" if i == 0 else f"{x:g}"
                                                 for i, x in enumerate(LOADS)) + " |")
    print("|---|" + "---|" * len(LOADS))
    for model, name, tp, isl, osl in WORKLOADS:
        cells = []
        for load in LOADS:
            a, b = cell(model, tp, isl, osl, load, args.requests, args.seeds)
            cells.append(f"{fmt(a)} / {fmt(b)}")
        print(f"| {name}, {tp} × H100, {isl:,} / {osl:,} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
