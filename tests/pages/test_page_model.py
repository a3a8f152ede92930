"""AppTest: the Model page (pages/5_Model.py) — a whole model's operators on the roofline.

Hand arithmetic for the checks (A100 80GB preset: 312 TFLOP/s BF16, 2.039 TB/s):
Llama 2 7B decode, batch 1: the QKV projection does 2·4096·12288 = 100.7 MFLOP over
4096·12288·2 B = 100.7 MB of weights — "101 MFLOP", "101 MB" (3 significant digits).
"""
import pytest

from calc.models import load_models
from page_helpers import open_app_page

PAGE = "pages/5_Model.py"
CATALOG = list(load_models())


def table(at):
    return at.dataframe[0].value


def metric(at, i):
    return at.metric[i].value


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_custom_model_asks_for_an_architecture(lang):
    at = open_app_page(PAGE, lang)
    assert at.info and not at.dataframe
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
    tps = float(metric(at, 1).split()[0])
    assert 128 < tps < 134


@pytest.mark.parametrize("model_id", CATALOG)
@pytest.mark.parametrize("lang", ["en", "zh"])
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
