"""Training layout page: which TP × PP × DP × EP × CP split fits the cluster, how long a step
takes and where the time goes — every layout that fits, fastest first, from calc.parallel;
the chosen one's step, memory and pipeline schedule; the rejected ones and why; its
predicted MFU to the Training time page and Plans.

A list of sections (ui.training_layout); every number comes from calc/.
"""
import streamlit as st

from ui.frame import calculator, page_frame
from ui.model.sidebar_model import open_on_catalog_model, render_model
from ui.plans.add import training_layout_button
from ui.training_layout import how, inputs, network, results, search, use

open_on_catalog_model()  # a new visitor opens on a catalog model, not an empty page
ctx = page_frame("training_layout")
t = ctx.t

st.title(t("training_layout.title"))
st.markdown(t("training_layout.intro"))
arch = render_model(ctx)


@calculator("training_layout")
def layout_calculator() -> None:
    """Inputs and everything computed from them: an input reruns only this."""
    left, right = st.columns([1, 2.6], gap="large")
    with left:
        st.subheader(t("training_layout.inputs_heading"))
        run = inputs.render_inputs(t)
        net = network.render_network(t, ctx.device)
    if run is None or net is None or ctx.device is None:
        right.warning(t("common.missing_inputs"))
        return
    with right:
        found, ms = search.search(arch, ctx.device, ctx.precision, run, net)
        chosen = results.render_table(t, found, ms)
    if chosen is not None:
        results.render_chosen(ctx, chosen)
        label = results.layout_label(t, chosen)
        with use.render_use(ctx, chosen, label):
            training_layout_button(ctx, chosen, label)
    results.render_rejected(t, found)
    st.info(t("training_layout.caveat"), icon=":material/info:")
    if chosen is not None:
        how.render_how(ctx, chosen)


if arch is not None:
    layout_calculator()
