"""AppTest: the Model page (pages/5_Model.py) — a whole model's operators on the roofline.

Hand arithmetic for the checks (A100 80GB preset: 312 TFLOP/s BF16, 2.039 TB/s):
Llama 2 7B decode, batch 1: the QKV projection does 2·4096·12288 = 100.7 MFLOP over
4096·12288·2 B = 100.7 MB of weights — "101 MFLOP", "101 MB" (3 significant digits).
"""
from types import SimpleNamespace

import pytest

from calc.models import load_models
from page_helpers import metric, open_app_page

PAGE = "pages/5_Model.py"
CATALOG = list(load_models())


def table(at):
    return at.dataframe[0].value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_new_visitor_opens_on_a_catalog_model(lang):
    """No model in the URL, none picked: the sidebar's default ("Custom: parameters only")
    has no architecture, so the page opens on Llama 2 7B, selected in the sidebar and in
    the URL (a copied link reproduces it), with a note saying so."""
    at = open_app_page(PAGE, lang)
    assert not at.exception and not at.info
    assert at.selectbox(key="model").value == "llama-2-7b"
    assert at.query_params.get("model") in ("llama-2-7b", ["llama-2-7b"])
    assert at.dataframe and at.select_slider, "the operators and the batch slider are on the page"
    note = {"en": "Opened on Llama 2 7B", "zh": "已用本章的 7B 模型 Llama 2 7B 打开"}[lang]
    assert any(note in c.value for c in at.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_custom_model_asks_for_an_architecture(lang):
    """An explicit "Custom: parameters only" is respected: the page says it needs an
    architecture and offers Llama 2 7B."""
    at = open_app_page(PAGE, lang)
    at.selectbox(key="model").select("custom").run()
    assert not at.exception
    assert at.info and not at.dataframe
    assert not any("Llama 2 7B" in c.value and "Opened" in c.value for c in at.caption)
    at.button[0].click().run()                 # "Use Llama 2 7B"
    assert not at.exception
    assert at.dataframe, "the operators appear once a model is chosen"


def test_llama2_7b_decode_numbers():
    at = open_app_page(PAGE, "en", model="llama-2-7b", batch="1", context="4096")
    df = table(at)
    qkv = df[df["Operator"] == "QKV projection"].iloc[0]
    assert qkv["FLOPs (each)"] == "101 MFLOP" and qkv["Bytes (each)"] == "101 MB"
    assert qkv["Runs"] == 32
    assert qkv["Bound"] == "memory-bound"
    # Tokens/s bound at batch 1: ~13.4 GB weights + 2.1 GB KV at 4096 tokens over
    # 2.039 TB/s ≈ 131 tok/s (calc.model_ops tests prove the sum equals the Decode ceiling).
    tps = float(metric(at, "model.metric.decode_tps").split()[0])
    assert 128 < tps < 134


# Each catalog model once, the language alternating (the labels are what changes; the
# catalogs are checked in tests/ui/test_i18n.py). The quick tier keeps a dense, a GQA and
# an MoE model; the full run has them all.
QUICK_MODELS = {"llama-2-7b", "llama-2-70b", "mixtral-8x7b"}
MODEL_LANGS = [pytest.param(m, ("en", "zh")[i % 2], id=m,
                            marks=() if m in QUICK_MODELS else pytest.mark.slow)
               for i, m in enumerate(CATALOG)]

@pytest.mark.parametrize("lang", ["en", "zh"])
def test_int8_operators_read_in_operations(lang):
    # An INT8 sidebar (A100 624 TOP/s): the axes say OP, so the table, the hover and the
    # formulas must too. Llama 2 7B's QKV at batch 1 is 2 x 1 x 4096 x (3 x 4096) =
    # 100.66e6 operations -> "101 MOP"; its bytes (bf16 weights) stay 101 MB.
    from calc.hardware import load_hardware
    from calc.model_ops import model_operators
    from ui.figures.model import model_roofline_figure
    from ui.figures.roofline import Roof
    from ui.i18n import translator
    from ui.model.chart import operator_labels
    from ui.model.how import how_formulas
    from ui.model.inputs import StepInputs
    at = open_app_page(PAGE, lang, model="llama-2-7b", batch="1", context="4096",
                       device="a100-80gb-sxm", precision="int8")
    assert not at.exception
    df = table(at)
    ops_col, ai_col = (("OPs (each)", "Arithmetic intensity (OP/B)") if lang == "en"
                       else ("OP（每次）", "算术强度（OP/字节）"))
    assert ops_col in df.columns and ai_col in df.columns, list(df.columns)
    assert "101 MOP" in list(df[ops_col])
    assert not any("FLOP" in str(c) for c in df.columns)
    t = translator(lang)
    d = load_hardware()["a100-80gb-sxm"]
    arch = load_models()["llama-2-7b"]
    ops = model_operators(arch, phase="decode", batch=1, tokens=4096,
                          peak_flops=d.peak_flops("int8"), mem_bw=d.mem_bw)
    # "How it is computed" (a lazy expander AppTest does not open: its formulas directly)
    ctx = SimpleNamespace(t=t, op=lambda: "OP")
    inputs = StepInputs(phase="decode", batch=1, tokens=4096, weights="bf16", act="bf16",
                        kv="bf16", tp=1, flash=True, overlay=False)
    items = how_formulas(ctx, ops, inputs)
    latex = " ".join(f.latex for f in items)
    assert r"F_{\text{QKV}} = \text{101 MOP}" in latex, latex
    assert r"P = \text{624 TOP/s}" in latex and "FLOP" not in latex
    assert "2 OPs per weight" in items[1].explanation or "2 OP；" in items[1].explanation
    # the chart's hover (the builder: AppTest cannot read plotly charts)
    roof = Roof(label="A100 · INT8", precision="int8", peak_flops=d.peak_flops("int8"),
                mem_bw=d.mem_bw)
    fig = model_roofline_figure(t, roof, ops, operator_labels(t, ops))
    op_traces = [tr for tr in fig.data if tr.customdata is not None and tr.mode == "markers+text"]
    assert op_traces
    for tr in op_traces:
        assert "OP" in tr.hovertemplate and "FLOP" not in tr.hovertemplate
        for row in tr.customdata:
            assert "FLOP" not in " ".join(map(str, row)), row
    assert any("101 MOP" in str(row[0]) for tr in op_traces for row in tr.customdata)



@pytest.mark.parametrize("model_id, lang", MODEL_LANGS)
def test_every_catalog_model_opens_in_both_phases(model_id, lang):
    at = open_app_page(PAGE, lang, model=model_id, batch="8")
    assert at.dataframe and len(at.get("plotly_chart")) == 1
    at.radio(key="phase").set_value("prefill").run()
    assert not at.exception, at.exception
    assert at.dataframe
    at.radio(key="attn_impl").set_value("unfused").run()
    assert not at.exception, at.exception


def test_share_link_reproduces_the_step():
    params = dict(model="mixtral-8x7b", phase="prefill", batch="4", prompt="1024", weights="fp8",
                  tp="2", attn_impl="unfused")
    at = open_app_page(PAGE, "en", **params)
    assert at.radio(key="phase").value == "prefill"
    assert at.radio(key="attn_impl").value == "unfused"
    assert at.text_input(key="tp").value == "2"
    names = set(table(at)["Operator"])
    assert {"Routed experts", "MoE router", "Attention softmax"} <= names
    for key, value in params.items():
        if key != "model":
            assert at.query_params[key] == [value] or at.query_params[key] == value, key


def _number(text: str) -> float:
    value, unit = text.split()
    return float(value) * (1000 if unit.startswith("k") else 1)


@pytest.mark.parametrize("model_id, params, tp", [
    ("llama-2-7b", dict(batch="1", context="4096"), "1"),
    ("mixtral-8x7b", dict(batch="16", context="8192", device="h100-sxm", weights="fp8"), "1"),
    ("llama-3.1-70b", dict(batch="8", context="32768", kv_dtype="fp8"), "4"),
])
def test_decode_total_agrees_with_the_decode_page(model_id, params, tp):
    # The same inputs on both pages (`tp` on both; with a model the Decode page always counts
    # the KV cache): both headline calc.inference.decode_step, so the numbers are the same
    # to their 3 significant digits (the one-answer grid, tests/pages/test_one_answer.py,
    # checks every catalog model).
    model_page = open_app_page(PAGE, "en", model=model_id, tp=tp, **params)
    decode_page = open_app_page("pages/4_Decode_speed.py", "en", model=model_id, tp=tp, **params)
    ours = _number(metric(model_page, "model.metric.decode_tps"))
    theirs = _number(metric(decode_page, "decode.metric.throughput"))
    assert ours == pytest.approx(theirs, rel=0.005), (ours, theirs)


def test_memory_fit_is_checked():
    # DeepSeek-V3 (671B) in BF16 on one 80 GB GPU: 1.34 TB of weights cannot fit.
    at = open_app_page(PAGE, "en", model="deepseek-v3")
    assert any("Does not fit" in w.value for w in at.warning)
    # 671.0e9 parameters · 2 B = 1.342 TB, + 4096 tokens · 70.3 kB of MLA cache = 0.29 GB:
    # the metric is the number (the sentence is below it), beside the GPU's 85.9 GB
    assert metric(at, "decode.metric.needs") == "1.34 TB"
    assert metric(at, "decode.metric.has") == "85.9 GB"
    # Llama 2 7B: 13.5 GB + 2.15 GB fits in 80 GiB.
    at = open_app_page(PAGE, "en", model="llama-2-7b")
    assert not at.warning


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_mixtral_on_one_h100_headline_is_a_number(lang):
    # issue 23 item 8: Mixtral 8x7B, BF16, one H100: 46.7B x 2 B = 93.4 GB of weights +
    # the KV cache > 80 GiB. The page read "needs 93.9 …" (cut) three times.
    at = open_app_page(PAGE, lang, model="mixtral-8x7b", device="h100-sxm")
    values = [m.value for m in at.metric]
    assert values[0].endswith("GB") and float(values[0].split()[0]) > 93.4
    assert all(len(v) <= 10 for v in values), values          # a number, not a sentence
    assert at.warning
