"""Nsight Compute CSV importer: the three layouts, units, merging, the command line."""
from pathlib import Path

import pytest

from calc.importers import NCU_COMMAND, ImportFormatError, import_file, import_files
from calc.importers.ncu import NCU_METRICS
from calc.importers import import_file
from calc.importers.ncu import tensor_flops_per_inst_for

DATA = Path(__file__).resolve().parents[1] / "data" / "ncu"


def load(name):
    return (DATA / name).read_bytes()


def test_gemm_tiled_long_layout_with_bom_and_preamble():
    raw = load("gemm_tiled.csv")
    assert raw.startswith(b"\xef\xbb\xbf==PROF==")  # BOM + 8 preamble lines in the real file
    r = import_file(raw, "gemm_tiled.csv")
    assert r.format == "ncu_long"
    (k,) = r.kernels
    assert k.name == "void unnamed>::gemm_tiled_kernel<32>(const float *, const float *, float *, int, int, int)"
    # dram__bytes_op_read.sum 53,261,312 + dram__bytes_op_write.sum 3,377,920 = 56,639,232 bytes
    assert k.bytes_moved == 53_261_312 + 3_377_920 == 56_639_232
    # gpu__time_duration.sum 10,195,552 ns
    assert k.seconds == pytest.approx(10_195_552e-9)
    # L1: global ld + st sectors (67,108,864 + 524,288) x 32 bytes = 2,164,260,864
    assert dict(k.level_bytes) == {"dram": 56_639_232, "l1": (67_108_864 + 524_288) * 32}
    assert k.flops is None and k.count == 1 and k.source == "ncu:gemm_tiled.csv ID 0"
    assert r.report.n_read == 12  # metric rows
    assert "flops_missing" in [w.key for w in r.warnings]
    assert r.report.n_placed == 0 and r.report.n_imported == 1


def test_metrics_summary_layout():
    r = import_file(load("metrics.csv"), "metrics.csv")
    assert r.format == "ncu_summary"
    ks = {k.name: k for k in r.kernels}
    b = ks["kernel_B"]
    assert b.count == 100  # Invocations
    # DRAM: (dram__sectors_read 402,339.36 + write 0.00) sectors x 32 B x 100 invocations
    assert b.bytes_moved == pytest.approx(402_339.36 * 32 * 100)  # = 1,287,485,952
    lv = dict(b.level_bytes)
    # L2: lts__t_sectors_op_read 563,533.63 + write 127.02 + atom 0 + red 2,706,852 sectors
    assert lv["l2"] == pytest.approx((563_533.63 + 127.02 + 0 + 2_706_852.00) * 32 * 100)
    # L1: global ld 375,000 + st 0 sectors
    assert lv["l1"] == pytest.approx(375_000 * 32 * 100)
    a = ks["kernel_A"]
    assert a.bytes_moved == pytest.approx((806_261.76 + 15_106.60) * 32 * 100)
    assert b.seconds is None and b.flops is None


def test_timing_alone_lists_times_and_says_what_to_do():
    r = import_file(load("timing.csv"), "timing.csv")
    assert r.kernels == ()
    sk = {s.name: s for s in r.report.skipped}
    # gpu__time_active.avg Average 93,188.16 ns x 100 invocations
    assert sk["kernel_B"].reason == "no_bytes"
    assert sk["kernel_B"].seconds == pytest.approx(93_188.16e-9 * 100)
    assert "time_only" in [w.key for w in r.warnings]


def test_metrics_plus_timing_merged_by_kernel_name():
    r = import_files([(load("metrics.csv"), "metrics.csv"), (load("timing.csv"), "timing.csv")])
    ks = {k.name: k for k in r.kernels}
    assert set(ks) == {"kernel_A", "kernel_B"}
    assert ks["kernel_B"].seconds == pytest.approx(93_188.16e-9 * 100)
    assert ks["kernel_A"].seconds == pytest.approx(76_952.96e-9 * 100)
    assert ks["kernel_B"].bytes_moved == pytest.approx(402_339.36 * 32 * 100)
    assert ks["kernel_B"].count == 100
    assert r.report.skipped == ()


HEADER = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
          '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n')


def long_rows(kid, name, metrics):
    return "".join(
        f'"{kid}","1","p","h","{name}","1","7","(128, 1, 1)","(64, 1, 1)","0","8.0","S","{m}","{u}","{v}"\n'
        for m, u, v in metrics)


