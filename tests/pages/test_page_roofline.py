"""The roofline page under AppTest, always started from app.py (like a user)."""

import pytest
from streamlit.testing.v1 import AppTest

from calc.kernel_table import KernelRecord
from calc.scenario import encode_kernels

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
