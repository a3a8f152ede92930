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
    assert open_page("zh", gpus="2").metric[0].value == "291 tok/s"


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


# ---- Folded from tests/pages/test_page_decode_review.py:
# Issue 8, defects 3, 4 and 13 on the decode page, both languages (AppTest).
PAGE = "pages/4_Decode_speed.py"


LLAMA2_70B_128K = dict(params="70B", gpus="8", kv="true", layers="80", kv_heads="8",
                       head_dim="128", context="131072")


def texts(at, kind):
    return " ".join(e.value for e in getattr(at, kind))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ceiling_counts_the_kv_cache(lang):
    # KV per request 2 x 80 x 8 x 128 x 131072 x 2 B = 42.95e9 B; weights 140e9 B;
    # 8 x 2.039e12 = 16.312e12 B/s -> 16.312e12 / 182.95e9 = 89.16 tok/s (not 116.5)
    at = open_app_page(PAGE, lang, **LLAMA2_70B_128K)
    assert at.metric[0].value == "89.2 tok/s"
    assert "42.9 GB" in texts(at, "info") and "117 tok/s" in texts(at, "info")  # both shown
    # largest batch: (8 x 80 GiB = 687.2e9 - 140e9) / 42.95e9 = 12.7 -> 12
    assert "**12**" in texts(at, "caption")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_batch1_mfu_rule_and_the_batches_reaching_1_to_5_percent(lang):
    # A100 80GB bf16: ridge 153 FLOP/B -> 2 / (2 x 153) = 0.65 %; 1 % at batch 1.53 -> "2",
    # 5 % at batch 7.65 -> "8"
    at = open_app_page(PAGE, lang)
    md = " ".join(m.value for m in at.markdown)
    assert "0.65%" in md and "≈ 2" in md and "≈ 8" in md
    assert "1–5 %" not in " ".join(s.value for s in at.subheader)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_100_percent_mfu_at_the_knee(lang):
    # batch 256 > knee 153 (KV off): the model would say 100 %, the page must not
    at = open_app_page(PAGE, lang, batch="256")
    md = " ".join(m.value for m in at.markdown)
    assert "100.0%" not in md and ("100 %" in md or "100%" in md)  # says why, gives none
    # batch 64 < knee: 64 x 0.6535 % = 41.8 %
    at = open_app_page(PAGE, lang, batch="64")
    assert "41.8%" in " ".join(m.value for m in at.markdown)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_headline_for_a_batch_that_does_not_fit(lang):
    # 7B bf16, KV on (32 x 32 x 128, 4096 ctx, bf16): 2.147e9 B per request; batch 1024:
    # 14e9 + 1024 x 2.147e9 = 2.213e12 B > 85.9e9 B (80 GiB) -> "needs 2.21 TB", no tok/s
    at = open_app_page(PAGE, lang, kv="true", batch="1024")
    assert at.metric[1].value == "2.21 TB" and "1024" in at.metric[1].label
    assert at.metric[2].value == "85.9 GB"            # what the GPU holds: 80 GiB
    # batch 1 fits: 2.039e12 / (14e9 + 2.147e9) = 126.3 tok/s
    assert at.metric[0].value == "126 tok/s"
    # largest batch: (85.9e9 - 14e9) / 2.147e9 = 33.5 -> 33
    assert "**33**" in texts(at, "caption")
    md = " ".join(m.value for m in at.main.markdown)
    assert ("Batch 1024 does not fit" in md) if lang == "en" else ("batch 1024 放不进显存" in md)


def test_weights_that_do_not_fit_get_no_ceiling():
    # 70B bf16 on one 80 GiB GPU: 140e9 > 85.9e9
    at = open_app_page(PAGE, "en", params="70B")
    assert at.metric[0].value == "140 GB" and "1" in at.metric[0].label
    assert "140 GB" in texts(at, "error")
