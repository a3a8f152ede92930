"""Pure parts of the roofline page: default rows, parsing, analysis, sentences, CSV, the
builder's record, cell-error messages, and the session-state API (via AppTest.from_function)."""
import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from calc.importers import import_file
from calc.kernel_table import parse_rows, rows_from_kernels
from calc.kernels import gemm
from calc.scenario import decode_kernels, encode_kernels
from ui.i18n import translator
from ui.roofline import results as R
from ui.roofline import state
from ui.roofline.builder import parse_time, record_for
from ui.roofline.table import error_lines, md_escape

PEAK, BW = 312e12, 2.039e12
en, zh = translator("en"), translator("zh")


def _analysis(rows=None):
    return R.analyze(parse_rows(rows if rows is not None else state.default_rows()), PEAK, BW)


def test_default_rows_parse_and_teach_the_syntax():
    rows = state.default_rows()
    assert len(rows) == 4 and any("**" in r["flops"] for r in rows)
    p = parse_rows(rows)
    assert p.ok and len(p.kernels) == 4
    assert p.kernels[1].flops == 2 * 8192**3
    assert state.default_rows() is not state.default_rows()     # fresh copies


def test_defaults_verdicts_computed_by_hand():
    a = _analysis()
    pl = a.placement
    # seed kernel: 2 GFLOP / 1 GB = intensity 2, ceiling 2 x 2.039 TB/s = 4.078 TFLOP/s, no time
    assert pl.intensity[0] == pytest.approx(2.0)
    assert pl.attainable_flops[0] == pytest.approx(4.078e12)
    assert pl.verdict[0] is None
    assert a.floor[0] == pytest.approx(1e9 / 2.039e12)
    # GEMM 8192^3 in 4.4 ms: 1.0995e12 / 4.4e-3 = 249.9 TFLOP/s = 80 % of 312 -> near the roof
    assert pl.fraction_of_roof[1] == pytest.approx(2 * 8192**3 / 4.4e-3 / 312e12)
    assert pl.verdict[1] == "near_roof" and pl.bound[1] == "compute"
    # GEMV: memory-bound, near; LayerNorm: below the roof
    assert pl.bound[2] == "memory" and pl.verdict[2] == "near_roof"
    assert pl.verdict[3] == "below_roof"


def test_sentences_state_bound_ceiling_and_advice():
    a = _analysis()
    s0 = R.sentence(en, a, 0)
    assert "4.08 TFLOP/s" in s0 and "memory-bound" in s0 and "490 µs" in s0
    assert "done; optimise something else" in R.sentence(en, a, 1)
    s3 = R.sentence(en, a, 3)
    assert "worth digging in" in s3 and "data movement" in s3
    assert "4.08 TFLOP/s" in R.sentence(zh, a, 0) and "带宽受限" in R.sentence(zh, a, 0)


def test_above_roof_sentence_names_likely_causes():
    rows = [{"name": "too fast", "flops": "2*8192**3", "bytes": "3*8192**2*2", "seconds": "1 ms"}]
    s = R.sentence(en, _analysis(rows), 0)
    assert "numbers are wrong" in s and "sparse" in s and "MACs" in s


def test_kernel_names_are_markdown_escaped():
    rows = [{"name": "[click](http://x) *b* $x$", "flops": "1e9", "bytes": "1e9"}]
    s = R.sentence(en, _analysis(rows), 0)
    assert "[click](" not in s and r"\[click\]" in s
    assert md_escape("a_b") == r"a\_b"


def test_top_sentences_for_many_kernels():
    n = 300
    rows = [{"name": f"k{i}", "flops": "1e9", "bytes": "1e8", "seconds": f"{i + 1} us"} for i in range(n)]
    a = _analysis(rows)
    idx = R.sentence_indices(a)
    assert len(idx) == R.MAX_SENTENCES
    assert a.names[int(idx[0])] == "k299"        # slowest first


