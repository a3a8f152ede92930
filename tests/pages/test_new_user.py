"""AppTest: what a new user tripped over on the MFU, Decode and Training pages (issue 16):
sliders that claimed another value than their field, the cost without a currency, the
"Why this matters" sentence that always told the seed's example, plurals and extremes.

Numbers by hand (seed chapter 04): C = 6 x 7e9 x 1e12 = 4.2e22 FLOP. One A100 at 45 %
delivers 312e12 x 0.45 = 1.404e14 FLOP/s: 4.2e22 / 1.404e14 = 2.99145e8 GPU-seconds
= 83 095.9 GPU-hours; at 25 %: 5.38462e8 GPU-s = 149 572.6 GPU-hours.
"""
import pytest

from page_helpers import metric, metric_element, open_app_page

MFU, TRAINING, DECODE = "pages/2_MFU.py", "pages/3_Training_time.py", "pages/4_Decode_speed.py"


def _texts(at, *kinds):
    return " ".join(e.value for kind in kinds for e in getattr(at, kind))


def _slider_label(at, key):
    s = at.select_slider(key=key)
    return s.format_func(s.value)


@pytest.mark.parametrize("page", [MFU, DECODE, TRAINING])
def test_slider_shows_the_fields_value_not_the_nearest_step(page):
    # 13B lies between the slider's steps 12B and 15B: the slider used to say 12B
    at = open_app_page(page, "en", params="13B")
    assert at.text_input(key="params").value == "13B"
    assert at.select_slider(key="params__slider").value == pytest.approx(13e9)
    assert _slider_label(at, "params__slider") == "13B"
    # typing moves the slider to exactly the typed value, moving the slider writes the field
    at.text_input(key="params").set_value("37.7B").run()
    assert _slider_label(at, "params__slider") == "37.7B"
    at.select_slider(key="params__slider").set_value(7e10).run()
    assert at.text_input(key="params").value == "70B" and not at.exception


def test_mfu_sequence_slider_says_4096_not_4_1k():
    # 4.1k would read as 4100; issue 23 item 10: "4.096k" reads like a decimal: 4,096
    at = open_app_page(MFU, "en", tokens_per_s="37712")
    assert _slider_label(at, "seq__slider") == "4,096"
    assert _slider_label(at, "tokens_per_s__slider") == "37,712"
    at = open_app_page(MFU, "en", params="70B")
    assert _slider_label(at, "params__slider") == "70B"          # large counts keep B / T


@pytest.mark.parametrize("page", ["pages/7_Plans.py", "pages/1_Roofline.py", MFU, TRAINING])
def test_text_fields_show_no_character_counter(page):
    # issue 23 item 10: a text field with max_chars shows "2/200" while focused; the
    # quantity parser bounds the length itself (calc.units.MAX_TEXT_LENGTH, with a message)
    at = open_app_page(page, "en")
    limited = [w.key for w in at.text_input if getattr(w, "max_chars", None)]
    assert not limited


@pytest.mark.parametrize("lang, cost", [("en", "¥1,246,439 CNY"), ("zh", "¥1,246,439 CNY")])
def test_training_cost_in_the_chosen_currency(lang, cost):
    # 83 095.9 GPU-hours x 15 = 1 246 438.8
    at = open_app_page(TRAINING, lang, price="15", currency="CNY")
    assert metric(at, "training.metric.cost") == cost
    # the comparison's money and the closing sentence use it too:
    # (149 572.6 - 83 095.9) x 15 = 997 150.5
    assert "¥997,151 CNY" in _texts(at, "info")
    assert "¥997,151 CNY" in _texts(at, "markdown") and "¥15.00 CNY" in _texts(at, "markdown")
    assert "元" not in _texts(at, "markdown")       # no yuan unless the currency says so


