"""Issue 8, defects 3, 4 and 13 on the decode page, both languages (AppTest)."""
import pytest

from page_helpers import open_app_page

PAGE = "pages/4_Decode_speed.py"
LLAMA2_70B_128K = dict(params="70B", tp="8", kv="true", layers="80", kv_heads="8",
                       head_dim="128", context="131072")


def texts(at, kind):
    return " ".join(e.value for e in getattr(at, kind))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ceiling_counts_the_kv_cache(lang):
    # KV per request 2 x 80 x 8 x 128 x 131072 x 2 B = 42.95e9 B; weights 140e9 B. On 8 GPUs
    # each holds 140e9 / 8 = 17.5e9 B and 42.95e9 / min(8, 8 KV heads) = 5.369e9 B of the
    # request's cache, read at its own 2.039e12 B/s: 2.039e12 / 22.87e9 = 89.16 tok/s
    # (without the cache 2.039e12 / 17.5e9 = 116.5)
    at = open_app_page(PAGE, lang, **LLAMA2_70B_128K)
    assert at.metric[0].value == "89.2 tok/s"
    assert "5.37 GB" in texts(at, "info") and "117 tok/s" in texts(at, "info")  # both shown
    # largest batch, one reserve (10 %): (0.9 x 85.90e9 - 17.5e9) / 5.369e9 = 11.1 -> 11
    assert "**11**" in texts(at, "caption")


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
    # largest batch, one reserve (10 %): (0.9 x 85.9e9 - 14e9) / 2.147e9 = 29.5 -> 29
    assert "**29**" in texts(at, "caption")
    md = " ".join(m.value for m in at.main.markdown)
    assert ("Batch 1024 does not fit" in md) if lang == "en" else ("batch 1024 放不进显存" in md)


def test_weights_that_do_not_fit_get_no_ceiling():
    # 70B bf16 on one 80 GiB GPU: 140e9 > 85.9e9
    at = open_app_page(PAGE, "en", params="70B")
    assert at.metric[0].value == "140 GB" and "1" in at.metric[0].label
    assert "140 GB" in texts(at, "error")
