"""PyTorch profiler chrome-trace importer: fixtures, the self-made CPU trace, linking schemes."""
import gzip
import json
from pathlib import Path

import pytest

from calc.importers import ImportFormatError, import_file
from calc.importers.torch_trace import op_cost

SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "samples" / "worker0.1623143089861.pt.trace.json.gz"

DATA = Path(__file__).resolve().parents[1] / "data" / "torch-traces"


def by_name(result, name):
    return {k.name: k for k in result.kernels}[name]


# --------------------------------------------------------------------------- self-made trace

@pytest.fixture(scope="module")
def cpu_small():
    return import_file((DATA / "cpu_small.json").read_bytes(), "cpu_small.json")


def test_cpu_trace_mm_flops_by_hand(cpu_small):
    # torch.mm(a[64,128], b[128,32]) three times: 2*m*n*k = 2*64*32*128 = 524,288 per call
    mm = by_name(cpu_small, "aten::mm [64,128]x[128,32]")
    assert mm.count == 3
    assert mm.flops == 3 * 524_288
    # fp32: A 64*128*4 = 32,768 + B 128*32*4 = 16,384 + C 64*32*4 = 8,192 -> 57,344 per call
    assert mm.bytes_moved == 3 * 57_344
    assert mm.source == "torch:aten::mm"


def test_cpu_trace_addmm_flops_by_hand(cpu_small):
    # nn.Linear(128, 96) on x[64,128], twice: aten::linear -> aten::addmm(bias[96], x[64,128], W^T[128,96])
    # 2*m*n*k = 2*64*96*128 = 1,572,864 per call (the bias add is not counted)
    addmm = by_name(cpu_small, "aten::addmm [96]x[64,128]x[128,96]")
    assert addmm.count == 2
    assert addmm.flops == 2 * 1_572_864
    # bytes: bias 96*4 = 384, x 64*128*4 = 32,768, W 128*96*4 = 49,152, out 64*96*4 = 24,576
    assert addmm.bytes_moved == 2 * (384 + 32_768 + 49_152 + 24_576)
    # nested ops are not double counted: no aten::linear record, its own time is overhead
    assert not any(k.name.startswith("aten::linear") for k in cpu_small.kernels)
    assert not any(k.name.startswith("aten::copy_") for k in cpu_small.kernels)
    assert "op_overhead" in {s.reason for s in cpu_small.report.skipped}


def test_cpu_trace_other_ops(cpu_small):
    # bmm [4,16,8] x [4,8,24]: 2*4*16*24*8 = 24,576
    assert by_name(cpu_small, "aten::bmm [4,16,8]x[4,8,24]").flops == 24_576
    # float64 mm 16x16x16: 2*16^3 = 8,192 FLOPs; bytes 3*256*8 = 6,144
    d = by_name(cpu_small, "aten::mm [16,16]x[16,16]")
    assert (d.flops, d.bytes_moved) == (8_192, 6_144)
    # relu -> clamp_min on [64,96]: 1 FLOP/element = 6,144; softmax: 5 FLOP/element = 30,720
    assert by_name(cpu_small, "aten::clamp_min [64,96]").flops == 6_144
    assert by_name(cpu_small, "aten::_softmax [64,96]").flops == 30_720


def test_cpu_trace_time_from_ops_and_report(cpu_small):
    rep = cpu_small.report
    assert rep.time_basis == "cpu_ops"
    assert rep.placed_gpu_seconds == 0.0          # CPU operator times are not GPU time
    assert "no_gpu_time" in [w.key for w in rep.warnings]
    assert rep.n_read == 43  # cpu_op events in the file
    assert 0 <= rep.unplaced_time_share < 0.05
    doc = json.loads((DATA / "cpu_small.json").read_text())
    bmm = [e for e in doc["traceEvents"] if e.get("name") == "aten::bmm"]
    assert by_name(cpu_small, "aten::bmm [4,16,8]x[4,8,24]").seconds == pytest.approx(bmm[0]["dur"] * 1e-6)


def test_gz_and_plain_give_the_same(cpu_small):
    r = import_file((DATA / "cpu_small.json.gz").read_bytes(), "cpu_small.json.gz")
    assert r.kernels == cpu_small.kernels


# --------------------------------------------------------------------------- real fixtures

@pytest.fixture(scope="module")
def resnet():
    return import_file(SAMPLE_TRACE.read_bytes(), "worker0.pt.trace.json.gz")


