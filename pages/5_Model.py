"""Model page: every operator of the sidebar's model, for one prefill or decode step, placed
on the device's roofline, timed and summed; the Roofline page's measured kernels beside them.

A list of sections (ui.model); the numbers come from calc.model_ops.
"""
import streamlit as st

from calc.model_ops import model_operators
from calc.decode import bytes_per_param
from ui.frame import calculator, page_frame
from ui.model import chart, how, inputs, measured, results, sidebar_model
from ui.roofline import results as roofline_results, state as roofline_state

sidebar_model.open_on_catalog_model()  # a new visitor opens on a catalog model, not an empty page
ctx = page_frame("model")
t = ctx.t

st.title(t("model.title"))
st.markdown(t("model.intro"))
arch = sidebar_model.render_model(ctx)


@calculator("model")
def model_calculator() -> None:
    """Inputs and everything computed from them: a slider reruns only this."""
    left, right = st.columns([1, 2.6], gap="large")
    with left:
        st.subheader(t("model.inputs_heading"))
        step = inputs.render_inputs(t, arch)
    if not (ctx.ready and step.ok):
        right.warning(t("common.missing_inputs"))
        return
    ops = model_operators(arch, phase=step.phase, batch=step.batch, tokens=step.tokens,
                          peak_flops=ctx.peak_flops, mem_bw=ctx.mem_bw,
                          bytes_per_param=bytes_per_param(step.weights),
                          act_bytes_per_elem=bytes_per_param(step.act),
                          kv_bytes_per_elem=bytes_per_param(step.kv),
                          tp=step.tp, flash=step.flash)
    analysis = roofline_results.analyze(roofline_state.parsed(), ctx.peak_flops, ctx.mem_bw,
                                        precision=ctx.precision) \
        if step.overlay else None
    with right:
        results.render_totals(ctx, ops, step)
        chart.render_chart(ctx, ops, analysis)
    results.render_table(ctx, ops, arch.id)
    if step.overlay:
        measured.render_measured(ctx, ops, analysis)
    how.render_how(ctx, ops, step)


if arch is not None:
    model_calculator()
