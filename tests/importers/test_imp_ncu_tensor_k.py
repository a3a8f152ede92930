"""Issue 8, defect 5: the FLOPs of one tensor-pipe instruction come from the GPU's
architecture (not V100's 512 everywhere), the report says which value was used, and the
user can override it.

Hand arithmetic: an mma.sync m16n8k16 (Ampere and later) is 2 x 16 x 8 x 16 = 4,096 FLOPs
per warp-level instruction; Volta's HMMA.884 counts 512 (NERSC hierarchical roofline);
Turing's HMMA.1688 (m16n8k8) is 2 x 16 x 8 x 8 = 2,048.
"""
import pytest

from calc.importers import import_file
from calc.importers.ncu import tensor_flops_per_inst_for

HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
          '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n')


def csv_for(cc, extra=()):
    rows = [("gpu__time_duration.sum", "usecond", "10"), ("dram__bytes_read.sum", "Mbyte", "1"),
            ("sm__inst_executed_pipe_tensor.sum", "inst", "1,000"), *extra]
    return HEADER + "".join(
        f'"0","1","p","h","gemm","1","7","(128, 1, 1)","(64, 1, 1)","0","{cc}","S","{m}","{u}","{v}"\n'
        for m, u, v in rows)


@pytest.mark.parametrize("cc, flops", [
    ("8.0", 4096 * 1000),   # A100: 1,000 mma m16n8k16 = 4.096e6 FLOPs (512 would undercount 8x)
    ("9.0", 4096 * 1000),   # H100
    ("7.0", 512 * 1000),    # V100
    ("7.5", 2048 * 1000),   # T4
    ("12.0", 4096 * 1000),  # RTX 50
])
def test_tensor_flops_from_the_reports_compute_capability(cc, flops):
    r = import_file(csv_for(cc).encode(), "k.csv")
    assert r.kernels[0].flops == flops
    (note,) = [n for n in r.report.notes if n.key == "tensor_k"]
    assert dict(note.detail)["value"] == f"{flops // 1000}" and cc in dict(note.detail)["basis"]


def test_device_name_metric_when_no_cc():
    text = csv_for("", extra=[("device__attribute_display_name", "", "NVIDIA A100-SXM4-80GB")])
    r = import_file(text.encode(), "k.csv")
    assert r.kernels[0].flops == 4096 * 1000


def test_selected_device_when_the_report_names_no_gpu():
    r = import_file(csv_for("").encode(), "k.csv", device_name="NVIDIA Tesla V100 SXM2 32GB")
    assert r.kernels[0].flops == 512 * 1000
    assert "V100" in dict(r.report.notes[0].detail)["basis"]


def test_unknown_gpu_assumes_ampere_and_says_so():
    r = import_file(csv_for("").encode(), "k.csv", device_name="AMD Instinct MI300X")
    assert r.kernels[0].flops == 4096 * 1000
    assert any(w.key == "tensor_k_unknown" for w in r.report.warnings)


def test_user_override_wins():
    r = import_file(csv_for("8.0").encode(), "k.csv", tensor_flops_per_inst=1024)
    assert r.kernels[0].flops == 1024 * 1000
    assert dict(r.report.notes[0].detail)["basis"] == "option"


def test_no_note_without_tensor_instructions():
    text = HEADER + '"0","1","p","h","copy","1","7","(1, 1, 1)","(1, 1, 1)","0","8.0","S","dram__bytes_read.sum","byte","100"\n'
    assert not import_file(text.encode(), "k.csv").report.notes


@pytest.mark.parametrize("cc, name, k", [("8.6", None, 4096), ("sm_70", None, 512),
                                         (None, "Tesla T4", 2048), (None, "NVIDIA H800", 4096),
                                         (None, "NVIDIA GeForce RTX 4090", 4096), (None, "Gaudi 3", None)])
def test_lookup(cc, name, k):
    got = tensor_flops_per_inst_for(cc, name)
    assert (got[0] if got else None) == k
