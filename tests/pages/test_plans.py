"""AppTest: the Plans page (pages/7_Plans.py) in both languages.

The central promise: a plan's numbers are the Training / Decode pages' numbers for the
same inputs. Each test opens the other page from a URL, reads what it shows, opens the
Plans page with a `plans` link holding the same setup, and compares the cells.
Hand arithmetic for the defaults (seed chapter 04): 7B, 1T tokens, 64 x A100 (312 TFLOP/s):
54.1 days at MFU 45 %, 97.4 days at 25 %: x1.80 (= 45/25), +43.3 days.
"""
import pytest

from calc.plans import SERVING, TRAINING, Plan, PlanTable, encode_plans
from page_helpers import metric, open_app_page

PAGE = "pages/7_Plans.py"


def open_plans(lang="en", **params):
    return open_app_page(PAGE, lang, **params)


def table(at, kind):
    """The rendered table of `kind` as a DataFrame: the training table comes first, the
    serving table last (a kind without plans has no table)."""
    frames = list(at.dataframe)
    return frames[0 if kind == "training" else -1].value


def col(df, lang, en, zh):
    return df[en if lang == "en" else zh]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_defaults_show_the_seed_and_the_baseline(lang):
    at = open_plans(lang)
    tr = table(at, "training")
    days = list(col(tr, lang, "Days", "天数"))
    assert days == ["54.1", "97.4"]
    assert list(col(tr, lang, "× days", "天数 ×")) == ["—", "×1.80"]
    assert list(col(tr, lang, "Δ days", "Δ 天数")) == ["—", "+43.3"]
    # published A100 runs at 7B / 64 GPUs: 50 %..64 % (MosaicML), days 37.9..48.6
    assert "50%–64%" in col(tr, lang, "Published MFU at this scale", "同规模公开 MFU")[0]
    assert len(at.get("plotly_chart")) == 2
    assert not at.error
    assert "plans" not in at.query_params          # the default table stays out of the URL


TRAINING_INPUTS = dict(params="13B", tokens="2T", gpus="128", mfu="38%", price="2.5",
                       device="h100-sxm")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_training_plan_equals_training_page(lang):
    page = open_app_page("pages/3_Training_time.py", lang, **TRAINING_INPUTS)
    days_text = metric(page, "training.metric.days").split()[0]
    hours_text = metric(page, "training.metric.gpu_hours")
    cost_text = metric(page, "training.metric.cost")
    plan = Plan(kind=TRAINING, name="13B", n_params=13e9, n_tokens=2e12, device="h100-sxm",
                precision="bf16", n_gpus=128, mfu=0.38, price=2.5)
    # the Training page writes its cost in its currency (default USD, issue 16): so does the plan
    at = open_plans(lang, plans=encode_plans(PlanTable((plan,), 0, "$", "USD")))
    tr = table(at, "training")
    assert col(tr, lang, "Days", "天数")[0] == days_text
    assert col(tr, lang, "GPU-hours", "GPU 小时")[0] == hours_text
    assert col(tr, lang, "Cost", "费用")[0] == cost_text
    # and by hand: 6 x 13e9 x 2e12 / (128 x 989.4e12 x 0.38) / 86400 = 37.5 days
    assert days_text == "37.5"


DECODE_INPUTS = dict(params="13B", weights="fp8", gpus="2", batch="16", kv="true", layers="40",
                     kv_heads="40", head_dim="128", context="4096", kv_dtype="fp8",
                     device="h100-sxm")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serving_plan_equals_decode_page(lang):
    page = open_app_page("pages/4_Decode_speed.py", lang, **DECODE_INPUTS)
    total_text = metric(page, "decode.metric.throughput")
    per_user_text = metric(page, "decode.metric.per_request")
    plan = Plan(kind=SERVING, name="13B fp8", n_params=13e9, device="h100-sxm", precision="bf16",
                n_gpus=2, weights="fp8", batch=16, kv=True, n_layers=40, kv_heads=40,
                head_dim=128, context=4096, kv_dtype="fp8")
    at = open_plans(lang, plans=encode_plans(PlanTable((plan,), 0)))
    sv = table(at, "serving")
    per_user = col(sv, lang, "tok/s per user (bound → at eff.)", "每用户 tok/s（上限 → 按效率）")[0]
    total = col(sv, lang, "tok/s total (bound → at eff.)", "总 tok/s（上限 → 按效率）")[0]
    assert per_user.split(" → ")[0] == per_user_text
    assert total.split(" → ")[0] == total_text
    # by hand: weights 13e9 x 1 B; KV/seq 2 x 40 x 40 x 128 x 4096 x 1 B = 1.678e9;
    # step = (13e9 + 16 x 1.678e9) / (2 x 3.35e12) = 5.947 ms -> 168 tok/s per user
    assert per_user_text == "168 tok/s"


