"""The Trace doctor's charts: GPU timeline, time by class, kernel-duration histogram."""
from __future__ import annotations

import streamlit as st

from calc.diagnosis import TraceDiagnosis
from ui.figures.diagnosis import class_bar_figure, duration_histogram_figure, timeline_figure


def render_timeline(ctx, d: TraceDiagnosis) -> None:
    t = ctx.t
    st.subheader(t("diagnosis.timeline_heading"))
    st.plotly_chart(timeline_figure(t, d), config=ctx.chart_config("gpu_timeline"),
                    key="diag_timeline")
    st.caption(t("diagnosis.timeline_caption", n=len(d.streams)))


def render_breakdown(ctx, d: TraceDiagnosis) -> None:
    t = ctx.t
    left, right = st.columns(2)
    with left:
        st.subheader(t("diagnosis.classes_heading"))
        st.plotly_chart(class_bar_figure(t, d), config=ctx.chart_config("gpu_time_by_class"),
                        key="diag_classes")
        st.caption(t("diagnosis.classes_caption"))
    with right:
        st.subheader(t("diagnosis.hist_heading"))
        st.plotly_chart(duration_histogram_figure(t, d),
                        config=ctx.chart_config("kernel_durations"), key="diag_hist")
        st.caption(t("diagnosis.hist_caption"))
