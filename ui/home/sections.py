"""The home page's sections, in page order: :func:`render_questions` (what the tools answer,
with the two formulas), :func:`render_live` (the sidebar device's roofline, its ridge and
the seed's intensity-2 ceiling; the page adds the Learn links under it), :func:`render_tools` (one card per page of the registry)."""
from __future__ import annotations

import streamlit as st

from calc.roofline import attainable_flops, ridge_point
from calc.units import format_si
from ui.figures.roofline import roofline_figure
from ui.pages import PAGES
from ui.state import nav_query_params_for

TOOLS_PER_ROW = 4          # nine tools in one row squeeze every card to a word's width


def render_questions(t) -> None:
    st.subheader(t("home.questions_heading"))
    st.markdown(t("home.questions"))
    st.subheader(t("home.formulas_heading"))
    st.markdown(t("home.roofline_formula_intro"))
    st.latex(r"P_{\text{attainable}} = \min\left(P_{\text{peak}},\; I \times B_{\text{mem}}\right)")
    st.markdown(t("home.mfu_formula_intro"))
    st.latex(r"\text{MFU} = \frac{6 \cdot N \cdot \text{tokens/s}}{n_{\text{GPU}} \cdot P_{\text{peak}}}")


def render_live(ctx) -> bool:
    """The live chart; False (and a warning) while the custom device's fields are invalid."""
    t = ctx.t
    st.subheader(t("home.live_heading", device=ctx.device_label()))
    if not ctx.ready:
        st.warning(t("common.custom_incomplete"))
        return False
    roof = ctx.roof()
    fig = roofline_figure(t, [roof], height=380, compact=True)
    st.plotly_chart(fig, config=ctx.chart_config("roofline_home"), key="home_chart")
    ridge = ridge_point(ctx.peak_flops, ctx.mem_bw)
    # The seed's lesson: intensity 2 caps a kernel at 2 x bandwidth, whatever you do.
    capped = attainable_flops(2.0, ctx.peak_flops, ctx.mem_bw)
    st.info(t("home.live_caption", ridge=format_si(ridge, "FLOP/B"),
              capped=format_si(capped, "FLOP/s")))
    return True


def render_tools(t) -> None:
    st.subheader(t("home.tools_heading"))
    tools = [p for p in PAGES if p.id != "home"]
    params = nav_query_params_for(p.id for p in tools)
    for row in range(0, len(tools), TOOLS_PER_ROW):
        cols = st.columns(TOOLS_PER_ROW)
        for col, p in zip(cols, tools[row:row + TOOLS_PER_ROW]):
            with col.container(border=True):
                st.page_link(p.file, label=t(p.title_key), icon=p.icon,
                             query_params=params[p.id])
                st.caption(t(f"home.tool.{p.id}"))
