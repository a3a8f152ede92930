"""The plan tables (training, serving) and the chart of the choice."""
from __future__ import annotations

from typing import Sequence

import pandas as pd
import streamlit as st

from calc.plans import PlanTable, ServingResult, TrainingResult
from ui.figures.plans import plans_figure
from ui.i18n import Translator
from ui.plans.points import serving_chart, training_chart
from ui.plans.rows import errors, plan_label, serving_rows, training_rows


def _frame(cols: Sequence[str], rows: Sequence[Sequence[str]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=list(cols), dtype=object)


#: Pixels per character in the table's font (14 px sans): Latin ~6.4, CJK ~13.5, plus the
#: cell's padding; a column is at most MAX_COLUMN_PX wide (longer text wraps in the report).
_LATIN_PX, _WIDE_PX, _PAD_PX, MAX_COLUMN_PX = 6.4, 13.5, 26, 520


def text_px(text: str) -> int:
    """About how many pixels ``text`` takes in a table cell."""
    wide = sum(1 for ch in text if ord(ch) >= 0x2E80)
    return int(round((len(text) - wide) * _LATIN_PX + wide * _WIDE_PX + _PAD_PX))  # not a formula: pixels of text


def column_widths(cols: Sequence[str], rows: Sequence[Sequence[str]]) -> dict[str, int]:
    """Each column as wide as its longest cell or header (pixels, at most MAX_COLUMN_PX), so
    no cell hides what matters ("MFU 40% (", "+$45,14", "(other devices" were cut)."""
    out = {}
    for j, c in enumerate(cols):
        longest = max([text_px(str(c))] + [text_px(str(r[j])) for r in rows])
        out[c] = min(max(longest, 60), MAX_COLUMN_PX)
    return out


def _baseline_caption(t: Translator, table: PlanTable, results: Sequence, cls, kind: str) -> None:
    if table.baseline is None:
        st.caption(t("plans.no_baseline"))
        return
    base = results[table.baseline] if table.baseline < len(results) else None
    same_kind = table.baseline < len(table.plans) and table.plans[table.baseline].kind == kind
    if isinstance(base, cls):
        st.caption(t("plans.baseline_caption", name=plan_label(t, table, table.baseline, results)))
    elif same_kind and isinstance(base, str):
        # the baseline is of this kind but could not be evaluated: say that, not "another kind"
        st.caption(t("plans.baseline_failed", name=plan_label(t, table, table.baseline, results),
                     error=base[:200]))
    else:
        other = table.plans[table.baseline].kind
        st.caption(t("plans.baseline_other_kind", kind=t(f"plans.kind.{other}").lower()))


def render_tables(t: Translator, table: PlanTable, results: Sequence, devices, code: str) -> None:
    if not table.plans:
        st.info(t("plans.none"), icon=":material/info:")
        return
    for name, message in errors(t, table, results):
        st.error(t("plans.row_error", name=name, message=message), icon=":material/error:")
    for heading, builder, cls, kind in (
            ("plans.training_heading", training_rows, TrainingResult, "training"),
            ("plans.serving_heading", serving_rows, ServingResult, "serving")):
        cols, rows, _ = builder(t, table, results, devices, code)
        if not rows:
            continue
        st.subheader(t(heading))
        widths = column_widths(cols, rows)
        st.dataframe(_frame(cols, rows), hide_index=True, width="stretch",
                     key=f"pl_table_{kind}",
                     column_config={c: st.column_config.TextColumn(c, width=w, pinned=k == 0)
                                    for k, (c, w) in enumerate(widths.items())})
        _baseline_caption(t, table, results, cls, kind)


def render_charts(t: Translator, table: PlanTable, results: Sequence, code: str,
                  chart_config) -> None:
    charts = [(c, stem) for c, stem in ((training_chart(t, table, results, code), "plans_training"),
                                        (serving_chart(t, table, results, code), "plans_serving"))
              if c is not None]
    if not charts:
        return
    st.subheader(t("plans.chart_heading"))
    cols = st.columns(len(charts))
    for col, (chart, stem) in zip(cols, charts):
        with col:
            st.plotly_chart(plans_figure(chart), config=chart_config(stem), key=f"pl_{stem}")
    st.caption(t("plans.chart.range_note"))
