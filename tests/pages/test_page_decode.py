"""AppTest: the decode-speed page (pages/4_Decode_speed.py), both languages.

Hand arithmetic (seed chapter 04): 7B in BF16 = 7e9 x 2 = 14e9 bytes.
A100 80GB: 2.039e12 / 14e9 = 145.6 -> "146 tok/s"; the seed's 2 TB/s: 142.9 -> "143 tok/s".
"""

import pytest

from page_helpers import open_app_page

PAGE = "pages/4_Decode_speed.py"


def open_page(lang="en", **params):
    return open_app_page(PAGE, lang, **params)


def texts(at, kind):
    return " ".join(e.value for e in getattr(at, kind))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_defaults(lang):
    at = open_page(lang)
    assert at.metric[0].value == "146 tok/s"
    assert at.metric[1].value == "146 tok/s" and at.metric[2].value == "146 tok/s"
    assert "14 GB" in texts(at, "info")
    # knee: bytes_per_param x peak / (2 x bw) = 2 x 312e12 / (2 x 2.039e12) = 153
    assert any("153" in m.value for m in at.markdown)
    # roofline text: intensity 2 x 1 / 2 = 1 FLOP/B; MFU 2.039e12 / 312e12 = 0.65 %
    assert any("0.65%" in m.value for m in at.markdown)
    assert at.success                          # 14 GB fits in 80 GB
    assert len(at.get("plotly_chart")) == 2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_seed_button(lang):
    at = open_page(lang)
    at.button[0].click().run()
    assert not at.exception
    assert at.metric[0].value == "143 tok/s"   # 2e12 / 14e9 = 142.9
    assert at.session_state["device"] == "custom"


def test_quantisation_and_tensor_parallel():
    # INT4: 3.5 GB -> 2.039e12 / 3.5e9 = 582.6
    assert open_page("en", weights="int4").metric[0].value == "583 tok/s"
    # FP8 on one GPU, or BF16 on 2 GPUs: both 291.3
    assert open_page("en", weights="fp8").metric[0].value == "291 tok/s"
    assert open_page("zh", tp="2").metric[0].value == "291 tok/s"
    # an old link's gpus= was this page's tensor-parallel group: read once as tp
    at = open_page("en", gpus="2")
    assert at.metric[0].value == "291 tok/s" and at.query_params["tp"] == "2"
    assert "gpus" not in at.query_params


def test_batching():
    at = open_page("en", batch="64")
    # below the knee: 64 x 145.6 = 9 321 tok/s total, each request still 146
    assert at.metric[1].value == "9.32 ktok/s"
    assert at.metric[2].value == "146 tok/s"
    at = open_page("en", batch="1024")
    # above the knee: step = 2 x 7e9 x 1024 / 312e12 = 45.95 ms -> 22 286 tok/s, 21.8 per request
    assert at.metric[1].value == "22.3 ktok/s"
    assert at.metric[2].value == "21.8 tok/s"


def test_measured_and_kv_cache():
    # 73 tok/s x 14e9 B = 1.022e12 B/s = 50 % of 2.039e12
    at = open_page("en", measured="73")
    assert "1.02 TB/s" in texts(at, "info") and "50%" in texts(at, "info")
    # KV: 2 x 32 x 32 x 128 x 4096 x 2 B = 2.147e9 B per request;
    # batch 64: 137 GB + 14 GB > 80 GB -> does not fit
    at = open_page("en", kv="true", batch="64")
    assert "2.15 GB" in " ".join(c.value for c in at.caption)
    assert "137 GB" in texts(at, "error")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_garbage_query_params(lang):
    at = open_page(lang, params="abc", gpus="-1", batch="99999", weights="int3",
                   kv="x", kv_dtype="fp64", context="-1", measured="fast")
    assert len(at.error) >= 3
    assert len(at.metric) == 0 and at.warning
    at = open_page(lang, batch="99999", weights="int3")
    assert at.metric[0].value == "146 tok/s"    # both fell back to defaults (1, bf16)


def test_bad_typed_input_keeps_page_working():
    at = open_page("en")
    at.text_input(key="measured").set_value("very fast").run()
    assert not at.exception and at.error
    assert at.metric[0].value == "146 tok/s"
    at.text_input(key="params").set_value("0").run()
    assert not at.exception and len(at.metric) == 0
