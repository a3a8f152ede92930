"""Decode-speed page: why generating tokens is bandwidth-bound, and what batching buys.

A list of sections (ui.decode); every number comes from calc.inference.decode_report
(one call, ui.decode.answer), for a catalog model or "Custom: parameters only" alike.
"""
import streamlit as st

from ui.decode import answer, header, how, inputs, prefill, results, roofline
from ui.frame import calculator, how_computed, page_frame
from ui.learn.link import why_link
from ui.plans.add import serving_setup_button

ctx = page_frame("decode")
inputs.legacy_gpus()          # an old link's gpus= is this page's tp, read once
t = ctx.t
header.render_header(ctx)


@calculator("decode")
def decode_calculator() -> None:
    """Inputs, results, the two charts and how they are computed (one fragment)."""
    left, right = st.columns([1, 1.45], gap="large")
    with left:
        setup = inputs.render_inputs(ctx)
        serving_setup_button(ctx, setup.n_params, setup.weights, setup.tp, setup.batch, setup.kv,
                             setup.layers, setup.kv_heads, setup.head_dim, setup.context_typed,
                             setup.kv_dtype, prompt=setup.prompt, tp_comm=setup.tp_comm)
    with right:
        st.subheader(t("decode.results_heading"))
        if not (ctx.ready and setup.ok):
            st.warning(t("common.missing_inputs"))
            return
        report = answer.decode_answer(ctx, setup)
        results.render_metrics(ctx, setup, report)
        results.render_headline(ctx, setup, report)
        why_link(t, 8)
        results.render_batch_chart(ctx, setup, report)
        results.render_memory_fit(ctx, setup, report)
        results.render_measured(ctx, setup, report)
        prefill.render_prefill(ctx, setup, report)
        roofline.render_roofline(ctx, setup, report)
    how_computed(t, how.how_formulas(ctx, setup, report))


decode_calculator()
header.render_takeaway(ctx)
