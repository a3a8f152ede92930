"""Bandwidth against working-set size (the CPU stream sweep, or the GPU copy sweep)."""
from __future__ import annotations

import streamlit as st

from calc.hardware import Accelerator
from ui.figures.measure import bandwidth_curve_figure
from ui.frame import PageContext
from ui.measure.compare import Datasheet, _measurement_of


def render_curve(ctx: PageContext, dev: Accelerator, sheet: Datasheet | None) -> None:
    t = ctx.t
    st.subheader(t("measure.curve_heading"))
    m, which = _measurement_of(dev)
    if m is None:
        st.info(t("measure.curve_needs_run"), icon=":material/info:")
        return
    if which == "cpu":
        points, plateaus = m.stream, m.cpu_plateaus
        caches = [(c.name, c.size_bytes) for c in m.host.caches]
    else:
        points, plateaus = m.gpu_copy, m.gpu_plateaus
        caches = [("L2", m.gpu.l2_bytes)] if m.gpu and m.gpu.l2_bytes else []
    ds = (sheet.label, sheet.mem_bw) if sheet is not None else None
    fig = bandwidth_curve_figure(t, points, caches, plateaus, ds)
    st.plotly_chart(fig, config=ctx.chart_config("bandwidth_curve"), key="measure_curve")
    st.caption(t("measure.curve_caption_" + which))
