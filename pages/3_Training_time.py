"""Training-time page: days, GPU-hours and money of a run at a given MFU, GPUs for a deadline,
the MFU a run's GPU-hours imply, and the memory per GPU.

A list of sections (ui/training/); every number is a record of calc.training
(training_run) or calc.training_memory (training_memory), shown as it is.
"""
import streamlit as st

from ui import live
from ui.frame import calculator, page_frame
from ui.learn.link import why_link
from ui.plans.add import published_mfu_caption, training_setup_button
from ui.training.details import training_details
from ui.training.inputs import training_inputs
from ui.training.results import training_results

ctx = page_frame("training")
t = ctx.t

st.title(t("training.title"))
st.markdown(t("training.intro"))


def training_plan(inp) -> None:
    """The plan button under the inputs (it carries the memory layout too)."""
    training_setup_button(ctx, inp.n_params, inp.n_tokens, inp.n_gpus, inp.mfu, inp.price,
                          recompute=inp.recompute, seq=inp.seq, causal=inp.causal)


@calculator("training")
def training_calculator() -> None:
    """Inputs, results, the chart, memory per GPU, how they are computed and the takeaway
    (a slider reruns only itself and the result parts, ui.live)."""
    inputs, results = st.columns([1, 1.45], gap="large")
    with inputs:
        _, published_box = training_inputs(ctx)     # the record the parts read: live.record
        plan_box = st.container()
    with results:
        live.results("training", "answer", lambda inp: training_results(ctx, inp, why_link))
    live.results("training", "details",
                 lambda inp: training_details(ctx, inp, live.output("training", "answer")))
    with plan_box:
        live.results("training", "plan", training_plan)
    with published_box:                    # under the MFU field: what published runs reached
        live.results("training", "published",
                     lambda inp: published_mfu_caption(ctx, inp.n_params, inp.n_gpus))


training_calculator()
