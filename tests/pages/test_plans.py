"""AppTest: the Plans page (pages/7_Plans.py) in both languages.

The central promise: a plan's numbers are the Training / Decode pages' numbers for the
same inputs. Each test opens the other page from a URL, reads what it shows, opens the
Plans page with a `plans` link holding the same setup, and compares the cells.
Hand arithmetic for the defaults (seed chapter 04): 7B, 1T tokens, 64 x A100 (312 TFLOP/s):
54.1 days at MFU 45 %, 97.4 days at 25 %: x1.80 (= 45/25), +43.3 days.
"""
import csv
import io

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
    per_user = col(sv, lang, "tok/s per user (bound → at eff.)", "每用户 tokens/秒（上限 → 按效率）")[0]
    total = col(sv, lang, "tok/s total (bound → at eff.)", "总 tokens/秒（上限 → 按效率）")[0]
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
    # issue 23 item 2: the user's first plan replaces the examples and is the baseline
    assert len(at.dataframe) == 1 and len(table(at, "serving")) == 1     # no training table
    assert any("replaces the examples" in s.value for s in at.success)
    assert any(b.key == "pl_restore" for b in at.button)       # "Bring back the examples"
    at.selectbox(key="pl_e_model").set_value("mixtral-8x7b").run()
    at.text_input(key="pl_e_batch").set_value("1").run()
    at.button(key="pl_save").click().run()
    sv = table(at, "serving")
    assert sv["Model"][0] == "Mixtral 8x7B"        # the catalog name, not the id (item 10)
    # the automatic name follows the setup (item 1)
    assert sv["Plan"][0].startswith("Mixtral 8x7B bf16 · 1 × A100 · batch 1")
    # 46.7B total x 2 B = 93.4 GB of weights on one 80 GiB A100: does not fit
    assert sv["Memory fit"][0].startswith("does not fit")



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
    assert len(tr) == 1                          # the added plan replaced the examples
    assert len(page.dataframe) == 1              # no serving table: the example is gone
    assert col(tr, lang, "Days", "天数")[0] == days_text
    assert col(tr, lang, "GPU-hours", "GPU 小时")[0] == hours_text
    assert col(tr, lang, "Cost", "费用")[0] == cost_text and cost_text.startswith("$")
    assert col(tr, lang, "Model", "模型")[0] == "Llama 3.1 8B"
    assert col(tr, lang, "Plan", "方案")[0].startswith("Llama 3.1 8B · 256 × H100 · MFU 40 %")
    assert page.query_params["plans"]                  # the table (and its USD) is in the link
    # HFU with full recompute is shown beside the MFU, and memory per GPU with its fit
    assert "HFU" in col(tr, lang, "MFU", "MFU")[0]
    assert col(tr, lang, "Memory / GPU", "每卡显存")[0] != "—"


