"""AppTest: the decode-speed page (pages/4_Decode_speed.py), both languages.

Hand arithmetic (seed chapter 04): 7B in BF16 = 7e9 x 2 = 14e9 bytes.
A100 80GB: 2.039e12 / 14e9 = 145.6 -> "146 tok/s"; the seed's 2 TB/s: 142.9 -> "143 tok/s".
"""

import pytest

from page_helpers import metric, open_app_page, texts

PAGE = "pages/4_Decode_speed.py"


def open_page(lang="en", **params):
    return open_app_page(PAGE, lang, **params)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_defaults(lang):
    at = open_page(lang)
    assert metric(at, "decode.metric.bound") == "146 tok/s"
    assert metric(at, "decode.metric.throughput") == "146 tok/s" and metric(at, "decode.metric.per_request") == "146 tok/s"
    assert "14 GB" in texts(at, "info")
    # knee: bytes_per_param x peak / (2 x bw) = 2 x 312e12 / (2 x 2.039e12) = 153
    assert any("153" in m.value for m in at.markdown)
    # roofline text: intensity 2 x 1 / 2 = 1 FLOP/B; MFU 2.039e12 / 312e12 = 0.65 %
    assert any("0.65%" in m.value for m in at.markdown)
    assert at.success                          # 14 GB fits in 80 GB
    assert len(at.get("plotly_chart")) == 2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_fit_message_says_the_kv_cache_is_not_counted_when_it_is_off(lang):
    """Parameters only, KV off: the fit is weights alone (14 GB), and the message says the KV
    cache was left out rather than adding a "KV cache 0 B"; with it on (7B Llama: 32 layers,
    32 KV heads of 128, 2048 tokens, BF16: 2 * 32 * 32 * 128 * 2 * 2048 = 1.07 GB) it adds it."""
    off = texts(open_page(lang), "success")
    assert "14 GB" in off and "0 B" not in off
    assert ("not counted" if lang == "en" else "未计入") in off
    on = texts(open_page(lang, kv="true", layers="32", kv_heads="32", head_dim="128",
                         context="2048"), "success")
    assert "1.07 GB" in on and "15.1 GB" in on
    assert ("not counted" if lang == "en" else "未计入") not in on


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_seed_button(lang):
    at = open_page(lang)
    at.button[0].click().run()
    assert not at.exception
    assert metric(at, "decode.metric.bound") == "143 tok/s"   # 2e12 / 14e9 = 142.9
    assert at.session_state["device"] == "custom"


def test_quantisation_and_tensor_parallel():
    # INT4: 3.5 GB -> 2.039e12 / 3.5e9 = 582.6
    assert metric(open_page("en", weights="int4"), "decode.metric.bound") == "583 tok/s"
    # FP8 on one GPU, or BF16 on 2 GPUs: both 291.3
    assert metric(open_page("en", weights="fp8"), "decode.metric.bound") == "291 tok/s"
    assert metric(open_page("zh", tp="2"), "decode.metric.bound") == "291 tok/s"
    # an old link's gpus= was this page's tensor-parallel group: read once as tp
    at = open_page("en", gpus="2")
    assert metric(at, "decode.metric.bound") == "291 tok/s" and at.query_params["tp"] == "2"
    assert "gpus" not in at.query_params
    # ... also when the page was open before in this session (its tp field is then bound
    # to the URL, and the URL may not be written directly: an exception, found by the fuzzer)
    at.query_params.clear()
    at.query_params["gpus"] = "4"
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    # tp 4: 4 x 2.039e12 / 14e9 = 582.6
    assert metric(at, "decode.metric.bound") == "583 tok/s" and "gpus" not in at.query_params


def test_batching():
    at = open_page("en", batch="64")
    # below the knee: 64 x 145.6 = 9 321 tok/s total, each request still 146
    assert metric(at, "decode.metric.throughput") == "9.32 ktok/s"
    assert metric(at, "decode.metric.per_request") == "146 tok/s"
    at = open_page("en", batch="1024")
    # above the knee: step = 2 x 7e9 x 1024 / 312e12 = 45.95 ms -> 22 286 tok/s, 21.8 per request
    assert metric(at, "decode.metric.throughput") == "22.3 ktok/s"
    assert metric(at, "decode.metric.per_request") == "21.8 tok/s"


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
    assert metric(at, "decode.metric.bound") == "146 tok/s"    # both fell back to defaults (1, bf16)


