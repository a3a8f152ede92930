"""Roofline page: chart on top; the kernel table, builder and import in tabs; results,
sentences and downloads; how it is computed; then compare devices and scenario files.

Thin by design: layout and calls. Numbers come from calc/ (via ui.roofline.results),
the kernel table lives in ui.roofline.state. The extras (import, hierarchy, compare,
scenario files) come from ui.roofline_extras and are skipped if that package is missing.
"""
import importlib

import streamlit as st

from calc.roofline import attainable_flops
from calc.units import format_si
from ui.figures.roofline import roofline_figure
from ui.frame import how_computed, page_frame
from ui.roofline import results as R
from ui.roofline import state
from ui.roofline.builder import render_builder
from ui.roofline.table import render_editor, render_errors

ctx = page_frame("roofline")
t = ctx.t


def _extra(name):
    """ui.roofline_extras.<name>, or None when that module is not there."""
    try:
        return importlib.import_module(f"ui.roofline_extras.{name}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("ui.roofline_extras"):
            return None
        raise


imp, hier, cmp_, scn = (_extra(n) for n in ("import_panel", "hierarchy", "compare", "scenario_panel"))

st.title(t("roofline.title"))
link_error = state.load_from_url()
if link_error:
    st.warning(t("roofline.link.bad", message=link_error), icon=":material/warning:")
if ctx.ready:
    st.markdown(t("roofline.intro", capped=format_si(attainable_flops(2.0, ctx.peak_flops, ctx.mem_bw),
                                                      "FLOP/s")))

chart_box = st.container()          # filled after the table is read (edits show at once)

tab_names = [t("roofline.tab.table"), t("roofline.tab.builder")]
if imp is not None:
    tab_names.append(t("roofline.tab.import"))
tabs = st.tabs(tab_names)
with tabs[0]:
    st.markdown(t("roofline.table_intro"))
    render_editor(t)
    b1, b2, _ = st.columns([1, 1, 3])
    b1.button(t("roofline.reset"), key="roofline_reset", help=t("roofline.reset_help"),
              on_click=lambda: state.set_rows(state.default_rows()))
    b2.button(t("roofline.clear"), key="roofline_clear", help=t("roofline.clear_help"),
              on_click=lambda: state.set_rows([]))
with tabs[1]:
    render_builder(t)
if imp is not None:
    with tabs[2]:
        imp.render_import_panel(ctx)

parse = state.parsed()
render_errors(t, parse.errors)
if not state.sync_url(parse.kernels):
    st.info(t("roofline.link.too_long"), icon=":material/link:")
    if scn is not None and hasattr(scn, "scenario_download_button"):
        scn.scenario_download_button(ctx, parse.kernels, key="scn_dl_too_long")

if not ctx.ready:
    # No valid custom peak/bandwidth: no chart and no results, but the table, the builder
    # and the sections below stay usable (a scenario file can fix the device).
    with chart_box:
        st.warning(t("common.custom_incomplete"))
        if imp is not None:
            with st.expander(t("roofline.view_heading")):
                imp.render_view_controls(ctx)
else:
    analysis = R.analyze(parse, ctx.peak_flops, ctx.mem_bw)

    with chart_box:
        main_label = f"{ctx.device_label()} · {t('common.prec.' + ctx.precision)}"
        roofs = [R.main_roof(main_label, ctx.peak_flops, ctx.mem_bw)]
        precisions = list(ctx.device.precisions) if ctx.device is not None else []
        chosen = R.roofs_selector(t, precisions, ctx.precision)
        roofs += R.precision_roofs(t, ctx.device, ctx.device_label(), chosen, ctx.mem_bw)
        if cmp_ is not None:
            roofs += cmp_.compare_roofs(ctx)
        hier_opts = hier.current_options() if hier is not None else None
        if hier_opts is not None:
            roofs += hier.hierarchy_roofs(t, ctx.peak_flops, hier_opts)
        shown = analysis
        size = highlight = None
        if imp is not None and len(analysis):
            view = imp.view_arrays(analysis.kernels, imp.view_options())
            shown = R.subset(analysis, view.mask)
            size = None if view.size is None else view.size[view.mask]
            highlight = None if view.highlight is None else view.highlight[view.mask]
        pts = R.points(t, shown, size=size, highlight=highlight) if len(shown) else None
        fig = roofline_figure(t, roofs, pts, height=600)
        if hier_opts is not None and hier_opts.enabled:
            hier.add_hierarchy(fig, t, shown.kernels, ctx.peak_flops, ctx.mem_bw)
        st.plotly_chart(fig, config=ctx.chart_config("roofline"), key="roofline_chart")
        labelled = pts is not None and pts.labels is not None
        st.caption((t("roofline.chart_labels") + " " if labelled else "") + t("roofline.chart_caption"))
        if imp is not None:
            with st.expander(t("roofline.view_heading")):
                imp.render_view_controls(ctx)

    st.subheader(t("roofline.results_heading"))
    R.render_results(t, analysis)
    R.render_downloads(t, parse, analysis, f"{ctx.device_id}_{ctx.precision}")
    how_computed(t, R.how_items(t, analysis, ctx.peak_flops, ctx.mem_bw))

if hier is not None or cmp_ is not None or scn is not None:
    st.divider()
    st.header(t("roofline.extras_heading"))
    if hier is not None:
        hier.render_hierarchy_controls(ctx, parse.kernels)
    if cmp_ is not None:
        cmp_.render_compare_section(ctx, parse.kernels)
    if scn is not None:
        scn.render_scenario_panel(ctx, parse.kernels)