def test_add_from_decode_page_then_plans_page():
    page = open_app_page("pages/4_Decode_speed.py", "en", **DECODE_INPUTS)
    per_user_text = metric(page, "decode.metric.per_request")
    page.button(key="pl_add_decode").click().run()
    assert not page.exception
    page.switch_page(PAGE).run()
    sv = table(page, "serving")
    assert len(sv) == 1
    assert sv["tok/s per user (bound → at eff.)"][0].split(" → ")[0] == per_user_text


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
    assert sv["Model"][0] == "Mixtral 8x7B"
    assert sv["tok/s per user (bound → at eff.)"][0].split(" → ")[0] == per_user_text
    assert sv["tok/s total (bound → at eff.)"][0].split(" → ")[0] == total_text


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_duplicated_edited_plan_is_named_by_its_setup(lang):
    # issue 23 item 1: duplicate "7B · 64 × A100 · MFU 45 %", change the device to B200 and
    # MFU to 35 %, save: the automatic name follows (table, chart label, CSV), and the
    # setup sits right beside the name
    from calc.hardware import load_hardware
    from calc.plans import plans_csv, evaluate_all
    from ui.plans import state as S
    from ui.plans.points import training_chart
    from ui.i18n import translator
    at = open_plans(lang)
    at.button(key="pl_dup").click().run()
    tr = table(at, "training")
    assert len(tr) == 3                                     # Duplicate keeps the examples
    at.selectbox(key="pl_e_device").set_value("b200").run()
    at.text_input(key="pl_e_mfu").set_value("35%").run()
    at.button(key="pl_save").click().run()
    assert not at.exception
    tr = table(at, "training")
    name = col(tr, lang, "Plan", "方案")[2]
    assert name == "7B · 64 × B200 · MFU 35 %"
    assert "(copy)" not in name and "副本" not in name
    assert "B200" in str(tr.iloc[2, 1])                     # the setup: second column
    table_ = at.session_state[S.TABLE_KEY]
    results = evaluate_all(table_.plans, load_hardware())
    t = translator(lang)
    labels = [p.label for p in training_chart(t, table_, results).points]
    assert "7B · 64 × B200 · MFU 35 %" in labels
    assert "7B · 64 × B200 · MFU 35 %" in plans_csv(table_, results)
    # a typed name is the user's; its duplicate gets "(copy)" in the page's language
    at.text_input(key="pl_e_name").set_value("mine").run()
    at.button(key="pl_save").click().run()
    at.button(key="pl_dup").click().run()
    names = list(col(table(at, "training"), lang, "Plan", "方案"))
    assert ("mine (copy)" if lang == "en" else "mine（副本）") in names


def test_save_message_and_csv_name_the_plan_as_its_row_does():
    # The copy of "7B · 64 × A100 · MFU 45 %" moved to an H100 at FP8 sits beside BF16 plans,
    # so its row says the precision (calc.plans.precision_differs); the "Saved" message and
    # the CSV download must name it the same way (they gave the short name).
    from calc.hardware import load_hardware
    from calc.plans import evaluate_all, plans_csv
    from ui.plans import state as S
    at = open_plans("en")
    at.button(key="pl_dup").click().run()
    at.selectbox(key="pl_e_device").set_value("h100-sxm").run()
    at.selectbox(key="pl_e_precision").set_value("fp8").run()
    at.button(key="pl_save").click().run()
    assert not at.exception
    want = "7B · 64 × H100 · FP8 · MFU 45 %"
    assert list(table(at, "training")["Plan"])[2] == want
    assert any(s.value == f"Saved “{want}”." for s in at.success), [s.value for s in at.success]
    table_ = at.session_state[S.TABLE_KEY]
    rows = list(csv.DictReader(io.StringIO(plans_csv(table_, evaluate_all(table_.plans,
                                                                         load_hardware())))))
    assert [r["name"] for r in rows if r["kind"] == "training"] == [
        "7B · 64 × A100 · BF16 · MFU 45 %", "7B · 64 × A100 · BF16 · MFU 25 %", want]
    # the next copy's "Added" message names it as its row will (with the precision)
    at.button(key="pl_dup").click().run()
    assert any(s.value.startswith(f"Added “{want}”") for s in at.success), \
        [s.value for s in at.success]


def test_first_plan_replaces_the_examples_and_they_come_back_on_request():
    # issue 23 item 2: the examples are examples; the first plan replaces them and is the
    # baseline (not "7B · 64 × A100 ★ baseline"); "Bring back the examples" appends them
    at = open_plans("en")
    at.button(key="pl_new_training").click().run()
    tr = table(at, "training")
    assert len(tr) == 1 and "★" in tr["Plan"][0] and tr["× days"][0] == "—"
    at.button(key="pl_restore").click().run()
    tr = table(at, "training")
    assert len(tr) == 3 and "★" in tr["Plan"][0] and "★" not in tr["Plan"][1]
    assert tr["× days"][2] == f"×{45 / 25:.2f}"          # the 25 % example against the 45 % plan
    # the next plan joins the table (the table is no longer just the examples)
    at.button(key="pl_new_serving").click().run()
    assert len(table(at, "serving")) == 2
