"""Serving page: how many GPUs for a traffic at a TTFT / TPOT target, tokens/s per GPU and
per user, cost per million tokens and energy per token, from the one decode and prefill
records (calc.serving on calc.inference).

A list of sections (ui.serving); the numbers come from calc.serving.
"""
import streamlit as st

from ui import live
from ui.frame import calculator, page_frame
from ui.plans.add import serving_plan_button
from ui.serving import how, inputs, model, parts

ctx = page_frame("serving")
t = ctx.t

st.title(t("serving.title"))
st.markdown(t("serving.intro"))
how.render_definitions(t)
arch = model.render_model(ctx)


@calculator("serving")
def serving_calculator() -> None:
    """Inputs and everything computed from them (one fragment; a slider reruns only itself
    and the two result parts, ui.live)."""
    left, right = st.columns([1, 2.4], gap="large")
    with left:
        inputs.render_inputs(t, ctx.devices, model.catalog(), arch)  # the parts' record: live.record
    with right:
        live.results("serving", "answer", lambda inp: parts.render_answer_part(ctx, arch, inp))
    live.results("serving", "details",
                 lambda inp: parts.render_details_part(ctx, arch, inp, live.output("serving", "answer"),
                                                       serving_plan_button))


serving_calculator()
how.render_how(t)      # no input changes it: outside the fragment, not re-sent by a slider
