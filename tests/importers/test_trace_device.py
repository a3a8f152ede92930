"""Issue 8, defect 12: an imported trace is judged against the roof of its own device and
precision; the report names the trace's GPU and its counts add up."""
import json
from pathlib import Path

import pytest

from calc.hardware import device_for_name, load_hardware
from calc.importers import import_file
from calc.kernel_table import parse_rows
from ui.roofline.results import analyze

SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "samples" / "worker0.1623143089861.pt.trace.json.gz"

DATA = Path(__file__).resolve().parents[1] / "data" / "torch-traces"
HW = load_hardware()


@pytest.fixture(scope="module")
def resnet():
    # 4 x V100 ResNet-50 training trace (2021 legacy schema: no 'Input type'); FP32 training
    return import_file(SAMPLE_TRACE.read_bytes(),
                       "worker0.pt.trace.json.gz", default_dtype="fp32")


def test_trace_names_its_gpu(resnet):
    # deviceProperties[0]: {"name": "Tesla V100-DGXS-32GB", "computeMajor": 7, "computeMinor": 0}
    assert resnet.report.device_name == "Tesla V100-DGXS-32GB" and resnet.report.device_cc == "7.0"
    assert device_for_name(resnet.report.device_name, HW) == "v100-sxm2-32gb"


def test_counts_add_up(resnet):
    c = dict(resnet.report.item_counts)
    # 23,646 operator events + 324 Memcpy/Memset events (no operator) = 23,970 items
    assert c["read"] == 23_646 + 324 == resnet.report.n_read
    assert c["read"] == c["placed"] + c["skipped"] + c["other"]
    # placed = the calls in the records; skipped = the skipped items listed
    assert c["placed"] == sum(k.count for k in resnet.kernels)
    assert c["skipped"] == sum(s.count for s in resnet.report.skipped)


def test_records_carry_their_precision(resnet):
    assert {k.precision for k in resnet.kernels if k.flops} == {"fp32"}   # default_dtype, no types


def X(name, cat, ts, dur, **args):
    return {"ph": "X", "cat": cat, "name": name, "ts": ts, "dur": dur, "pid": 1, "tid": 1, "args": args}


def test_precision_from_input_types():
    dims = [[64, 64], [64, 64]]
    ev = [X("aten::mm", "cpu_op", 0, 10, **{"External id": 1, "Input Dims": dims,
                                              "Input type": ["float", "float"]}),
          X("k1", "kernel", 20, 5, **{"External id": 1, "correlation": 1}),
          X("aten::mm", "cpu_op", 40, 10, **{"External id": 2, "Input Dims": dims,
                                               "Input type": ["c10::BFloat16", "c10::BFloat16"]}),
          X("k2", "kernel", 60, 5, **{"External id": 2, "correlation": 2})]
    r = import_file(json.dumps({"traceEvents": ev, "deviceProperties": [
        {"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8, "computeMinor": 0}]}).encode(), "t.json")
    assert sorted(k.precision for k in r.kernels) == ["bf16", "fp32"]
    assert device_for_name(r.report.device_name, HW) == "a100-80gb-sxm"


def test_fp32_convolution_judged_against_the_fp32_roof():
    # an FP32 conv at intensity 99 FLOP/B: 9.9e11 FLOP, 1e10 B, measured 0.1 s = 9.9 TFLOP/s.
    # Against A100's BF16 roof (ridge 312 / 2.039 = 153): memory-bound, ceiling 99 x 2.039e12
    # = 201.9 TFLOP/s -> 4.9 %.  Against its FP32 roof (19.5 TFLOP/s, ridge 9.56): compute-
    # bound, ceiling 19.5 TFLOP/s -> 9.9 / 19.5 = 50.8 %.
    a100 = HW["a100-80gb-sxm"]
    rows = [{"name": "conv", "flops": "9.9e11", "bytes": "1e10", "seconds": "0.1", "precision": "fp32"}]
    wrong = analyze(parse_rows(rows), a100.peak_flops("bf16"), a100.mem_bw)
    right = analyze(parse_rows(rows), a100.peak_flops("bf16"), a100.mem_bw, dict(a100.peaks))
    assert wrong.placement.bound[0] == "memory"
    assert wrong.placement.fraction_of_roof[0] == pytest.approx(9.9e12 / (99 * 2.039e12))
    assert right.placement.bound[0] == "compute"
    assert right.placement.fraction_of_roof[0] == pytest.approx(9.9e12 / 19.5e12)
    # a precision the device lacks falls back to the sidebar's roof
    rows[0]["precision"] = "fp8"
    fb = analyze(parse_rows(rows), a100.peak_flops("bf16"), a100.mem_bw, dict(a100.peaks))
    assert fb.placement.attainable_flops[0] == pytest.approx(99 * 2.039e12)
