"""Roofline Lab benchmarks (not timed tests). Run from the repository root:

    python bench/bench.py                 # everything but the load test (~3-5 min)
    python bench/bench.py --only apptest,calc
    python bench/load_test.py             # 20 browser sessions for 60 s

Sections: apptest (each page's rerun time vs a bare one-slider page), browser (slider ->
last DOM change in headless Chromium, every page against the one-chart floor page,
bench/slider_bench.py), table10k (10,000 kernels: rerun time, figure size),
calc (place_kernels on 1e6 kernels vs a Python loop; `import calc` in a fresh process),
diagnosis (a 100 MB Kineto trace through calc.diagnosis.diagnose_trace vs json.loads).
Results are printed and written to bench/results/bench-<time>.json (gitignored).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "browser"))
os.chdir(ROOT)

# Every page in pages/ (discovered: pages other issues add are included), and home.
PAGES = (("home", "app.py"),) + tuple(
    (re.sub(r"^[0-9]+[_ -]*", "", p.stem).lower(), f"pages/{p.name}")
    for p in sorted((ROOT / "pages").glob("*.py")))


def pct(values, q):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def quiet_streamlit():
    import logging

    for name in ("streamlit", "streamlit.runtime.scriptrunner_utils.script_run_context"):
        logging.getLogger(name).setLevel(logging.ERROR)


# ----------------------------------------------------------------------------- apptest

def _rerun_times(at, n):
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - t0)
    return times


def bench_apptest(n=30):
    from streamlit.testing.v1 import AppTest

    quiet_streamlit()
    out = {}
    bare = AppTest.from_file(str(ROOT / "bench" / "bare_page.py"), default_timeout=60)
    bare.run()
    rounds = {pid: [] for pid, _ in PAGES}
    rounds["bare"] = []
    apps = {}
    for pid, path in PAGES:
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
        if path != "app.py":
            at.switch_page(path)
        at.run()
        assert not at.exception, (pid, at.exception)
        apps[pid] = at
    # Interleave the pages and the bare page so that machine noise hits all alike.
    for _ in range(n):
        rounds["bare"] += _rerun_times(bare, 1)
        for pid, at in apps.items():
            rounds[pid] += _rerun_times(at, 1)
    base = statistics.median(rounds["bare"])
    out["bare_median_ms"] = round(base * 1e3, 2)
    for pid in apps:
        med = statistics.median(rounds[pid])
        out[pid] = {"median_ms": round(med * 1e3, 1), "p95_ms": round(pct(rounds[pid], 0.95) * 1e3, 1),
                    "ratio_vs_bare": round(med / base, 1)}
    return out


# ----------------------------------------------------------------------------- browser

def bench_browser(rounds=25):
    """Slider -> last DOM change of every page against the one-chart floor, in one run
    (bench/slider_bench.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import slider_bench

    return slider_bench.run(rounds)


# ----------------------------------------------------------------------------- 10k kernels

def _rows(n):
    import random

    rng = random.Random(1)
    rows = []
    for i in range(n):
        f = 10 ** rng.uniform(6, 13)
        by = 10 ** rng.uniform(5, 10)
        sec = "" if i % 3 == 0 else f"{f / 10 ** rng.uniform(11, 14.5):.4g}"
        rows.append({"name": f"kernel_{i}", "flops": f"{f:.6g}", "bytes": f"{by:.6g}",
                     "seconds": sec, "count": "1"})
    return rows


def bench_table10k(n_kernels=10_000, n=5):
    import numpy as np
    from streamlit.testing.v1 import AppTest

    from calc.kernel_table import parse_rows
    from calc.roofline import place_kernels
    from ui.figures.roofline import Roof, kernel_points, roofline_figure
    from ui.i18n import translator
    from ui.roofline import state

    quiet_streamlit()
    rows = _rows(n_kernels)
    out = {}
    t0 = time.perf_counter()
    parse = parse_rows(rows)
    out["parse_rows_ms"] = round((time.perf_counter() - t0) * 1e3, 1)
    ks = parse.kernels
    flops = np.array([k.flops for k in ks])
    nbytes = np.array([k.bytes_moved for k in ks])
    secs = np.array([np.nan if k.seconds is None else k.seconds for k in ks])
    t0 = time.perf_counter()
    pl = place_kernels(flops, nbytes, 312e12, 2.039e12, secs)
    t = translator("en")
    pts = kernel_points(t, [k.name for k in ks], flops, nbytes, pl)
    fig = roofline_figure(t, [Roof("A100", 312e12, 2.039e12)], pts)
    js = fig.to_json()
    out["figure_build_ms"] = round((time.perf_counter() - t0) * 1e3, 1)
    out["figure_json_bytes"] = len(js)
    out["figure_json_MB"] = round(len(js) / 1e6, 3)

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.switch_page("pages/1_Roofline.py")
    at.run()
    at.session_state[state.ROWS_KEY] = state.normalize_rows(rows)
    at.session_state[state.BASE_KEY] = at.session_state[state.ROWS_KEY]
    t0 = time.perf_counter()
    at.run()
    out["first_run_with_10k_ms"] = round((time.perf_counter() - t0) * 1e3, 1)
    assert not at.exception, at.exception
    times = _rerun_times(at, n)
    out["rerun_median_ms"] = round(statistics.median(times) * 1e3, 1)
    out["rerun_max_ms"] = round(max(times) * 1e3, 1)
    charts = [c for c in at.get("plotly_chart")]
    if charts:
        out["page_chart_json_MB"] = [round(len(c.proto.spec) / 1e6, 3) for c in charts]
    return out


def profile_table10k(path):
    """cProfile of the 10k-kernel rerun (written to `path`, top lines printed)."""
    import cProfile
    import pstats

    pr = cProfile.Profile()
    pr.enable()
    bench_table10k(n=3)
    pr.disable()
    pr.dump_stats(path)
    pstats.Stats(pr).sort_stats("cumulative").print_stats(25)


# ----------------------------------------------------------------------------- calc

def bench_calc(n_kernels=1_000_000, loop_n=100_000):
    import numpy as np

    from calc.roofline import place_kernel, place_kernels

    rng = np.random.default_rng(0)
    flops = 10 ** rng.uniform(6, 13, n_kernels)
    nbytes = 10 ** rng.uniform(5, 10, n_kernels)
    secs = flops / 10 ** rng.uniform(11, 14.5, n_kernels)
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        place_kernels(flops, nbytes, 312e12, 2.039e12, secs)
        times.append(time.perf_counter() - t0)
    vec = statistics.median(times)
    f_list, b_list, s_list = flops[:loop_n].tolist(), nbytes[:loop_n].tolist(), secs[:loop_n].tolist()
    t0 = time.perf_counter()
    for f, b, s in zip(f_list, b_list, s_list):
        place_kernel(f, b, 312e12, 2.039e12, s)
    loop = (time.perf_counter() - t0) * (n_kernels / loop_n)
    # `import calc` timed inside a fresh interpreter (interpreter start-up excluded).
    code = "import time; t0 = time.perf_counter(); import calc; print(time.perf_counter() - t0)"
    imports = [float(subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT,
                                    capture_output=True, text=True).stdout) for _ in range(7)]
    itime = subprocess.run([sys.executable, "-X", "importtime", "-c", "import calc"], cwd=ROOT,
                           capture_output=True, text=True).stderr.strip().splitlines()
    calc_line = [ln for ln in itime if ln.rstrip().endswith("| calc")]
    return {
        "place_kernels_1e6_ms": round(vec * 1e3, 1),
        "python_loop_1e6_s_extrapolated": round(loop, 2),
        "loop_measured_on": loop_n,
        "speedup": round(loop / vec, 0),
        "import_calc_ms_median": round(statistics.median(imports) * 1e3, 2),
        "import_calc_ms_max": round(max(imports) * 1e3, 2),
        "import_calc_importtime_line": calc_line[-1].strip() if calc_line else None,
    }


