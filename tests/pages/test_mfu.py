"""AppTest: the MFU page (pages/2_MFU.py), both languages.

Expected numbers are worked out by hand in the comments (seed chapter 04).
"""

import pytest

from page_helpers import metric, open_app_page, texts
from ui.i18n import CATALOGS

PAGE = "pages/2_MFU.py"


def open_page(lang="en", **params):
    return open_app_page(PAGE, lang, **params)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_defaults_reproduce_seed(lang):
    at = open_page(lang)
    # 6 x 7e9 x 12 000 = 5.04e14 FLOP/s; 8 x 312e12 = 2.496e15 FLOP/s -> 0.2019 = 20.2 %
    assert metric(at, "mfu.metric.mfu") == "20.2%"
    # per GPU: 5.04e14 / 8 = 6.3e13 = 63 TFLOP/s; FLOP per token 6 x 7e9 = 42 GFLOP
    assert metric(at, "mfu.metric.achieved") == "63 TFLOP/s"
    assert metric(at, "mfu.metric.fpt") == "42 GFLOP"
    # 20.2 % is in the 20-35 % "low" band
    assert "20.2%" in texts(at, "warning")
    # inverse: 0.45 x 8 x 312e12 / 4.2e10 = 26 743 tok/s
    assert "26.7 ktok/s" in texts(at, "info")
    # the diagnosis checklist, snippets and trace table are there
    assert len(at.code) == 2
    assert "randint" in at.code[0].value and "profile" in at.code[1].value
    assert any("nccl" in m.value for m in at.markdown)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_doubling_tokens_doubles_mfu(lang):
    at = open_page(lang)
    at.text_input(key="tokens_per_s").set_value("24000").run()
    assert not at.exception
    assert metric(at, "mfu.metric.mfu") == "40.4%"     # 2 x 20.19 % = 40.38 %


def test_query_params_reproduce_state():
    # 6 x 70e9 x 1200 = 5.04e14; 64 x 312e12 = 1.9968e16 -> 2.52 %
    at = open_page("en", params="70B", tokens_per_s="1200", gpus="64")
    assert metric(at, "mfu.metric.mfu") == "2.5%"
    assert at.text_input(key="params").value == "70B"


def test_peak_override():
    # 5.04e14 / (8 x 624e12) = 10.1 %
    at = open_page("en", peak_override="624T")
    assert metric(at, "mfu.metric.mfu") == "10.1%"
    assert metric(at, "mfu.metric.peak") == "624 TFLOP/s"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_typed_sparse_headline_is_named(lang):
    # the A100's BF16 datasheet headline 624 TFLOP/s is 2:4-sparse, 2 x its 312 dense peak
    # (hardware.toml): typed, it is still used (10.1 %), and a warning names the dense 312;
    # 400 TFLOP/s (1.28 x dense, 0.64 x sparse) is no datasheet figure: no such warning
    at = open_page(lang, peak_override="624T")
    assert metric(at, "mfu.metric.mfu") == "10.1%"
    warn = texts(at, "warning")
    assert "312 TFLOP/s" in warn and ("2:4-sparse" in warn if lang == "en" else "2:4 结构化稀疏" in warn)
    at = open_page(lang, peak_override="400T")
    assert metric(at, "mfu.metric.mfu") == "15.8%"              # 5.04e14 / 3.2e15 = 15.75 %
    assert "2:4" not in texts(at, "warning")


def test_over_60_and_over_100():
    at = open_page("en", tokens_per_s="40k")      # 20.19 % x 40/12 = 67.3 %
    assert metric(at, "mfu.metric.mfu") == "67.3%"
    assert "sparse" in texts(at, "warning")
    at = open_page("zh", tokens_per_s="100k")     # 168 %: impossible
    assert metric(at, "mfu.metric.mfu") == "168.3%"
    assert "100%" in texts(at, "error")


