"""The one-page report (ui.plans.report) and its SVG chart (ui.plans.svg), without a browser:
every plan is in it, in the page's language, names are escaped, the SVG is well-formed XML
and its points sit where the axes say.  The browser test prints it to PDF."""
import re
import xml.etree.ElementTree as ET

import pytest

from calc.hardware import load_hardware
from calc.models import load_models
from calc.plans import SERVING, TRAINING, Plan, PlanTable, default_plans, evaluate_all
from calc.published import load_published
from ui.i18n import translator
from ui.plans.points import ChartData, Point, training_chart
from ui.plans.report import report_html
from ui.plans.svg import chart_svg, nice_ticks

DEV, PUB, MODELS = load_hardware(), load_published(), load_models()


def _table():
    plans = tuple(default_plans()) + (
        Plan(kind=TRAINING, name="<script>alert(1)</script> & co", model="llama-3.1-8b",
             n_tokens=15e12, device="h100-sxm", n_gpus=256, mfu=0.4, price=2.0),
        Plan(kind=SERVING, name="broken", device="a100-80gb-sxm", precision="fp8"))
    return PlanTable(plans, 0, "$", "USD")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_report_holds_every_plan_in_the_page_language(lang):
    t = translator(lang)
    table = _table()
    html = report_html(t, lang, table, evaluate_all(table.plans, DEV, PUB, MODELS), DEV, PUB)
    assert html.startswith("<!DOCTYPE html>") and f'lang="{"zh-CN" if lang == "zh" else "en"}"' in html
    for p in table.plans[:3]:
        assert p.name in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html and "<script>" not in html
    assert t("plans.report.assumptions") in html and t("plans.training_heading") in html
    assert "54.1" in html and "97.4" in html                       # the seed's days
    assert t("plans.row_error", name="broken", message="x").split("x")[0][:8] in html
    assert "MosaicML" in html and "https://" in html               # sources cited
    assert "@page" in html and "@media print" in html              # print CSS
    assert html.count("<svg") == 2                                 # training + serving charts
    if lang == "zh":
        assert "假设与来源" in html


def test_svg_is_well_formed_and_points_land_on_the_axes():
    chart = ChartData("T <1>", "days", "cost", (Point("a & b", 50.0, 100.0, 40.0, 60.0, 80.0, 120.0),
                                                 Point("base", 25.0, 50.0, baseline=True)))
    svg = chart_svg(chart, width=640, height=300)
    root = ET.fromstring(svg)                      # raises on malformed XML
    ns = "{http://www.w3.org/2000/svg}"
    texts = [e.text for e in root.iter(ns + "text")]
    assert "a & b" in texts and "T <1>" in texts
    # x axis to 60 x 1.08 = 64.8; about 5 ticks: 64.8 / 5 = 12.96 -> the next round step
    # (1, 2, 2.5, 5 x 10^k) is 20 -> ticks 0..80. Plot area x from 64 to 640 - 16 = 624:
    # x = 50 -> 64 + 560 x 50/80 = 414
    circle = next(root.iter(ns + "circle"))
    assert float(circle.get("cx")) == pytest.approx(64 + 560 * 50 / 80, abs=0.1)
    assert root.find(ns + "rect[@width='10']") is not None         # the baseline's square


def test_nice_ticks():
    assert nice_ticks(97.4) == [0, 20, 40, 60, 80, 100]
    assert nice_ticks(1.2e6)[-1] >= 1.2e6 and nice_ticks(1.2e6)[1] == 250000
    assert nice_ticks(0) == [0.0, 1.0]


def test_training_chart_uses_gpu_hours_without_prices():
    t = translator("en")
    table = PlanTable(tuple(default_plans()[:2]), 0)
    chart = training_chart(t, table, evaluate_all(table.plans, DEV, PUB))
    assert chart.y_label == "GPU-hours"
    # 4.2e22 / (312e12 x 0.45) / 3600 = 83,096 GPU-hours at 54.1 days
    assert chart.points[0].y == pytest.approx(4.2e22 / (312e12 * 0.45) / 3600)
    assert chart.points[0].baseline and not chart.points[1].baseline


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_serving_chart_title_follows_its_y_axis(lang):
    # issue 23 item 6: without a price the y axis is output tokens/s in total, and so is
    # the title; with a price on every serving plan, cost per million tokens
    from ui.plans.points import serving_chart
    t = translator(lang)
    table = PlanTable(tuple(default_plans()), 0)
    chart = serving_chart(t, table, evaluate_all(table.plans, DEV, PUB, MODELS))
    assert chart.y_label == t("plans.chart.tokens_total")
    assert chart.title == t("plans.chart.serving_title_total")
    assert chart.title != t("plans.chart.serving_title")
    priced = PlanTable(tuple(p if p.kind != SERVING else Plan(**{**p.__dict__, "price": 2.0})
                             for p in default_plans()), 0, "$", "USD")
    chart = serving_chart(t, priced, evaluate_all(priced.plans, DEV, PUB, MODELS), "USD")
    assert chart.title == t("plans.chart.serving_title")