def bench_diagnosis():
    """Trace doctor: a 100 MB Kineto trace (bench/bench_diagnosis.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_diagnosis import bench_diagnosis as run

    return run(100.0, 3)


SECTIONS = {"apptest": bench_apptest, "browser": bench_browser, "table10k": bench_table10k,
            "calc": bench_calc, "diagnosis": bench_diagnosis}


def machine():
    info = {"nproc": os.cpu_count(), "python": sys.version.split()[0]}
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        info["cpu"] = next((ln.split(":", 1)[1].strip() for ln in lscpu.splitlines()
                            if ln.startswith("Model name")), "?")
        info["loadavg"] = os.getloadavg()
    except Exception:  # noqa: BLE001
        pass
    return info


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default=",".join(SECTIONS), help="comma-separated sections")
    ap.add_argument("--profile", action="store_true", help="cProfile the 10k-kernel rerun")
    args = ap.parse_args()
    results = {"machine": machine()}
    if args.profile:
        (ROOT / "bench" / "results").mkdir(parents=True, exist_ok=True)
        profile_table10k(str(ROOT / "bench" / "results" / "table10k.prof"))
        return
    for name in args.only.split(","):
        t0 = time.perf_counter()
        try:
            results[name] = SECTIONS[name]()
        except Exception as exc:  # noqa: BLE001 - report and go on with the other sections
            results[name] = {"error": f"{type(exc).__name__}: {exc}"}
        print(f"== {name} ({time.perf_counter() - t0:.0f} s)\n{json.dumps(results[name], indent=2, ensure_ascii=False)}",
              flush=True)
    results["machine"]["loadavg_end"] = os.getloadavg()
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"bench-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.write_text(json.dumps(results, indent=2, ensure_ascii=False))
    print(f"written {path}")


if __name__ == "__main__":
    main()
