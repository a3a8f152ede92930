"""The roofline page under AppTest, always started from app.py (like a user)."""

from __future__ import annotations
import pytest
from streamlit.testing.v1 import AppTest

from calc.kernel_table import KernelRecord
from calc.scenario import encode_kernels
import json
from pathlib import Path
from calc.kernel_table import KernelRecord, parse_rows
from calc.scenario import Ceilings, CompareDevice, CustomDevice, Scenario, dump_scenario
from ui.roofline import import_panel, state

SAMPLE_TRACE = Path(__file__).resolve().parents[2] / "samples" / "worker0.1623143089861.pt.trace.json.gz"

PAGE = "pages/1_Roofline.py"


def _open(params=None, state=None):
    at = AppTest.from_file("../../app.py", default_timeout=60)
    for k, v in (params or {}).items():
        at.query_params[k] = v
    at.run()
    for k, v in (state or {}).items():
        at.session_state[k] = v
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _md(at):
    return "\n".join(m.value for m in at.markdown)


def _results_rows(at):
    """Rows of the results table (the dataframe with a verdict column), 0 when none."""
    verdict = {"Verdict", "结论"}
    tables = [d.value for d in at.dataframe if verdict & set(map(str, d.value.columns))]
    return len(tables[0]) if tables else 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_defaults_show_the_preloaded_kernels_in_both_languages(lang):
    at = _open({"lang": lang})
    text = _md(at)
    # the seed's intensity-2 kernel is capped at 2 x 2.039 TB/s = 4.078 TFLOP/s on A100 80GB
    assert "4.08 TFLOP/s" in text
    assert ("cannot run faster than **4.08 TFLOP/s**" in text) if lang == "en" else ("不可能快过 **4.08 TFLOP/s**" in text)
    assert _results_rows(at) == 4
    assert not at.error
    # the GEMM: 2*8192^3 / 4.4 ms = 250 TFLOP/s = 80 % of 312 TFLOP/s
    assert "250 TFLOP/s" in text and "80%" in text
    assert "k" not in at.query_params            # the defaults need no link token


def test_builder_adds_a_kernel():
    at = _open()
    at.text_input(key="b_time").set_value("5 ms")
    at.run()
    at.button(key="b_add_button").click().run()
    assert not at.exception
    assert _results_rows(at) == 5
    text = _md(at)
    assert "5. GEMM 8192×8192×8192 bf16" in text    # the precision named (issue 16), not "2 B"
    # 1.0995e12 FLOP in 5 ms = 220 TFLOP/s
    assert "220 TFLOP/s" in text
    assert at.query_params["k"]                   # a changed table travels in the link


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_builder_refuses_shapes_beyond_what_a_table_cell_holds(lang):
    # 2 * 1e11 * 1e11 * 1e11 = 2e33 FLOP > 1e30: said at the builder (was added, then refused
    # by the table as a cell error)
    at = _open({"lang": lang})
    for key in ("b_m", "b_n", "b_k"):
        at.text_input(key=key).set_value("1e11")
    at.run()
    assert not at.exception
    from ui.i18n import CATALOGS
    head = CATALOGS[lang]["roofline.b.too_large"].split("{flops}")[0]
    assert any(head in e.value and "1e+30" in e.value for e in at.error)
    assert not [b for b in at.button if b.key == "b_add_button"]


