"""Training layout page: which TP × PP × DP × EP × CP split fits the cluster, how long a step
takes and where the time goes — every layout that fits, fastest first, from calc.parallel;
the chosen one's step, memory and pipeline schedule; the rejected ones and why; its
predicted MFU to the Training time page and Plans.

A list of sections (ui.training_layout); every number comes from calc/.
"""
import streamlit as st

from ui import live
from ui.frame import calculator, page_frame
from ui.model.sidebar_model import open_on_catalog_model, render_model
from ui.plans.add import training_layout_button
from ui.training_layout import inputs, parts

open_on_catalog_model()  # a new visitor opens on a catalog model, not an empty page
ctx = page_frame("training_layout")
t = ctx.t

st.title(t("training_layout.title"))
st.markdown(t("training_layout.intro"))
arch = render_model(ctx)


@calculator("training_layout")
def layout_calculator() -> None:
    """Inputs and everything computed from them (one fragment; the sequence slider reruns
    only itself and the result parts, ui.live)."""
    left, right = st.columns([1, 2.6], gap="large")
    with left:
        st.subheader(t("training_layout.inputs_heading"))
        note_box = inputs.render_inputs(t, ctx.device)    # the parts' record: live.record
    with note_box:                         # under the inputs: the batch in sequences
        live.results("training_layout", "note", lambda setup: parts.render_note_part(ctx, setup))
    with right:
        live.results("training_layout", "answer",
                     lambda setup: parts.render_answer_part(ctx, arch, setup))
    live.results("training_layout", "details",
                 lambda setup: parts.render_details_part(ctx, live.output("training_layout", "answer"),
                                                         training_layout_button))


if arch is not None:
    layout_calculator()