def test_editor_save_duplicate_delete_baseline():
    at = open_plans("en")
    at.selectbox(key="pl_select").set_value(1).run()
    at.text_input(key="pl_e_mfu").set_value("30%").run()
    at.button(key="pl_save").click().run()
    assert not at.exception
    # 54.099 x 45 / 30 = 81.15 days; x1.50 the baseline
    tr = table(at, "training")
    assert list(tr["Days"]) == ["54.1", "81.1"] and tr["× days"][1] == "×1.50"
    token = at.query_params["plans"]
    assert token
    at.button(key="pl_dup").click().run()
    assert len(table(at, "training")) == 3
    at.button(key="pl_base").click().run()            # the copy (81.1 days) is the baseline
    tr = table(at, "training")
    assert "★" in tr["Plan"][2] and tr["× days"][0] == "×0.67"     # 30/45
    at.button(key="pl_del").click().run()
    tr = table(at, "training")
    assert len(tr) == 2 and "★" in tr["Plan"][0]       # the baseline falls back to row 1
    # the link written after the save reproduces the saved table in a new session
    again = open_plans("zh", plans=token)
    assert list(table(again, "training")["天数"]) == ["54.1", "81.1"]


def test_bad_field_blocks_the_save():
    at = open_plans("en")
    at.text_input(key="pl_e_gpus").set_value("lots").run()
    assert at.error
    at.button(key="pl_save").click().run()
    assert list(table(at, "training")["Days"]) == ["54.1", "97.4"]       # unchanged
    assert any("Not saved" in e.value for e in at.error)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_garbage_link_keeps_the_table(lang):
    at = open_plans(lang, plans="1garbage!")
    assert at.error and not at.exception
    assert list(col(table(at, "training"), lang, "Days", "天数")) == ["54.1", "97.4"]


def test_new_plans_and_catalog_model():
    at = open_plans("en")
    at.button(key="pl_new_serving").click().run()
    assert len(table(at, "serving")) == 2
    at.selectbox(key="pl_e_model").set_value("mixtral-8x7b").run()
    at.text_input(key="pl_e_batch").set_value("1").run()
    at.button(key="pl_save").click().run()
    sv = table(at, "serving")
    assert sv["Model"][1] == "mixtral-8x7b"
    # 46.7B total x 2 B = 93.4 GB of weights on one 80 GiB A100: does not fit
    assert sv["Memory fit"][1].startswith("does not fit")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_add_from_training_page_then_plans_page(lang):
    # Training page with a catalog model (FLOPs with attention, full recompute): the added
    # plan shows the page's days, GPU-hours and cost.
    page = open_app_page("pages/3_Training_time.py", lang, model="llama-3.1-8b", tokens="15T",
                         gpus="256", mfu="40%", price="$2", device="h100-sxm",
                         recompute="full", seq="8192")
    days_text = metric(page, "training.metric.days").split()[0]
    hours_text = metric(page, "training.metric.gpu_hours")
    cost_text = metric(page, "training.metric.cost")
    page.button(key="pl_add_training").click().run()
    assert not page.exception and page.success
    page.switch_page(PAGE).run()
    assert not page.exception
    tr = table(page, "training")
    assert len(tr) == 3                          # the two examples + the added plan
    assert col(tr, lang, "Days", "天数")[2] == days_text
    assert col(tr, lang, "GPU-hours", "GPU 小时")[2] == hours_text
    assert col(tr, lang, "Cost", "费用")[2] == cost_text and cost_text.startswith("$")
    assert col(tr, lang, "Model", "模型")[2] == "llama-3.1-8b"
    assert page.query_params["plans"]                  # the table (and its USD) is in the link
    # HFU with full recompute is shown beside the MFU, and memory per GPU with its fit
    assert "HFU" in col(tr, lang, "MFU", "MFU")[2]
    assert col(tr, lang, "Memory / GPU", "每卡显存")[2] != "—"


