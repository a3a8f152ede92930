"""Trace doctor (calc.diagnosis): hand-computed timelines, the seed's three signals firing and
staying silent, MFU per step, the committed real traces and bad files.

Every expected number is derived in the comment next to it from the timeline drawn there,
not copied from the code's output.
"""
import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest

from calc.diagnosis import (CLASSES, COMM_FIRES, IDLE_FIRES, diagnose_activity, diagnose_trace,
                            kernel_class, op_class, step_mfu)

SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "samples" / "worker0.1623143089861.pt.trace.json.gz"

DATA = Path(__file__).resolve().parents[1] / "data" / "torch-traces"
US = 1e-6
GEMM = "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn"
NCCL = "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
TINY = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>"


def ids(d):
    return [v.id for v in d.verdicts]


# --------------------------------------------------------------------------- signal 1: gaps

def test_gap_by_hand():
    # |GEMM 0-100 µs| gap 50 µs |GEMM 150-250 µs|
    # window = 250 µs; busy = 200 µs -> 0.8; idle 0.2 >= 0.10 fires "idle"
    d = diagnose_activity([0, 150 * US], [100 * US, 100 * US], [7, 7], [GEMM, GEMM])
    assert d.window_seconds == pytest.approx(250 * US)
    assert d.busy_seconds == pytest.approx(200 * US)
    assert d.busy_fraction == pytest.approx(0.8)
    assert len(d.idle_gaps) == 1
    assert d.idle_gaps[0].start_seconds == pytest.approx(100 * US)
    assert d.idle_gaps[0].length_seconds == pytest.approx(50 * US)
    assert d.idle_gaps[0].window_share == pytest.approx(50 / 250)     # the gap over the window
    assert ids(d) == ["idle"]
    v = d.verdicts[0]
    assert v.key == "diagnosis.verdict.idle" and v.step == "②"
    assert v.params["idle_fraction"] == pytest.approx(0.2)
    assert v.params["largest_gap_seconds"] == pytest.approx(50 * US)


def test_gap_names_the_cpu_span_and_the_data_loader():
    # CPU during the 100-150 µs gap: the data loader 90-160 µs covers all 50 µs of it;
    # aten::copy_ 120-130 µs only 10 µs; ProfilerStep spans are not candidates.
    spans = ([0, 90 * US, 120 * US], [300 * US, 70 * US, 10 * US],
             ["ProfilerStep#3", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
              "aten::copy_"])
    d = diagnose_activity([0, 150 * US], [100 * US, 100 * US], [7, 7], [GEMM, GEMM],
                          cpu_spans=spans)
    gap = d.idle_gaps[0]
    assert gap.cpu_name.startswith("enumerate(DataLoader)")
    assert gap.cpu_overlap_fraction == pytest.approx(1.0)
    assert ids(d) == ["idle_data"]


def test_innermost_span_wins_a_tie():
    # both spans cover the whole 100-150 µs gap; the shorter (inner) one is named
    spans = ([0, 95 * US], [400 * US, 60 * US], ["forward", "aten::nonzero"])
    d = diagnose_activity([0, 150 * US], [100 * US, 100 * US], [7, 7], [GEMM, GEMM],
                          cpu_spans=spans)
    assert d.idle_gaps[0].cpu_name == "aten::nonzero"


def test_no_gap_is_silent():
    # three GEMMs back to back: busy 100 %, nothing fires
    d = diagnose_activity([0, 100 * US, 200 * US], [100 * US] * 3, [7] * 3, [GEMM] * 3)
    assert d.busy_fraction == pytest.approx(1.0)
    assert d.idle_gaps == ()
    assert ids(d) == ["clear"]


def test_idle_threshold_is_ten_percent():
    # 1000 µs window: a gap of 99 µs (9.9 % idle) is silent, one of 101 µs (10.1 %) fires
    for gap, fires in ((99, False), (101, True)):
        d = diagnose_activity([0, (500 + gap) * US], [500 * US, (500 - gap) * US], [7, 7],
                              [GEMM, GEMM])
        assert d.window_seconds == pytest.approx(1000 * US)
        assert ("idle" in ids(d)) is fires
    assert IDLE_FIRES == 0.10


# --------------------------------------------------------------------------- signal 2: tiny kernels

def test_tiny_kernels_by_hand():
    # one 600 µs GEMM then 100 adds of 4 µs, back to back: 1000 µs, 101 kernels
    # small (< 10 µs): 100 of 101; their time 400 of 1000 µs = 0.4; kernels/ms = 101
    start = [0.0] + [600 * US + i * 4 * US for i in range(100)]
    dur = [600 * US] + [4 * US] * 100
    d = diagnose_activity(start, dur, [7] * 101, [GEMM] + [TINY] * 100)
    assert d.kernel_count == 101
    assert d.small_kernel_count == 100
    assert d.small_kernel_count_share == pytest.approx(100 / 101)
    assert d.small_kernel_time_share == pytest.approx(0.4)
    assert d.kernels_per_ms == pytest.approx(101.0)
    v = {x.id: x for x in d.verdicts}["small_kernels"]
    assert v.params["small_count"] == 100 and v.params["threshold_seconds"] == 10e-6
    # step ④ too: 400 of 1000 µs outside matmul = 0.4 >= 0.30
    assert d.non_matmul_share == pytest.approx(0.4)
    assert ids(d) == ["non_matmul", "small_kernels"]