def test_legacy_resnet_addmm(resnet):
    # aten::addmm Input Dims [[1000],[32,2048],[2048,1000]] "float", 6 steps: 2*32*1000*2048 = 131,072,000
    k = by_name(resnet, "aten::addmm [1000]x[32,2048]x[2048,1000]")
    assert k.count == 6
    assert k.flops == 6 * 131_072_000
    # bytes: (1000 + 32*2048 + 2048*1000 + 32*1000) * 4 = 8,586,144 per call
    assert k.bytes_moved == 6 * 8_586_144
    # time = its linked GPU kernels (legacy lowercase 'external id'), summed by hand below
    assert k.seconds == pytest.approx(197e-6)


def test_legacy_resnet_kernel_time_matches_file(resnet):
    doc = json.loads(gzip.decompress(SAMPLE_TRACE.read_bytes()))
    ev = doc["traceEvents"]
    ext = {e["args"]["External id"] for e in ev if e.get("cat") == "Operator" and e["name"] == "aten::addmm"}
    dur = sum(e["dur"] for e in ev if e.get("cat") == "Kernel" and e["args"]["external id"] in ext)
    assert dur == 197
    total = sum(e["dur"] for e in ev if e.get("cat") in ("Kernel", "Memcpy", "Memset"))
    assert total == 591_532 + 12_026
    assert resnet.report.total_seconds == pytest.approx(total * 1e-6)
    assert resnet.report.time_basis == "gpu_kernels"
    # what the import placed: the total less the skipped (the 12 host copies)
    rep = resnet.report
    assert 0 < rep.skipped_seconds < rep.total_seconds
    assert rep.placed_gpu_seconds == pytest.approx(rep.total_seconds - rep.skipped_seconds)


def test_legacy_resnet_first_conv_geometry_from_backward(resnet):
    # conv1: input [32,3,224,224], weight [64,3,7,7], stride 2 -> output [32,64,112,112]
    # (no stride in the legacy trace: taken from cudnn_convolution_backward's grad_output)
    # 2 * 32*64*112*112 * 3*7*7 = 7,552,892,928 per call
    k = by_name(resnet, "aten::cudnn_convolution [32,3,224,224]x[64,3,7,7]")
    assert k.flops == 6 * 7_552_892_928
    assert "conv_geometry_assumed" not in [w.key for w in resnet.warnings]


def test_legacy_resnet_report(resnet):
    rep = resnet.report
    # issue 8, defect 12: items read = 23,646 operators + 324 Memcpy/Memset events (no operator)
    assert rep.n_read == 23_646 + 324
    reasons = rep.reason_counts()
    # issue 8, defect 6: zero-FLOP work is kept, judged by bandwidth: the 978 aten::fill_
    # launches and the 312 Memsets are records with 0 FLOPs; only the 12 host copies
    # (Memcpy HtoD, bound by PCIe, not HBM) stay skipped
    assert reasons["memory_copy"] == 12
    assert "zero_flops" not in reasons
    fills = [k for k in resnet.kernels if k.name.startswith("aten::fill_")]
    assert sum(k.count for k in fills) == 978 and all(k.flops == 0 for k in fills)
    (memset,) = [k for k in resnet.kernels if k.name == "Memset (Device)"]
    assert memset.count == 312 and memset.flops == 0
    assert 0 < rep.unplaced_time_share < 0.05
    assert rep.unplaced_time_share == pytest.approx(rep.skipped_seconds / rep.total_seconds)
    placed = sum(k.seconds or 0.0 for k in resnet.kernels)
    assert placed + rep.skipped_seconds == pytest.approx(rep.total_seconds)  # nothing dropped


def test_triton_example():
    r = import_file((DATA / "triton_example.json.gz").read_bytes(), "triton_example.json.gz")
    (k,) = r.kernels
    # cpu_op triton_poi_fused_add_cos_sin_0, 3 tensors [10,10] float, kernel dur 1.76 us (External id 3)
    # estimate: 3 fused ops x 100 elements = 300 FLOPs; 3 x 100 x 4 bytes = 1,200 bytes
    assert (k.flops, k.bytes_moved, k.count) == (300, 1200, 1)
    assert k.seconds == pytest.approx(1.76e-6)
    assert r.report.unplaced_time_share == 0


# --------------------------------------------------------------------------- synthetic traces

def X(name, cat, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur, "args": args}


def imp(events, **kw):
    return import_file(json.dumps({"traceEvents": events}).encode(), "t.json", **kw)