def test_builder_judges_a_kernel_at_its_own_dtype():
    # an FP8 GEMM 8192³ on an H100 in 0.7 ms: 2·8192³ / 0.7e-3 = 1.571 PFLOP/s, 79 % of the
    # dense FP8 peak (1,978.9 TFLOP/s), not 159 % of the sidebar's BF16 989.4 ("wrong")
    at = _open({"device": "h100-sxm"})
    at.selectbox(key="b_dtype").set_value("fp8").run()
    at.text_input(key="b_time").set_value("0.7 ms")
    at.run()
    at.button(key="b_add_button").click().run()
    assert not at.exception
    text = _md(at)
    assert "5. GEMM 8192×8192×8192 fp8" in text
    assert "1.57 PFLOP/s" in text and "79%" in text, text
    assert "numbers are wrong" not in text.split("5. GEMM 8192×8192×8192 fp8")[1].split("\n")[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_measured_copy_gets_a_verdict_by_its_bandwidth(lang):
    # 1 GB copies (0 FLOP) on the A100 80GB (2.039 TB/s): in 0.1 ms 10 TB/s = 490 % (above:
    # impossible), in 0.5 ms 2 TB/s = 98 % (near), in 1 ms 1 TB/s = 49 % (below)
    token = encode_kernels([KernelRecord("fast copy", 0.0, 1e9, 0.1e-3),
                            KernelRecord("good copy", 0.0, 1e9, 0.5e-3),
                            KernelRecord("slow copy", 0.0, 1e9, 1e-3)])
    at = _open({"k": token, "lang": lang})
    lines = {name: next(line for line in _md(at).split("\n") if name in line)
             for name in ("fast copy", "good copy", "slow copy")}
    words = {"en": ("490%", "the numbers are wrong", "98%", "as fast as the memory allows",
                    "49%", "far below the roof", "moving fewer bytes"),
             "zh": ("490%", "数字有误", "98%", "和显存允许的一样快", "49%", "远低于上限", "少搬字节")}[lang]
    assert words[0] in lines["fast copy"] and words[1] in lines["fast copy"], lines
    assert words[2] in lines["good copy"] and words[3] in lines["good copy"], lines
    assert all(w in lines["slow copy"] for w in words[4:]), lines
    assert all(not line.rstrip().endswith((":", "：")) for line in lines.values()), lines


def test_builder_other_kind_shows_formula():
    at = _open()
    at.selectbox(key="b_kind").set_value("gemv").run()
    assert not at.exception
    codes = [c.value for c in at.code]
    assert any("FLOP = 2·m·n = 2·4096·4096" in c for c in codes)


def test_link_token_reproduces_the_table():
    token = encode_kernels([KernelRecord("my linked kernel", 4e12, 1e9, 2e-3, 3),
                            KernelRecord("second", 1e9, 1e9)])
    at = _open({"k": token})
    assert _results_rows(at) == 2
    text = _md(at)
    assert "my linked kernel" in text and "second" in text
    # 4 TFLOP over 1 GB = intensity 4000 (compute-bound): 4e12 / 2 ms = 2 PFLOP/s > 312 T -> above
    assert "numbers are wrong" in text
    assert at.query_params["k"] == token          # the link stays as it came


@pytest.mark.parametrize("garbage", ["xyz", "1!!!!", "1" + "A" * 50, ""])
def test_garbage_link_token_warns_and_shows_defaults(garbage):
    at = _open({"k": garbage} if garbage else {"k": "2abc"})
    assert any("could not be read" in w.value for w in at.warning)
    assert _results_rows(at) == 4


def test_bad_cell_is_named_and_other_rows_still_plot():
    rows = [
        {"name": "ok", "flops": "2 GFLOP", "bytes": "1 GB", "seconds": "", "count": "1"},
        {"name": "typo", "flops": "1e9", "bytes": "abc", "seconds": "", "count": "1"},
        {"name": "<script>", "flops": "2*8192**3", "bytes": "3*8192**2*2", "seconds": "4.4 ms", "count": "1"},
    ]
    at = _open(state={"roofline.rows": rows})
    assert at.error and "Row 2, Bytes" in at.error[0].value and "abc" in at.error[0].value
    assert _results_rows(at) == 2


def test_extra_roofs_from_the_url():
    at = _open({"roofs": "fp32,nonsense"})
    assert at.multiselect(key="roofs").value == ["fp32"]
    assert at.query_params["roofs"] == "fp32"


def test_custom_device_without_numbers_does_not_crash():
    at = _open({"device": "custom", "peak": "abc"})
    assert at.warning


def test_reset_and_clear_buttons():
    at = _open()
    at.button(key="roofline_clear").click().run()
    assert not at.exception and _results_rows(at) == 0
    at.button(key="roofline_reset").click().run()
    assert _results_rows(at) == 4


# ---- Folded from tests/pages/test_page_roofline_sections.py:
# Roofline page sections under AppTest: device comparison, scenario files, the import
# section, view controls and the hierarchical view. (AppTest cannot upload files: the
# import handlers are tested directly, with a dict standing in for session_state.)
ROOT = Path(__file__).resolve().parents[2]


DATA = ROOT / "tests" / "data"


def roofline(**params) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page("pages/1_Roofline.py")
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def markdown_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)


def table_kernels(at: AppTest) -> list[KernelRecord]:
    return parse_rows(at.session_state[state.ROWS_KEY]).kernels


def chart_spec(at: AppTest) -> dict:
    return json.loads(at.get("plotly_chart")[0].proto.spec)


def trace_names(at: AppTest) -> list[str]:
    return [tr.get("name", "") for tr in chart_spec(at)["data"]]


# ----------------------------------------------------------------------------- compare

