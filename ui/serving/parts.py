"""The Serving page's two result parts (ui.live: a slider reruns them and itself only): the
answer with the frontier (the right column), and the sizing table, the plan button and the
simulator (full width). Numbers from calc.serving via ui.serving.compare (cached per input
set)."""
from __future__ import annotations

import streamlit as st

from calc.serving import context_overflow, serving_plan
from ui.serving import chart, compare, model, queueing, results


def render_answer_part(ctx, arch, inp):
    """The answer and the frontier, or why there is none (a field unreadable, or a request
    longer than the model's context: no engine serves it, vLLM's max_model_len). Returns the
    comparison the details part shows more of (None: there is none)."""
    t = ctx.t
    if not inp.ok:
        st.warning(t("common.missing_inputs"))
        return None
    limit = context_overflow(arch, inp.isl, inp.osl)
    if limit is not None:
        st.error(t("serving.context_overflow", isl=f"{inp.isl:,.0f}", osl=f"{inp.osl:,.0f}",
                   limit=f"{limit:,}", model=arch.name))
        return None
    comp = compare.compare(arch, ctx.devices, inp)
    results.render_answer(ctx, comp, inp)
    chart.render_frontier(ctx, comp, inp)
    return comp


def render_details_part(ctx, arch, inp, comp, plan_button) -> None:
    """The sizing table, the plan button (``plan_button(ctx, plan)``: ui.plans.add's, passed
    by the page) and the simulator for ``comp``, what the answer part returned; nothing
    when it returned None (it says why there is no answer)."""
    if comp is None:
        return
    results.render_table(ctx, comp, inp)
    in_catalog = arch.id in model.catalog()
    plan_button(ctx, serving_plan(comp, arch.id, ctx.devices, model.catalog(), inp.workload,
                                  request_rate=inp.rate, price_per_gpu_hour=inp.price)
                if in_catalog else None)
    if inp.simulate:
        queueing.render_queueing(ctx, arch, comp, inp)