def test_currency_choice_changes_the_symbol_and_code():
    at = open_app_page(TRAINING, "en", price="2.5")
    assert metric(at, "training.metric.cost") == "$207,740 USD"                   # the default: 83 095.9 x 2.5
    at.selectbox(key="currency").set_value("EUR").run()
    assert metric(at, "training.metric.cost") == "€207,740 EUR" and not at.exception
    assert "€2.50 EUR" in metric_element(at, "training.metric.cost").help


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_why_this_matters_defaults_to_the_worked_example(lang):
    at = open_app_page(TRAINING, lang)
    text = at.main.markdown[-1].value
    # 97.4 and 54.1 days (the chapter's 97 and 54), 43.3 days and 66 477 GPU-hours apart
    for part in ("7B", "1T", "64 × NVIDIA A100", "25%", "45%", "97.4", "54.1", "43.3", "66,477"):
        assert part in text, (part, text)


def test_why_this_matters_follows_the_pages_numbers():
    at = open_app_page(TRAINING, "en", gpus="128", price="2")
    text = at.main.markdown[-1].value
    # 128 GPUs: 5.38462e8 / 128 = 4.2067e6 s = 48.7 days; 2.99145e8 / 128 = 2.3371e6 s = 27.0
    # days; 21.6 days sooner; the GPU-hours saved do not depend on the GPUs: 66 477, x 2 = 132 953
    for part in ("128 ×", "48.7 days", "27.0 days", "21.6 days sooner", "66,477 GPU-hours",
                 "$132,953 USD", "$2.00 USD per GPU-hour"):
        assert part in text, (part, text)
    assert "97" not in text and "seed" not in text


def test_why_this_matters_when_the_two_mfus_are_equal():
    at = open_app_page(TRAINING, "en", compare_mfu="45%")
    text = at.main.markdown[-1].value
    assert "54.1 days" in text and "83,096 GPU-hours" in text and "sooner" not in text


@pytest.mark.parametrize("lang, one", [("en", "One GPU is enough"), ("zh", "一张卡就够了")])
def test_deadline_extremes(lang, one):
    # 1e9 days: 4.2e22 / (8.64e13 s x 1.404e14) = 3.5e-6 GPUs. One GPU takes 2.99145e8 s
    # = 3 462 days, well within the deadline.
    at = open_app_page(TRAINING, lang, deadline_days="1e9")
    text = _texts(at, "success")
    assert one in text and "3,462" in text and "1,000,000,000" in text
    assert "GPUs" not in text and "0.0" not in text


def test_deadline_plural_and_exact_value():
    # 30 days: 2.99145e8 / 2.592e6 s = 115.41 GPUs -> 116
    at = open_app_page(TRAINING, "en")
    text = _texts(at, "success")
    assert "in 30 days" in text and "**116 GPUs**" in text and "115.4 exactly" in text
    # 1 day: 2.99145e8 / 86 400 = 3 462.3 -> 3 463 GPUs; "1 day", not "1 days"
    at.text_input(key="deadline_days").set_value("1").run()
    assert "in 1 day at" in _texts(at, "success")


def test_short_runs_are_not_zero_days():
    # 100M x 1B: 6e17 FLOP / (64 x 1.404e14) = 66.8 s = 1.11 min; 6e17 / 1.404e14 = 4 274 s
    # = 1.19 GPU-hours
    at = open_app_page(TRAINING, "en", params="100M", tokens="1B")
    assert metric(at, "training.metric.days") == "1.11 min"
    assert metric(at, "training.metric.gpu_hours") == "1.19"


@pytest.mark.parametrize("lang, one, eight", [("en", "(1 GPU)", "(8 GPUs)"),
                                              ("zh", "（1 张卡）", "（8 张卡）")])
def test_decode_memory_fit_says_gpu_or_gpus(lang, one, eight):
    at = open_app_page(DECODE, lang)
    assert one in _texts(at, "success", "warning", "error")
    at = open_app_page(DECODE, lang, gpus="8")
    assert eight in _texts(at, "success", "warning", "error")
    assert "GPU(s)" not in _texts(at, "success", "warning", "error", "markdown")


def test_mfu_inverse_says_gpu_or_gpus():
    at = open_app_page(MFU, "en", gpus="1", tokens_per_s="1500")
    assert "on 1 GPU you need" in _texts(at, "info")
    at = open_app_page(MFU, "en")
    assert "on 8 GPUs you need" in _texts(at, "info")


