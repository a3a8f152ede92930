"""Trace doctor in a real browser: upload a real trace on the page in both languages; the
verdicts, the WebGL timeline and the charts appear; a bad file shows an error naming it
and the diagnosis of the good file stays. Screenshots: diagnosis_<lang>.png."""
from __future__ import annotations

from pathlib import Path

import pytest

from browser_helpers import act_and_wait, assert_no_exception, full_screenshot, goto

pytestmark = pytest.mark.browser

TRACE = Path(__file__).resolve().parents[2] / "samples" / "worker0.1623143089861.pt.trace.json.gz"


def _upload(page, name: str, data: bytes) -> None:
    inputs = page.locator('[data-testid="stMain"] input[type="file"]')
    assert inputs.count() == 1, "the Trace doctor page has one file uploader"
    # wait for the rerun the upload causes to start, then to end: wait_idle alone can return
    # before a loaded server has begun it, and the checks below then race a page still
    # arriving (a CI run once looked for the timeline before it was sent)
    act_and_wait(page, lambda: inputs.first.set_input_files(
        files=[{"name": name, "mimeType": "application/gzip", "buffer": data}]))


@pytest.mark.parametrize("lang,idle_word,error_word", [("en", "data loader", "could not be read"),
                                                       ("zh", "dataloader", "无法")])
def test_upload_a_trace_and_a_bad_file(page, server, screenshot_dir, lang, idle_word, error_word):
    goto(page, server, "diagnosis", lang=lang)
    assert_no_exception(page)
    _upload(page, "worker0.pt.trace.json.gz", TRACE.read_bytes())
    assert_no_exception(page)
    main = page.locator('[data-testid="stMain"]')
    page.locator('[data-testid="stPlotlyChart"]').first.wait_for()
    text = main.inner_text()
    assert idle_word in text and "44.0%" in text, "the data-loader verdict is missing"   # idle over the steps (issue 23)
    # the timeline is WebGL (scattergl draws into a canvas)
    page.locator('.js-plotly-plot canvas').first.wait_for(state="attached", timeout=30_000)
    assert page.locator('.js-plotly-plot canvas').count() >= 1, "no WebGL timeline"
    assert page.locator('[data-testid="stPlotlyChart"]').count() >= 4
    full_screenshot(page, screenshot_dir / f"diagnosis_{lang}.png")
    _upload(page, "broken.json", b'{"traceEvents": [{"ph": "X"')
    assert_no_exception(page)
    errors = main.locator('[data-testid="stAlertContentError"]')
    assert errors.count() == 1 and "broken.json" in errors.first.inner_text()
    assert error_word in errors.first.inner_text()
    assert "44.0%" in main.inner_text(), "a bad file replaced the diagnosis"
