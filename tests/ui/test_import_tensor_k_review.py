"""Issue 8, defect 5 in the import panel: the options pass the sidebar's device, and the
note naming the tensor-instruction FLOPs reads in both languages."""
from calc.importers import import_file
from ui.i18n import translator
from ui.roofline import import_panel

TEXT = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
        '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n'
        '"0","1","p","h","gemm","1","7","(1, 1, 1)","(1, 1, 1)","0","8.0","S","gpu__time_duration.sum","usecond","10"\n'
        '"0","1","p","h","gemm","1","7","(1, 1, 1)","(1, 1, 1)","0","8.0","S","dram__bytes_read.sum","byte","100"\n'
        '"0","1","p","h","gemm","1","7","(1, 1, 1)","(1, 1, 1)","0","8.0","S","sm__inst_executed_pipe_tensor.sum","inst","10"\n')


def test_default_options_leave_the_factor_to_the_gpu():
    opts = import_panel.import_options("NVIDIA A100 SXM4 80GB")
    assert opts["tensor_flops_per_inst"] is None and opts["device_name"] == "NVIDIA A100 SXM4 80GB"
    out = import_panel.handle_upload(TEXT.encode(), "k.csv", opts)
    assert out.records[0].flops == 4096 * 10      # CC 8.0: 10 x 4,096


def test_note_in_both_languages():
    rep = import_file(TEXT.encode(), "k.csv").report
    (n,) = rep.notes
    for lang, word in (("en", "FLOPs per tensor instruction"), ("zh", "每条 Tensor Core 指令")):
        text = translator(lang)(f"rlx.note.{n.key}", **dict(n.detail))
        assert "4096" in text and "CC 8.0" in text and word in text