def test_scheme_a_nested_linear_counts_addmm_once():
    ev = [
        X("aten::linear", "cpu_op", 0, 100, **{"External id": 1, "Input Dims": [[8, 16], [4, 16], [4]],
                                                "Input type": ["c10::BFloat16"] * 3}),
        X("aten::addmm", "cpu_op", 10, 80, **{"External id": 2, "Input Dims": [[4], [8, 16], [16, 4], [], []],
                                               "Input type": ["c10::BFloat16"] * 3 + ["Scalar", "Scalar"]}),
        X("gemm_kernel", "kernel", 200, 30, pid=0, tid=7, **{"External id": 2, "correlation": 90}),
        X("gemm_kernel_2", "kernel", 240, 10, pid=0, tid=7, **{"External id": 2, "correlation": 91}),
    ]
    r = imp(ev)
    (k,) = r.kernels
    # 2*8*4*16 = 1,024 FLOPs once; bf16 bytes (4 + 128 + 64 + 32) * 2 = 456; time 30 + 10 us
    assert (k.name, k.flops, k.bytes_moved, k.count) == ("aten::addmm [4]x[8,16]x[16,4]", 1024, 456, 1)
    assert k.seconds == pytest.approx(40e-6)


def test_scheme_b_external_id_equals_correlation():
    ev = [
        X("aten::matmul", "cpu_op", 90, 80, **{"External id": 9, "Input Dims": [[2, 3], [3, 5]], "Input type": ["float", "float"]}),
        X("aten::mm", "cpu_op", 100, 50, **{"External id": 10, "Input Dims": [[2, 3], [3, 5]], "Input type": ["float", "float"]}),
        # a trap: an unrelated op whose External id happens to equal the kernel's correlation
        X("aten::add", "cpu_op", 500, 5, **{"External id": 777, "Input Dims": [[4], [4]], "Input type": ["float", "float"]}),
        X("cudaLaunchKernel", "cuda_runtime", 120, 5, **{"correlation": 777, "External id": 10}),
        X("gemm", "kernel", 130, 20, pid=0, tid=7, **{"External id": 777, "correlation": 777}),
    ]
    r = imp(ev)
    (k,) = r.kernels
    assert k.name == "aten::mm [2,3]x[3,5]" and k.flops == 2 * 2 * 5 * 3
    assert k.seconds == pytest.approx(20e-6)


def test_scheme_c_legacy_and_orphans_and_memcpy():
    ev = [
        X("aten::mul", "Operator", 0, 10, tid="1", **{"External id": 5, "Input Dims": [[10], [10]]}),
        X("elementwise", "Kernel", 20, 3, pid=0, tid="stream 7", **{"external id": 5, "correlation": 1}),
        X("lost", "Kernel", 30, 4, pid=0, tid="stream 7", **{"external id": 99, "correlation": 2}),
        X("Memcpy HtoD", "Memcpy", 40, 5, pid=0, tid="stream 7", **{"external id": 5, "correlation": 3}),
    ]
    r = imp(ev, default_dtype="fp32")
    (k,) = r.kernels
    # no Input type -> default dtype fp32: 10 FLOPs, (10 + 10 + 10) * 4 bytes
    assert (k.flops, k.bytes_moved) == (10, 120)
    assert "dtype_assumed" in [w.key for w in r.warnings]
    reasons = {s.reason: s.seconds for s in r.report.skipped}
    assert reasons["orphan_kernel"] == pytest.approx(4e-6)
    assert reasons["memory_copy"] == pytest.approx(5e-6)
    assert r.report.unplaced_time_share == pytest.approx(9 / 12)


def test_no_formula_listed_with_time_and_ancestor_attribution():
    dims = [[2, 8, 128, 64]] * 3
    ev = [
        X("aten::scaled_dot_product_attention", "cpu_op", 0, 100,
          **{"External id": 1, "Input Dims": dims, "Input type": ["c10::Half"] * 3}),
        X("aten::_some_private_attention_kernel", "cpu_op", 10, 80, **{"External id": 2, "Input Dims": dims}),
        X("fmha", "kernel", 200, 50, pid=0, tid=7, **{"External id": 2, "correlation": 1}),
        X("aten::nonzero", "cpu_op", 300, 10, **{"External id": 3, "Input Dims": [[5]]}),
        X("nz", "kernel", 400, 25, pid=0, tid=7, **{"External id": 3, "correlation": 2}),
    ]
    r = imp(ev)
    k, nz = r.kernels
    # attributed to the enclosing sdpa: 2*B*H*L*S*(E+Ev) = 2*2*8*128*128*(64+64) = 67,108,864
    assert k.name.startswith("aten::scaled_dot_product_attention") and k.flops == 67_108_864
    # bytes fp16: q, k, v read + out written = 4 tensors * (2*8*128*64 = 131,072 elements) * 2 B = 1,048,576
    assert k.bytes_moved == 1_048_576
    # issue 8, defect 6: aten::nonzero moves data but does no arithmetic: kept with 0 FLOPs
    assert nz.name.startswith("aten::nonzero") and nz.flops == 0 and nz.seconds == pytest.approx(25e-6)
    assert not r.report.skipped