def test_results_csv_and_table_csv_round_trip():
    p = parse_rows(state.default_rows())
    a = R.analyze(p, PEAK, BW)
    csv = R.results_csv(a)
    assert csv.splitlines()[0].startswith("row,name,flops,bytes")
    assert "near_roof" in csv and "unmeasured" in csv
    back = import_file(R.table_csv(p).encode(), "kernels.csv")
    assert [k.flops for k in back.kernels] == [k.flops for k in p.kernels]


def test_results_frame_has_every_column():
    df = R.results_frame(en, _analysis())
    for key in ("roofline.r.intensity", "roofline.r.bound", "roofline.r.attainable",
                "roofline.r.achieved", "roofline.r.fraction", "roofline.r.verdict"):
        assert en(key) in df.columns
    assert len(df) == 4


def test_bad_cells_are_named_and_other_rows_still_place():
    rows = state.default_rows() + [{"name": "oops", "flops": "1e9", "bytes": "abc", "seconds": ""}]
    p = parse_rows(rows)
    assert len(p.kernels) == 4 and len(p.errors) == 1
    line = error_lines(en, p.errors)[0]
    assert line.startswith("Row 5, Bytes:") and "abc" in line
    assert error_lines(zh, p.errors)[0].startswith("第 5 行「字节数」列")
    assert len(R.analyze(p, PEAK, BW)) == 4


def test_kernels_without_flops_are_listed_not_placed():
    rows = [{"name": "ncu kernel", "flops": "", "bytes": "1 GB", "seconds": "1 ms"}]
    a = _analysis(rows)
    assert len(a) == 0 and len(a.no_flops) == 1


def test_builder_record_and_time():
    cost = gemm(8192, 8192, 8192, 2)
    rec = record_for(cost, parse_time("4.4 ms"))
    assert rec.flops == 2 * 8192**3 and rec.seconds == pytest.approx(4.4e-3) and rec.source == "builder"
    assert parse_time("") is None and parse_time("  ") is None
    assert parse_time("abc") == "bad" and parse_time("-1 ms") == "bad"


def test_rows_round_trip_through_link_token():
    p = parse_rows(state.default_rows())
    back = decode_kernels(encode_kernels(p.kernels))
    p2 = parse_rows(rows_from_kernels(back))
    assert [(k.name, k.flops, k.bytes_moved, k.seconds) for k in p2.kernels] == \
        [(k.name, k.flops, k.bytes_moved, k.seconds) for k in p.kernels]


def test_normalize_rows_keeps_hidden_columns_and_blanks_nan():
    rows = state.normalize_rows([{"name": "a", "flops": float("nan"), "bytes": 5, "l2_bytes": "9"}])
    assert rows == [{"name": "a", "flops": "", "bytes": "5", "seconds": "", "count": "",
                     "l2_bytes": "9"}]


def test_subset_keeps_alignment():
    a = _analysis()
    s = R.subset(a, np.array([False, True, False, True]))
    assert s.names == [a.names[1], a.names[3]] and list(s.rows) == [2, 4]
    assert s.placement.verdict[1] == "below_roof"


# ---- the session-state API, inside a real script run -------------------------------------

def _state_script():
    import streamlit as st

    from calc.kernel_table import KernelRecord
    from ui.roofline import state

    step = st.session_state.get("step", 0)
    st.session_state["step"] = step + 1
    if step == 0:
        st.session_state["out.default"] = len(state.get_rows())
        v0 = state.editor_key()
        n = state.add_kernels([KernelRecord("ncu k", None, 1e9, 1e-3, 7, "",
                                            (("dram", 1e9), ("l2", 3e9)))], source_label="ncu:f.csv")
        st.session_state["out.added"] = n
        st.session_state["out.key_changed"] = state.editor_key() != v0
        p = state.parsed()
        st.session_state["out.parsed_same"] = p is state.parsed()
        k = p.kernels[-1]
        st.session_state["out.last"] = (k.count, k.source, k.level_bytes, k.flops)
        state.replace_kernels([KernelRecord("only", 1e9, 1e9)])
        st.session_state["out.replaced"] = [r["name"] for r in state.get_rows()]
        st.session_state["out.url_ok"] = state.sync_url()
        st.session_state["out.k"] = st.query_params.get("k")
        state.set_rows(state.default_rows())
        state.sync_url()
        st.session_state["out.k_default"] = st.query_params.get("k")