def test_few_tiny_kernels_are_silent():
    # 100 GEMMs of 100 µs and one 4 µs add: 1 small kernel of 101, 4 of 10004 µs
    start = [i * 100 * US for i in range(100)] + [10_000 * US]
    d = diagnose_activity(start, [100 * US] * 100 + [4 * US], [7] * 101, [GEMM] * 100 + [TINY])
    assert d.small_kernel_count == 1
    assert "small_kernels" not in ids(d)
    assert ids(d) == ["clear"]


def test_threshold_is_a_parameter():
    # 20 µs kernels: not small at 10 µs, all small at 50 µs
    start = [i * 20 * US for i in range(10)]
    d10 = diagnose_activity(start, [20 * US] * 10, [7] * 10, [TINY] * 10)
    d50 = diagnose_activity(start, [20 * US] * 10, [7] * 10, [TINY] * 10,
                            small_kernel_threshold_seconds=50 * US)
    assert d10.small_kernel_count == 0 and d50.small_kernel_count == 10


# --------------------------------------------------------------------------- signal 3: NCCL

def test_nccl_overlapping_gemm_by_hand():
    # stream 7: GEMM 0-100 µs; stream 20: all-reduce 50-150 µs
    # comm share = 100 / (100 + 100) = 0.5; overlapped with compute 50-100 -> 50/100 = 0.5
    # exposed = union(comm) - union(compute) = 100-150 µs = 50 µs; busy 150 of 150 µs
    d = diagnose_activity([0, 50 * US], [100 * US, 100 * US], [7, 20], [GEMM, NCCL])
    assert d.comm_share == pytest.approx(0.5)
    assert d.comm_overlap_fraction == pytest.approx(0.5)
    assert d.exposed_comm_seconds == pytest.approx(50 * US)
    assert d.busy_fraction == pytest.approx(1.0)
    assert ids(d) == ["comm"]
    v = d.verdicts[0]
    assert v.step == "③"
    assert v.params["exposed_fraction"] == pytest.approx(50 / 150)
    streams = {s.stream: s for s in d.streams}
    assert streams["20"].comm_seconds == pytest.approx(100 * US)
    assert streams["7"].kernel_seconds == pytest.approx(100 * US)


def test_nccl_hidden_behind_compute():
    # all-reduce 10-90 µs entirely under the GEMM 0-100 µs: overlap 1, exposed 0
    # share 80 / 180 = 0.444 >= 0.2 but hidden -> informational "comm_hidden"
    d = diagnose_activity([0, 10 * US], [100 * US, 80 * US], [7, 20], [GEMM, NCCL])
    assert d.comm_share == pytest.approx(80 / 180)
    assert d.comm_overlap_fraction == pytest.approx(1.0)
    assert d.exposed_comm_seconds == pytest.approx(0.0, abs=1e-15)
    assert ids(d) == ["comm_hidden"]
    assert d.verdicts[0].severity == "info"


def test_small_nccl_share_is_silent():
    # 10 µs all-reduce after a 100 µs GEMM: share 10 / 110 = 0.09 < 0.20
    d = diagnose_activity([0, 100 * US], [100 * US, 10 * US], [7, 20], [GEMM, NCCL])
    assert d.comm_share == pytest.approx(10 / 110)
    assert d.comm_share < COMM_FIRES
    assert ids(d) == ["clear"]


def test_verdicts_are_in_checklist_order():
    # GEMM 0-100 (s7), NCCL 100-200 (s20, nothing beside it), gap 200-300, 50 adds of 2 µs
    # idle 100 of 400 µs = 0.25 (②); comm 100 of 300 µs kernel time = 0.33 (③);
    # non-matmul: adds 100 µs of (300 - 100 comm) = 0.5 (④); small: 50 of 52 kernels,
    # 100 of 300 µs = 0.33 (④, fusion)
    start = [0, 100 * US] + [300 * US + i * 2 * US for i in range(50)]
    dur = [100 * US, 100 * US] + [2 * US] * 50
    d = diagnose_activity(start, dur, [7, 20] + [7] * 50, [GEMM, NCCL] + [TINY] * 50)
    assert d.busy_fraction == pytest.approx(0.75)
    assert d.comm_share == pytest.approx(1 / 3)
    assert d.non_matmul_share == pytest.approx(0.5)
    assert ids(d) == ["idle", "comm", "non_matmul", "small_kernels"]
    assert [v.step for v in d.verdicts] == ["②", "③", "④", "④"]


# --------------------------------------------------------------------------- classes, steps