def test_unknown_op_is_no_formula():
    ev = [X("aten::frobnicate", "cpu_op", 0, 10, **{"External id": 1, "Input Dims": [[5]]}),
          X("k", "kernel", 20, 7, pid=0, tid=7, **{"External id": 1, "correlation": 1})]
    r = imp(ev)
    assert r.kernels == ()
    (s,) = r.report.skipped
    assert (s.name, s.reason, s.seconds) == ("aten::frobnicate", "no_formula", pytest.approx(7e-6))
    assert r.report.unplaced_time_share == 1.0


def test_op_cost_formulas():
    # flash attention forward layout [B, L, H, E]: 2*B*H*L*S*(E+Ev) = 2*1*4*256*256*(32+32)
    f, _ = op_cost("aten::_flash_attention_forward", [[1, 256, 4, 32]] * 3, ["c10::BFloat16"] * 3)
    assert f == 2 * 4 * 256 * 256 * 64
    # backward: 2.5x the forward of the same shapes (grad_out first, then q, k, v)
    fb, _ = op_cost("aten::_scaled_dot_product_flash_attention_backward",
                    [[1, 4, 256, 32]] * 5, ["c10::BFloat16"] * 5)
    assert fb == 2.5 * 2 * 4 * 256 * 256 * 64
    # causal halves
    fc, _ = op_cost("aten::scaled_dot_product_attention", [[1, 4, 256, 32]] * 3 + [[], []] + [[]],
                    ["float"] * 3 + ["", "Double", "Bool"], ["", "", "", "", "0.0", "True"])
    assert fc == 2 * 4 * 256 * 256 * 64 / 2
    # conv with stride 2, padding 1 in Concrete Inputs: [1,3,32,32] * [8,3,3,3] -> [1,8,16,16]
    # 2 * 1*8*16*16 * 3*3*3 = 110,592
    fconv, bconv = op_cost("aten::convolution", [[1, 3, 32, 32], [8, 3, 3, 3], [8], [], [], [], [], [], []],
                           ["float"] * 3 + ["ScalarList"] * 3 + ["Bool", "ScalarList", "Int"],
                           ["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"])
    assert fconv == 110_592
    assert bconv == (3 * 32 * 32 + 8 * 27 + 8 + 8 * 16 * 16) * 4
    # grouped/depthwise conv: weight [32,1,3,3] groups 32 on [1,32,10,10], stride 1 pad 1 -> 2*32*100*9
    fdw, _ = op_cost("aten::conv2d", [[1, 32, 10, 10], [32, 1, 3, 3], [], [], [], [], []],
                     ["float", "float", "", "ScalarList", "ScalarList", "ScalarList", "Int"],
                     ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "32"])
    assert fdw == 2 * 32 * 100 * 9
    # matmul with broadcast batch: [3,1,4,5] @ [2,5,6] -> batch 3*2, 2*6*4*6*5
    fm, _ = op_cost("aten::matmul", [[3, 1, 4, 5], [2, 5, 6]], ["float", "float"])
    assert fm == 2 * 6 * 4 * 6 * 5
    # linear on [2,7,16] with W [8,16]: 2 * 14 * 8 * 16
    fl, _ = op_cost("aten::linear", [[2, 7, 16], [8, 16], [8]], ["float"] * 3)
    assert fl == 2 * 14 * 8 * 16
    # baddbmm
    fb2, _ = op_cost("aten::baddbmm", [[2, 3, 5], [2, 3, 4], [2, 4, 5], [], []], ["float"] * 3 + ["Scalar"] * 2)
    assert fb2 == 2 * 2 * 3 * 5 * 4
    # gelu on bf16 [10, 10]: 8 FLOPs/element; bytes read 200 + write 200
    assert op_cost("aten::gelu", [[10, 10], []], ["c10::BFloat16", "String"]) == (800, 400)
    with pytest.raises(ValueError, match="no FLOP formula"):
        op_cost("aten::frobnicate", [[1]])
    with pytest.raises(ValueError):
        op_cost("aten::mm", [[2, 3], [4, 5]], ["float", "float"])


