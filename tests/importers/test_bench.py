"""Large inputs: a ~30 MB trace and 100,000 ncu rows. Measures and prints; no timing asserts.

Run: ROOFLINE_BENCH=1 pytest tests/importers/test_bench.py -s   (skipped otherwise)
"""
import json
import os
import random
import time

import pytest

from calc.importers import import_file
from calc.kernel_table import parse_rows

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not os.environ.get("ROOFLINE_BENCH"), reason="set ROOFLINE_BENCH=1 to run")]


def big_trace(n_ops: int) -> bytes:
    rnd = random.Random(0)
    ev = []
    ts = 0
    shapes = [(4096, 4096, 4096), (8192, 1024, 4096), (2048, 2048, 512)]
    for i in range(n_ops):
        m, k, n = shapes[i % 3]
        ext = 2 * i
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": ts, "dur": 40,
                   "args": {"External id": ext, "Record function id": 0, "Ev Idx": i,
                            "Input Dims": [[m, k], [n, k], [n]], "Input type": ["c10::BFloat16"] * 3,
                            "Input Strides": [[k, 1], [k, 1], [1]], "Concrete Inputs": ["", "", ""]}})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": ts + 5, "dur": 30,
                   "args": {"External id": ext + 1, "Record function id": 0, "Ev Idx": i,
                            "Input Dims": [[n], [m, k], [k, n], [], []],
                            "Input type": ["c10::BFloat16"] * 3 + ["Scalar", "Scalar"],
                            "Input Strides": [[1], [k, 1], [1, k], [], []], "Concrete Inputs": ["", "", "", "1", "1"]}})
        ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": ts + 10,
                   "dur": 5, "args": {"External id": ext + 1, "cbid": 211, "correlation": i}})
        ev.append({"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64",
                   "pid": 0, "tid": 7, "ts": ts + 50, "dur": rnd.randint(50, 500),
                   "args": {"External id": ext + 1, "queued": 0, "device": 0, "context": 1, "stream": 7,
                            "correlation": i, "registers per thread": 168, "shared memory": 0,
                            "blocks per SM": 1.0, "warps per SM": 4.0, "grid": [132, 1, 1], "block": [384, 1, 1],
                            "est. achieved occupancy %": 6}})
        ts += 100
    return json.dumps({"schemaVersion": 1, "traceEvents": ev}).encode()


def test_bench_30mb_trace():
    data = big_trace(27_000)
    t = time.perf_counter()
    r = import_file(data, "big.json")
    dt = time.perf_counter() - t
    print(f"\ntrace {len(data) / 1e6:.1f} MB, {len(r.kernels)} records, {r.report.n_read} ops: {dt:.2f} s")
    assert sum(k.count for k in r.kernels) == 27_000


def test_bench_100k_ncu_rows():
    head = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
            '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n')
    metrics = [("gpu__time_duration.sum", "nsecond", "10,195"), ("dram__bytes_read.sum", "byte", "53,261,312"),
               ("dram__bytes_write.sum", "byte", "3,377,920"), ("lts__t_bytes.sum", "byte", "99,000,000")]
    lines = [head]
    for i in range(25_000):
        for m, u, v in metrics:
            lines.append(f'"{i}","1","p","h","void gemm<{i % 50}>(const float *, int)","1","7","(32, 32, 1)",'
                         f'"(64, 64, 1)","0","12.0","Command line profiler metrics","{m}","{u}","{v}"\n')
    data = "".join(lines).encode()
    t = time.perf_counter()
    r = import_file(data, "big_ncu.csv")
    dt = time.perf_counter() - t
    print(f"\nncu {len(lines) - 1} rows ({len(data) / 1e6:.1f} MB): {len(r.kernels)} kernels in {dt:.2f} s")
    assert r.report.n_read == 100_000 and len(r.kernels) == 50


def test_bench_table_rows():
    rows = [{"name": f"k{i}", "flops": str(1e9 * (i + 1)), "bytes": str(1e6 + i), "seconds": "1e-3", "count": "1"}
            for i in range(10_000)]
    t = time.perf_counter()
    parse_rows(rows)
    dt = time.perf_counter() - t
    text = ("name,flops,bytes,seconds\n" + "".join(f"k{i},{1e9 + i},{1e6 + i},0.001\n" for i in range(200_000))).encode()
    t = time.perf_counter()
    r = import_file(text, "t.csv")
    dt2 = time.perf_counter() - t
    big = b"name,bytes\n" + b"k,1\n" * 1_000_000
    t = time.perf_counter()
    with pytest.raises(ValueError):
        import_file(big, "m.csv")
    dt3 = time.perf_counter() - t
    print(f"\nparse_rows 10,000 rows: {dt * 1e3:.0f} ms; CSV 200,000 rows: {dt2:.2f} s; "
          f"1,000,000-row CSV refused in {dt3 * 1e3:.0f} ms")
    assert len(r.kernels) == 200_000