def test_compare_a100_to_h100_shows_the_bandwidth_ratio():
    # Default device A100 80GB SXM (2039 GB/s); H100 SXM 3350 GB/s. The seed kernel
    # (intensity 2) is memory-bound on both: 3350 / 2039 = 1.643 -> "at most 1.64x".
    at = roofline(compare="h100-sxm:bf16")
    assert not at.exception
    text = markdown_text(at)
    assert "memory-bound" in text and "**1.64×**" in text and "bandwidth ratio" in text
    assert at.multiselect(key="rlx_compare").value == ["h100-sxm:bf16"]
    # its roofline is drawn on the chart
    assert any("H100 SXM5" in n for n in trace_names(at))
    # the comparison table has the bound for each kernel
    df = at.dataframe[-1].value
    col = [c for c in df.columns if c.startswith("Speed-up bound")][0]
    assert "1.64×" in set(df[col])


def test_compare_picked_in_the_widget_goes_to_the_url_and_zh():
    at = roofline(lang="zh")
    at.multiselect(key="rlx_compare").select("h100-sxm:bf16").select("mi300x:fp8").run()
    assert not at.exception
    assert at.query_params["compare"] == ["h100-sxm:bf16,mi300x:fp8"] or \
        at.query_params["compare"] == "h100-sxm:bf16,mi300x:fp8"
    assert "最多能快 **1.64×**" in markdown_text(at)


def test_compare_garbage_in_url_is_ignored():
    at = roofline(compare="no-such:bf16,a100-80gb-sxm:fp8,<x>")
    assert not at.exception
    assert at.multiselect(key="rlx_compare").value == []


# ----------------------------------------------------------------------------- scenarios

SCENARIO = Scenario(
    device="h100-sxm", precision="fp8",
    compare=(CompareDevice("a100-80gb-sxm", "bf16"),),
    ceilings=Ceilings(l2_bw=1.2e13, l1_bw=None),
    extra_roofs=("bf16",),
    kernels=(
        KernelRecord("gemm", 1.1e12, 4.2e9, 3.1e-3, 1, "table"),
        KernelRecord("ncu kernel", 2e9, 5.6e7, 1e-2, 4, "ncu:f.csv ID 0",
                     (("dram", 5.6e7), ("l2", 1e8), ("l1", 2.2e9))),
        KernelRecord("no flops", None, 1e9, None, 1, "ncu"),
    ),
)


def open_pasted(at: AppTest, text: str) -> AppTest:
    at.text_area(key="rlx_scn_paste").input(text)
    at.button(key="rlx_scn_apply").click()
    return at.run()


def test_scenario_applied_through_the_app_gives_the_same_page():
    at = roofline()
    at = open_pasted(at, dump_scenario(SCENARIO))
    assert not at.exception, at.exception
    assert [k.name for k in table_kernels(at)] == ["gemm", "ncu kernel", "no flops"]
    assert tuple(table_kernels(at)) == SCENARIO.kernels
    assert at.sidebar.selectbox(key="device").value == "h100-sxm"
    assert at.sidebar.selectbox(key="precision").value == "fp8"
    assert at.multiselect(key="rlx_compare").value == ["a100-80gb-sxm:bf16"]
    assert at.text_input(key="l2_bw").value == "12 TB/s"        # 1.2e13 B/s, exact
    assert at.text_input(key="l1_bw").value == ""
    assert any("Scenario opened" in s.value for s in at.success)
    # saving the page again gives the same document (save -> open -> save is exact)
    from ui.roofline import scenario

    cached = at.session_state[scenario.DUMP_CACHE_KEY]
    assert cached[1] == dump_scenario(SCENARIO)


def test_custom_device_scenario_over_a_link_with_other_values():
    # The URL already carries a device and a ceiling: the scenario's values win.
    at = roofline(device="h100-sxm", l2_bw="7 TB/s")
    sc = Scenario(device="custom", precision="bf16", custom=CustomDevice(5e14, 3.35e12),
                  ceilings=Ceilings(l2_bw=1.23456789e13),
                  kernels=(KernelRecord("x", 1e9, 1e8, 1e-3, 1, "table"),))
    at = open_pasted(at, dump_scenario(sc))
    assert not at.exception
    assert at.sidebar.selectbox(key="device").value == "custom"
    assert at.sidebar.text_input(key="peak").value == "500 TFLOP/s"
    assert at.sidebar.text_input(key="bw").value == "3.35 TB/s"
    assert at.text_input(key="l2_bw").value == "1.23456789e+13"
    assert tuple(table_kernels(at)) == sc.kernels
    at.run()
    assert at.sidebar.selectbox(key="device").value == "custom"
    assert at.query_params["device"] in ("custom", ["custom"])


