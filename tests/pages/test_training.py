"""AppTest: the training-time page (pages/3_Training_time.py), both languages.

Hand arithmetic (seed chapter 04): C = 6 x 7e9 x 1e12 = 4.2e22 FLOP;
64 x 312e12 x 0.45 = 8.9856e15 FLOP/s -> 4.674e6 s = 54.10 days;
at 25 %: 64 x 312e12 x 0.25 = 4.992e15 -> 8.413e6 s = 97.37 days; 43.3 days apart.
"""

import pytest

from page_helpers import open_app_page

PAGE = "pages/3_Training_time.py"


def open_page(lang="en", **params):
    return open_app_page(PAGE, lang, **params)


def texts(at, kind):
    return " ".join(e.value for e in getattr(at, kind))


@pytest.mark.parametrize("lang,days_word", [("en", "days"), ("zh", "天")])
def test_defaults_reproduce_seed(lang, days_word):
    at = open_page(lang)
    assert at.metric[0].value == "42 ZFLOP"                 # 4.2e22
    assert at.metric[1].value == f"54.1 {days_word}"
    # GPU-hours: 4.2e22 / (312e12 x 0.45) / 3600 = 83 096
    assert at.metric[2].value == "83,096"
    assert at.metric[3].value == "—"                        # no price given
    info = texts(at, "info")
    assert "97.4" in info and "43.3" in info and "66,477" in info   # 149 573 - 83 096
    # 30 days: 4.2e22 / (2.592e6 x 312e12 x 0.45) = 115.4 -> 116 GPUs
    assert "116" in texts(at, "success")
    assert len(at.get("plotly_chart")) == 1


def test_doubling_gpus_halves_days():
    at = open_page("en")
    at.text_input(key="gpus").set_value("128").run()
    assert not at.exception
    assert at.metric[1].value == "27.0 days"                # 54.099 / 2 = 27.05 -> 27.0
    assert at.metric[2].value == "83,096"                   # GPU-hours do not change


def test_chinchilla_button_sets_tokens():
    at = open_page("en")
    at.button[0].click().run()
    assert not at.exception
    assert at.text_input(key="tokens").value == "140B"      # 20 x 7B
    assert at.metric[1].value == "7.6 days"                 # 54.099 x 0.14 = 7.57


def test_query_params_reproduce_state():
    # MFU 30 %: 54.099 x 45 / 30 = 81.15 days; price 2 -> 4.2e22/(312e12 x 0.3)/3600 x 2
    # = 124 644 GPU-h x 2 = 249 288
    at = open_page("en", mfu="30%", price="2")
    assert at.metric[1].value == "81.1 days"
    assert at.metric[3].value == "$249,288 USD"             # the default currency: USD


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_garbage_query_params(lang):
    at = open_page(lang, params="abc", gpus="-1", mfu="nan", compare_mfu="500%",
                   price="xyz", deadline_days="0", logy="perhaps")
    assert len(at.error) >= 3
    assert len(at.metric) == 0 and at.warning
    at = open_page(lang, mfu="nan", compare_mfu="garbage")
    assert at.metric[1].value.startswith("54.1")            # MFU fell back to 45 %


def test_bad_typed_input_keeps_page_working():
    at = open_page("en")
    at.text_input(key="tokens").set_value("lots").run()
    assert not at.exception and at.error and len(at.metric) == 0
    at.text_input(key="tokens").set_value("1T").run()
    at.text_input(key="price").set_value("-3").run()
    assert not at.exception and at.error
    assert at.metric[1].value == "54.1 days"                # the rest still computes
