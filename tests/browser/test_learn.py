"""Real browser: work through a lesson of the Learn page end to end, in each language.

Lesson 1 on the textbook A100 (quiz 0): the ridge is 312 TFLOP/s ÷ 2 TB/s = 156 FLOP/byte.
A wrong answer of 312 (the 2:4-sparse 624 TFLOP/s over 2 TB/s) names the sparse peak; 156
is right; a kernel at 50 FLOP/byte is capped by the slope; the lesson is done (1 / 8) and
the chapter's answer appears; Next moves the link to lesson=2.
"""
from __future__ import annotations

import re

import pytest

from browser_helpers import act_and_wait, assert_no_exception, full_screenshot, goto

pytestmark = pytest.mark.browser

TEXT = {
    "en": {"check": "Check", "sparse": "2:4-sparse", "right": "Right: 156", "done": "1 / 8",
           "chapter": "The chapter's answer", "next": "Next lesson",
           "slope": "The slope: the memory bandwidth"},
    "zh": {"check": "检查", "sparse": "2:4 稀疏", "right": "对了：156", "done": "1 / 8",
           "chapter": "本章的答案", "next": "下一课", "slope": "斜坡：显存带宽"},
}


def _check(page, check_label: str, nth: int) -> None:
    button = page.locator('[data-testid="stMain"] button:visible').filter(
        has_text=re.compile(rf"^\s*\S*\s*{re.escape(check_label)}\s*$")).nth(nth)
    act_and_wait(page, button.click)


def _answer(page, value: str, check_label: str) -> None:
    field = page.locator('[data-testid="stMain"] [data-testid="stTextInput"] input').nth(1)
    field.fill(value)
    act_and_wait(page, lambda: field.press("Enter"))
    _check(page, check_label, 0)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ridge_lesson_end_to_end(page, server, screenshot_dir, lang):
    text = TEXT[lang]
    goto(page, server, "learn", lang=lang, quiz="0", device="a100-textbook")
    assert_no_exception(page)
    main = page.locator('[data-testid="stMain"]')
    assert "156" not in page.locator('[data-testid="stSidebar"]').inner_text()
    _answer(page, "312", text["check"])
    assert text["sparse"] in main.inner_text(), "the sparse-peak hint is missing"
    _answer(page, "156", text["check"])
    assert text["right"] in main.inner_text()
    # (b) a kernel at 50 FLOP/byte, left of the ridge: the slope caps it
    act_and_wait(page, main.get_by_text(text["slope"]).first.click)
    _check(page, text["check"], 1)
    body = main.inner_text()
    assert text["right"] in body and text["done"] in body and text["chapter"] in body
    assert_no_exception(page)
    full_screenshot(page, screenshot_dir / f"learn_lesson1_done_{lang}.png")
    act_and_wait(page, page.locator('[data-testid="stMain"] button').filter(has_text=text["next"]).first.click)
    assert "lesson=2" in page.url and "quiz=0" in page.url, page.url
    assert text["done"] in main.inner_text()          # progress kept
    assert_no_exception(page)
