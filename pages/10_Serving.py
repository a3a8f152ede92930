"""Serving page: how many GPUs for a traffic at a TTFT / TPOT target, tokens/s per GPU and
per user, cost per million tokens and energy per token, from the one decode and prefill
records (calc.serving on calc.inference).

A list of sections (ui.serving); the numbers come from calc.serving.
"""
import streamlit as st

from calc.serving import context_overflow, serving_plan
from ui.frame import calculator, page_frame
from ui.plans.add import serving_plan_button
from ui.serving import chart, compare, how, inputs, model, queueing, results

ctx = page_frame("serving")
t = ctx.t

st.title(t("serving.title"))
st.markdown(t("serving.intro"))
how.render_definitions(t)
arch = model.render_model(ctx)


@calculator("serving")
def serving_calculator() -> None:
    """Inputs and everything computed from them (one fragment)."""
    left, right = st.columns([1, 2.4], gap="large")
    with left:
        inp = inputs.render_inputs(t, ctx.devices, model.catalog(), arch)
    if not inp.ok:
        right.warning(t("common.missing_inputs"))
        return
    limit = context_overflow(arch, inp.isl, inp.osl)
    if limit is not None:              # no engine serves it (vLLM: max_model_len)
        right.error(t("serving.context_overflow", isl=f"{inp.isl:,.0f}", osl=f"{inp.osl:,.0f}",
                      limit=f"{limit:,}", model=arch.name))
        return
    wl = inp.workload
    comp = compare.compare(arch, ctx.devices, inp)     # cached per input set, all sessions
    with right:
        results.render_answer(ctx, comp, inp)
        chart.render_frontier(ctx, comp, inp)
    results.render_table(ctx, comp, inp)
    in_catalog = arch.id in model.catalog()
    serving_plan_button(ctx, serving_plan(comp, arch.id, ctx.devices, model.catalog(), wl,
                                          request_rate=inp.rate, price_per_gpu_hour=inp.price)
                        if in_catalog else None)
    if inp.simulate:
        queueing.render_queueing(ctx, arch, comp, inp)


serving_calculator()
how.render_how(t)      # no input changes it: outside the fragment, not re-sent by a slider