@pytest.mark.parametrize("text,needle", [
    ('{"format": "roofline-lab.scenario", "version": 99, "device": "h100-sxm"}', "version 99"),
    ('{"format": "roofline-lab.scenario", "version": 1, "device": "h100-sxm", '
     '"precision": "bf16", "kernels": [{"name": "x", "flops": "lots", "bytes": 1}]}',
     "kernels[0].flops"),
    ('{"format": "roofline-lab.scenario", "version": 1, "precision": "bf16", "kernels": []}',
     "device is missing"),
    ('{"format": "roofline-lab.scenario", "version": 1, "device": "a100-80gb-sxm", '
     '"precision": "fp8", "kernels": []}', "fp8"),
    ("[1, 2", "not valid JSON"),
    ('{"format": "something else"}', "format"),
])
def test_hostile_scenario_shows_an_error_and_keeps_the_kernels(text, needle):
    at = roofline()
    before = at.session_state[state.ROWS_KEY]
    at = open_pasted(at, text)
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any("nothing on the page was changed" in e and needle in e for e in errors), errors
    assert at.session_state[state.ROWS_KEY] == before
    assert at.sidebar.selectbox(key="device").value == "a100-80gb-sxm"


def test_open_with_nothing_chosen_warns():
    at = roofline()
    at.button(key="rlx_scn_apply").click().run()
    assert not at.exception
    assert any("first" in w.value for w in at.warning)


# ----------------------------------------------------------------------------- import

@pytest.mark.parametrize("lang,heading,tab", [("en", "Import kernels", "Import"),
                                               ("zh", "导入 kernel", None)])
def test_import_section_renders_in_both_languages(lang, heading, tab):
    at = roofline(lang=lang)
    assert not at.exception
    assert heading in [s.value for s in at.subheader]
    assert any("ncu --csv" in c.value and "gpu__time_duration.sum" in c.value for c in at.code)
    assert at.number_input(key=import_panel.TENSOR_KEY).value is None   # from the GPU
    assert at.selectbox(key=import_panel.DTYPE_KEY).value == "bf16"


def test_process_upload_adds_once_and_errors_add_nothing():
    session: dict = {}
    added: list = []

    def add(records, source_label=None):
        added.append((list(records), source_label))
        return len(records)

    csv = b"name,flops,bytes,seconds\nmm,2e9,1e9,1e-3\nln,1e8,2e8,2e-4\n"
    out = import_panel.process_upload(session, csv, "k.csv", {}, add)
    assert out.ok and out.added == 2 and len(added) == 1
    assert added[0][1] == "import:k.csv"
    # the same file again (a rerun): not imported again
    assert import_panel.process_upload(session, csv, "k.csv", {}, add) is None
    assert len(added) == 1
    # a broken file: an error outcome, nothing added, the report slot holds the error
    bad = import_panel.process_upload(session, b"{broken", "t.json", {}, add)
    assert not bad.ok and len(added) == 1
    assert session[import_panel.RESULT_KEY] is bad


def test_process_upload_fixture_trace_with_progress():
    path = SAMPLE_TRACE
    if not path.exists():
        pytest.skip("fixture missing")
    session: dict = {}
    ticks: list = []
    out = import_panel.process_upload(session, path.read_bytes(), path.name,
                                      {"default_dtype": "fp32"}, lambda r, source_label: len(r),
                                      ticks.append)
    assert out.ok and out.added == len(out.records) > 100
    assert 0 < out.report.unplaced_time_share < 1
    assert ticks and ticks[-1] == 1.0


# ----------------------------------------------------------------------------- view, hierarchy

def test_view_controls_from_the_url_highlight_and_filter():
    at = roofline(top="2", size_by="time", filter="gemm")
    assert not at.exception
    spec = chart_spec(at)
    names = [tr.get("name", "") for tr in spec["data"]]
    assert any("Top" in n or "top" in n for n in names), names
    # only the GEMM row is left (the name filter): one kernel point, its hover names it
    hovers = [x for tr in spec["data"] if "markers" in (tr.get("mode") or "")
              and isinstance(tr.get("hovertext"), list) for x in tr["hovertext"]]
    assert len(hovers) == 1 and "gemm" in str(hovers[0]).lower()


def test_hierarchy_view_after_opening_an_ncu_scenario():
    at = roofline(hier="true")
    at = open_pasted(at, dump_scenario(SCENARIO))
    assert not at.exception
    names = trace_names(at)
    assert any("DRAM" in n for n in names) and any("L1" in n for n in names)
    assert any("L2 ceiling" in n for n in names)       # 1.2e13 B/s from the scenario
    at.text_input(key="l1_bw").input("abc").run()
    assert not at.exception
    assert any("abc" in e.value for e in at.error)
