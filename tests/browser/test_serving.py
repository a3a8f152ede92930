"""Real browser: the Serving page — moving the TPOT target moves the target line on the
frontier and changes the GPU count (English and Chinese)."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from browser_helpers import PAGE_TIMEOUT_MS, assert_no_exception, full_screenshot, goto, wait_idle

pytestmark = pytest.mark.browser

LABELS = {"en": ("TPOT target", "GPUs needed"), "zh": ("TPOT 目标", "所需 GPU 数")}


def _gpus(page, label: str) -> int:
    box = page.locator('[data-testid="stMetric"]').filter(has_text=label)
    return int(box.locator('[data-testid="stMetricValue"]').inner_text().replace(",", ""))


_TARGET_X_JS = """() => {
    const g = [...document.querySelectorAll('.js-plotly-plot')][0];
    if (!g || !g._fullData || !g._fullData.length) return null;
    const t = g._fullData[g._fullData.length - 1];
    return t.x[0];
}"""


def _target_x(page) -> float:
    """x of the frontier's last trace (the TPOT target line, 1 / TPOT tokens/s per user)."""
    return page.evaluate(_TARGET_X_JS)


def _tpot_param(page) -> str | None:
    """The exact value of ``s_tpot`` in the page's URL (None when absent)."""
    values = parse_qs(urlparse(page.url).query).get("s_tpot")
    return values[0] if values else None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_moving_the_tpot_target_moves_the_line_and_the_gpu_count(page, server, screenshot_dir, lang):
    slider_label, metric_label = LABELS[lang]
    goto(page, server, "serving", lang=lang, model="llama-3.1-70b", s_devices="h200-sxm", s_prec="fp8",
         s_sim="false")
    assert_no_exception(page)
    before_gpus, before_x = _gpus(page, metric_label), _target_x(page)
    assert before_x == pytest.approx(20.0)               # 50 ms: 20 tokens/s per user
    box = page.locator('[data-testid="stElementContainer"]').filter(
        has=page.locator('[data-testid="stSlider"]')).filter(has_text=slider_label)
    thumb = box.locator('input[type="range"]').first
    thumb.focus()
    for _ in range(6):                                     # 50 → 40 → 30 → 25 → 20 → 15 → 10 ms
        thumb.press("ArrowLeft")
    wait_idle(page)
    # on a loaded machine a key press can land while the page reruns: press on until 10 ms
    for _ in range(6):
        tpot = _tpot_param(page)
        if tpot == "0.01":
            break
        overshot = tpot in ("0.0075", "0.005")
        thumb.focus()
        thumb.press("ArrowRight" if overshot else "ArrowLeft")
        wait_idle(page)
    assert _tpot_param(page) == "0.01"        # exactly 10 ms ("0.015" contains "0.01")
    # the URL changes before the rerun that redraws the chart has finished: wait for the
    # redrawn target line itself rather than for the URL
    try:
        page.wait_for_function(f"() => {{ const x = ({_TARGET_X_JS})(); return x !== null && Math.abs(x - 100) < 0.01; }}",
                               timeout=PAGE_TIMEOUT_MS)
    except PlaywrightTimeout:
        # say what the page showed (a CI run once timed out here with the URL at 10 ms):
        # the line's x, the URL, the slider's own value and the script state
        full_screenshot(page, screenshot_dir / f"serving_tpot_{lang}_timeout.png")
        state = page.evaluate("() => document.querySelector('[data-testid=\"stApp\"]')"
                              ".getAttribute('data-test-script-state')")
        pytest.fail(f"target line x = {_target_x(page)} (want 100), s_tpot = {_tpot_param(page)}, "
                    f"slider = {thumb.get_attribute('aria-valuetext')}, script state = {state}")
    wait_idle(page)
    assert_no_exception(page)
    assert _tpot_param(page) == "0.01"
    after_x = _target_x(page)
    assert after_x == pytest.approx(100.0)                # 10 ms: 100 tokens/s per user
    # a tighter TPOT needs more GPUs for the same 20 requests/s (15 vs 11 here: calc tests)
    assert _gpus(page, metric_label) > before_gpus
    full_screenshot(page, screenshot_dir / f"serving_tpot_{lang}.png")
