"""Model page: every operator of the sidebar's model, for one prefill or decode step, placed
on the device's roofline, timed and summed; the Roofline page's measured kernels beside them.

A list of sections (ui.model); the numbers come from calc.model_ops.
"""
import streamlit as st

from ui import live
from ui.frame import calculator, page_frame
from ui.model import inputs, parts, sidebar_model
from ui.roofline import results as roofline_results, state as roofline_state

sidebar_model.open_on_catalog_model()  # a new visitor opens on a catalog model, not an empty page
ctx = page_frame("model")
t = ctx.t

st.title(t("model.title"))
st.markdown(t("model.intro"))
arch = sidebar_model.render_model(ctx)


def measured_kernels():
    """The Roofline page's measured kernels on this device, for the overlay."""
    return roofline_results.analyze(roofline_state.parsed(), ctx.peak_flops, ctx.mem_bw,
                                    precision=ctx.precision)


@calculator("model")
def model_calculator() -> None:
    """Inputs and everything computed from them (one fragment; a slider reruns only itself
    and the two result parts, ui.live)."""
    left, right = st.columns([1, 2.6], gap="large")
    with left:
        st.subheader(t("model.inputs_heading"))
        inputs.render_inputs(t, arch)       # the record the parts read: live.record
    with right:
        live.results("model", "answer", lambda step: parts.render_answer_part(ctx, arch, step, measured_kernels))
    live.results("model", "details",
                 lambda step: parts.render_details_part(ctx, arch, step, live.output("model", "answer")))


if arch is not None:
    model_calculator()