@pytest.mark.parametrize("name,cls", [
    ("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn", "matmul"),
    ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", "matmul"),
    ("nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTN", "matmul"),
    ("void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x1>", "matmul"),
    ("Cijk_Alik_Bljk_BBS_BH_MT128x128x32_MI32x32x8x1", "matmul"),       # ROCm Tensile
    ("void cudnn::detail::implicit_convolve_sgemm<float, float, 1024, 5, 5, 3, 3, 3, 1>", "matmul"),
    ("flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false>>", "attention"),
    ("fmha_cutlassF_f16_aligned_64x64_rf_sm80", "attention"),
    ("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "communication"),
    ("void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>", "norm"),
    ("void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>", "norm"),
    ("MIOpenBatchNormFwdTrainSpatial", "norm"),
    ("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>", "reduction"),
    ("triton_red_fused__softmax_0", "reduction"),
    ("triton_poi_fused_add_cos_sin_0", "elementwise"),
    ("void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl>", "elementwise"),
    ("void multi_tensor_apply_kernel<TensorListMetadata<4>, AdamFunctor<float>>", "optimizer"),
    # a C++ lambda in a template argument is not the LAMB optimizer
    ("void at::native::vectorized_elementwise_kernel<4, at::native::threshold_kernel_impl"
     "(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}>", "elementwise"),
    ("Memcpy HtoD (Pageable -> Device)", "memory"),
    ("Memset (Device)", "memory"),
    ("void at::native::unrolled_elementwise_kernel<direct_copy_kernel_cuda>", "memory"),
    ("my_custom_kernel", "other"),
    ("matmul", "matmul"),                                   # a class name maps to itself
])
def test_kernel_class(name, cls):
    assert kernel_class(name) == cls


def test_op_class_and_linked_operator():
    assert op_class("aten::native_layer_norm") == "norm"
    assert op_class("Optimizer.step#AdamW.step") == "optimizer"
    assert op_class("aten::addmm") == "matmul"
    # an unnamed kernel launched by aten::addmm is matmul; an elementwise kernel launched
    # in the optimizer step is optimizer work
    d = diagnose_activity([0, 10 * US], [10 * US, 10 * US], [7, 7],
                          ["my_custom_kernel", TINY],
                          op_names=["aten::addmm", "Optimizer.step#AdamW.step"])
    assert d.class_seconds["matmul"] == pytest.approx(10 * US)
    assert d.class_seconds["optimizer"] == pytest.approx(10 * US)


def test_class_shares_copies_and_kernels():
    # GEMM 60 µs, layer norm 20 µs, a 20 µs host-to-device copy: shares 0.6/0.2/0.2 of 100 µs
    # the copy is not a kernel: 2 kernels, kernel time 80 µs
    d = diagnose_activity([0, 60 * US, 80 * US], [60 * US, 20 * US, 20 * US], [7, 7, 7],
                          [GEMM, "vectorized_layer_norm_kernel", "Memcpy HtoD (Pinned -> Device)"])
    assert d.kernel_count == 2
    assert d.kernel_seconds == pytest.approx(80 * US)
    assert d.class_shares["matmul"] == pytest.approx(0.6)
    assert d.class_shares["norm"] == pytest.approx(0.2)
    assert d.class_shares["memory"] == pytest.approx(0.2)
    assert sum(d.class_shares.values()) == pytest.approx(1.0)
    assert set(d.class_shares) == set(CLASSES)
    assert d.covered_seconds == pytest.approx(100 * US)


def test_steps_busy_by_hand():
    # step A 0-200 µs holds GEMM 0-100 and the first 50 µs of GEMM 150-250: busy 150 µs
    # step B 200-400 µs holds its last 50 µs: busy 50 µs; mean step 200 µs
    d = diagnose_activity([0, 150 * US], [100 * US, 100 * US], [7, 7], [GEMM, GEMM],
                          steps=([0, 200 * US], [200 * US, 200 * US], ["ProfilerStep#1",
                                                                         "ProfilerStep#2"]))
    a, b = d.steps
    assert a.gpu_busy_seconds == pytest.approx(150 * US) and a.busy_fraction == pytest.approx(0.75)
    assert b.gpu_busy_seconds == pytest.approx(50 * US)
    assert d.mean_step_seconds == pytest.approx(200 * US)


def test_fp32_simt_gemm_fires_tensor_core_step():
    # all matmul time in volta_sgemm (FP32, no Tensor Core): step ⑤
    d = diagnose_activity([0], [100 * US], [7], ["volta_sgemm_128x64_nn"])
    assert d.simt_matmul_share == pytest.approx(1.0)
    assert ids(d) == ["no_tensor_core"] and d.verdicts[0].step == "⑤"
    d = diagnose_activity([0], [100 * US], [7], [GEMM])
    assert d.simt_matmul_share == 0.0


def test_bad_arrays():
    with pytest.raises(ValueError, match="empty"):
        diagnose_activity([], [], [], [])
    with pytest.raises(ValueError, match="duration has 1 entries"):
        diagnose_activity([0, 1], [1], [7, 7], [GEMM, GEMM])
    with pytest.raises(ValueError, match=r"duration\[0\] is negative"):
        diagnose_activity([0], [-1], [7], [GEMM])
    with pytest.raises(ValueError, match="finite"):
        diagnose_activity([math.nan], [1], [7], [GEMM])


# --------------------------------------------------------------------------- MFU per step

def test_step_mfu_seed_example():
    # seed: 7B, 8 x A100 (312 TFLOP/s), 12 000 tokens/s -> 6*7e9*12000/(8*312e12) = 20.2 %
    # a step of 1 s with 12 000 tokens is that throughput; a 2 s step halves it
    m = step_mfu([1.0, 2.0], 7e9, 12_000, 8, 312e12)
    assert m.mfu[0] == pytest.approx(6 * 7e9 * 12_000 / (8 * 312e12))
    assert m.mfu[0] == pytest.approx(0.2019, abs=1e-4)
    assert m.mfu[1] == pytest.approx(m.mfu[0] / 2)
    assert np.array_equal(m.hfu, m.mfu)                  # no recomputation: HFU = MFU
    # mean step 1.5 s -> 8000 tokens/s; each step: 12 000 / 1 s and 12 000 / 2 s
    assert m.tokens_per_s == pytest.approx(8000)
    assert m.step_tokens_per_s.tolist() == pytest.approx([12_000, 6_000])
    # full activation recomputation: 8N per token of hardware FLOPs -> HFU = MFU * 8/6
    r = step_mfu([1.0], 7e9, 12_000, 8, 312e12, recompute_fraction=1.0)
    assert r.hfu[0] == pytest.approx(8 * 7e9 * 12_000 / (8 * 312e12))
    with pytest.raises(ValueError):
        step_mfu([], 7e9, 1, 1, 1e12)
    with pytest.raises(ValueError):
        step_mfu([1.0], 7e9, 1, 1, 1e12, recompute_fraction=2)


# --------------------------------------------------------------------------- whole traces

def kineto(kernels, cpu=(), steps=(), legacy=False):
    """A chrome trace in Kineto's layout: kernels (name, ts µs, dur µs, stream),
    cpu spans (name, ts, dur, cat), steps (ts, dur)."""
    ev = [{"name": "process_labels", "ph": "M", "ts": 0, "pid": 0, "tid": 0,
           "args": {"labels": "GPU 0"}}]
    kcat = "Kernel" if legacy else "kernel"
    for i, (name, ts, dur, stream) in enumerate(kernels):
        ev.append({"ph": "X", "cat": "gpu_memcpy" if name.startswith("Memcpy") else kcat,
                   "name": name, "pid": 0, "tid": f"stream {stream}" if legacy else stream,
                   "ts": 1000.0 + ts, "dur": dur,
                   "args": {"External id": 100 + i, "device": 0, "stream": stream,
                            "correlation": 5000 + i}})
    for name, ts, dur, cat in cpu:
        ev.append({"ph": "X", "cat": cat, "name": name, "pid": 77, "tid": 77,
                   "ts": 1000.0 + ts, "dur": dur, "args": {"External id": 1}})
    for i, (ts, dur) in enumerate(steps):
        ev.append({"ph": "X", "cat": "user_annotation", "name": f"ProfilerStep#{i}", "pid": 77,
                   "tid": 77, "ts": 1000.0 + ts, "dur": dur, "args": {}})
    ev.append({"ph": "X", "cat": "Trace", "ts": 1000.0, "dur": 10_000.0, "pid": "Traces",
               "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)", "args": {}})
    return json.dumps({"schemaVersion": 1, "traceEvents": ev}, indent=1).encode()


def test_trace_gap_and_data_loader():
    # GEMMs 0-100 and 150-250 µs; the data loader runs 100-150 µs on the CPU
    data = kineto([(GEMM, 0, 100, 7), (GEMM, 150, 100, 7)],
                  cpu=[("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", 100, 50,
                        "user_annotation")], steps=[(0, 250)])
    d = diagnose_trace(data, "gap.json")
    assert d.busy_fraction == pytest.approx(0.8)
    assert ids(d) == ["idle_data"]
    assert d.steps[0].seconds == pytest.approx(250 * US)
    assert d.filename == "gap.json" and d.schema == "kineto"


def test_trace_nccl_and_gzip_and_legacy_schema():
    data = kineto([(GEMM, 0, 100, 7), (NCCL, 50, 100, 20)], legacy=True)
    d = diagnose_trace(gzip.compress(data), "comm.json.gz")
    assert d.schema == "legacy"
    assert d.comm_share == pytest.approx(0.5)
    assert d.exposed_comm_seconds == pytest.approx(50 * US)
    assert ids(d) == ["comm"]
    assert {s.stream for s in d.streams} == {"7", "20"}


def test_trace_tiny_kernels_and_silent_trace():
    tiny = kineto([(GEMM, 0, 600, 7)] + [(TINY, 600 + 4 * i, 4, 7) for i in range(100)])
    assert "small_kernels" in ids(diagnose_trace(tiny, "tiny.json"))
    calm = kineto([(GEMM, 100 * i, 100, 7) for i in range(20)])
    assert ids(diagnose_trace(calm, "calm.json")) == ["clear"]


def test_fast_and_json_paths_agree():
    # the same events with another key order force the json.loads path
    data = kineto([(GEMM, 0, 100, 7), (NCCL, 50, 100, 20), (TINY, 300, 3, 7)],
                  cpu=[("aten::mm", 0, 5, "cpu_op")], steps=[(0, 400)])
    doc = json.loads(data)
    doc["traceEvents"] = [dict(reversed(list(e.items()))) for e in doc["traceEvents"]]
    other = json.dumps(doc).encode()
    from calc.trace_events import read_trace
    assert read_trace(data, "a.json").path == "fast"
    assert read_trace(other, "b.json").path == "json"
    a, b = diagnose_trace(data, "a.json"), diagnose_trace(other, "b.json")
    for f in ("window_seconds", "busy_fraction", "comm_share", "comm_overlap_fraction",
              "kernel_count", "small_kernel_count", "non_matmul_share", "mean_step_seconds"):
        assert getattr(a, f) == getattr(b, f), f
    assert ids(a) == ids(b)


def _brute_union(intervals):
    """Independent check: the union length of intervals, by a plain sorted sweep."""
    total, cur_s, cur_e = 0.0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    return total + (cur_e - cur_s)


def test_resnet50_legacy_fixture_against_a_plain_loop():
    # the 2021 Kineto sample (ResNet-50, num_workers=0, V100): recomputed here with a plain
    # json.load and loop; the sample was published to show a data-loader bottleneck
    raw = SAMPLE_TRACE.read_bytes()
    doc = json.loads(gzip.decompress(raw))
    gpu = [e for e in doc["traceEvents"]
           if e.get("ph") == "X" and e.get("cat") in ("Kernel", "Memcpy", "Memset")]
    kernels = [e for e in gpu if e["cat"] == "Kernel"]
    iv = [(e["ts"], e["ts"] + e["dur"]) for e in gpu]
    span = max(b for _, b in iv) - min(a for a, _ in iv)
    step_ev = [e for e in doc["traceEvents"]
               if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#")]
    steps = [e["dur"] for e in step_ev]
    # the trace has steps: busy is measured over the steps (issue 23 item 3); the steps do
    # not overlap, so the window is their sum, busy the activity clipped to each step
    window = sum(steps)
    busy = sum(_brute_union([(max(a, e["ts"]), min(b, e["ts"] + e["dur"])) for a, b in iv
                             if b > e["ts"] and a < e["ts"] + e["dur"]]) for e in step_ev)
    small = [e for e in kernels if e["dur"] < 10]
    d = diagnose_trace(raw, "worker0.pt.trace.json.gz")
    assert d.schema == "legacy" and d.device_name == "Tesla V100-DGXS-32GB"
    assert d.kernel_count == len(kernels) == 8772
    assert d.window_from_steps
    assert d.window_seconds == pytest.approx(window * US)
    assert d.activity_window_seconds == pytest.approx(span * US)
    assert d.busy_fraction == pytest.approx(busy / window)
    assert d.small_kernel_count == len(small)
    assert len(d.steps) == len(steps)
    assert d.mean_step_seconds == pytest.approx(sum(steps) / len(steps) * US)
    assert d.covered_seconds == pytest.approx(sum(e["dur"] for e in gpu) * US)
    # the GPU waits for the single-process data loader: ② first
    assert d.verdicts[0].id == "idle_data"
    assert d.idle_gaps[0].cpu_name.startswith("enumerate(DataLoader)")
    # FP32 ResNet on V100: cuDNN's implicit_convolve_sgemm is FP32 SIMT -> step ⑤ fires
    assert "no_tensor_core" in ids(d)


def test_triton_fixture():
    # HolisticTraceAnalysis' A100 sample: one Inductor pointwise kernel of 1.76 µs
    d = diagnose_trace((DATA / "triton_example.json.gz").read_bytes(), "triton_example.json.gz")
    assert d.kernel_count == 1
    assert d.activity_window_seconds == pytest.approx(1.76 * US)
    assert d.class_shares["elementwise"] == pytest.approx(1.0)
    assert d.device_name.startswith("NVIDIA A100")
    # issue 23 item 3: the trace has one step, ProfilerStep#1 of 13.336 s (its "dur",
    # 13336315.805 µs in the file) in which the GPU ran one 1.76 µs kernel: busy is measured
    # over the step, 1.76e-6 / 13.336 = 1.3e-7, and the idle verdict fires
    assert d.window_from_steps
    assert d.window_seconds == pytest.approx(13.336315805)
    assert d.busy_fraction == pytest.approx(1.76e-6 / 13.336315805)
    assert ids(d)[0] == "idle"
    # one kernel: no launch rate, no small-kernel verdict, "too few kernels to judge"
    assert math.isnan(d.kernels_per_ms)
    assert "small_kernels" not in ids(d) and "too_few_kernels" in ids(d)


def test_bench_generator_by_hand():
    # bench/synth_trace.py: per block GEMM 120, gelu 8, layer norm 6, flash 90, softmax 4 µs
    # on stream 7 and a 150 µs all-reduce on stream 20.
    # small (< 10 µs): 3 of 6 kernels; comm share 150 / (228 + 150) = 0.3968
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from synth_trace import synth_trace_steps
    d = diagnose_trace(synth_trace_steps(3, 4), "synth.json")
    assert d.kernel_count == 3 * 4 * 6
    assert d.small_kernel_count_share == pytest.approx(0.5)
    assert d.comm_share == pytest.approx(150 / 378)
    assert len(d.steps) == 3


@pytest.mark.parametrize("data,match", [
    (b"", "empty"),
    (b"   \n", "empty"),
    (b"name,flops\nx,1\n", "not JSON"),
    (b'"ID","Process ID"\n', "Nsight Compute"),
    (b'{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1,', "truncated"),
    (b'{"kernels": []}', "traceEvents"),
    (b"\x1f\x8b\x08\x00garbage", "gzip"),
    (b"PK\x03\x04rest", "zip"),
    (b'{"traceEvents": [{"ph": "X" "cat"}]}', "not valid JSON"),
])
def test_bad_files_name_the_file(data, match):
    with pytest.raises(ValueError, match=match) as exc:
        diagnose_trace(data, "bad.json")
    assert "bad.json" in str(exc.value)


def test_cpu_only_trace_says_so():
    with pytest.raises(ValueError, match="no GPU kernels"):
        diagnose_trace((DATA / "cpu_small.json").read_bytes(), "cpu_small.json")


def test_multi_gpu_trace_picks_the_busiest_gpu():
    # GPU 0: one 100 µs GEMM; GPU 1: two 100 µs GEMMs with a 100 µs gap
    ev = [{"ph": "X", "cat": "kernel", "name": GEMM, "pid": pid, "tid": 7, "ts": ts, "dur": 100,
           "args": {"stream": 7, "device": pid}}
          for pid, ts in ((0, 0.0), (1, 0.0), (1, 200.0))]
    data = json.dumps({"traceEvents": ev}).encode()
    d = diagnose_trace(data, "two.json")
    assert d.devices == ("0", "1") and d.device == "1"
    assert d.busy_fraction == pytest.approx(200 / 300)
    d0 = diagnose_trace(data, "two.json", device="0")
    assert d0.busy_fraction == 1.0 and d0.kernel_count == 1
    with pytest.raises(ValueError, match="no GPU '7'"):
        diagnose_trace(data, "two.json", device="7")


def test_rocm_trace():
    # a ROCm trace: hipLaunchKernel runtime events, Tensile and RCCL kernel names
    ev = [{"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 9, "tid": 9,
           "ts": 0.0, "dur": 5, "args": {"correlation": 1}},
          {"ph": "X", "cat": "kernel", "name": "Cijk_Alik_Bljk_HHS_BH_MT128x128x32", "pid": 2,
           "tid": 1, "ts": 10.0, "dur": 100, "args": {"stream": 1, "correlation": 1}},
          {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_Generic(ncclDevComm*)", "pid": 2,
           "tid": 3, "ts": 10.0, "dur": 50, "args": {"stream": 3, "correlation": 2}}]
    d = diagnose_trace(json.dumps({"traceEvents": ev}).encode(), "rocm.json")
    assert d.platform == "rocm"
    assert d.class_seconds["matmul"] == pytest.approx(100 * US)
    assert d.comm_share == pytest.approx(50 / 150)
    assert d.comm_overlap_fraction == pytest.approx(1.0)


def test_kernel_linked_through_the_launch_when_external_id_is_the_correlation():
    # 2023-era traces: a kernel's External id equals its correlation; the cudaLaunchKernel
    # with that correlation carries the operator's External id (here aten::addmm, id 5)
    ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 9, "tid": 9, "ts": 0.0,
           "dur": 20, "args": {"External id": 5}},
          {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9,
           "ts": 2.0, "dur": 5, "args": {"External id": 5, "correlation": 77}},
          {"ph": "X", "cat": "kernel", "name": "my_fused_kernel_0", "pid": 0, "tid": 7,
           "ts": 10.0, "dur": 100, "args": {"External id": 77, "stream": 7, "correlation": 77}}]
    d = diagnose_trace(json.dumps({"traceEvents": ev}).encode(), "b.json")
    assert d.class_seconds["matmul"] == pytest.approx(100 * US)


