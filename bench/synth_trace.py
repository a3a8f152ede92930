"""A synthetic PyTorch profiler (Kineto) chrome trace of a given size, for the trace-doctor
benchmark (bench/bench_diagnosis.py) and for tests that need a big file.

The layout copies real Kineto traces (recent schema, as in
tests/data/torch-traces/triton_example.json.gz): process/thread metadata, per step a
``ProfilerStep#N`` user_annotation, ``cpu_op`` events with ``External id`` / ``Record function
id`` / ``Ev Idx`` and (``record_shapes``) ``Input Dims`` / ``Input type`` / ``Input Strides`` /
``Concrete Inputs``, a ``cudaLaunchKernel`` ``cuda_runtime`` event per kernel, the ``ac2g`` flow
pair, and ``kernel`` events with the full CUPTI args (grid, block, registers, occupancy) on
stream 7, NCCL kernels on stream 20, a host-to-device copy per step and a data-loader gap at
the start of every step. Event size is like a real trace (~ 450 bytes per event on average).

Usage::

    python bench/synth_trace.py OUT.json --mb 100        # ~100 MB uncompressed
    python bench/synth_trace.py OUT.json.gz --mb 100     # gzipped

or ``synth_trace(target_bytes) -> bytes`` from Python. What it contains is known exactly
(``expected(...)``), so a test can compare the diagnosis with numbers computed by hand.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys

PID = 4242
GPU_PID = 0
COMPUTE_STREAM = 7
COMM_STREAM = 20
#: per step: kernels of (name, duration µs) launched one after another on the compute stream
STEP_KERNELS = (
    ("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn", 120.0, "aten::mm"),
    ("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>", 8.0,
     "aten::gelu"),
    ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>",
     6.0, "aten::native_layer_norm"),
    ("flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t>>",
     90.0, "aten::_scaled_dot_product_flash_attention"),
    ("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>", 4.0,
     "aten::_softmax"),
)
KERNELS_PER_STEP_BLOCK = len(STEP_KERNELS)
LAUNCH_US = 5.0          # CPU time of one cudaLaunchKernel
DATALOADER_US = 400.0    # GPU idle at the start of each step: the CPU is in the data loader
NCCL_US = 150.0          # one all-reduce per block, on the comm stream


def _args_op(ext: int, rf: int, idx: int) -> dict:
    return {"External id": ext, "Record function id": rf, "Ev Idx": idx,
            "Input Dims": [[8, 2048, 4096], [4096, 4096]], "Input type": ["c10::BFloat16",
                                                                          "c10::BFloat16"],
            "Input Strides": [[8388608, 4096, 1], [4096, 1]], "Concrete Inputs": ["", ""]}


def _kernel_args(ext: int, corr: int, stream: int) -> dict:
    return {"External id": ext, "queued": 0, "device": 0, "context": 1, "stream": stream,
            "correlation": corr, "registers per thread": 168, "shared memory": 49152,
            "blocks per SM": 1.185185, "warps per SM": 4.740741, "grid": [64, 2, 1],
            "block": [128, 1, 1], "est. achieved occupancy %": 12}


def _metadata() -> list[dict]:
    return [
        {"name": "process_name", "ph": "M", "ts": 0, "pid": PID, "tid": 0,
         "args": {"name": "python3.11"}},
        {"name": "process_labels", "ph": "M", "ts": 0, "pid": PID, "tid": 0,
         "args": {"labels": "CPU"}},
        {"name": "process_name", "ph": "M", "ts": 0, "pid": GPU_PID, "tid": 0,
         "args": {"name": "python3.11"}},
        {"name": "process_labels", "ph": "M", "ts": 0, "pid": GPU_PID, "tid": 0,
         "args": {"labels": "GPU 0"}},
        {"name": "thread_name", "ph": "M", "ts": 0, "pid": GPU_PID, "tid": COMPUTE_STREAM,
         "args": {"name": f"stream {COMPUTE_STREAM}"}},
        {"name": "thread_name", "ph": "M", "ts": 0, "pid": GPU_PID, "tid": COMM_STREAM,
         "args": {"name": f"stream {COMM_STREAM}"}},
    ]


def synth_events(n_steps: int | None, blocks_per_step: int, t0: float = 1_700_000_000_000.0):
    """Yield the events of ``n_steps`` (None: endless) consecutive steps of
    ``blocks_per_step`` kernel blocks each; each step starts with its ProfilerStep event."""
    ext = corr = idx = 0
    t = t0
    step = -1
    while n_steps is None or step + 1 < n_steps:
        step += 1
        step_start = t
        step_events = []
        # the data loader: CPU busy, GPU idle
        step_events.append({"ph": "X", "cat": "user_annotation",
                            "name": "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                            "pid": PID, "tid": PID, "ts": t + 1.0, "dur": DATALOADER_US - 2.0,
                            "args": {"External id": ext, "Record function id": 0, "Ev Idx": idx}})
        ext += 1
        idx += 1
        t += DATALOADER_US
        # host-to-device copy of the batch
        corr += 1
        step_events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync",
                            "pid": PID, "tid": PID, "ts": t, "dur": LAUNCH_US,
                            "args": {"cbid": 41, "correlation": corr}})
        step_events.append({"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)",
                            "pid": GPU_PID, "tid": COMPUTE_STREAM, "ts": t + LAUNCH_US, "dur": 20.0,
                            "args": {"External id": ext, "device": 0, "context": 1,
                                     "stream": COMPUTE_STREAM, "correlation": corr,
                                     "bytes": 33554432, "memory bandwidth (GB/s)": 1677.7}})
        gpu_t = t + LAUNCH_US + 20.0
        t += LAUNCH_US
        for _ in range(blocks_per_step):
            for name, dur, op in STEP_KERNELS:
                ext += 1
                corr += 1
                step_events.append({"ph": "X", "cat": "cpu_op", "name": op, "pid": PID, "tid": PID,
                                    "ts": t, "dur": LAUNCH_US + 2.0,
                                    "args": _args_op(ext, idx, idx)})
                idx += 1
                step_events.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                                    "pid": PID, "tid": PID, "ts": t + 1.0, "dur": LAUNCH_US,
                                    "args": {"External id": ext, "cbid": 211, "correlation": corr}})
                start = max(gpu_t, t + 1.0 + LAUNCH_US)
                step_events.append({"ph": "s", "id": corr, "pid": PID, "tid": PID, "ts": t + 1.0,
                                    "cat": "ac2g", "name": "ac2g"})
                step_events.append({"ph": "X", "cat": "kernel", "name": name, "pid": GPU_PID,
                                    "tid": COMPUTE_STREAM, "ts": start, "dur": dur,
                                    "args": _kernel_args(ext, corr, COMPUTE_STREAM)})
                step_events.append({"ph": "f", "id": corr, "pid": GPU_PID, "tid": COMPUTE_STREAM,
                                    "ts": start, "cat": "ac2g", "name": "ac2g", "bp": "e"})
                gpu_t = start + dur
                t += LAUNCH_US + 2.0
            # an all-reduce on the comm stream, overlapping the next block
            ext += 1
            corr += 1
            step_events.append({"ph": "X", "cat": "kernel",
                                "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                                "pid": GPU_PID, "tid": COMM_STREAM, "ts": gpu_t, "dur": NCCL_US,
                                "args": _kernel_args(ext, corr, COMM_STREAM)})
        step_end = max(t, gpu_t) + 1.0
        yield {"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{step}", "pid": PID,
               "tid": PID, "ts": step_start, "dur": step_end - step_start,
               "args": {"External id": ext, "Record function id": 0, "Ev Idx": idx}}
        ext += 1
        idx += 1
        yield from step_events
        t = step_end


def _document_head() -> str:
    return ('{"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", '
            '"totalGlobalMem": 85100068864, "computeMajor": 8, "computeMinor": 0}], '
            '"cupti_version": 18, "cuda_runtime_version": 12010, "record_shapes": 1, '
            '"displayTimeUnit": "ms", "baseTimeNanoseconds": 1700000000000000000, '
            '"traceEvents": [\n')


def synth_trace(target_bytes: int, blocks_per_step: int = 200) -> bytes:
    """A trace of about ``target_bytes`` bytes (uncompressed), whole steps only."""
    head = _document_head()
    parts = [head]
    size = len(head)
    first = True
    for ev in _metadata():
        s = json.dumps(ev)
        parts.append(s if first else ",\n" + s)
        first = False
        size += len(s) + 2
    for ev in synth_events(None, blocks_per_step):
        if size >= target_bytes and str(ev["name"]).startswith("ProfilerStep#"):
            break
        s = json.dumps(ev)
        parts.append(",\n" + s)
        size += len(s) + 2
    parts.append("\n]}\n")
    return "".join(parts).encode()


def synth_trace_steps(n_steps: int, blocks_per_step: int) -> bytes:
    """A trace of exactly ``n_steps`` consecutive steps (one timeline)."""
    events = _metadata() + list(synth_events(n_steps, blocks_per_step))
    return (_document_head() + ",\n".join(json.dumps(e) for e in events) + "\n]}\n").encode()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=100.0, help="uncompressed size in MB (1e6 bytes)")
    a = ap.parse_args(argv)
    data = synth_trace(int(a.mb * 1e6))
    if a.out.endswith(".gz"):
        data = gzip.compress(data, compresslevel=6)
    with open(a.out, "wb") as f:
        f.write(data)
    print(f"{a.out}: {len(data) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