def test_bad_typed_input_keeps_page_working():
    at = open_page("en")
    at.text_input(key="measured").set_value("very fast").run()
    assert not at.exception and at.error
    assert metric(at, "decode.metric.bound") == "146 tok/s"
    at.text_input(key="params").set_value("0").run()
    assert not at.exception and len(at.metric) == 0


# ---- Folded from tests/pages/test_page_decode_review.py:
# Issue 8, defects 3, 4 and 13 on the decode page, both languages (AppTest).
PAGE = "pages/4_Decode_speed.py"


LLAMA2_70B_128K = dict(params="70B", tp="8", kv="true", layers="80", kv_heads="8",
                       head_dim="128", context="131072")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ceiling_counts_the_kv_cache(lang):
    # KV per request 2 x 80 x 8 x 128 x 131072 x 2 B = 42.95e9 B; weights 140e9 B. On 8 GPUs
    # each holds 140e9 / 8 = 17.5e9 B and 42.95e9 / min(8, 8 KV heads) = 5.369e9 B of the
    # request's cache, read at its own 2.039e12 B/s: 2.039e12 / 22.87e9 = 89.16 tok/s
    # (without the cache 2.039e12 / 17.5e9 = 116.5)
    at = open_app_page(PAGE, lang, **LLAMA2_70B_128K)
    assert metric(at, "decode.metric.bound") == "89.2 tok/s"
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
    assert metric(at, "decode.metric.needs", batch=1024) == "2.21 TB"
    assert metric(at, "decode.metric.has") == "85.9 GB"            # what the GPU holds: 80 GiB
    # batch 1 fits: 2.039e12 / (14e9 + 2.147e9) = 126.3 tok/s
    assert metric(at, "decode.metric.bound") == "126 tok/s"
    # largest batch, one reserve (10 %): (0.9 x 85.9e9 - 14e9) / 2.147e9 = 29.5 -> 29
    assert "**29**" in texts(at, "caption")
    md = " ".join(m.value for m in at.main.markdown)
    assert ("Batch 1024 does not fit" in md) if lang == "en" else ("批大小 1024 放不进显存" in md)


def test_weights_that_do_not_fit_get_no_ceiling():
    # 70B bf16 on one 80 GiB GPU: 140e9 > 85.9e9
    at = open_app_page(PAGE, "en", params="70B")
    assert metric(at, "decode.metric.needs", batch=1) == "140 GB"
    assert "140 GB" in texts(at, "error")


# ---- Issue 23 (items 7, 8, 10) and issue 19 (defect 7) on the Decode page
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_any_whole_batch_is_accepted_and_garbage_gets_the_standard_message(lang):
    # batch=120 (not a power of two): 120 x 145.6 = 17.5 ktok/s below the knee (153)
    at = open_page(lang, batch="120")
    assert at.text_input(key="batch").value == "120"
    assert at.metric[1].value == "17.5 ktok/s" and "120" in at.metric[1].label
    assert not at.error
    # batch=abc: the message every quantity field gives, naming the field
    at = open_page(lang, batch="abc")
    label = "Batch size (concurrent requests)" if lang == "en" else "批大小（并发请求数）"
    assert any(e.value.startswith(label) and "abc" in e.value for e in at.error)
    assert len(at.metric) == 0


def test_a_metric_is_a_number_and_the_sentence_goes_below():
    # 70B bf16 on one 80 GiB GPU: the metric says "140 GB" under a short label; the
    # sentence ("does not fit ...") is an error box, not a truncated label
    at = open_page("en", params="70B")
    assert at.metric[0].value == "140 GB"
    assert at.metric[0].label == "Memory per GPU, batch 1"
    assert all(len(m.label) <= 32 and "fit" not in m.label for m in at.metric)
    assert "does not fit" in " ".join(e.value for e in at.error)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_batch1_mfu_is_said_once(lang):
    # the roofline text gives batch 1's MFU (0.65 %) and, at batch 1, no "At batch 1: …" again
    at = open_page(lang, model="llama-2-70b", device="h100-sxm", tp="2")
    md = " ".join(m.value for m in at.markdown)
    assert "At batch 1:" not in md and "批大小 1 时为" not in md
    # at batch 8 the batch's own MFU is added, once
    at = open_page(lang, model="llama-2-70b", device="h100-sxm", tp="2", batch="8")
    md = " ".join(m.value for m in at.markdown)
    assert md.count("At batch 8:" if lang == "en" else "批大小 8 时为") == 1


