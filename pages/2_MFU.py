"""MFU page: how far a training run is from the ceiling, and what to check when it is low.

A list of sections (ui/mfu/); every number is calc.mfu.measured_mfu's record (FLOP per
token from calc.training_flops, the count every page uses), shown as it is.
"""
import streamlit as st

from ui.frame import calculator, how_computed, page_frame
from ui.learn.link import why_link
from ui.mfu.checklist import checklist, checklist_heading
from ui.mfu.how import mfu_formulas
from ui.mfu.inputs import mfu_inputs
from ui.mfu.results import mfu_results

ctx = page_frame("mfu")
t = ctx.t

st.title(t("mfu.title"))
st.markdown(t("mfu.intro"))


@calculator("mfu")
def mfu_calculator() -> None:
    """Inputs, results, how they are computed, and the checklist's heading (it names the MFU band)."""
    inputs, results = st.columns([1, 1.45], gap="large")
    with inputs:
        inp = mfu_inputs(ctx)
    with results:
        out = mfu_results(ctx, inp, why_link)
    if out is not None:
        how_computed(t, mfu_formulas(t, *out, rate=inp.rate))
    checklist_heading(t, out[0] if out else None)


mfu_calculator()
checklist(t, why_link)
