"""The Model page's chart section (Streamlit): draws ui.figures.model's figure of every
operator on the device's roofline with the Roofline page's kernels beside it on request,
and names the operators for the chart and the table."""
from __future__ import annotations

import numpy as np
import streamlit as st

from calc.model_ops import ModelOps
from ui.figures.model import model_roofline_figure
from ui.figures.roofline import KernelPoints, kernel_points


def operator_labels(t, ops: ModelOps) -> list[str]:
    """'QKV projection · dense layers' for each operator (the kind only where a model has
    more than one kind of layer)."""
    kinds = {o.layer_kind for o in ops.operators if o.layer_kind != "model"}
    out = []
    for o in ops.operators:
        name = t(f"model.op.{o.key}")
        if len(kinds) > 1 and o.layer_kind != "model":
            name = t("model.op_label", op=name, kind=t(f"model.kind.{o.layer_kind}"))
        out.append(name)
    return out


def measured_points(t, analysis) -> KernelPoints | None:
    """The Roofline page's placed kernels as chart points (None when there are none)."""
    if analysis is None or not len(analysis):
        return None
    return kernel_points(t, analysis.names, analysis.flops, analysis.bytes_moved,
                         analysis.placement, light=len(analysis) > 500,
                         op=np.where(analysis.integer_ops, "OP", "FLOP"))


def render_chart(ctx, ops: ModelOps, analysis=None) -> None:
    t = ctx.t
    st.subheader(t("model.chart_heading"))
    roof = ctx.roof(ops.peak_flops, ops.mem_bw)
    fig = model_roofline_figure(t, roof, ops, operator_labels(t, ops), measured_points(t, analysis))
    st.plotly_chart(fig, config=ctx.chart_config("model_roofline"), key="model_roofline")
    st.caption(t("model.chart_caption"))
