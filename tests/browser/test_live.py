"""Real browser: the live sliders (ui.live). Moving one reruns only its field and the page's
result parts, not the other inputs; and the page it leaves is exactly the page a new tab
opens on the URL it wrote (the check AppTest cannot make: under AppTest a live slider
reruns the whole calculator, see ui.live.APPTEST_SESSION).

For every live slider: press it once, wait for the URL to change, then compare the main
area's whole text (every input, caption, metric, table cell and chart label) with a fresh
tab on that URL, and count the DOM changes inside an input that is not live (zero: it was
not re-sent)."""
from __future__ import annotations

import difflib

import pytest

from browser_helpers import act_and_wait, assert_no_exception, goto, wait_idle

pytestmark = pytest.mark.browser

# (page, URL parameters, the slider's widget key, a non-live input's widget key)
CASES = [
    ("serving", {"s_sim": "true"}, "s_prefix", "s_isl"),
    ("serving", {}, "s_ttft", "s_rate"),
    ("serving", {}, "s_tpot", "s_isl"),
    ("training", {}, "params__slider", "gpus"),
    ("training", {}, "tokens__slider", "gpus"),
    ("training", {}, "mfu__slider", "gpus"),
    ("training", {}, "compare_mfu", "gpus"),
    ("training", {"model": "llama-3.1-8b"}, "seq__slider", "gpus"),
    ("decode", {}, "params__slider", "weights"),
    ("decode", {}, "batch__slider", "weights"),
    ("decode", {"model": "llama-3.1-8b"}, "context__slider", "weights"),
    # (a model in the URL: opened without one, the page says which it opened on until the
    # next full run, and a link with the model does not)
    ("model", {"model": "llama-2-7b"}, "batch__slider", "weights"),
    ("model", {"model": "llama-2-7b"}, "context__slider", "tp"),
    ("model", {"model": "llama-2-7b", "phase": "prefill"}, "prompt__slider", "weights"),
    # the tokens/s press: the throughput per GPU under the GPUs field (a result part) follows
    ("mfu", {}, "tokens_per_s__slider", "gpus"),
    ("mfu", {}, "params__slider", "gpus"),
    ("mfu", {}, "target_mfu", "gpus"),
    ("mfu", {"model": "llama-3.1-8b"}, "seq__slider", "gpus"),
    ("training_layout", {"model": "llama-2-7b"}, "seq__slider", "gpus"),
    # the batch in tokens: the note under the inputs (a result part) follows the sequence
    ("training_layout", {"model": "llama-2-7b", "gbatch_unit": "tokens", "gbatch": "4M"},
     "seq__slider", "gbatch"),
]

WATCH = """(key) => {
    window.__liveMutations = 0;
    const el = document.querySelector('[data-testid="stMain"] .st-key-' + key);
    if (!el) return false;
    new MutationObserver(ms => { window.__liveMutations += ms.length; })
        .observe(el, {subtree: true, childList: true, attributes: true, characterData: true});
    return true;
}"""


def _main_text(page) -> str:
    return page.locator('[data-testid="stMain"]').inner_text()


# A press that changes something outside its field reruns the whole page (ui.live.field's
# whole_page_if): Decode's N while the model is unreadable, or becomes readable (the
# tensor-parallel field reads the model). (page, URL parameters, the slider's widget key)
WHOLE_PAGE_CASES = [
    ("decode", {"layers": "many", "tp": "3"}, "params__slider"),
    ("decode", {"params": "lots", "tp": "3"}, "params__slider"),   # 3 does not divide 32 heads
]


@pytest.mark.parametrize("page_id,params,slider_key,other_key", CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_live_slider_leaves_the_page_its_url_opens(browser, page, server, page_id, params,
                                                   slider_key, other_key):
    _press_and_compare(browser, page, server, page_id, params, slider_key, other_key)


@pytest.mark.parametrize("page_id,params,slider_key", WHOLE_PAGE_CASES,
                         ids=[f"{c[0]}-{'-'.join(c[1])}" for c in WHOLE_PAGE_CASES])
def test_a_press_the_page_must_follow_reruns_it(browser, page, server, page_id, params, slider_key):
    _press_and_compare(browser, page, server, page_id, params, slider_key, None)


def _press_and_compare(browser, page, server, page_id, params, slider_key, other_key):
    """Press the slider once; the main area then reads as a new tab opened on the URL the
    press wrote; ``other_key`` (None: not checked) saw no DOM change."""
    goto(page, server, page_id, lang="en", **params)
    assert_no_exception(page)
    before_url = page.url
    if other_key is not None:
        assert page.evaluate(WATCH, other_key), f"no input with key {other_key!r} on {page_id}"
    slider = page.locator(f'[data-testid="stMain"] .st-key-{slider_key} input[type="range"]')
    assert slider.count() == 1, f"no slider {slider_key!r} on {page_id}"
    slider.focus()
    act_and_wait(page, lambda: slider.press("ArrowRight"))
    page.wait_for_function(f"() => location.href !== {before_url!r}")
    wait_idle(page)
    assert_no_exception(page)
    after = _main_text(page)
    assert other_key is None or page.evaluate("() => window.__liveMutations") == 0, \
        f"{other_key!r} was redrawn: the press reran more than its field and the results"

    fresh = browser.new_page()
    try:
        fresh.goto(page.url)
        wait_idle(fresh)
        reopened = _main_text(fresh)
    finally:
        fresh.close()
    diff = "\n".join(difflib.unified_diff(reopened.splitlines(), after.splitlines(),
                                          "opened on the URL", "after the live press",
                                          lineterm="", n=0))
    assert after == reopened, f"{page.url}\n{diff[:3000]}"
