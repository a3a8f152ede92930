"""The Decode page's result parts (ui.live: a slider reruns them and itself only): the
results column — metrics, the headline, the batch chart, memory fit, a measured speed,
prefill and the roofline, all from one calc.inference.decode_report (ui.decode.answer) —
and "How this is computed" under both columns."""
from __future__ import annotations

import streamlit as st

from ui.decode import answer, how, prefill, results, roofline
from ui.frame import how_computed


def render_results_part(ctx, setup, why):
    """The results column; returns the report (None while an input is unreadable).
    ``why(t, lesson)``: the Learn link (ui.learn.link.why_link, passed by the page)."""
    t = ctx.t
    st.subheader(t("decode.results_heading"))
    if not (ctx.ready and setup.ok):
        st.warning(t("common.missing_inputs"))
        return None
    report = answer.decode_answer(ctx, setup)
    results.render_metrics(ctx, setup, report)
    results.render_headline(ctx, setup, report)
    why(t, 8)
    results.render_batch_chart(ctx, setup, report)
    results.render_memory_fit(ctx, setup, report)
    results.render_measured(ctx, setup, report)
    prefill.render_prefill(ctx, setup, report)
    roofline.render_roofline(ctx, setup, report)
    return report


def render_how_part(ctx, setup, report) -> None:
    """How the numbers are computed, for the report the results part drew (none: nothing)."""
    if report is not None:
        how_computed(ctx.t, how.how_formulas(ctx, setup, report))
