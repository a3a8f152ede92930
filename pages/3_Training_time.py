"""Training-time page: days, GPU-hours and money of a run at a given MFU, GPUs for a deadline,
the MFU a run's GPU-hours imply, and the memory per GPU.

A list of sections (ui/training/); every number is a record of calc.training
(training_run) or calc.training_memory (training_memory), shown as it is.
"""
import streamlit as st

from ui.frame import calculator, how_computed, page_frame
from ui.learn.link import why_link
from ui.plans.add import published_mfu_caption, training_setup_button
from ui.training.how import training_formulas
from ui.training.inputs import training_inputs
from ui.training.memory import training_memory_section
from ui.training.results import training_results
from ui.training.takeaway import takeaway

ctx = page_frame("training")
t = ctx.t

st.title(t("training.title"))
st.markdown(t("training.intro"))


@calculator("training")
def training_calculator() -> None:
    """Inputs, results, the chart, memory per GPU, how they are computed and the takeaway."""
    inputs, results = st.columns([1, 1.45], gap="large")
    with inputs:
        inp = training_inputs(ctx, published_mfu_caption)
        plan_box = st.container()          # filled last: the plan carries the memory layout too
    with results:
        out = training_results(ctx, inp, why_link)
    items: list = []
    if out is not None:
        run, tf = out
        st.divider()
        memory = training_memory_section(t, inp.model, n_gpus=inp.n_gpus, seq=inp.seq,
                                         recompute=inp.recompute,
                                         memory_bytes=ctx.device.memory_bytes if ctx.device else None)
        items = [*training_formulas(t, inp, run, tf), *memory]
    with plan_box:
        training_setup_button(ctx, inp.n_params, inp.n_tokens, inp.n_gpus, inp.mfu, inp.price,
                              recompute=inp.recompute, seq=inp.seq, causal=inp.causal)
    if items:
        how_computed(t, items)
    takeaway(ctx, inp, out[0] if out else None)


training_calculator()
