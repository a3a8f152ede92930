"""Measure page: measure this machine (CPU through numpy, GPU through torch), its roofs
beside the sidebar's datasheet device, the bandwidth-vs-working-set curve, and live numpy
kernels on the measured roofline.

Thin by design: layout and calls. Timing lives in measure/, numbers in calc/, sections
in ui.measure.
"""
import streamlit as st

from ui.figures.measure import comparison_figure
from ui.frame import how_computed, page_frame
from ui.measure import live, state
from ui.measure.compare import choose_measured, datasheet_for, render_ratio_table
from ui.measure.curve import render_curve
from ui.measure.how import how_items
from ui.measure.run_panel import render_run_panel

ctx = page_frame("measure")
t = ctx.t

st.title(t("measure.title"))
st.markdown(t("measure.intro"))
render_run_panel(ctx)

if not state.measured_devices():
    st.info(t("measure.none_yet"), icon=":material/info:")
else:
    st.divider()
    st.header(t("measure.results_heading"))
    dev, precision = choose_measured(ctx)
    sheet = datasheet_for(ctx, precision, dev)
    chart_box = st.container()          # drawn after the live kernels ran (their points)
    render_ratio_table(ctx, dev, sheet)
    render_curve(ctx, dev, sheet)
    st.divider()
    live.render_live_controls(ctx, dev)
    live.render_live_results(ctx, dev)
    with chart_box:
        datasheet = (sheet.label, sheet.peak_flops, sheet.mem_bw) if sheet is not None else None
        fig = comparison_figure(t, dev, precision, datasheet, live.live_points(t, dev))
        st.plotly_chart(fig, config=ctx.chart_config("measured_roofline"), key="measure_chart")
        st.caption(t("measure.chart_caption"))
    how_computed(t, how_items(t))
