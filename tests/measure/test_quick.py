"""One real `--quick` measurement of this machine (CPU path), checked against plain numpy
timings taken in the test itself, against the roofline, and through calc.hardware.

The machine is shared (2 cores, other people's tests), so each comparison allows a
factor of 2, as the issue asks: wide enough for noise, narrow enough to catch a wrong
byte count (copy counted as 1 array instead of 2 is exactly 2×, triad's 5 arrays vs
STREAM's 3 is 1.7× and shows in the triad check) or FLOPs counted as MACs (2×).
"""
import time

import numpy as np
import pytest

from calc.hardware import load_hardware
from calc.roofline import place_kernels
from measure import cpu, run as runner
from measure.device import device_tables, to_toml
from measure.kernels import LiveKernel, bandwidth_for, run_kernels
from measure.report import ceilings, format_table

# A real measurement of this machine (~35 s, and within 2x only when the machine is not
# busy with other work): the full run has it, the quick tier (pytest --quick) does not.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def quick():
    return runner.run(quick=True, use_gpu=False)


def _best(fn, repeats, budget_s=1.0, max_repeats=60):
    """Fastest of at least ``repeats`` timed calls of fn() (s), more while budget_s lasts.

    The best of a few calls is not enough on a 2-core machine where another process holds
    one core: a two-thread BLAS call then waits on its descheduled thread and runs 3-7x
    slow for seconds (CI saw 11 GFLOP/s plain vs 77 GFLOP/s measured in every pair), so the
    plain timing, like the measurement's own, keeps sampling for about a second and keeps
    the fastest call (one taken in a quiet moment).
    """
    fn()
    best = float("inf")
    start = time.perf_counter()
    taken = 0
    while taken < repeats or (time.perf_counter() - start < budget_s and taken < max_repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
        taken += 1
    return best


def _agree(first, remeasure, plain, tries=5):
    """measured (first the fixture's, then fresh ones) and plain within a factor of 2.

    On this shared 2-core machine another user's job can halve the BLAS rate for a few
    seconds (load averages of 10-14 were seen), so a mismatch re-measures both side by side
    (up to `tries` pairs); a wrong
    byte or FLOP count is off in every pair and still fails.
    """
    pairs = []
    measured = first
    for i in range(tries):
        p = plain()
        pairs.append((measured, p))
        if p / 2 <= measured <= p * 2:
            return pairs
        measured = remeasure()
    raise AssertionError(f"measured vs plain (SI units) never within 2x: {pairs}")


def test_dram_bandwidth_agrees_with_a_plain_numpy_copy(quick):
    # Plain copy of 64 MiB into 64 MiB (128 MiB working set, 4x a 32 MiB L3):
    # bytes = read 64 MiB + write 64 MiB.
    n = 8 * 2**20
    src, dst = np.ones(n), np.zeros(n)

    def plain():
        return 2 * n * 8 / _best(lambda: np.copyto(dst, src), 5)

    def remeasure():
        pts = cpu.stream_sweep(cpu.working_set_sizes(128 * 2**20, 2, 64 * 2**20), 1.0)
        return cpu.plateaus(pts, quick.host.caches)["dram"]
    _agree(quick.cpu_plateaus["dram"], remeasure, plain)


def test_fp64_gemm_rate_agrees_with_a_plain_numpy_matmul(quick):
    # 2·n³ FLOP per n×n matmul (one multiply and one add per multiply-accumulate), at the
    # size where the sweep found its peak.
    n = max((p for p in quick.gemm if p.precision == "fp64"), key=lambda p: p.rate).n
    a = np.random.default_rng(0).standard_normal((n, n))
    b = np.random.default_rng(1).standard_normal((n, n))
    c = np.empty((n, n))

    def plain():    # into a preallocated product, like the sweep: no page faults timed
        return 2 * n**3 / _best(lambda: np.matmul(a, b, out=c), 3)

    def remeasure():
        return max(p.rate for p in cpu.gemm_sweep("fp64", 1.5, start_n=n, max_n=n))
    _agree(quick.cpu_peaks["fp64"], remeasure, plain)


def test_triad_bandwidth_counts_numpys_five_arrays(quick):
    # triad at DRAM sizes: numpy's two passes move 5 arrays; the plain timing below does the
    # same two ufuncs; agreement within 2x means the byte counts match.
    n = 4 * 2**20
    a, b, c = np.ones(n), np.ones(n), np.ones(n)

    def triad():
        np.multiply(c, 3.0, out=a)
        np.add(a, b, out=a)
    # the sweep's top is 64 MiB rounded to 192 bytes (67,108,800 B: 64 bytes short), 8x an
    # 8 MiB last-level cache: 63 MiB is beyond every cache here and still catches that point
    big = [p for p in quick.stream if p.kernel == "triad" and p.working_set_bytes >= 63 * 2**20]
    assert big, "the quick sweep must reach beyond the last-level cache"

    def remeasure():
        pts = cpu.stream_sweep([96 * 2**20], 0.5, kernels_=("triad",))
        return pts[0].bandwidth
    _agree(max(p.bandwidth for p in big), remeasure, lambda: 5 * n * 8 / _best(triad, 5))


def test_sweep_spans_l1_to_beyond_the_last_level_cache(quick):
    sizes = [p.working_set_bytes for p in quick.stream]
    assert min(sizes) <= 8 * 1024
    llc = quick.host.last_level_cache
    if llc is not None:
        assert max(sizes) >= 2 * llc.size_bytes
        # every cache level got a plateau
        assert {c.name for c in quick.host.caches} <= set(quick.cpu_plateaus)
    # at least 3 samples while on schedule (the first sizes always are), never fewer than 1
    # (a loaded machine past the sweep's hard stop)
    assert quick.stream[0].timing.samples >= 3
    assert all(p.timing.samples >= 1 for p in quick.stream)


def test_quick_plan_fits_its_bound():
    # Budgets are what the samples may take; allocation and warm-up come on top, so they
    # leave headroom: quick ≤ 8 of its 10 s, default ≤ 25 of 30 s, with or without a GPU.
    for with_gpu in (False, True):
        assert sum(b.budget_s for b in runner.plan(True, with_gpu)) <= 8.0
        assert sum(b.budget_s for b in runner.plan(False, with_gpu)) <= 25.0


def test_toml_loads_through_calc_hardware(quick, tmp_path):
    path = tmp_path / "measured.toml"
    path.write_text(to_toml(quick), encoding="utf-8")
    devices = load_hardware(path)
    (dev_id, table), = device_tables(quick)
    dev = devices[dev_id]
    assert dev.measured is True and dev.host and dev.date.endswith("Z")
    assert dev.date.startswith(quick.started.strftime("%Y-%m-%d"))
    assert dev.versions["numpy"] == np.__version__
    assert set(dev.peaks) == {"fp64", "fp32", "fp16", "int8"}
    # written with 4 significant digits, in TFLOP/s and GB/s
    assert dev.peak_flops("fp64") == pytest.approx(quick.cpu_peaks["fp64"], rel=1e-3)
    assert dev.mem_bw == pytest.approx(quick.cpu_plateaus["dram"], rel=1e-3)
    for level in quick.host.caches:
        assert dev.cache_bw[level.name.lower()] == pytest.approx(quick.cpu_plateaus[level.name], rel=1e-3)
    # a measured CPU starts at its fastest float precision, not numpy's slow float16
    assert dev.default_precision == max(("fp64", "fp32", "fp16"), key=dev.peak_flops)
    assert not dev.sparse_headline
    if quick.host.memory_bytes:
        assert dev.memory_bytes == pytest.approx(quick.host.memory_bytes, rel=1e-3)


def _placed(m, kernels):
    results = run_kernels(kernels, budget_s=1.5)
    pl = m.cpu_plateaus
    levels = [bandwidth_for(r.cost.bytes_moved, m.host.caches, pl) for r in results]
    placed = place_kernels(np.array([r.cost.flops for r in results]),
                           np.array([r.cost.bytes_moved for r in results]),
                           np.array([m.cpu_peaks[r.kernel.precision] for r in results]),
                           np.array([bw for _, bw in levels]),
                           np.array([r.seconds for r in results]))
    return results, [lv for lv, _ in levels], placed


def test_live_kernels_lie_at_or_below_the_measured_roof(quick):
    # Footprints: GEMV 4096×2048 fp64 = 64 MiB + 48 KiB; add 4 Mi fp64 = 3 × 32 MiB = 96 MiB;
    # sum 16 Mi fp32 = 64 MiB + 4 B: all > 2 × a 32 MiB L3, so DRAM-bound; add 4096 fp32 =
    # 48 KiB sits in a cache.
    kernels = [LiveKernel("gemm", "fp64", 512), LiveKernel("gemv", "fp64", 2048, m=4096),
               LiveKernel("add", "fp64", 4 * 2**20), LiveKernel("sum", "fp32", 16 * 2**20),
               LiveKernel("add", "fp32", 4096)]
    m = quick
    history = []
    for attempt in range(3):
        results, levels, placed = _placed(m, kernels)
        frac = placed.fraction_of_roof
        history.append(np.round(frac, 2).tolist())
        # At or below the roof (built from the best samples; a kernel's point uses its median
        # time), allowing 2x for noise between the sweep and this run; the sweep and the
        # kernels are re-measured together when another user's job skewed one.
        if np.all(frac <= 2.0):
            break
        m = runner.run(quick=True, use_gpu=False)
    else:
        raise AssertionError(f"a live kernel above 2x its measured roof in every try: {history}")
    # and not absurdly far below (a wrong FLOP or byte count by 100x would show)
    assert np.all(frac >= 0.01), frac
    if m.host.last_level_cache is not None and m.host.last_level_cache.size_bytes <= 32 * 2**20:
        assert levels[1] == levels[2] == levels[3] == "dram"
        assert levels[4] != "dram"
    # GEMM 512 fp64 is compute-bound on any CPU (intensity 2·512/(3·8) = 42.7 FLOP/B)
    assert results[0].cost.intensity == pytest.approx(2 * 512 / 24)


def test_report_rows_and_table(quick):
    rows = ceilings(quick)
    keys = {(c.kind, c.key) for c in rows}
    assert ("peak", "fp64") in keys and ("bw", "dram") in keys
    text = format_table(quick)
    assert "DRAM bandwidth" in text and "fp64 matmul" in text and "GFLOP/s" in text


def test_cli_writes_a_loadable_file(quick, tmp_path, monkeypatch, capsys):
    from measure.__main__ import main

    monkeypatch.setattr(runner, "run", lambda *a, **k: quick)   # no second measurement
    out = tmp_path / "m.toml"
    assert main(["--quick", "--cpu-only", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "DRAM bandwidth" in printed and str(out) in printed
    assert any(d.measured for d in load_hardware(out).values())
    with pytest.raises(SystemExit) as exc:
        main(["--out", str(tmp_path / "m.txt")])
    assert exc.value.code == 2
    assert ".toml" in capsys.readouterr().err