def test_state_api_in_a_script_run():
    at = AppTest.from_function(_state_script, default_timeout=30)
    at.run()
    assert not at.exception
    ss = at.session_state
    assert ss["out.default"] == 4
    assert ss["out.added"] == 1 and ss["out.key_changed"] and ss["out.parsed_same"]
    assert ss["out.last"] == (7, "ncu:f.csv", (("dram", 1e9), ("l2", 3e9)), None)
    assert ss["out.replaced"] == ["only"]
    assert ss["out.url_ok"] is True
    assert decode_kernels(ss["out.k"])[0].name == "only"
    assert ss["out.k_default"] is None


def _too_long_script():
    import streamlit as st

    from ui.roofline import state

    state.set_rows([{"name": f"kernel number {i} with a long name {i * 7919}", "flops": str(1e9 + i * 12345.678),
                     "bytes": str(1e8 + i * 987.65), "seconds": str(1e-3 + i * 1.1e-7)} for i in range(400)])
    st.session_state["out.ok"] = state.sync_url()
    st.session_state["out.k"] = st.query_params.get("k")


def test_too_long_table_leaves_the_link():
    at = AppTest.from_function(_too_long_script, default_timeout=30)
    at.run()
    assert not at.exception
    assert at.session_state["out.ok"] is False and at.session_state["out.k"] is None


def test_above_roof_sentence_points_the_right_way():
    # issue 8, defect 2: MACs-as-FLOPs and a sparse peak put a point BELOW the roof
    rows = [{"name": "too fast", "flops": "2*8192**3", "bytes": "3*8192**2*2", "seconds": "1 ms"}]
    s = R.sentence(en, _analysis(rows), 0)
    assert "below the roof, never above" in s and "from cache" in s and "FP8" in s
    z = R.sentence(zh, _analysis(rows), 0)
    assert "不会超过屋顶" in z and "缓存" in z


def test_every_csv_export_escapes_formula_names():
    # issue 23 item 14: the results CSV, the kernel table CSV and the Model page's operator
    # CSV go through calc.csv_out.write_csv: a name starting with = + − @ gets an apostrophe
    import csv as _csv
    import io
    rows = [{"name": "=HYPERLINK(\"http://x\")", "flops": "2e9", "bytes": "1e9", "seconds": "1 ms"},
            {"name": "−5", "flops": "2e9", "bytes": "1e9"}]
    p = parse_rows(rows)
    a = R.analyze(p, PEAK, BW)
    for text in (R.results_csv(a), R.table_csv(p), R.table_csv(p, rows)):
        names = [r["name"] for r in _csv.DictReader(io.StringIO(text))]
        assert names == ["'=HYPERLINK(\"http://x\")", "'−5"], text
    # unmeasured seconds stay blank in the results CSV (not "nan")
    res = list(_csv.DictReader(io.StringIO(R.results_csv(a))))
    assert res[1]["seconds"] == "" and res[1]["verdict"] == "unmeasured"
    # the table CSV reads back to the same names (the importer removes the apostrophe)
    back = import_file(R.table_csv(p).encode(), "kernels.csv")
    assert [k.name for k in back.kernels] == ["=HYPERLINK(\"http://x\")", "−5"]
    # the operator CSV: a real model's operators, exact floats, every row readable
    from calc.models import load_models
    from calc.model_ops import model_operators
    from ui.model.results import operators_csv
    ops = model_operators(load_models()["llama-3.1-8b"], phase="decode", batch=1, tokens=1024,
                          peak_flops=PEAK, mem_bw=BW)
    rows = list(_csv.DictReader(io.StringIO(operators_csv(ops))))
    assert len(rows) == len(ops.operators)
    assert float(rows[0]["flops"]) == ops.operators[0].flops                   # exact (repr)
    assert all(r["operator"][:1] not in "=+-−@" for r in rows)