def test_add_from_decode_page_then_plans_page():
    page = open_app_page("pages/4_Decode_speed.py", "en", **DECODE_INPUTS)
    per_user_text = metric(page, "decode.metric.per_request")
    page.button(key="pl_add_decode").click().run()
    assert not page.exception
    page.switch_page(PAGE).run()
    sv = table(page, "serving")
    assert len(sv) == 2
    assert sv["tok/s per user (bound → at eff.)"][1].split(" → ")[0] == per_user_text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_training_page_shows_the_published_range_beside_mfu(lang):
    # 7B on 64 A100s: MosaicML's A100 rows at 1.75B-28B parameters on 8-512 GPUs reached
    # 50.14 %..64.23 % (tests/calc/test_published.py derives the selection).
    at = open_app_page("pages/3_Training_time.py", lang)
    assert any("50%–64%" in c.value and "MosaicML" in c.value for c in at.caption)
    # Llama 3.1 405B on 16,384 H100s: the Llama 3 report's 38-43 % (Table 4)
    at = open_app_page("pages/3_Training_time.py", lang, model="llama-3.1-405b", gpus="16384",
                       device="h100-sxm")
    assert any("38%–43%" in c.value and "Llama 3 report" in c.value for c in at.caption)


def test_empty_table_and_custom_device():
    at = open_plans("en")
    for _ in range(3):
        at.button(key="pl_del").click().run()
        assert not at.exception
    assert not at.dataframe and at.info                     # "No plans yet"
    token = at.query_params["plans"]
    assert not open_plans("en", plans=token).dataframe      # the empty table travels too
    at.button(key="pl_new_training").click().run()
    at.selectbox(key="pl_e_device").set_value("custom").run()
    at.text_input(key="pl_e_peak").set_value("1 PFLOP/s").run()
    at.text_input(key="pl_e_bw").set_value("4 TB/s").run()
    at.button(key="pl_save").click().run()
    assert not at.exception
    # 4.2e22 / (64 x 1e15 x 0.45) / 86400 = 16.88 days
    assert table(at, "training")["Days"][0] == "16.9"


def test_moe_serving_plan_equals_decode_page():
    # Mixtral 8x7B on 2 H100s, batch 16, KV at 4096 tokens: the Decode page's model path
    # (calc.models.decode_step: dense weights + the experts 16 tokens route to + KV) and
    # the plan added from it show the same per-user and total speed.
    page = open_app_page("pages/4_Decode_speed.py", "en", model="mixtral-8x7b", gpus="2",
                         batch="16", kv="true", context="4096", device="h100-sxm")
    total_text = metric(page, "decode.metric.throughput")
    per_user_text = metric(page, "decode.metric.per_request")
    page.button(key="pl_add_decode").click().run()
    page.switch_page(PAGE).run()
    assert not page.exception
    sv = table(page, "serving")
    assert sv["Model"][1] == "mixtral-8x7b"
    assert sv["tok/s per user (bound → at eff.)"][1].split(" → ")[0] == per_user_text
    assert sv["tok/s total (bound → at eff.)"][1].split(" → ")[0] == total_text


def test_training_layout_travels_to_the_plan():
    # The Training page's memory layout (tp 8, pp 16, cp 2, ZeRO-1, selective, seq 8192) goes
    # into the plan it adds, so Plans shows the page's memory per GPU: Llama-3.1-405B on 2,048
    # H100s, dp = 2048 / (8 x 16 x 2) = 8; activations 126 layers x 34 x 4096 x 16384 / 8 B
    # = 35.94 GB (cp 2 halves the tokens); states 2 x 6.342 + 12 B x 3.171e9 / (8 x 2) = 15.06 GB;
    # total 51.0 GB of 85.9 GB: fits.
    page = open_app_page("pages/3_Training_time.py", "en", model="llama-3.1-405b",
                         device="h100-sxm", gpus="2048", tp="8", pp="16", cp="2", zero="1",
                         recompute="selective", seq="8192", tokens="15.6T")
    assert "51 GB" in [m.value for m in page.metric]
    page.button(key="pl_add_training").click().run()
    assert not page.exception
    page.switch_page(PAGE).run()
    tr = table(page, "training")
    assert col(tr, "en", "Memory / GPU", "每卡显存")[2].startswith("51 GB")
