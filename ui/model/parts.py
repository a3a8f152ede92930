"""The Model page's result parts (ui.live: a slider reruns them and itself only): the
totals and the roofline chart of every operator (the right column), and the operator
table, the measured kernels beside them and how it is computed (full width). Numbers from
calc.model_ops and calc.inference."""
from __future__ import annotations

import streamlit as st

from calc.decode import bytes_per_param
from calc.model_ops import model_operators
from ui.model import chart, how, measured, results


def render_answer_part(ctx, arch, step, measured_kernels):
    """The step's totals and the chart; returns (the operators, the measured kernels'
    analysis or None) for the details part, or None after saying an input is unreadable.
    ``measured_kernels()``: the Roofline page's kernels analysed on this device (passed by
    the page: page packages do not import each other), called when they are overlaid."""
    if not (ctx.ready and step.ok):
        st.warning(ctx.t("common.missing_inputs"))
        return None
    ops = model_operators(arch, phase=step.phase, batch=step.batch, tokens=step.tokens,
                          peak_flops=ctx.peak_flops, mem_bw=ctx.mem_bw,
                          bytes_per_param=bytes_per_param(step.weights),
                          act_bytes_per_elem=bytes_per_param(step.act),
                          kv_bytes_per_elem=bytes_per_param(step.kv),
                          tp=step.tp, flash=step.flash)
    analysis = measured_kernels() if step.overlay else None
    results.render_totals(ctx, ops, step)
    chart.render_chart(ctx, ops, analysis)
    return ops, analysis


def render_details_part(ctx, arch, step, answer) -> None:
    """The operator table, the measured kernels (when overlaid) and how it is computed, for
    ``answer``, what the answer part returned (None: nothing)."""
    if answer is None:
        return
    ops, analysis = answer
    results.render_table(ctx, ops, arch.id)
    if step.overlay:
        measured.render_measured(ctx, ops, analysis)
    how.render_how(ctx, ops, step)
