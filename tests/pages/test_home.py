"""Home page and the shared sidebar (ui.frame) under AppTest."""
import pytest
from streamlit.testing.v1 import AppTest


def run_home(**params) -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=60)
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def sidebar_text(at: AppTest) -> str:
    return "\n".join(m.value for m in at.sidebar.markdown)


@pytest.mark.parametrize("lang,title", [("en", "Roofline Lab"), ("zh", "Roofline Lab")])
def test_home_renders_in_both_languages(lang, title):
    at = run_home(lang=lang)
    assert not at.exception
    assert at.title[0].value == title
    assert at.selectbox(key="lang").value == lang
    if lang == "zh":
        assert "瓶颈" in at.markdown[0].value


def test_default_device_is_a100_80gb_and_the_seed_lesson_is_shown():
    at = run_home()
    # A100 80GB SXM: 312e12 / 2.039e12 = 153.02 FLOP/B; intensity 2 -> 2 x 2.039e12 = 4.078e12.
    info = at.info[0].value
    assert "153 FLOP/B" in info and "4.08 TFLOP/s" in info
    facts = sidebar_text(at)
    assert "312 TFLOP/s" in facts and "2.04 TB/s" in facts and "80 GiB" in facts


def test_custom_device_reproduces_the_seed_ridge_156():
    # Seed: 312 TFLOP/s over 2 TB/s -> 312e12 / 2e12 = 156 FLOP/B.
    at = run_home(device="custom", peak="312T", bw="2 TB/s")
    assert not at.exception
    assert "156 FLOP/B" in sidebar_text(at)
    # intensity 2 on 2 TB/s -> 4e12 FLOP/s: the seed's "at most 4 TFLOPS".
    assert "4 TFLOP/s" in at.info[0].value


def test_h100_fp8_from_the_url():
    at = run_home(device="h100-sxm", precision="fp8")
    facts = sidebar_text(at)
    # H100 SXM FP8 dense 1978.9 TFLOP/s over 3.35 TB/s -> 590.7 FLOP/B.
    assert "1.98 PFLOP/s" in facts and "591 FLOP/B" in facts
    # Sparse headline caption: 2 x 1978.9 = 3957.8 TFLOP/s.
    assert any("3.96 PFLOP/s" in c.value for c in at.sidebar.caption)


@pytest.mark.parametrize("params", [
    {"device": "no-such-gpu"}, {"precision": "fp3"}, {"lang": "fr"},
    {"device": "v100-sxm2-32gb", "precision": "bf16"},  # V100 has no BF16
    {"device": "custom", "peak": "abc", "bw": "-1"}, {"img": "gif"},
    {"device": "<script>alert(1)</script>"},
])
def test_garbage_query_params_fall_back_without_exception(params):
    at = run_home(**params)
    assert not at.exception
    assert at.title[0].value == "Roofline Lab"


def test_v100_precision_falls_back_to_its_default_fp16():
    at = run_home(device="v100-sxm2-32gb", precision="bf16")
    assert at.selectbox(key="precision").value == "fp16"


def test_custom_device_with_bad_fields_shows_messages_not_a_traceback():
    at = run_home(device="custom", peak="abc", bw="2 TB/s")
    assert not at.exception
    assert any("abc" in e.value for e in at.error)
    assert at.warning  # "enter a valid peak and bandwidth"


def test_language_device_and_precision_persist_across_pages():
    at = run_home(lang="zh", device="h100-sxm", precision="fp8")
    at.query_params.clear()  # a page change without the link's query parameters
    at.switch_page("pages/1_Roofline.py").run()
    assert not at.exception
    assert at.selectbox(key="lang").value == "zh"
    assert at.selectbox(key="device").value == "h100-sxm"
    assert at.selectbox(key="precision").value == "fp8"


def test_malformed_hardware_file_is_shown_instead_of_a_traceback(tmp_path, monkeypatch):
    bad = tmp_path / "hardware.toml"
    bad.write_text("[devices.x-1]\nname = 'X'\nvendor = 'V'\nyear = 2020\n"
                   "memory_gb = 10\nmem_bw_gbs = -5\nsparse_headline = false\n"
                   "source = 's'\n[devices.x-1.peak_tflops]\nbf16 = 1\n")
    monkeypatch.setenv("ROOFLINE_LAB_HARDWARE", str(bad))
    at = run_home()
    assert not at.exception
    message = " ".join(e.value for e in at.sidebar.error)
    assert "hardware.toml" in message and "x-1" in message and "mem_bw_gbs" in message
    # Only the custom device is left, and the page still works with it.
    assert at.selectbox(key="device").value == "custom"