def test_conv_geometry_assumed_warning():
    ev = [X("aten::cudnn_convolution", "cpu_op", 0, 10,
            **{"External id": 1, "Input Dims": [[1, 3, 8, 8], [4, 3, 3, 3]], "Input type": ["float", "float"]}),
          X("k", "kernel", 20, 5, pid=0, tid=7, **{"External id": 1, "correlation": 1})]
    r = imp(ev)
    # assumed stride 1, same padding: out [1,4,8,8]: 2*256*27
    assert r.kernels[0].flops == 2 * 256 * 27
    assert "conv_geometry_assumed" in [w.key for w in r.warnings]


@pytest.mark.parametrize("data,match", [
    (b'{"traceEvents": [', "not valid JSON"),
    (b'{"a": 1}', "without \"traceEvents\""),
    (b'{"traceEvents": 5}', "must be a list"),
    (b'{"traceEvents": [1, 2, "x"]}', "no operator or kernel events"),
    (b'"just a string"', "unknown format"),
    (b"[" * 100_000, "nested too deeply|not valid JSON"),
])
def test_malformed_json(data, match):
    with pytest.raises(ImportFormatError, match=match):
        import_file(data, "bad.json")


def test_truncated_gzip():
    raw = (DATA / "triton_example.json.gz").read_bytes()
    with pytest.raises(ImportFormatError, match="truncated"):
        import_file(raw[: len(raw) // 2], "triton_example.json.gz")


def test_corrupt_gzip():
    raw = bytearray((DATA / "triton_example.json.gz").read_bytes())
    raw[20:60] = b"\x00" * 40
    with pytest.raises(ImportFormatError, match="gzip|JSON"):
        import_file(bytes(raw), "x.json.gz")


def test_gzip_bomb_limited():
    bomb = gzip.compress(b" " * (20 * 2**20))
    with pytest.raises(ImportFormatError, match="larger than"):
        import_file(bomb, "bomb.json.gz", max_bytes=2**20)


def test_progress_callback_reaches_one(cpu_small):
    seen = []
    import_file((DATA / "cpu_small.json").read_bytes(), "cpu_small.json", progress=seen.append)
    assert seen and seen[-1] == 1.0 and all(0 <= x <= 1 for x in seen)
    assert seen == sorted(seen)


def _two_gpu_trace():
    """GPU 0: a 100 µs GEMM kernel under aten::mm and a 100 µs kernel with no operator;
    GPU 1: a 50 µs GEMM kernel under its own aten::mm (a second rank's process)."""
    mm = {"Input Dims": [[64, 64], [64, 64]], "Input type": ["c10::BFloat16"] * 2}
    return [
        X("aten::mm", "cpu_op", 0, 20, pid=10, **{"External id": 1, **mm}),
        X("gemm", "kernel", 100, 100, pid=0, tid=7, **{"External id": 1, "correlation": 11}),
        X("orphan", "kernel", 300, 100, pid=0, tid=7, **{"External id": 99, "correlation": 12}),
        X("aten::mm", "cpu_op", 0, 20, pid=20, **{"External id": 2, **mm}),
        X("gemm", "kernel", 100, 50, pid=1, tid=7, **{"External id": 2, "correlation": 13}),
    ]


def test_placed_time_is_split_by_the_gpu_it_ran_on():
    rep = imp(_two_gpu_trace()).report
    # placed: 100 µs on GPU 0 (its orphan is skipped) and 50 µs on GPU 1; 150 µs in all
    assert rep.placed_seconds_by_device == (("0", pytest.approx(100e-6)), ("1", pytest.approx(50e-6)))
    assert rep.placed_gpu_seconds == pytest.approx(150e-6)
    assert rep.placed_gpu_seconds_on("0") == pytest.approx(100e-6)
    assert rep.placed_gpu_seconds_on("7") == 0.0               # a GPU with nothing placed


def test_roofline_coverage_of_a_two_gpu_trace_is_the_diagnosed_gpus():
    from calc.diagnosis import diagnose_trace, roofline_coverage
    data = json.dumps({"traceEvents": _two_gpu_trace()}).encode()
    d = diagnose_trace(data, "t.json")
    rep = import_file(data, "t.json").report
    # the doctor takes GPU 0 (200 µs, the most GPU time): 100 of its 200 µs placed = 50 %,
    # not the 150 µs placed over both GPUs against GPU 0's 200 µs (75 %)
    assert (d.device, d.devices) == ("0", ("0", "1"))
    assert roofline_coverage(rep.placed_gpu_seconds_on(d.device), d) == pytest.approx(0.5)