def test_rounding_is_not_a_gap():
    # back to back in µs (start = previous end) after the µs -> s conversion: no gaps; a
    # real 2 ns hole is one
    start = np.array([1000.123, 1008.246, 1012.369]) / 1e6
    dur = np.array([8.123, 4.123, 3.0]) / 1e6
    d = diagnose_activity(start, dur, [7] * 3, [GEMM] * 3)
    assert d.idle_gaps == () and d.busy_fraction == pytest.approx(1.0)
    d = diagnose_activity([0, 10.002e-6], [10e-6, 10e-6], [7, 7], [GEMM] * 2)
    assert len(d.idle_gaps) == 1 and d.idle_gaps[0].length_seconds == pytest.approx(2e-9)


def test_escaped_names_read_like_json():
    # a kernel name with an escaped quote, a backslash and a \\u escape: the fast reader
    # unescapes it as json.loads does
    name = 'void k<"x\\\\y">(\u00b5)'
    data = kineto([(name, 0, 100, 7)])
    from calc.trace_events import read_trace
    tr = read_trace(data, "esc.json")
    assert tr.path == "fast"
    assert tr.gpu_names == (name,)


from hypothesis import given, settings, strategies as hs  # noqa: E402

_EVENT = hs.fixed_dictionaries({
    "ph": hs.sampled_from(["X", "i", "M", "s", "f", "X"]),
    "cat": hs.sampled_from(["kernel", "Kernel", "gpu_memcpy", "cpu_op", "user_annotation",
                            "cuda_runtime", "Trace", ""]),
    "name": hs.text(max_size=20),
    "pid": hs.one_of(hs.integers(-2, 3), hs.text(max_size=5)),
    "tid": hs.one_of(hs.integers(-2, 30), hs.just("stream 7")),
    "ts": hs.one_of(hs.floats(-1e6, 1e16), hs.text(max_size=4), hs.none()),
    "dur": hs.one_of(hs.floats(-10, 1e7), hs.none()),
    "args": hs.dictionaries(hs.sampled_from(["External id", "correlation", "stream", "x"]),
                            hs.one_of(hs.integers(-5, 10**12), hs.text(max_size=5)), max_size=3),
})