def long_rows_at(kid, name, grid, metrics):
    return "".join(
        f'"{kid}","1","p","h","{name}","1","7","(128, 1, 1)","{grid}","0","8.0","S","{m}","{u}","{v}"\n'
        for m, u, v in metrics)


def test_two_per_launch_runs_merge_launch_by_launch():
    # Two ncu runs of one program (the same launches, the same IDs): bytes in one, times in
    # the other.  gemm runs twice on grid (64, 1, 1), IDs 0 and 2, and once on (8, 1, 1),
    # ID 1: the two launches on (64, 1, 1) are one row, count 2, DRAM 1 + 3 MB = 4 MB, time
    # 2 + 6 = 8 µs; the (8, 1, 1) launch its own row, 0.5 MB in 1 µs.  Merged by name (the
    # old rule) gemm was one row of one launch, the first one's figures: 1 MB in 2 µs.
    g64, g8 = "(64, 1, 1)", "(8, 1, 1)"
    metrics = HEADER + "".join([
        long_rows_at(0, "gemm", g64, [("dram__bytes_read.sum", "Mbyte", "1")]),
        long_rows_at(1, "gemm", g8, [("dram__bytes_read.sum", "Mbyte", "0.5")]),
        long_rows_at(2, "gemm", g64, [("dram__bytes_read.sum", "Mbyte", "3")]),
    ])
    timing = HEADER + "".join([
        long_rows_at(0, "gemm", g64, [("gpu__time_duration.sum", "usecond", "2")]),
        long_rows_at(1, "gemm", g8, [("gpu__time_duration.sum", "usecond", "1")]),
        long_rows_at(2, "gemm", g64, [("gpu__time_duration.sum", "usecond", "6")]),
    ])
    # a timing run numbered from 10 (another --launch-skip) pairs the launches by their order
    offset = HEADER + "".join([
        long_rows_at(10, "gemm", g64, [("gpu__time_duration.sum", "usecond", "2")]),
        long_rows_at(11, "gemm", g8, [("gpu__time_duration.sum", "usecond", "1")]),
        long_rows_at(12, "gemm", g64, [("gpu__time_duration.sum", "usecond", "6")]),
    ])
    for files in ([(metrics.encode(), "metrics.csv"), (timing.encode(), "timing.csv")],
                  [(timing.encode(), "timing.csv"), (metrics.encode(), "metrics.csv")],
                  [(metrics.encode(), "metrics.csv"), (offset.encode(), "timing.csv")]):
        r = import_files(files)
        rows = sorted(r.kernels, key=lambda k: -k.count)
        assert [k.count for k in rows] == [2, 1]
        assert rows[0].bytes_moved == pytest.approx(4e6) and rows[0].seconds == pytest.approx(8e-6)
        assert rows[1].bytes_moved == pytest.approx(0.5e6) and rows[1].seconds == pytest.approx(1e-6)
        assert r.report.skipped == ()


@pytest.mark.parametrize("only", ["X", "Y"])
def test_a_run_limited_to_one_kernel_pairs_by_order(only):
    # ncu numbers each run from 0: the metrics run has X0 (1 MB), Y1 (2 MB), X2 (1 MB),
    # Y3 (4 MB); a timing run with -k <only> has that kernel's two launches as IDs 0 and 1
    # (5 and 7 µs), whose IDs are not (all) the metrics run's for it: paired by order, the
    # kernel is 2 launches, its MB summed, 12 µs, the other kernel untimed; either order
    metrics = HEADER + "".join([
        long_rows_at(0, "X", "(64, 1, 1)", [("dram__bytes_read.sum", "Mbyte", "1")]),
        long_rows_at(1, "Y", "(64, 1, 1)", [("dram__bytes_read.sum", "Mbyte", "2")]),
        long_rows_at(2, "X", "(64, 1, 1)", [("dram__bytes_read.sum", "Mbyte", "1")]),
        long_rows_at(3, "Y", "(64, 1, 1)", [("dram__bytes_read.sum", "Mbyte", "4")]),
    ])
    timing = HEADER + "".join([
        long_rows_at(0, only, "(64, 1, 1)", [("gpu__time_duration.sum", "usecond", "5")]),
        long_rows_at(1, only, "(64, 1, 1)", [("gpu__time_duration.sum", "usecond", "7")]),
    ])
    mb = {"X": 2e6, "Y": 6e6}
    for files in ([(metrics.encode(), "m.csv"), (timing.encode(), "t.csv")],
                  [(timing.encode(), "t.csv"), (metrics.encode(), "m.csv")]):
        r = import_files(files)
        ks = {k.name: k for k in r.kernels}
        assert set(ks) == {"X", "Y"} and r.report.skipped == ()
        assert ks[only].count == 2 and ks[only].bytes_moved == pytest.approx(mb[only])
        assert ks[only].seconds == pytest.approx(12e-6)
        other = "Y" if only == "X" else "X"
        assert ks[other].seconds is None and ks[other].bytes_moved == pytest.approx(mb[other])