def test_added_plan_carries_the_training_currency():
    # "Add this setup to the plans" on a price without a typed currency takes the choice
    from calc.plans import PlanTable
    from ui.plans.state import TABLE_KEY
    at = open_app_page(TRAINING, "en", price="2.5", currency="EUR")
    at.button(key="pl_add_training").click().run()
    assert not at.exception
    table = at.session_state[TABLE_KEY]
    assert isinstance(table, PlanTable)
    assert (table.currency_symbol, table.currency_code) == ("€", "EUR")


ROOFLINE = "pages/1_Roofline.py"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_builder_row_keeps_expressions_and_names_the_precision(lang):
    from ui.roofline.state import ROWS_KEY
    at = open_app_page(ROOFLINE, lang, b_m="4096", b_n="4096", b_k="4096", b_time="900 us")
    at.button(key="b_add_button").click().run()
    assert not at.exception
    row = at.session_state[ROWS_KEY][-1]
    # 2·m·n·k = 2·4096³ and (m·k + k·n + m·n)·2 bytes = 3·4096²·2: as a person types them
    assert row["name"] == "GEMM 4096×4096×4096 bf16"
    assert (row["flops"], row["bytes"], row["seconds"], row["count"]) == \
        ("2*4096**3", "3*4096**2*2", "900 us", "1")



def test_builder_does_not_give_the_next_kernel_the_last_time():
    # issue 23 item 10: a LayerNorm added after a 5.2 ms GEMM inherited its 5.2 ms
    from ui.roofline.state import ROWS_KEY
    at = open_app_page(ROOFLINE, "en", b_time="5.2 ms")
    at.button(key="b_add_button").click().run()
    assert at.session_state[ROWS_KEY][-1]["seconds"] == "5.2 ms"
    assert at.text_input(key="b_time").value == ""
    at.selectbox(key="b_kind").set_value("layernorm").run()
    at.button(key="b_add_button").click().run()
    assert not at.exception
    assert at.session_state[ROWS_KEY][-1]["seconds"] == ""


def test_table_csv_keeps_what_was_typed():
    from ui.roofline.results import table_csv
    from ui.roofline.state import DEFAULT_ROWS
    from calc.kernel_table import parse_rows
    rows = [dict(r) for r in DEFAULT_ROWS]
    csv_text = table_csv(parse_rows(rows), rows)
    assert "GEMM 8192×8192×8192 bf16,2*8192**3,3*8192**2*2,4.4 ms,1" in csv_text
    # and the importer reads it back to the same numbers
    from calc.importers import import_file
    back = import_file(csv_text.encode(), "kernels.csv")
    assert [k.flops for k in back.kernels] == [k.flops for k in parse_rows(rows).kernels]


def test_imported_numbers_read_as_people_type_them():
    from calc.kernel_table import KernelRecord, readable_number
    from ui.roofline.state import _records_to_rows
    row = _records_to_rows([KernelRecord("k", 137438953472.0, 402653184.0, 0.0009000000000000001, 1,
                                         "ncu")], None, readable=True)[0]
    # 2^37 FLOP to 6 digits; 0.0009000000000000001 s is 900 us without the float noise
    assert (row["flops"], row["bytes"], row["seconds"]) == ("137.439G", "402.653M", "900 us")
    assert readable_number(0.016151000000000002, "seconds") == "16.151 ms"


def test_results_lead_with_what_a_user_reads_and_show_dashes():
    at = open_app_page(ROOFLINE, "en")
    df = next(d.value for d in at.dataframe if list(d.value.columns[:1]) == ["Row"])
    assert list(df.columns[:6]) == ["Row", "Kernel", "Verdict", "% of ceiling", "Bound",
                                    "Ceiling (attainable)"]
    # row 1 (the seed's intensity-2 kernel) has no time: dashes, never None
    first = df.iloc[0]
    assert first["% of ceiling"] == "—" and first["Time"] == "—" and first["Achieved"] == "—"
    assert df.iloc[1]["% of ceiling"] == "80.1%"      # 1.0995e12 / 4.4e-3 / 312e12 (calc.units.format_percent)
