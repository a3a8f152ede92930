"""Issue 8, defect 12 in the import panel: the example rows can be replaced by an import
(so "194 kernels" is not 190 imported + 4 examples), and the trace's device is checked
against the sidebar's (pure helpers; AppTest cannot upload files)."""
from streamlit.testing.v1 import AppTest
from calc.importers import import_file
from ui.i18n import translator
from ui.roofline import import_panel


def _script():
    import streamlit as st

    from calc.kernel_table import KernelRecord
    from ui.roofline import import_panel, state

    recs = [KernelRecord(f"k{i}", 1e9, 1e6, 1e-3) for i in range(3)]
    st.session_state["before"] = import_panel.table_holds_only_examples()
    n_default = len(state.default_rows())
    added = import_panel.process_upload(
        st.session_state, b"name,flops,bytes\nk,1,2\n", "k.csv", {}, import_panel.replace_then_add)
    st.session_state["rows_after_replace"] = len(state.get_rows())
    st.session_state["added"] = added.added
    st.session_state["after"] = import_panel.table_holds_only_examples()
    state.set_rows(state.default_rows())
    state.add_kernels(recs)
    st.session_state["rows_after_append"] = len(state.get_rows())
    st.session_state["n_default"] = n_default


def test_replace_or_append():
    at = AppTest.from_function(_script).run()
    assert not at.exception
    s = at.session_state
    assert s["before"] is True and s["after"] is False
    # replace: only the imported kernel remains (1 row, not 1 + the examples)
    assert s["rows_after_replace"] == 1 and s["added"] == 1
    # append keeps the examples: n_default + 3
    assert s["rows_after_append"] == s["n_default"] + 3


def test_device_messages_in_both_languages():
    from ui.i18n import translator
    for lang, word in (("en", "wrong roof"), ("zh", "错误的屋顶")):
        t = translator(lang)
        msg = t("roofline.imp.device_differs", trace="Tesla V100-DGXS-32GB", sidebar="NVIDIA A100 SXM4 80GB",
                device="NVIDIA Tesla V100 SXM2 32GB")
        assert word in msg and "V100-DGXS" in msg
        assert "23,970" in t("roofline.imp.counts", read=23970, placed=7908, skipped=12, other=16050)


# ---- Folded from tests/ui/test_import_tensor_k_review.py:
# Issue 8, defect 5 in the import panel: the options pass the sidebar's device, and the
# note naming the tensor-instruction FLOPs reads in both languages.
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
        text = translator(lang)(f"roofline.note.{n.key}", **dict(n.detail))
        assert "4096" in text and "CC 8.0" in text and word in text


def test_two_files_selected_together_are_one_merged_import():
    # the fixtures' metrics-only and timing-only ncu exports (tests/data/ncu): one file alone
    # has no time (or no bytes); the two together give kernel_B its 100 launches of
    # 93,188.16 ns and 402,339.36 sectors x 32 B each
    from pathlib import Path
    import pytest
    data = Path(__file__).resolve().parents[1] / "data" / "ncu"
    files = [((data / n).read_bytes(), n) for n in ("metrics.csv", "timing.csv")]
    session, got = {}, []
    out = import_panel.process_upload(session, b"\0".join(d for d, _ in files),
                                      "metrics.csv + timing.csv", {},
                                      lambda recs, source_label: got.extend(recs) or len(recs),
                                      files=files)
    assert out.ok and out.added == 2
    ks = {k.name: k for k in got}
    assert ks["kernel_B"].seconds == pytest.approx(93_188.16e-9 * 100)
    assert ks["kernel_B"].bytes_moved == pytest.approx(402_339.36 * 32 * 100)
    # the same selection again is not imported twice
    assert import_panel.process_upload(session, b"\0".join(d for d, _ in files),
                                       "metrics.csv + timing.csv", {}, lambda *a, **k: 0,
                                       files=files) is None