@settings(max_examples=50, deadline=None, derandomize=True)
@given(hs.lists(_EVENT, max_size=8), hs.booleans())
def test_any_event_soup_gives_a_diagnosis_or_a_value_error(events, as_list):
    doc = events if as_list else {"traceEvents": events}
    try:
        data = json.dumps(doc).encode()
    except ValueError:
        return
    try:
        d = diagnose_trace(data, "soup.json")
    except ValueError as exc:
        assert "soup.json" in str(exc)
        return
    assert 0.0 <= d.busy_fraction <= 1.0 + 1e-9
    assert d.window_seconds >= 0 and d.verdicts


@settings(max_examples=50, deadline=None, derandomize=True)
@given(hs.binary(max_size=200))
def test_random_bytes_give_a_value_error(data):
    try:
        diagnose_trace(data, "noise.bin")
    except ValueError as exc:
        assert "noise.bin" in str(exc)


def test_steps_set_the_window_by_hand():
    # issue 23 item 3. Two steps: [0, 1 ms) and [1 ms, 3 ms). Step 1 runs a 400 µs GEMM at
    # 100 µs; step 2 runs nothing (the GPU waits, e.g. for compilation). Over the steps the
    # window is 3 ms, busy 0.4 ms: busy 13.3 %, idle 86.7 %. Over the GPU's own activity
    # (400 µs) it would read 100 % busy.
    d = diagnose_activity([100 * US], [400 * US], [7], ["matmul"],
                          steps=([0.0, 1e-3], [1e-3, 2e-3]))
    assert d.window_from_steps
    assert d.window_seconds == pytest.approx(3e-3)
    assert d.activity_window_seconds == pytest.approx(400 * US)
    assert d.busy_fraction == pytest.approx(0.4 / 3)
    # the steps touch, so the window is one segment [0, 3 ms); its holes are [0, 100 µs)
    # and [500 µs, 3 ms): 100 µs and 2.5 ms
    assert sorted(round(g.length_seconds / US) for g in d.idle_gaps) == [100, 2500]
    assert ids(d)[0] == "idle"


