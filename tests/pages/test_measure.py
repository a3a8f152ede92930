"""Measure page through AppTest: the no-torch hint, a (shortened) measurement, the measured
device in the sidebar, measured ÷ datasheet against the A100 datasheet, live kernels, the
lock, both languages. ROOFLINE_LAB_MEASURE_SCALE=0.1 shortens every budget (the real
`--quick` run is tested in tests/measure and in the browser test)."""
import pytest

from measure import lock
from page_helpers import open_app_page

PAGE = "pages/8_Measure.py"


@pytest.fixture(autouse=True)
def short_budgets(monkeypatch):
    monkeypatch.setenv("ROOFLINE_LAB_MEASURE_SCALE", "0.1")


def _button(at, key):
    return next(b for b in at.button if b.key == key)


def test_page_before_a_measurement():
    at = open_app_page(PAGE)
    infos = " ".join(i.value for i in at.info)
    assert 'pip install -e ".[gpu]"' in infos            # no torch on this machine: how to enable it
    assert "Nothing measured yet" in infos
    assert at.checkbox(key="m_quick").value is True
    assert _button(at, "measure_start")


@pytest.fixture(scope="module")
def measured():
    import os
    os.environ["ROOFLINE_LAB_MEASURE_SCALE"] = "0.1"
    try:
        at = open_app_page(PAGE, timeout=120)
        _button(at, "measure_start").click().run(timeout=120)
    finally:
        os.environ.pop("ROOFLINE_LAB_MEASURE_SCALE", None)
    assert not at.exception, at.exception
    return at


def test_measurement_adds_the_device_and_compares_with_the_datasheet(measured):
    at = measured
    assert any("Measured in" in s.value for s in at.success)
    options = at.sidebar.selectbox(key="device").options
    assert any("measured" in o for o in options)
    table = at.dataframe[0].value
    assert list(table.columns)[-1] == "Measured ÷ datasheet"
    # issue 23 item 5: the measured device is this CPU and the sidebar's default device the
    # A100 80GB GPU: not comparable, no ratio ("0.000216 %" of a GPU said nothing)
    infos = " ".join(i.value for i in at.info)
    assert "not comparable" in infos
    assert set(table["Datasheet"]) == {"—"} and set(table["Measured ÷ datasheet"]) == {"—"}
    assert "Peak FP64" in set(table["Ceiling"]) and "Peak FP32" in set(table["Ceiling"])
    # a custom device (the CPU's datasheet figures typed in) is compared:
    # measured ÷ datasheet = measured / 100e9, printed with 3 significant digits
    at.sidebar.selectbox(key="device").set_value("custom").run()
    at.sidebar.text_input(key="peak").set_value("1 TFLOP/s").run()
    at.sidebar.text_input(key="bw").set_value("100 GB/s").run()
    assert not at.exception
    table = at.dataframe[0].value
    dram = table[table["Ceiling"] == "DRAM bandwidth"].iloc[0]
    assert dram["Datasheet"] == "100 GB/s"
    from calc.units import parse_quantity
    measured_bw = parse_quantity(dram["Measured (best)"])
    ratio = float(dram["Measured ÷ datasheet"].rstrip(" %"))
    assert ratio == pytest.approx(measured_bw / 100e9 * 100, rel=0.01)
    at.sidebar.selectbox(key="device").set_value("a100-80gb-sxm").run()
    assert any(b.key == "measure_run_kernels" for b in at.button)


def test_live_kernels_run_and_are_tabled(measured):
    at = measured
    at.text_input(key="m_gemm_n").set_value("256")
    at.text_input(key="m_gemv_m").set_value("1024")
    at.text_input(key="m_gemv_n").set_value("1024")
    at.text_input(key="m_add_n").set_value("1M")
    at.text_input(key="m_sum_n").set_value("1M")
    at.run()
    _button(at, "measure_run_kernels").click().run(timeout=60)
    assert not at.exception, at.exception
    live = at.dataframe[-1].value
    assert list(live["Kernel"]) == ["GEMM 256×256×256, 8 B", "GEMV 1024×1024, 8 B",
                                    "elementwise 1000000, 8 B", "sum 1000000, 8 B"]
    # FLOPs from calc.kernels: 2·256³ = 33.6 MFLOP; 2·1024² = 2.1 MFLOP; 1M; 999,999
    assert list(live["FLOPs"]) == ["33.6 MFLOP", "2.1 MFLOP", "1 MFLOP", "1 MFLOP"]


def test_a_bad_size_is_refused_with_a_message(measured):
    at = measured
    at.text_input(key="m_add_n").set_value("200M")      # 3 × 200M × 8 B = 4.8 GB > 1 GiB
    at.run()
    errors = " ".join(e.value for e in at.error)
    assert "elementwise" in errors and "MiB" in errors and "limit" in errors
    assert _button(at, "measure_run_kernels").disabled
    at.text_input(key="m_add_n").set_value("8M")
    at.run()


def test_chinese(measured):
    at = measured
    at.sidebar.selectbox(key="lang").set_value("zh").run()
    assert not at.exception
    assert at.title[0].value == "实测本机"
    assert "实测 ÷ 规格书" in list(at.dataframe[0].value.columns)


def test_another_users_measurement_blocks_start():
    with lock.exclusive("session other", "benchmark", 30):
        at = open_app_page(PAGE)
        warn = " ".join(w.value for w in at.warning)
        assert "session other" in warn and "One measurement at a time" in warn
        assert not any(b.key == "measure_start" for b in at.button)
    at.run()
    assert any(b.key == "measure_start" for b in at.button)


def test_cancelled_flag_is_reported():
    at = open_app_page(PAGE)
    at.session_state["measure.cancelled"] = True
    at.run()
    assert any("cancelled" in w.value for w in at.warning)