@pytest.mark.parametrize("lang,word", [("en", "impossible"), ("zh", "不可能")])
def test_hfu_above_100_reads_impossible_in_the_training_rows(lang, word):
    # Defect 4: 7B, MFU 80 %, full recompute: HFU = 80 % x 8N / 6N = 106.7 % > 100 %
    from ui.plans.rows import training_rows

    plan = Plan(kind=TRAINING, n_params=7e9, n_tokens=1e12, device="a100-80gb-sxm", n_gpus=64,
                mfu=0.8, recompute="full")
    table = PlanTable((plan,), 0)
    _cols, rows, _idx = training_rows(translator(lang), table, evaluate_all(table.plans, DEV, PUB), DEV)
    assert any(word in str(cell) and "106.7%" in str(cell) for cell in rows[0])


def _boxes_overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_plan_labels_never_overlap_nor_cross_the_edge(lang):
    # issue 23 item 9: eight plans crowded into one corner, long names, in both languages:
    # every label placed lies inside the plot and overlaps no other; the rest (hover / the
    # table) are not drawn. Then the chart and the report's SVG use these places.
    from ui.figures.plans import LABEL_HEIGHT_PX, label_places, label_width
    name = "Llama 3.1 8B · 256 × H100 · MFU 40 %" if lang == "en" else "方案：Llama 3.1 8B · 256 × H100"
    pts = [Point(f"{name} #{k}", 95.0 + k, 1e6 + 1e4 * k, baseline=k == 0) for k in range(8)]
    pts.append(Point("7B · 64 × A100 · MFU 45 %", 1.0, 1.0))
    W, H = 380.0, 290.0
    x_max, y_max = 103 * 1.3, 1.07e6 * 1.18
    places = label_places(pts, x_max, y_max, W, H)
    assert places[-1] is not None                         # a lone point in the corner
    assert sum(1 for x in places if x) >= 2               # the crowd: what can be read
    boxes = []
    for p, place in zip(pts, places):
        if place is None:
            continue
        v, hz = place
        px, py = W * p.x / x_max, H * (1 - p.y / y_max)
        w = label_width(p.label)
        x0 = {"center": px - w / 2, "left": px - w - 4, "right": px + 4}[hz]
        y0 = py - 9 - LABEL_HEIGHT_PX if v == "top" else py + 9
        box = (x0, y0, x0 + w, y0 + LABEL_HEIGHT_PX)
        assert 0 <= box[0] and box[2] <= W and 0 <= box[1] and box[3] <= H, (p.label, box)
        assert not any(_boxes_overlap(box, b) for b in boxes), p.label
        boxes.append(box)
    # the lone point at the left edge is labelled to its right (not cut at the edge)
    assert places[-1][1] == "right"
    # every name is in the chart's legend, labelled or not
    from ui.figures.plans import plans_figure
    fig = plans_figure(ChartData("t", "x", "y", tuple(pts)))
    assert fig.layout.showlegend and [tr.name for tr in fig.data] == [p.label for p in pts]
    svg = chart_svg(ChartData("t", "x", "y", tuple(pts)))
    ET.fromstring(svg)
    assert svg.count("<text") >= sum(1 for p in places if p) + 3


def test_plans_columns_are_as_wide_as_their_text():
    # issue 23 item 8: cells read "MFU 40% (", "+$45,14", "(other devices": every column
    # is now given the width of its longest cell or header (ui.plans.tables.column_widths)
    from ui.plans.tables import MAX_COLUMN_PX, column_widths, text_px
    cols = ["Plan", "MFU", "Δ cost", "Published MFU"]
    rows = [["70B · 1,024 × B200 · MFU 35 %", "40% · HFU 53% (full recompute)", "+$45,140 USD",
             "38%–43% · 3 runs (other devices)"],
            ["方案：7B · 64 × A100", "45%", "—", "50%–64% · 6 个公开结果"]]
    widths = column_widths(cols, rows)
    for j, c in enumerate(cols):
        need = max(text_px(c), *(text_px(r[j]) for r in rows))
        assert widths[c] >= min(need, MAX_COLUMN_PX), (c, widths[c], need)
    # a CJK character is wider than a Latin one
    assert text_px("方案") > text_px("ab")


def _failed_baseline_script():
    import streamlit as st

    from calc.hardware import load_hardware
    from calc.plans import PlanTable, default_plans, evaluate_all
    from ui.i18n import translator
    from ui.plans import tables

    plans = [p for p in default_plans() if p.kind == "training"][:2]
    bad = plans[0].__class__(**{**plans[0].__dict__, "device": "no-such-gpu"})
    table = PlanTable(plans=(bad, plans[1]), baseline=0)
    devices = load_hardware()
    results = evaluate_all(table.plans, devices)
    tables.render_tables(translator(st.session_state.get("lang", "en")), table, results, devices, "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_baseline_that_fails_is_named_as_failing_not_as_another_kind(lang):
    from streamlit.testing.v1 import AppTest
    from ui.i18n import CATALOGS
    at = AppTest.from_function(_failed_baseline_script)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception
    cat = CATALOGS[lang]
    captions = [c.value for c in at.caption]
    head = cat["plans.baseline_failed"].split("{name}")[0]
    other = cat["plans.baseline_other_kind"].split("{kind}")[0]
    assert any(head in c for c in captions), captions
    assert not any(other in c for c in captions)