def test_too_few_kernels_to_judge_small_kernels():
    # five 2 µs kernels back to back: 100 % small by count and time, but five events are
    # too few for a launch rate or a fusion verdict (MIN_KERNELS_TO_JUDGE = 20)
    from calc.diagnosis import MIN_KERNELS_TO_JUDGE
    assert MIN_KERNELS_TO_JUDGE == 20
    n = 5
    d = diagnose_activity([i * 2 * US for i in range(n)], [2 * US] * n, [7] * n, ["gelu"] * n)
    assert "small_kernels" not in ids(d) and "too_few_kernels" in ids(d)
    assert math.isnan(d.kernels_per_ms)
    # twenty of them: judged; 20 kernels in 40 µs = 500 per ms
    n = 20
    d = diagnose_activity([i * 2 * US for i in range(n)], [2 * US] * n, [7] * n, ["gelu"] * n)
    assert "small_kernels" in ids(d) and "too_few_kernels" not in ids(d)
    assert d.kernels_per_ms == pytest.approx(20 / 0.040)


def test_no_import_circle_between_diagnosis_and_trace_events():
    # Issue 19: calc.trace_events (the reader) imports nothing of calc.diagnosis; the
    # diagnosis imports the reader at its top (one direction, no function-local imports).
    import ast
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "calc"

    def imported(name):
        tree = ast.parse((root / f"{name}.py").read_text(encoding="utf-8"))
        out = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom):
                mod = (n.module or "")
                out |= {mod.split(".")[-1]} | {a.name for a in n.names if not mod or mod == "calc"}
            elif isinstance(n, ast.Import):
                out |= {a.name.split(".")[-1] for a in n.names}
        return out

    assert "diagnosis" not in imported("trace_events")
    assert "trace_events" in imported("diagnosis")


