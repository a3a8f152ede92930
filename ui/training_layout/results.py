"""The layouts that fit (a table, fastest first), the chosen one's numbers, its step, its
memory and its schedule; the rejected layouts on request.

URL names: ``layout`` (the chosen row, e.g. ``t8-p4-d2-e1-c1-b1``; absent: the fastest,
whichever the inputs make it),
``rejected`` (true / false).
"""
from __future__ import annotations

import streamlit as st

from calc.parallel import LayoutSearch, Rejection, TrainingStep, step_timeline
from calc.units import format_percent, format_si
from ui.figures.training_layout import gantt_figure, memory_figure, step_breakdown_figure
from ui.widgets import bound_checkbox, bound_select

TABLE_ROWS = 100
FASTEST = "fastest"        # "Layout to inspect": the fastest layout, whichever it is
REJECTED_ROWS = 300


def layout_id(r) -> str:
    """The URL id of a layout: t8-p4-d2-e1-c1-b1."""
    return f"t{r.tp}-p{r.pp}-d{r.dp}-e{r.ep}-c{r.cp}-b{r.micro_batch}"


def layout_label(t, r) -> str:
    return t("training_layout.layout_label", tp=r.tp, pp=r.pp, dp=r.dp, ep=r.ep, cp=r.cp,
             mb=r.micro_batch)


def render_table(t, result: LayoutSearch, search_ms: float) -> TrainingStep | None:
    """The table of layouts that fit and the choice of one; returns the chosen layout."""
    st.subheader(t("training_layout.results_heading"))
    tried = result.tried
    if not result.layouts:
        st.warning(t("training_layout.none_fit", count=f"{tried:,}"), icon=":material/memory:")
        return None
    st.caption(t("training_layout.count", fit=f"{len(result.layouts):,}", tried=f"{tried:,}",
                 ms=f"{search_ms:.0f}"))
    rows = [{t("training_layout.col.tp"): r.tp, t("training_layout.col.pp"): r.pp,
             t("training_layout.col.dp"): r.dp, t("training_layout.col.ep"): r.ep,
             t("training_layout.col.cp"): r.cp, t("training_layout.col.mb"): r.micro_batch,
             t("training_layout.col.step"): format_si(r.step_seconds, "s"),
             t("training_layout.col.mfu"): format_percent(r.mfu),
             t("training_layout.col.memory"): format_si(r.memory.total, "B"),
             t("training_layout.col.largest"): t(f"training_layout.part.{r.largest_exposed}")}
            for r in result.layouts[:TABLE_ROWS]]
    st.dataframe(rows, hide_index=True, width="stretch")
    by_id = {layout_id(r): r for r in result.layouts[:TABLE_ROWS]}
    # First "the fastest" (URL: no ``layout``): it follows the inputs; a layout picked by
    # name stays pinned while it still fits.
    fastest = result.layouts[0]
    ids = [FASTEST, *by_id]
    chosen = bound_select(t("training_layout.choose"), ids, "layout", index=0,
                          format_func=lambda i: t("training_layout.choose_fastest",
                                                  layout=layout_label(t, fastest))
                          if i == FASTEST else layout_label(t, by_id[i]),
                          help=t("training_layout.choose_help"))
    return fastest if chosen == FASTEST else by_id[chosen]


def render_chosen(ctx, step: TrainingStep) -> None:
    """Headline numbers, the tiers, the step bar, the memory bar and the Gantt chart."""
    t = ctx.t
    cols = [*st.columns(3), *st.columns(3)]
    cols[0].metric(t("training_layout.metric.step"), format_si(step.step_seconds, "s"))
    cols[1].metric(t("training_layout.metric.mfu"), format_percent(step.mfu))
    cols[2].metric(t("training_layout.metric.hfu"), format_percent(step.hfu))
    cols[3].metric(t("training_layout.metric.tokens"), format_si(step.tokens_per_s, "tok/s"))
    cols[4].metric(t("training_layout.metric.bubble"), format_percent(step.bubble_fraction))
    cols[5].metric(t("training_layout.metric.memory"), format_si(step.memory.total, "B"))
    tiers = ", ".join(f"{g} {t('training_layout.tier.' + tier)}" for g, tier in step.tiers.items())
    st.caption(t("training_layout.tiers", tiers=tiers))
    if "tp_crosses_domain" in step.warnings:
        st.warning(t("training_layout.warn.tp_crosses_domain", tp=step.tp,
                     domain=step.domain_gpus), icon=":material/lan:")
    st.plotly_chart(step_breakdown_figure(t, step), config=ctx.chart_config("layout_step"))
    st.caption(t("training_layout.hidden", cp=format_si(step.cp_comm_hidden_seconds, "s"),
                 ep=format_si(step.ep_comm_hidden_seconds, "s"),
                 dp=format_si(step.dp_comm_hidden_seconds, "s")))
    st.plotly_chart(memory_figure(t, step), config=ctx.chart_config("layout_memory"))
    if step.pp > 1:
        blocks, m = step_timeline(step)
        st.plotly_chart(gantt_figure(t, blocks, pp=step.pp, n_microbatches=m, schedule=step.schedule,
                                     interleave=step.interleave, bubble_fraction=step.bubble_fraction,
                                     total_microbatches=step.n_microbatches),
                        config=ctx.chart_config("layout_schedule"))
        st.caption(t("training_layout.gantt_caption"))


def reason_text(t, x: Rejection) -> str:
    detail = dict(x.detail)
    if x.reason == "memory":
        detail = {"memory": format_si(detail["memory"], "B"),
                  "capacity": format_si(detail["capacity"], "B"),
                  "usable": format_si(detail["usable"], "B")}
    return t(f"training_layout.reason.{x.reason}", **detail)


def render_rejected(t, result: LayoutSearch) -> None:
    """On request: every rejected layout and its reason."""
    if not bound_checkbox(t("training_layout.rejected"), "rejected", value=False,
                          help=t("training_layout.rejected_help")):
        return
    shown = result.rejected[:REJECTED_ROWS]
    rows = [{t("training_layout.col.tp"): x.tp, t("training_layout.col.pp"): x.pp,
             t("training_layout.col.dp"): x.dp, t("training_layout.col.ep"): x.ep,
             t("training_layout.col.cp"): x.cp, t("training_layout.col.mb"): x.micro_batch,
             t("training_layout.col.reason"): reason_text(t, x)} for x in shown]
    st.dataframe(rows, hide_index=True, width="stretch")
    if len(result.rejected) > len(shown):
        st.caption(t("training_layout.rejected_more", shown=len(shown), total=len(result.rejected)))
