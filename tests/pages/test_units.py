"""Issue 8, defect 11 on the pages: fields reject a quantity of another unit, naming both,
with examples that fit the field; a price takes a currency sign.  Both languages."""
import pytest
from streamlit.testing.v1 import AppTest

from page_helpers import open_app_page


def run_home(**params) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def sidebar_errors(at):
    return " ".join(e.value for e in at.sidebar.error)


@pytest.mark.parametrize("lang, peak, got", [
    ("en", "3 TB/s", "a bandwidth"), ("en", "14 GB", "an amount of memory"),
    ("zh", "3 TB/s", "带宽"), ("zh", "14 GB", "字节数"),
])
def test_custom_peak_rejects_other_units(lang, peak, got):
    at = run_home(lang=lang, device="custom", peak=peak, bw="2 TB/s")
    err = sidebar_errors(at)
    assert got in err and ("compute rate" in err if lang == "en" else "算力" in err)
    assert "312 TFLOP/s" in err and "2 TB/s" not in err.split(peak)[-1]   # fitting examples


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_custom_bandwidth_rejects_a_compute_rate(lang):
    at = run_home(lang=lang, device="custom", peak="312T", bw="2 TFLOP/s")
    err = sidebar_errors(at)
    assert ("a bandwidth" in err and "a compute rate" in err) if lang == "en" else \
        ("带宽" in err and "算力" in err)
    assert "3350 GB/s" in err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mfu_peak_field_examples_fit_the_field(lang):
    at = open_app_page("pages/2_MFU.py", lang, peak_override="2 TB/s")
    err = " ".join(e.value for e in at.main.error)
    assert "989.4 TFLOPS" in err
    # "2 TB/s" appears only as the rejected text, never as an example
    assert err.count("2 TB/s") == 1


@pytest.mark.parametrize("lang, price, cost", [
    # 6 x 7e9 x 1e12 / (312e12 x 0.45) = 2.99145e8 s = 83,095.9 GPU-hours
    # (issue 16: the cost names its currency by symbol and code)
    ("en", "$2", "$166,192 USD"),        # x 2 = 166,191.8
    ("zh", "¥15", "¥1,246,439 CNY"),     # x 15 = 1,246,438.8
    ("en", "2 USD", "$166,192 USD"),
])
def test_price_with_a_currency_sign(lang, price, cost):
    at = open_app_page("pages/3_Training_time.py", lang, price=price)
    assert not at.main.error
    assert any(m.value == cost for m in at.metric)
    # the typed currency sets the (then disabled) currency choice
    assert at.selectbox(key="currency").value == cost.split()[-1]
    assert at.selectbox(key="currency").disabled


def test_price_rejects_a_quantity():
    at = open_app_page("pages/3_Training_time.py", "en", price="14 GB")
    err = " ".join(e.value for e in at.main.error)
    assert "a price" in err and "an amount of memory" in err