def test_attention_term_and_long_sequence_warning():
    # One causal default everywhere (issue 19, 1b): the attention term 12 x L x h x s halved,
    # 6 x 32 x 4096 x 32768 = 2.577e10 FLOP/token vs 6N = 4.2e10: share 2.577 / 6.777 = 38.0 %
    at = open_page("en", seq="32768")
    assert "38.0%" in texts(at, "warning")
    at = open_page("en", seq="32768", attn="true")
    # FLOP/token 6.777e10 -> MFU 6.777e10 x 12 000 / 2.496e15 = 32.6 %
    assert metric(at, "mfu.metric.fpt") == "67.8 GFLOP"
    assert metric(at, "mfu.metric.mfu") == "32.6%"
    # the full score matrix (causal off): 12 x 32 x 4096 x 32768 = 5.154e10; 9.354e10 -> 45.0 %
    at = open_page("en", seq="32768", attn="true", causal="false")
    assert metric(at, "mfu.metric.fpt") == "93.5 GFLOP"
    assert metric(at, "mfu.metric.mfu") == "45.0%"


@pytest.mark.parametrize("lang,word", [("en", "impossible"), ("zh", "不可能")])
def test_hfu_above_100_is_impossible(lang, word):
    # Defect 4: 7B on 8 x A100 at 46k tok/s, seq 4096, full recompute, attention on, the full
    # score matrix: C = 6 x 7e9 + 12 x 32 x 4096 x 4096 = 4.844e10 -> MFU 4.844e10 x 46 000 /
    # 2.496e15 = 89.3 %; hardware 8N + 4A, A = 4 x 32 x 4096 x 4096 = 2.147e9: 6.459e10 -> 119.0 %
    at = open_page(lang, tokens_per_s="46k", attn="true", causal="false", recompute="full")
    assert metric(at, "mfu.metric.mfu") == "89.3%" and metric(at, "arch.metric.hfu") == "119.0%"
    err = texts(at, "error")
    assert "119.0%" in err and word in err
    # causal (the default): 6N + 6 x 32 x 4096^2 = 4.522e10 -> 83.3 %; 8N + 4 x 1.074e9 -> 111.1 %
    at = open_page(lang, tokens_per_s="46k", attn="true", recompute="full")
    assert metric(at, "mfu.metric.mfu") == "83.3%" and metric(at, "arch.metric.hfu") == "111.1%"
    assert word in texts(at, "error")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_garbage_query_params(lang):
    at = open_page(lang, params="abc", gpus="-1", tokens_per_s="nan", target_mfu="200%",
                   attn="maybe", seq="-5")
    assert len(at.error) >= 3           # one message per bad field
    assert len(at.metric) == 0
    assert at.warning                   # "fix the inputs marked above"
    assert len(at.code) == 2            # the rest of the page still works


def test_bad_typed_input_then_fix():
    at = open_page("en")
    at.text_input(key="params").set_value("seven billion").run()
    assert not at.exception
    assert at.error and len(at.metric) == 0
    assert len(at.code) == 2
    at.text_input(key="params").set_value("7B").run()
    assert metric(at, "mfu.metric.mfu") == "20.2%"


# ---- Folded from tests/pages/test_page_mfu_review.py:
# Issue 8, defects 2, 10 (absurd MFU) and 14 on the MFU page, both languages (AppTest).
PAGE = "pages/2_MFU.py"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_over_100_advice_points_the_right_way(lang):
    # 100k tok/s: 6 x 7e9 x 1e5 / (8 x 312e12) = 168 %: impossible
    at = open_app_page(PAGE, lang, tokens_per_s="100k")
    err = texts(at, "error")
    # the real causes: a peak too small (FP8 vs BF16, PCIe vs SXM), MoE total params, time too short
    assert "FP8" in err and "PCIe" in err and "MoE" in err.replace("mixture-of-experts", "MoE")
    # a sparse peak is named only as what it is NOT: it makes MFU lower
    if lang == "en":
        assert "cannot cause it" in err and "lower" in err
    else:
        assert "不会造成" in err and "变低" in err


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_over_60_advice_does_not_blame_the_sparse_peak(lang):
    at = open_app_page(PAGE, lang, tokens_per_s="40k")     # 67.3 %
    warn = texts(at, "warning")
    assert "FP8" in warn and ("lower, not higher" in warn if lang == "en" else "只会让 MFU 变低" in warn)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_per_gpu_throughput_is_shown_and_a_per_gpu_entry_is_questioned(lang):
    # default 12k tok/s on 8 GPUs = 1.5k tok/s per GPU
    at = open_app_page(PAGE, lang)
    assert "1.5 ktok/s" in texts(at, "caption") and "12 ktok/s" in texts(at, "caption")
    assert "1.5 ktok/s" not in texts(at, "warning")
    # 1 500 tok/s typed as if it were the total: 6 x 7e9 x 1500 / (8 x 312e12) = 2.52 %;
    # x 8 GPUs = 20.2 %, plausible -> the page asks whether 1.5k was per GPU (total 12k)
    at = open_app_page(PAGE, lang, tokens_per_s="1500")
    assert metric(at, "mfu.metric.mfu") == "2.5%"
    warn = texts(at, "warning")
    assert "20.2%" in warn and "12 ktok/s" in warn