def test_a_summary_run_fills_every_launch_of_a_per_launch_run():
    # metrics per launch (IDs 0 and 1, 1 and 3 MB) and a --print-summary timing run of the
    # same kernel (Invocations 2, average 4 µs): each launch takes the average, 2 × 4 = 8 µs
    # in all, 4 MB, count 2, in either order
    metrics = HEADER + long_rows(0, "k", [("dram__bytes_read.sum", "Mbyte", "1")]) + \
        long_rows(1, "k", [("dram__bytes_read.sum", "Mbyte", "3")])
    summary = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream",'
               '"Block Size","Grid Size","Device","CC","Invocations","Section Name","Metric Name",'
               '"Metric Description","Metric Unit","Minimum","Maximum","Average"\n'
               '"0","1","p","h","k","1","7","(128, 1, 1)","(64, 1, 1)","0","8.0","2","S",'
               '"gpu__time_duration.sum","d","usecond","3","5","4"\n')
    for files in ([(metrics.encode(), "m.csv"), (summary.encode(), "t.csv")],
                  [(summary.encode(), "t.csv"), (metrics.encode(), "m.csv")]):
        r = import_files(files)
        (k,) = r.kernels
        assert k.count == 2 and k.bytes_moved == pytest.approx(4e6)
        assert k.seconds == pytest.approx(8e-6)


def test_flops_from_sass_and_tensor_counters_and_units():
    text = "==PROF== Connected\nsome app output\n" + HEADER + long_rows(0, "k, with comma", [
        ("gpu__time_duration.sum", "usecond", "1.5"),
        ("dram__bytes_read.sum", "Mbyte", "2"),
        ("dram__bytes_write.sum", "Kbyte", "500"),
        ("lts__t_bytes.sum", "Gbyte", "0.01"),
        ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1,000"),
        ("sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", "10"),
        ("sm__sass_thread_inst_executed_op_fmul_pred_on.sum", "inst", "n/a"),
        ("sm__sass_thread_inst_executed_op_hfma_pred_on.sum", "inst", "100"),
        ("sm__inst_executed_pipe_tensor.sum", "inst", "3"),
        ("l1tex__t_bytes.sum", "byte", "n/a"),
    ]) + long_rows(1, "k, with comma", [
        ("gpu__time_duration.sum", "nsecond", "500"),
        ("dram__bytes_read.sum", "byte", "1000"),
        ("dram__bytes_write.sum", "byte", "0"),
        ("lts__t_bytes.sum", "byte", "10"),
        ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1"),
        ("sm__inst_executed_pipe_tensor.sum", "inst", "0"),
    ])
    r = import_file(text.encode(), "p.csv", tensor_flops_per_inst=4096)
    (k,) = r.kernels  # two launches of the same kernel aggregated
    assert k.name == "k, with comma" and k.count == 2
    # launch 0: 2*1000 + 10 + 2*100 + 4096*3 = 14,498 ; launch 1: 2*1 = 2
    assert k.flops == 14_498 + 2
    assert k.seconds == pytest.approx(1.5e-6 + 500e-9)
    assert k.bytes_moved == pytest.approx(2e6 + 500e3 + 1000)
    assert dict(k.level_bytes)["l2"] == pytest.approx(0.01e9 + 10)
    assert k.source == "ncu:p.csv ID 0 (+1 more)"


def test_wide_raw_page_with_units_row():
    text = ('"ID","Kernel Name","Grid Size","Block Size","dram__bytes.sum","gpu__time_duration.sum",'
            '"lts__t_sectors.sum","sm__ops_path_tensor_src_fp16_dst_fp32.sum"\n'
            '"","","","","Kbyte","msecond","sector",""\n'
            '"0","kern","(1, 1, 1)","(32, 1, 1)","4","0.25","1,000","8,000"\n'
            '"1","other","(1, 1, 1)","(32, 1, 1)","n/a","0.5","",""\n')
    r = import_file(text.encode(), "raw.csv")
    assert r.format == "ncu_wide"
    (k,) = r.kernels
    assert (k.bytes_moved, k.flops) == (4000, 8000)
    assert k.seconds == pytest.approx(0.25e-3)
    assert dict(k.level_bytes)["l2"] == 32_000
    (s,) = r.report.skipped
    assert (s.name, s.reason) == ("other", "no_bytes")


