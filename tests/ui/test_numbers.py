"""ui.numbers: plurals, counts and durations in both languages."""
import re

import pytest

from ui.i18n import CATALOGS, translator
from ui.numbers import format_count, format_duration, format_exact, plural

en, zh = translator("en"), translator("zh")


@pytest.mark.parametrize("n, text", [(1, "1 GPU"), (8, "8 GPUs"), (0, "0 GPUs"), (1.5, "1.5 GPUs"),
                                     (12_000, "12,000 GPUs")])
def test_plural_english(n, text):
    assert plural(en, "common.n_gpus", n) == text


def test_plural_chinese_has_one_form():
    assert plural(zh, "common.n_gpus", 1) == "1 张卡" and plural(zh, "common.n_gpus", 8) == "8 张卡"
    assert plural(zh, "common.n_gpu_hours", 66_476.7) == "66,477 GPU 小时"


def test_no_english_string_hedges_a_plural_with_s_in_parentheses():
    # "8 GPU(s)", "3 row(s)": write .one / .other keys (ui.numbers.plural) or a sentence
    # without a count in front of the noun. "(s)" after a space is the unit: "threshold (s)".
    hedged = [k for k, v in CATALOGS["en"].items() if re.search(r"[A-Za-z]\(s\)", v)]
    assert not hedged, f"write singular and plural keys (.one/.other) instead: {hedged}"


@pytest.mark.parametrize("x, text", [(83_095.9, "83,096"), (1.19, "1.19"), (0.25, "0.25"), (64.0, "64"),
                                     (0, "0"), (12.345, "12.3"), (2e18, "2.00e+18"),
                                     (float("nan"), "—")])
def test_format_count(x, text):
    assert format_count(x) == text


@pytest.mark.parametrize("x, text", [(115.38, "115.4"), (1.04, "1.04"), (64.0, "64.0"),
                                     (2.5e16, "2.50e+16")])
def test_format_exact_never_looks_rounded_up(x, text):
    assert format_exact(x) == text


@pytest.mark.parametrize("seconds, text_en, text_zh", [
    (45, "45 s", "45 秒"),
    (66.6, "1.11 min", "1.11 分钟"),                  # 66.6 / 60 = 1.11
    (4282, "1.19 h", "1.19 小时"),                    # 4282 / 3600 = 1.189
    (86_400, "1 day", "1 天"),
    (4_674_000, "54.1 days", "54.1 天"),             # the seed's 54 days: 4.674e6 / 86 400
    (299_145_299, "3,462 days", "3,462 天"),         # 7B x 1T on one A100 at 45 %
    (8.64e13, "1.00e+09 days", "1.00e+09 天"),
])
def test_format_duration_picks_the_unit_a_person_says(seconds, text_en, text_zh):
    assert format_duration(en, seconds) == text_en
    assert format_duration(zh, seconds) == text_zh


def test_format_duration_of_nonsense():
    assert format_duration(en, float("inf")) == "—" and format_duration(en, -1) == "—"
