"""MFU page: how far a training run is from the ceiling, and what to check when it is low.

A list of sections (ui/mfu/); every number is calc.mfu.measured_mfu's record (FLOP per
token from calc.training_flops, the count every page uses), shown as it is.
"""
import streamlit as st

from ui import live
from ui.frame import calculator, how_computed, page_frame
from ui.learn.link import why_link
from ui.mfu.checklist import checklist, checklist_heading
from ui.mfu.how import mfu_formulas
from ui.mfu.inputs import mfu_inputs, per_gpu_caption
from ui.mfu.results import mfu_results

ctx = page_frame("mfu")
t = ctx.t

st.title(t("mfu.title"))
st.markdown(t("mfu.intro"))


def mfu_how(inp, out) -> None:
    """How it is computed, and the checklist's heading (it names the MFU band)."""
    if out is not None:
        how_computed(t, mfu_formulas(t, *out, rate=inp.rate))
    checklist_heading(t, out[0] if out else None)


@calculator("mfu")
def mfu_calculator() -> None:
    """Inputs, results, how they are computed, and the checklist's heading (one fragment; a
    slider reruns only itself and the result parts, ui.live)."""
    inputs, results = st.columns([1, 1.45], gap="large")
    with inputs:
        per_gpu_box = mfu_inputs(ctx)        # the record the parts read: live.record
    with per_gpu_box:                        # under the GPUs field: tokens/s per GPU
        live.results("mfu", "per_gpu", lambda inp: per_gpu_caption(t, inp))
    with results:
        live.results("mfu", "answer", lambda inp: mfu_results(ctx, inp, why_link))
    live.results("mfu", "how", lambda inp: mfu_how(inp, live.output("mfu", "answer")))


mfu_calculator()
checklist(t, why_link)