def test_moe_formula_text_includes_the_embedding_gather():
    # Issue 19 defect 7: gpt-oss-20b, batch 1, bf16.  The MoE read formula must say what the
    # page computes: (N_total − E_in + b·d − N_routed)·b_w + L·D(1)·N_expert·b_w.  With the
    # model's counts: E_in = 201,088 x 2,880 = 579.1 M (untied), b·d = 2,880, D(1) = 4 of 32
    # experts; evaluated, it is the page's weights read (7.22 GB), not 8.37 GB.
    from calc.arch import param_counts
    arch, r, formulas = _decode_how("gpt-oss-20b", "bf16", weights="bf16")
    pc = param_counts(arch)
    by_hand = ((pc.total - pc.embedding + arch.d_model - pc.routed_experts) * 2
               + arch.n_moe_layers * 4 * pc.expert * 2)
    assert pc.embedding == 201_088 * 2_880
    assert r.step.weight_bytes == pytest.approx(by_hand)
    assert r.step.weight_bytes == pytest.approx(7.22e9, rel=2e-3)
    moe = next(f for f in formulas if "D(b)" in f.latex)
    assert r"E_{\text{in}}" in moe.latex and r"b\,d" in moe.latex
    assert "7.22" in moe.latex


def test_a_rejected_kv_field_is_in_sight():
    # 20,000 layers is above the catalog's limit (calc.arch.ARCH_LIMITS: 10,000): the field
    # says so, and the KV cache expander that holds it is open (closed by default)
    at = open_page("en", layers="20000")
    assert any("Layers L" in e.value and "at most" in e.value for e in at.error)
    kv = next(e for e in at.expander if e.label == "KV cache (optional)")
    assert kv.proto.expanded
    assert not next(e for e in open_page("en").expander if e.label == "KV cache (optional)").proto.expanded


def _decode_how(model_id, precision, *, weights, prompt=None):
    """The Decode page's answer and "How it is computed" formulas for one model at batch 1
    and 4,096 tokens of context on the A100 in ``precision`` (the expander is lazy, so
    AppTest does not open it): (arch, report, formulas)."""
    from types import SimpleNamespace
    from calc.hardware import load_hardware, rate_unit
    from calc.model_catalog import load_models
    from ui.decode.answer import decode_answer
    from ui.decode.how import how_formulas
    from ui.decode.inputs import DecodeInputs
    from ui.i18n import translator

    arch = load_models()[model_id]
    dev = load_hardware()["a100-80gb-sxm"]
    ctx = SimpleNamespace(t=translator("en"), device=dev, peak_flops=dev.peak_flops(precision),
                          mem_bw=dev.mem_bw, model=arch, op=lambda: rate_unit(precision, ""))
    inp = DecodeInputs(arch=arch, from_model=True, weights=weights, tp=1, batch=1, kv=True,
                       context=4096.0, kv_dtype="bf16", measured=None, prompt=prompt,
                       tp_comm=False)
    r = decode_answer(ctx, inp)
    return arch, r, how_formulas(ctx, inp, r)


def test_int8_decode_formulas_pair_operations_with_the_int8_peak():
    # INT8 on the A100 (624 TOP/s, its datasheet): the step's max(bytes / B, ops / P) and the
    # prefill's name the operations in OP, as the peak is in OP/s (they paired FLOP with
    # OP/s). Llama 3.1 8B at batch 1 does some G operations a step: "GOP".
    _, _, formulas = _decode_how("llama-3.1-8b", "int8", weights="int8", prompt=4096.0)
    latex = " ".join(f.latex for f in formulas)
    assert "624 TOP/s" in latex
    assert "GOP}" in latex and "FLOP}" not in latex.replace(r"\text{FLOP}(b)", ""), latex
