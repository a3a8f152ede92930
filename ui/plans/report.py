"""The one-page report: a self-contained HTML file (no scripts, no external files) with
the plan tables, the chart(s) as inline SVG, the assumptions and the cited sources, in
the page's language, with print CSS for A4 and Letter.

Pure function (no Streamlit): :func:`report_html`.  Every number comes from the same rows
(ui.plans.rows) and points (ui.plans.points) as the page.
"""
from __future__ import annotations

import datetime as _dt
from html import escape
from typing import Optional, Sequence

from calc.plans import PlanTable
from calc.published import Published
from ui.i18n import Translator
from ui.plans.points import serving_chart, training_chart
from ui.plans.rows import errors, serving_report_rows, training_report_rows
from ui.plans.svg import chart_svg

# Content width 180 mm fits A4 (210 mm) and Letter (215.9 mm) with 12-15 mm margins.
CSS = """
@page { margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, "Noto Sans CJK SC", sans-serif;
       color: #212121; margin: 0 auto; max-width: 180mm; font-size: 8.5pt; line-height: 1.3; }
h1 { font-size: 14pt; margin: 4mm 0 1mm; }
h2 { font-size: 10pt; margin: 3mm 0 1mm; border-bottom: 1px solid #bdbdbd; }
p.meta { color: #616161; margin: 0 0 2mm; font-size: 8.5pt; }
table { border-collapse: collapse; width: 100%; font-size: 7pt; line-height: 1.25; }
th, td { border: 1px solid #cfcfcf; padding: 0.8mm 1.1mm; text-align: left; vertical-align: top; }
th { background: #f1f3f4; font-weight: 600; }
tr.baseline td { background: #fff4f4; }
.charts { display: flex; gap: 4mm; }
.charts figure { flex: 1; margin: 1mm 0; min-width: 0; }
ul { margin: 1mm 0 0 4mm; padding: 0; font-size: 7pt; }
li { margin: 0.4mm 0; }
.err { color: #b71c1c; }
.hint { color: #757575; font-size: 8pt; }
@media print {
  .hint { display: none; }
  h2, table, figure, ul { break-inside: avoid; }
  body { max-width: none; }
}
"""


def _table_html(cols: Sequence[str], rows: Sequence[Sequence[str]], idx: Sequence[int],
                baseline: Optional[int]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in cols)
    body = "".join(
        ('<tr class="baseline">' if i == baseline else "<tr>")
        + "".join(f"<td>{escape(str(c))}</td>" for c in r) + "</tr>"
        for r, i in zip(rows, idx))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def report_html(t: Translator, lang: str, table: PlanTable, results: Sequence, devices,
                published: Optional[Published], *, today: Optional[_dt.date] = None) -> str:
    """The report as one HTML document (UTF-8 text)."""
    code = table.currency_code
    parts = [f'<!DOCTYPE html>\n<html lang="{"zh-CN" if lang == "zh" else "en"}"><head>'
             f'<meta charset="utf-8"><title>{escape(t("plans.report.title"))}</title>'
             f"<style>{CSS}</style></head><body>",
             f"<h1>{escape(t('plans.report.title'))}</h1>",
             f'<p class="meta">{escape(t("plans.report.generated", date=(today or _dt.date.today()).isoformat()))}'
             f' <span class="hint">· {escape(t("plans.report.print_hint"))}</span></p>']
    charts = []
    for heading, builder, chart in (
            ("plans.training_heading", training_report_rows, training_chart),
            ("plans.serving_heading", serving_report_rows, serving_chart)):
        cols, rows, idx = builder(t, table, results, devices, code)
        if rows:
            parts.append(f"<h2>{escape(t(heading))}</h2>")
            parts.append(_table_html(cols, rows, idx, table.baseline))
        data = chart(t, table, results, code)
        if data is not None:
            charts.append(chart_svg(data))
    for name, message in errors(t, table, results):
        parts.append(f'<p class="err">{escape(t("plans.row_error", name=name, message=message))}</p>')
    if charts:
        parts.append('<div class="charts">' + "".join(f"<figure>{c}</figure>" for c in charts)
                     + "</div>")
        parts.append(f'<p class="meta">{escape(t("plans.chart.range_note"))}</p>')
    items = [t("plans.report.a_training"), t("plans.report.a_serving"),
             t("plans.report.a_memory"), t("plans.report.a_published"), t("plans.report.a_peaks")]
    if code:
        items.append(t("plans.report.a_currency", currency=code))
    parts.append(f"<h2>{escape(t('plans.report.assumptions'))}</h2><ul>"
                 + "".join(f"<li>{escape(x)}</li>" for x in items) + "</ul>")
    used = _sources_used(results, published)
    if used:
        parts.append(f"<h2>{escape(t('plans.report.sources'))}</h2><ul>"
                     + "".join(f"<li>{escape(s.title)} — {escape(s.url)}</li>" for s in used)
                     + "</ul>")
    parts.append("</body></html>\n")
    return "".join(parts)


def _sources_used(results: Sequence, published: Optional[Published]) -> list:
    if published is None:
        return []
    ids: list[str] = []
    for r in results:
        rng = getattr(r, "published", None)
        for run in (rng.runs if rng else ()):
            if run.source not in ids:
                ids.append(run.source)
    return [published.sources[i] for i in ids if i in published.sources]
