"""Real browser: the Plans page's one-page report prints cleanly.

The report is downloaded from the page (the button a user presses), opened in Chromium and
printed with Playwright's page.pdf on A4 and on Letter; the PDF's text (pypdf) must hold
every plan, the seed's numbers and the page's language, on one page.  The PDFs and a
screenshot of the report are saved next to the page screenshots.
"""
from __future__ import annotations

import io

import pytest

from browser_helpers import ARTIFACTS, assert_no_exception, full_screenshot, goto, wait_idle

pytestmark = pytest.mark.browser


def _link_table():
    from calc.plans import SERVING, TRAINING, Plan, PlanTable, default_plans, encode_plans

    plans = tuple(default_plans()) + (
        Plan(kind=TRAINING, name="70B on 512 H100", n_params=70e9, n_tokens=2e12,
             device="h100-sxm", n_gpus=512, mfu=0.4, price=2.5),
        Plan(kind=SERVING, name="70B fp8 on 4 H100", n_params=70e9, device="h100-sxm",
             n_gpus=4, weights="fp8", batch=32, price=2.5, n_layers=80, kv_heads=8),
    )
    return plans, encode_plans(PlanTable(plans, 0))


def _print_and_check(browser, html, plans, lang, heading, screenshot_dir):
    pypdf = pytest.importorskip("pypdf")
    report = browser.new_page()
    try:
        report.set_content(html, wait_until="load")
        report.set_viewport_size({"width": 900, "height": 1200})
        report.screenshot(path=str(screenshot_dir / f"plans_report_{lang}.png"), full_page=True)
        for fmt in ("A4", "Letter"):
            pdf = report.pdf(format=fmt, print_background=True)
            (ARTIFACTS / f"plans_report_{lang}_{fmt}.pdf").write_bytes(pdf)
            reader = pypdf.PdfReader(io.BytesIO(pdf))
            assert len(reader.pages) == 1, f"{fmt}: the report takes {len(reader.pages)} pages"
            text = " ".join(pg.extract_text() for pg in reader.pages)
            squashed = "".join(text.split())
            for p in plans:
                assert "".join(p.name.split()) in squashed, f"{fmt}: {p.name!r} missing from the PDF"
            assert "54.1" in text and "97.4" in text          # the seed's days, MFU 45 % / 25 %
            assert "".join(heading.split()) in squashed
            assert "USD" in text                              # the currency of the prices
    finally:
        report.close()


def test_downloaded_report_prints_on_one_page(browser, page, server, screenshot_dir):
    """English: the report the page's button downloads."""
    plans, token = _link_table()
    goto(page, server, "plans", lang="en", plans=token)
    assert_no_exception(page)
    # two tables (training, serving; drawn on a canvas) and two charts
    assert page.locator('[data-testid="stDataFrame"]').count() == 2
    assert page.locator('[data-testid="stPlotlyChart"]').count() == 2
    full_screenshot(page, screenshot_dir / "plans_table_en.png")
    button = page.locator('[data-testid="stDownloadButton"]').filter(has_text="HTML").first
    with page.expect_download() as info:
        button.locator("button").first.click()
    html = open(info.value.path(), encoding="utf-8").read()
    _print_and_check(browser, html, plans, "en", "Assumptions and sources", screenshot_dir)


def test_chinese_report_prints_on_one_page(browser, screenshot_dir):
    """Chinese: the same report builder the page uses (no second page load)."""
    from calc.hardware import load_hardware
    from calc.models import load_models
    from calc.plans import PlanTable, evaluate_all
    from calc.published import load_published
    from ui.i18n import translator
    from ui.plans.report import report_html

    plans, _ = _link_table()
    devices, published = load_hardware(), load_published()
    table = PlanTable(plans, 0, "$", "USD")
    html = report_html(translator("zh"), "zh", table,
                       evaluate_all(plans, devices, published, load_models()), devices, published)
    _print_and_check(browser, html, plans, "zh", "假设与来源", screenshot_dir)


def _crowded_plans_token():
    from calc.plans import TRAINING, Plan, PlanTable, encode_plans
    plans = tuple(Plan(kind=TRAINING, model="llama-3.1-8b", n_tokens=15e12, device="h100-sxm",
                       n_gpus=256, mfu=m, price=2.0) for m in (0.40, 0.41, 0.42, 0.43))
    plans += (Plan(kind=TRAINING, n_params=70e9, n_tokens=2e12, device="b200", n_gpus=1024,
                   mfu=0.35, price=6.0),
              Plan(kind=TRAINING, n_params=7e9, n_tokens=1e12, device="l40s", n_gpus=64,
                   mfu=0.3, price=1.0))
    return encode_plans(PlanTable(plans, 0, "$", "USD"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_plan_chart_labels_do_not_overlap_or_clip(page, server, screenshot_dir, lang):
    # issue 23 item 9: four plans at nearly the same point and two far apart; the labels
    # drawn do not overlap each other and stay inside the plot; every name is in the legend
    goto(page, server, "plans", lang=lang, plans=_crowded_plans_token())
    assert_no_exception(page)
    chart = page.locator('[data-testid="stPlotlyChart"]').first
    chart.scroll_into_view_if_needed()
    wait_idle(page)
    plot = chart.locator("rect.nsewdrag").first.bounding_box()
    boxes = [t.bounding_box() for t in chart.locator("g.textpoint text").all()]
    boxes = [b for b in boxes if b and b["width"] > 0]
    assert len(boxes) >= 3
    for i, a in enumerate(boxes):
        assert a["x"] >= plot["x"] - 1 and a["x"] + a["width"] <= plot["x"] + plot["width"] + 1, a
        for b in boxes[:i]:
            assert (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                    or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]), (a, b)
    assert chart.locator("g.legend g.traces").count() == 6
    chart.screenshot(path=str(screenshot_dir / f"issue23_plans_labels_{lang}.png"))