def test_kernel_without_dram_metric_is_measured_by_l2_and_says_so():
    # 1,000 L2 sectors x 32 B = 32,000 B stand in for the DRAM bytes: an intensity that is a
    # lower bound against the HBM roof, which the report must say (it was silent)
    text = ('"ID","Kernel Name","Grid Size","Block Size","gpu__time_duration.sum","lts__t_sectors.sum",'
            '"dram__bytes.sum"\n'
            '"","","","","msecond","sector","byte"\n'
            '"0","l2only","(1, 1, 1)","(32, 1, 1)","0.25","1,000","n/a"\n'
            '"1","withdram","(1, 1, 1)","(32, 1, 1)","0.5","10","640"\n')
    r = import_file(text.encode(), "raw.csv")
    a, b = r.kernels
    assert (a.name, a.bytes_moved, b.bytes_moved) == ("l2only", 32_000, 640)
    (w,) = [w for w in r.report.warnings if w.key == "dram_missing"]
    assert dict(w.detail) == {"n": 1, "levels": "L2"}


def test_raw_page_without_units_row_reads_times_in_ncus_base_unit():
    # ncu's base unit of gpu__time_duration is the nanosecond: 250,000 there is 0.25 ms (was
    # read as 250,000 s); bytes stay bytes, sectors 32 B
    text = ('"ID","Kernel Name","Grid Size","Block Size","dram__bytes.sum","gpu__time_duration.sum",'
            '"lts__t_sectors.sum"\n'
            '"0","kern","(1, 1, 1)","(32, 1, 1)","4000","250,000","1,000"\n')
    r = import_file(text.encode(), "raw.csv")
    (k,) = r.kernels
    assert (k.bytes_moved, dict(k.level_bytes)["l2"]) == (4000, 32_000)
    assert k.seconds == pytest.approx(0.25e-3, rel=1e-12)
    (w,) = [w for w in r.report.warnings if w.key == "unit_assumed"]
    assert dict(w.detail)["metrics"] == "gpu__time_duration.sum"


def test_raw_page_without_units_times_from_cycles_read_the_rate_per_ns():
    # no gpu__time_* metric: time = cycles / rate; ncu's base unit of the rate is cycle/ns, so
    # 2,000 cycles at 1.5 (per ns) is 1.333 us (was read per second: 1,333 s)
    text = ('"ID","Kernel Name","Grid Size","Block Size","dram__bytes.sum","sm__cycles_elapsed.avg",'
            '"sm__cycles_elapsed.avg.per_second"\n'
            '"0","kern","(1, 1, 1)","(32, 1, 1)","4000","2000","1.5"\n')
    r = import_file(text.encode(), "raw.csv")
    assert r.kernels[0].seconds == pytest.approx(2000 / 1.5e9, rel=1e-12)
    assert any(w.key == "unit_assumed" for w in r.report.warnings)


def test_details_page_with_a_blank_time_unit():
    text = HEADER + long_rows(0, "k", [("gpu__time_duration.sum", "", "1,500"),
                                       ("dram__bytes.sum", "byte", "1e6")])
    r = import_file(text.encode(), "d.csv")
    assert r.kernels[0].seconds == pytest.approx(1.5e-6, rel=1e-12)
    assert any(w.key == "unit_assumed" for w in r.report.warnings)
    # with the unit given, no warning
    ok = import_file((HEADER + long_rows(0, "k", [("gpu__time_duration.sum", "ns", "1,500"),
                                                  ("dram__bytes.sum", "byte", "1e6")])).encode(), "d.csv")
    assert not any(w.key == "unit_assumed" for w in ok.report.warnings)


def test_tensor_op_counters_are_not_counted_twice():
    # src_fp16 covers every destination type: its dst_fp32 breakdown beside it is the same
    # 8,000 ops; src_bf16 is a sibling and adds (8,000 + 1,000 = 9,000, not 17,000)
    text = ('"ID","Kernel Name","Grid Size","Block Size","dram__bytes.sum","gpu__time_duration.sum",'
            '"sm__ops_path_tensor_src_fp16.sum","sm__ops_path_tensor_src_fp16_dst_fp32.sum",'
            '"sm__ops_path_tensor_src_bf16_dst_fp32.sum"\n'
            '"","","","","byte","nsecond","",""," "\n'
            '"0","kern","(1, 1, 1)","(32, 1, 1)","4000","250","8,000","8,000","1,000"\n')
    (k,) = import_file(text.encode(), "raw.csv").kernels
    assert k.flops == 9_000


