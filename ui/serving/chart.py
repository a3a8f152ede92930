"""The Serving page's frontier: tokens/s per GPU against tokens/s per user, one curve per
candidate, the TPOT target and the Pareto front (ui.figures.serving)."""
from __future__ import annotations

import streamlit as st

from calc.serving import per_user_target
from calc.units import format_si
from ui.figures.serving import frontier_figure
from ui.serving.how import network_terms
from ui.widgets import percent_text


def render_frontier(ctx, comp, inp) -> None:
    t = ctx.t
    st.subheader(t("serving.frontier_heading"))
    if not comp.candidates:
        st.warning(t("serving.no_candidate"), icon=":material/warning:")
        return
    names = {d: ctx.devices[d].name_for(ctx.lang) for d in inp.devices}
    fig = frontier_figure(t, comp.candidates, names, per_user_target=per_user_target(inp.tpot_target),
                          pareto_x=comp.pareto_x, pareto_y=comp.pareto_y, ttft_stat=inp.ttft_stat,
                          ttft_quantile=inp.ttft_quantile)
    st.plotly_chart(fig, config=ctx.chart_config("serving_frontier"), key="serving_frontier")
    source = t(f"serving.eff_source.{inp.efficiency}", bw=percent_text(t, comp.efficiency.mem_bw, 0),
               **network_terms())
    if inp.step_overhead:
        source += t("serving.overhead_source", overhead=format_si(inp.step_overhead, "s"))
    st.caption(t("serving.frontier_caption", eff=t(f"serving.eff.{inp.efficiency}"), source=source))