def test_absolute_epoch_timestamps_keep_their_nanoseconds():
    # Kineto wrote absolute epoch timestamps with ns decimals for a while (µs since 1970,
    # ~1.687e15, e.g. 1687345678901234.567). A float64 there steps by 2⁻⁵² × 1.687e15 =
    # 0.25 µs, so back-to-back kernels of 3.3 µs read as gaps and overlaps of up to 0.125 µs.
    # By hand: kernel i runs [3.3i, 3.3i + 3.3) µs after the first; union = 2,000 × 3.3 =
    # 6,600 µs = the whole window: busy 100 %, no gap, on both reading paths.
    import re
    from decimal import Decimal
    base = Decimal("1687345678901234.567")
    data = kineto([(GEMM, i, 3.3, 7) for i in range(2000)])         # ts written as 1000 + i

    def epoch(m):                                                   # 1000 + i -> base + 3.3 i
        i = Decimal(m.group(1).decode()) - 1000
        return b'"ts": ' + str(base + i * Decimal("3.3")).encode()
    data = re.sub(rb'"ts": ([0-9.]+)', epoch, data)
    assert b'"ts": 1687345678901234.567' in data and b'"ts": 1687345678901237.867' in data
    doc = json.loads(data, parse_float=str)
    doc["traceEvents"] = [dict(reversed(list(e.items()))) for e in doc["traceEvents"]]
    other = re.sub(r'"(-?[0-9]+\.[0-9]+)"', r"\1", json.dumps(doc)).encode()
    from calc.trace_events import read_trace
    assert read_trace(other, "b.json").path == "json"
    for d in (diagnose_trace(data, "a.json"), diagnose_trace(other, "b.json")):
        assert d.window_seconds == pytest.approx(6600 * US, rel=1e-9)
        assert d.busy_fraction == pytest.approx(1.0, abs=1e-9)
        assert d.idle_gaps == ()