@pytest.mark.parametrize("metrics,precision", [
    # an FP32 SIMT GEMM: 2 x 1,000 FFMA = 2,000 of 2,010 FLOPs are FP32 -> judged at the FP32 roof
    ([("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1,000"),
      ("sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "inst", "10")], "fp32"),
    ([("sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "inst", "500")], "fp64"),
    # tensor ops by their source type: 8,000 BF16 against 100 FP32 SIMT
    ([("sm__ops_path_tensor_src_bf16_dst_fp32.sum", "", "8,000"),
      ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "50")], "bf16"),
    # half FP32, half FP64: no majority -> the sidebar's precision
    ([("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "100"),
      ("sm__sass_thread_inst_executed_op_dfma_pred_on.sum", "inst", "100")], ""),
    # tensor instructions without a source type: unknown
    ([("sm__inst_executed_pipe_tensor.sum", "inst", "10")], ""),
    # ... and they count in the shares: 1e6 x 4096 tensor FLOPs against a 2,000-FLOP FP32
    # epilogue is not an FP32 kernel (it was: the instruction FLOPs were left out)
    ([("sm__inst_executed_pipe_tensor.sum", "inst", "1,000,000"),
      ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", "inst", "1,000")], ""),
    # FP64 tensor ops: hardware.toml's fp64 peak is the SIMT rate, half the tensor one
    ([("sm__ops_path_tensor_src_fp64.sum", "", "60e9")], ""),
])
def test_each_kernel_is_judged_at_the_precision_that_did_its_flops(metrics, precision):
    text = HEADER + long_rows(0, "k", [("gpu__time_duration.sum", "ns", "1000"),
                                       ("dram__bytes.sum", "byte", "1e6"), *metrics])
    (k,) = import_file(text.encode(), "p.csv", tensor_flops_per_inst=4096).kernels
    assert k.precision == precision


def test_time_from_cycles():
    text = HEADER + long_rows(0, "k", [
        ("sm__cycles_elapsed.avg", "cycle", "2,000"),
        ("sm__cycles_elapsed.avg.per_second", "cycle/nsecond", "1.0"),
        ("dram__sectors_read.sum", "sector", "10"),
    ])
    (k,) = import_file(text.encode(), "c.csv").kernels
    assert k.seconds == pytest.approx(2e-6) and k.bytes_moved == 320


def test_ncu_command_collects_every_metric_used():
    assert NCU_COMMAND.startswith("ncu --csv ")
    for m in NCU_METRICS:
        assert m in NCU_COMMAND
    assert "gpu__time_duration.sum" in NCU_COMMAND and "dram__bytes_read.sum" in NCU_COMMAND
    assert "--print-units base" in NCU_COMMAND and NCU_COMMAND.endswith("> profile.csv")


@pytest.mark.parametrize("text,match", [
    ("==PROF== Connected to process 1\n==PROF== Disconnected\n", "without a CSV table"),
    ('"ID","Process ID","Foo"\n"0","1","x"\n', "Kernel Name"),
    ('"ID","Kernel Name","Grid Size"\n"0","k","(1,1,1)"\n', "neither"),
    (HEADER, "no kernel rows"),
])
def test_malformed_ncu(text, match):
    with pytest.raises(ImportFormatError, match=match):
        import_file(text.encode(), "bad.csv")


def test_bad_tensor_factor():
    with pytest.raises(ValueError, match="tensor_flops_per_inst"):
        import_file(load("gemm_tiled.csv"), "g.csv", tensor_flops_per_inst=-1)


def test_utf16_export_is_read():
    r = import_file(load("metrics.csv").decode("utf-8").encode("utf-16"), "metrics.csv")
    assert len(r.kernels) == 2


# ---- Folded from tests/importers/test_imp_ncu_tensor_k.py:
# Issue 8, defect 5: the FLOPs of one tensor-pipe instruction come from the GPU's
# architecture (not V100's 512 everywhere), the report says which value was used, and the
# user can override it.
#
# Hand arithmetic: an mma.sync m16n8k16 (Ampere and later) is 2 x 16 x 8 x 16 = 4,096 FLOPs
# per warp-level instruction; Volta's HMMA.884 counts 512 (NERSC hierarchical roofline);
# Turing's HMMA.1688 (m16n8k8) is 2 x 16 x 8 x 8 = 2,048.
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


# ---- Tensor FLOPs where an instruction count cannot know them (Hopper's wgmma, Blackwell's
# tcgen05): a wgmma m64n256k16 is 2 x 64 x 256 x 16 = 524,288 FLOPs per warpgroup
# instruction, 128 times one mma m16n8k16 (4,096), so 4,096 x instructions is a guess there.
@pytest.mark.parametrize("cc, warned", [("9.0", True), ("10.0", True), ("8.0", False),
                                        ("8.9", False), ("12.0", False), ("7.5", False)])
def test_instruction_counted_tensor_flops_on_hopper_and_blackwell_are_flagged(cc, warned):
    r = import_file(csv_for(cc).encode(), "k.csv")
    keys = {w.key for w in r.report.warnings}
    assert ("tensor_k_wgmma" in keys) == warned
    if warned:
        # the tile's work depends on the type too: K = 16 at BF16, 32 at FP8 / INT8 (PTX ISA,
        # wgmma.mma_async shapes), so the message gives both, not only the BF16 figure
        msg = next(w.message for w in r.report.warnings if w.key == "tensor_k_wgmma")
        assert "2·64·256·16 FLOPs at BF16" in msg and "2·64·256·32 at FP8 or INT8" in msg


def test_hopper_by_the_selected_device_name_is_flagged_too():
    r = import_file(csv_for("").encode(), "k.csv", device_name="NVIDIA H100 SXM5 80GB")
    assert any(w.key == "tensor_k_wgmma" for w in r.report.warnings)


def test_hopper_with_tensor_op_counters_is_not_flagged():
    # the op counter counts the FLOPs: 2 x 4096^3 = 137,438,953,472 for a 4096^3 BF16 GEMM
    # (whatever instructions did it); the instruction count beside it is not used
    r = import_file(csv_for("9.0", extra=[("sm__ops_path_tensor_src_bf16_dst_fp32.sum", "",
                                           "137,438,953,472")]).encode(), "k.csv")
    assert not any(w.key == "tensor_k_wgmma" for w in r.report.warnings)
    assert r.kernels[0].flops == 2 * 4096**3 and r.kernels[0].precision == "bf16"


def test_an_override_is_the_users_choice_and_not_flagged():
    r = import_file(csv_for("9.0").encode(), "k.csv", tensor_flops_per_inst=131072)
    assert not any(w.key == "tensor_k_wgmma" for w in r.report.warnings)
    assert r.kernels[0].flops == 131072 * 1000


@pytest.mark.parametrize("metric, precision", [
    ("sm__ops_path_tensor_src_fp16_dst_fp16.sum", "fp16"),
    ("sm__ops_path_tensor_src_fp16_dst_fp32.sum", "fp16"),
    ("sm__ops_path_tensor_src_bf16_dst_fp32.sum", "bf16"),
    ("sm__ops_path_tensor_src_tf32_dst_fp32.sum", "tf32"),
    ("sm__ops_path_tensor_src_fp64.sum", ""),          # FP64 tensor: not the SIMT fp64 roof
    ("sm__ops_path_tensor_src_int8.sum", "int8"),
])
def test_the_tensor_command_collects_counters_the_importer_reads(metric, precision):
    from calc.importers import NCU_TENSOR_COMMAND
    from calc.importers.ncu import NCU_TENSOR_OP_METRICS
    assert metric in NCU_TENSOR_OP_METRICS and metric in NCU_TENSOR_COMMAND
    assert all(m in NCU_TENSOR_COMMAND for m in NCU_METRICS)
    text = HEADER + "".join(
        f'"0","1","p","h","gemm","1","7","(128, 1, 1)","(64, 1, 1)","0","8.0","S","{m}","{u}","{v}"\n'
        for m, u, v in [("gpu__time_duration.sum", "usecond", "10"), ("dram__bytes_read.sum", "Mbyte", "1"),
                        (metric, "", "2e9"), ("sm__inst_executed_pipe_tensor.sum", "inst", "1,000")])
    (k,) = import_file(text.encode(), "k.csv").kernels
    # the counter's 2e9 FLOPs, not 4,096 x 1,000 instructions on top
    assert k.flops == 2e9 and k.precision == precision
