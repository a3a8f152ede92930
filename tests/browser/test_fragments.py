"""Real browser: a slider inside a calculator fragment (ui.frame.calculator) reruns only the
calculator, and still writes the URL and updates everything that depends on it (results,
"How this is computed"); the new URL reproduces the numbers in a fresh tab."""
from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from browser_helpers import act_and_wait, assert_no_exception, goto, wait_idle

pytestmark = pytest.mark.browser

SLIDER = '[data-testid="stMain"] [data-testid="stSlider"] input[type="range"]'

WATCH_SIDEBAR = """() => {
    window.__sidebarMutations = 0;
    const sb = document.querySelector('[data-testid="stSidebar"]');
    new MutationObserver(ms => { window.__sidebarMutations += ms.length; })
        .observe(sb, {subtree: true, childList: true, attributes: true, characterData: true});
}"""


def _metrics(page) -> list[str]:
    return [m.inner_text() for m in page.locator('[data-testid="stMetricValue"]').all()]


def _formulas(page) -> str:
    return " ".join(k.inner_text() for k in page.locator('[data-testid="stMain"] .katex').all())


@pytest.mark.parametrize("page_id", ["mfu", "decode"])
def test_slider_in_fragment_updates_url_results_and_formulas(browser, page, server, page_id):
    goto(page, server, page_id, lang="en")
    # "How this is computed" is lazy: opening it reruns (wait for that run to start and end)
    act_and_wait(page, page.locator('[data-testid="stMain"] [data-testid="stExpander"] summary').last.click)
    before_metrics, before_formulas = _metrics(page), _formulas(page)
    before_params = parse_qs(urlparse(page.url).query).get("params")
    page.evaluate(WATCH_SIDEBAR)
    slider = page.locator(SLIDER).first            # the parameters slider
    slider.focus()
    slider.press("ArrowRight")
    page.wait_for_function(f"() => new URL(location.href).searchParams.get('params') !== "
                           f"{before_params[0]!r}" if before_params else
                           "() => new URL(location.href).searchParams.has('params')")
    wait_idle(page)
    assert_no_exception(page)
    params = parse_qs(urlparse(page.url).query)["params"][0]
    assert params != (before_params or [None])[0]
    after_metrics = _metrics(page)
    assert after_metrics != before_metrics, "the results did not follow the slider"
    assert _formulas(page) != before_formulas, "'How this is computed' did not follow the slider"
    assert params in _formulas(page), (params, "the formulas do not show the new parameter count")
    # A fragment rerun leaves the sidebar alone (a full rerun marks every element stale).
    assert page.evaluate("() => window.__sidebarMutations") == 0

    fresh = browser.new_page()
    try:
        fresh.goto(page.url)
        wait_idle(fresh)
        assert _metrics(fresh) == after_metrics, "the URL does not reproduce the numbers"
    finally:
        fresh.close()
