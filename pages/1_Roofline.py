"""Roofline page: chart on top; the kernel table, builder and import in tabs; results,
sentences and downloads; how it is computed; then the hierarchy view, compared devices and
scenario files.

A list of sections; each is one module of ui.roofline (numbers come from calc/ through
them; the kernel table lives in ui.roofline.state).
"""
import streamlit as st

from ui.frame import page_frame
from ui.learn.link import why_link
from ui.roofline import (builder, chart, compare, hierarchy, import_panel, results, scenario, state,
                         table)

ctx = page_frame("roofline")
t = ctx.t

st.title(t("roofline.title"))
chart.render_intro(ctx)
chart_box = st.container()          # filled after the table is read (edits show at once)

tab_table, tab_builder, tab_import = st.tabs(
    [t("roofline.tab.table"), t("roofline.tab.builder"), t("roofline.tab.import")])
with tab_table:
    table.render_table(t)
with tab_builder:
    builder.render_builder(t)
with tab_import:
    import_panel.render_import_panel(ctx)

parse = state.parsed()
table.render_errors(t, parse.errors)
scenario.render_link_note(ctx, parse.kernels)

# No valid custom peak/bandwidth: no chart and no results, but the table, the builder and
# the sections below stay usable (a scenario file can fix the device).
analysis = results.analyze(parse, ctx.peak_flops, ctx.mem_bw,
                           dict(ctx.device.peaks) if ctx.device is not None else None,
                           ctx.precision) if ctx.ready else None
with chart_box:
    chart.render_chart(ctx, analysis)
    why_link(t, 1)
if analysis is not None:
    results.render_results_section(ctx, parse, analysis)
    why_link(t, 2)

st.divider()
st.header(t("roofline.extras_heading"))
hierarchy.render_hierarchy_controls(ctx, parse.kernels)
compare.render_compare_section(ctx, parse.kernels)
scenario.render_scenario_panel(ctx, parse.kernels)
