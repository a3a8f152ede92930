"""Chart points of the plan table (no Streamlit): one labelled point per plan,
with the published range as error bars.  The page's plotly figure
(ui.figures.plans) and the report's SVG (ui.plans.svg) draw the same points.

Training: x = days, y = cost (GPU-hours when some plan has no price); the bars span the
days and cost at the high and low ends of the published MFU range.
Serving: x = output tokens/s per user at the stated efficiency, y = cost per million
output tokens at the stated efficiency (total tokens/s when some plan has no price);
the bars span the published decode-efficiency range.
"""
from __future__ import annotations

from typing import Optional, Sequence

from calc.plans import PlanTable, ServingResult, TrainingResult
from ui.figures.plans import ChartData, Point  # noqa: F401 - the chart's data, defined with its figure
from ui.i18n import Translator
from ui.plans.rows import plan_label


def _money_label(t: Translator, key_cur: str, key_plain: str, code: str) -> str:
    return t(key_cur, currency=code) if code else t(key_plain)


def training_chart(t: Translator, table: PlanTable, results: Sequence,
                   code: str = "") -> Optional[ChartData]:
    items = [(i, r) for i, r in enumerate(results) if isinstance(r, TrainingResult)]
    if not items:
        return None
    priced = all(r.cost is not None for _, r in items)
    pts = []
    for i, r in items:
        if priced:
            y, y_lo, y_hi = r.cost, r.cost_at_hi, r.cost_at_lo
        else:
            y, y_lo, y_hi = r.gpu_hours, r.gpu_hours_at_hi, r.gpu_hours_at_lo
        pts.append(Point(plan_label(t, table, i, results).replace(t("plans.baseline_mark"), "★").strip(),
                         r.days, y, r.days_at_hi, r.days_at_lo, y_lo, y_hi,
                         baseline=i == table.baseline))
    y_label = _money_label(t, "plans.chart.cost", "plans.chart.cost_plain", code) \
        if priced else t("plans.chart.gpu_hours")
    return ChartData(t("plans.chart.training_title", money=y_label), t("plans.chart.days"),
                     y_label, tuple(pts))


def serving_chart(t: Translator, table: PlanTable, results: Sequence,
                  code: str = "") -> Optional[ChartData]:
    items = [(i, r) for i, r in enumerate(results) if isinstance(r, ServingResult)]
    if not items:
        return None
    priced = all(r.cost_per_m_at_eff is not None for _, r in items)
    pts = []
    for i, r in items:
        x, x_lo, x_hi = r.per_user_at_eff, r.per_user_lo, r.per_user_hi
        if priced:
            y, y_lo, y_hi = r.cost_per_m_at_eff, r.cost_per_m_hi, r.cost_per_m_lo
        else:
            y, y_lo, y_hi = r.total_at_eff, r.total_lo, r.total_hi
        pts.append(Point(plan_label(t, table, i, results).replace(t("plans.baseline_mark"), "★").strip(),
                         x, y, x_lo, x_hi, y_lo, y_hi, baseline=i == table.baseline))
    y_label = _money_label(t, "plans.chart.cost_per_m", "plans.chart.cost_per_m_plain", code) \
        if priced else t("plans.chart.tokens_total")
    # the title says what the y axis shows: cost when every plan has a price, else the total
    title = t("plans.chart.serving_title" if priced else "plans.chart.serving_title_total")
    return ChartData(title, t("plans.chart.per_user"), y_label,
                     tuple(pts))