def test_no_per_gpu_question_when_it_would_not_explain_the_number():
    # 100 tok/s: 0.17 %; x 8 = 1.3 %, still implausible -> no question
    at = open_app_page(PAGE, "en", tokens_per_s="100")
    assert "one GPU" not in texts(at, "warning")
    # 1 GPU: per GPU and total are the same thing
    at = open_app_page(PAGE, "en", tokens_per_s="200", gpus="1")
    assert "one GPU" not in texts(at, "warning")


@pytest.mark.parametrize("lang, tokens, heading", [
    ("en", "1500", "very low"),         # 2.5 %: problem
    ("en", "24k", "fair"),              # 40.4 %
    ("en", "28k", "good"),              # 47.1 %
    ("en", "40k", "suspiciously high"), # 67.3 %
    ("en", "100k", "impossible"),       # 168 %
    ("zh", "28k", "良好"),
    ("zh", "100k", "不可能"),
])
def test_checklist_heading_by_band(lang, tokens, heading):
    at = open_app_page(PAGE, lang, tokens_per_s=tokens)
    subheads = " ".join(s.value for s in at.subheader)
    assert heading in subheads
    if heading in ("good", "suspiciously high", "impossible", "良好", "不可能"):
        assert "MFU is low" not in subheads and "MFU 偏低" not in subheads


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_absurd_mfu_reads_as_such(lang):
    # 1e30 tok/s: 6 x 7e9 x 1e30 / 2.496e15 = 1.68e25 = 1.68e27 % -> "> 1,000%"
    at = open_app_page(PAGE, lang, tokens_per_s="1e30")
    assert metric(at, "mfu.metric.mfu").startswith("> 1,000%")
    assert len(metric(at, "mfu.metric.mfu")) < 40
    assert "1682692" not in " ".join(m.value for m in at.markdown) + texts(at, "error")


def test_a_rejected_attention_field_is_in_sight():
    # 20,000 layers is above the catalog's limit (calc.arch.ARCH_LIMITS: 10,000): the field
    # says so, and the attention expander that holds it is open (closed by default)
    at = open_app_page(PAGE, "zh", attn="true", layers="20000")
    assert any("10,000" in e.value for e in at.error)
    heading = CATALOGS["zh"]["mfu.attn_heading"]
    assert next(e for e in at.expander if e.label == heading).proto.expanded
    closed = open_app_page(PAGE, "zh")
    assert not next(e for e in closed.expander if e.label == heading).proto.expanded


def _band_strip(at):
    """The band strip's SVG, decoded from the page's one image (a data URI)."""
    import base64

    images = at.get("image")
    assert len(images) == 1, f"{len(images)} images on the MFU page"
    url = images[0].proto.imgs[0].url
    prefix = "data:image/svg+xml;base64,"
    assert url.startswith(prefix), url[:40]
    return base64.b64decode(url[len(prefix):]).decode("utf-8")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_band_strip_marks_the_pages_mfu(lang):
    # 12k tok/s: 20.2 % ("low"); 24k tok/s: 2 x 20.19 = 40.4 % ("fair")
    svg = _band_strip(open_page(lang))
    assert 'data-marker="20.2%"' in svg and 'data-band="low" data-active="true"' in svg
    svg = _band_strip(open_page(lang, tokens_per_s="24k"))
    assert 'data-marker="40.4%"' in svg and 'data-band="fair" data-active="true"' in svg
    assert CATALOGS[lang]["mfu.band.fair.short"] in svg
