"""A link's value that is not a choice of its widget is left out and SAID (it was dropped in
silence: a shared link with a mistyped device opened the default device's numbers as if they
were the link's). ui.state.say_ignored, on every hand-synced option widget."""
import pytest
from streamlit.testing.v1 import AppTest

from page_helpers import APP, open_app_page
from ui.i18n import CATALOGS


def said(elements, name, value, lang):
    head = CATALOGS[lang]["common.url_ignored"].split("{name}")[0]
    return [w.value for w in elements if head in w.value and f"{name}={value}" in w.value]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_unknown_device_in_a_link_is_named_in_the_sidebar(lang):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.query_params["device"] = "h100-sxm5-typo"
    at.run()
    assert not at.exception
    assert said(at.sidebar.warning, "device", "h100-sxm5-typo", lang)
    # and a valid one says nothing
    ok = AppTest.from_file(APP, default_timeout=60)
    ok.query_params["device"] = "h100-sxm"
    ok.run()
    assert not [w for w in ok.sidebar.warning if "device=" in w.value]


def test_roofline_roofs_and_compare_name_what_they_left_out():
    # the A100 has no FP8 peak (hardware.toml, dense peaks), and there is no device "zzz"
    at = open_app_page("pages/1_Roofline.py", "en", timeout=120, device="a100-80gb-sxm",
                       roofs="fp8,fp32", compare="zzz:bf16,h100-sxm:bf16")
    warnings = list(at.warning) + list(at.sidebar.warning)
    assert said(warnings, "roofs", "fp8", "en") and not said(warnings, "roofs", "fp32", "en")
    assert said(warnings, "compare", "zzz:bf16", "en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serving_slider_and_device_list_name_what_they_left_out(lang):
    at = open_app_page("pages/10_Serving.py", lang, timeout=120, model="qwen3-32b", s_tpot="0.001",
                       s_devices="h100-sxm,zzz", s_sim="false")
    assert not at.exception
    assert said(at.warning, "s_tpot", "0.001", lang)
    assert said(at.warning, "s_devices", "zzz", lang)