def test_a_cpu_span_touching_a_gap_does_not_name_it():
    # the 100-150 µs gap; the data loader runs 145-200 µs on the CPU: it covers 5 of the
    # gap's 50 µs (10 % < GAP_CPU_MIN_COVER = 50 %). The gap table keeps the span and its
    # 10 %; the verdict does not say the CPU was in the data loader.
    from calc.diagnosis import GAP_CPU_MIN_COVER
    assert GAP_CPU_MIN_COVER == 0.5
    spans = ([145 * US], [55 * US], ["enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"])
    d = diagnose_activity([0, 150 * US], [100 * US, 100 * US], [7, 7], [GEMM, GEMM],
                          cpu_spans=spans)
    assert d.idle_gaps[0].cpu_name.startswith("enumerate(DataLoader)")
    assert d.idle_gaps[0].cpu_overlap_fraction == pytest.approx(0.1)
    assert ids(d) == ["idle"] and d.verdicts[0].params["cpu_name"] == ""
    # covering 30 of the 50 µs (60 %): named, and it is the data loader
    spans = ([120 * US], [55 * US], spans[2])
    d = diagnose_activity([0, 150 * US], [100 * US, 100 * US], [7, 7], [GEMM, GEMM],
                          cpu_spans=spans)
    assert ids(d) == ["idle_data"]


def test_non_matmul_share_needs_enough_kernels():
    # one 10 µs GEMM and four 10 µs gelu kernels back to back: 80 % of GPU time is not matrix
    # multiplication, but five kernels are too few to judge (MIN_KERNELS_TO_JUDGE = 20);
    # the same pattern four times over (20 kernels, 80 %) fires.
    def run(blocks):
        names = [GEMM, "gelu", "gelu", "gelu", "gelu"] * blocks
        n = len(names)
        return diagnose_activity([i * 10 * US for i in range(n)], [10 * US] * n, [7] * n, names)
    few, enough = run(1), run(4)
    assert few.non_matmul_share == pytest.approx(0.8) and "non_matmul" not in ids(few)
    assert enough.non_matmul_share == pytest.approx(0.8) and "non_matmul" in ids(enough)


@pytest.mark.parametrize("name, simt", [
    # cuDNN FP32 convolutions (the ResNet-50 fixture on a V100): s = single precision
    ("volta_scudnn_128x64_relu_interior_nn_v1", True),
    ("void cudnn::detail::dgrad_engine<float, 512, 6, 5, 3, 3, 3, false>(int, int)", True),
    ("void cudnn::cnn::wgrad_alg0_engine<float, 128, 6, 7, 3, 3, 5, false, 512>(int)", True),
    ("void cudnn::winograd_nonfused::winogradForwardOutput4x4<float, float>(cudnn::x)", True),
    ("volta_dcudnn_128x64_relu_interior_nn_v1", True),
    ("volta_sgemm_64x64_nt", True),
    # half precision or Tensor Cores
    ("volta_hcudnn_128x128_relu_interior_nn_v1", False),
    ("volta_fp16_s884cudnn_fp16_128x128_ldg8_relu_f2f_exp_interior_nhwc_tn_v1", False),
    ("void cudnn::detail::dgrad2d_alg1_1<__half, 0, 6, 7, 5, 4, 5, true, true>(int)", False),
    ("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize128x128x16", False),
    (GEMM, False),
])
def test_simt_names(name, simt):
    from calc.diagnosis import _is_simt
    assert _is_simt(name) is simt


def test_resnet50_fixture_matmuls_are_all_fp32():
    # worker0: FP32 ResNet-50 on a V100 (every operator input is float, no kernel name
    # carries a Tensor Core marker): by hand (the audit's own reading of the raw JSON) all
    # matmul-class time is FP32; only cuDNN's layout-transform and offset helpers (nchwToNhwc,
    # computeOffsets, splitKreduce) are neither convolutions nor sgemms: well under 1 %
    d = diagnose_trace(SAMPLE_TRACE.read_bytes(), SAMPLE_TRACE.name)
    assert 0.99 <= d.simt_matmul_share < 1.0
    assert "no_tensor_core" in ids(d)
