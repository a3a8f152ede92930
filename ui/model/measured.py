"""Measured beside modelled: the Roofline page's kernels with a measured time, matched to
the model's operators (calc.model_ops.match_kernels, kernel classes from calc.diagnosis)."""
from __future__ import annotations

import numpy as np
import streamlit as st

from calc.diagnosis import kernel_class, op_class
from calc.model_ops import ModelOps, match_kernels
from calc.units import format_percent, format_si
from ui.model.chart import operator_labels

SHOWN_CLASSES = ("matmul", "attention", "norm", "elementwise", "reduction", "memory")


def kernel_classes(analysis) -> list[str]:
    """The class of each placed kernel: from its name, else from the operator that
    launched it (a trace import's ``source`` is "torch:<op>")."""
    out = []
    for k in analysis.kernels:
        c = kernel_class(k.name)
        if c == "other" and k.source.startswith("torch:"):
            c = op_class(k.source[len("torch:"):])
        out.append(c)
    return out


def render_measured(ctx, ops: ModelOps, analysis) -> None:
    t = ctx.t
    st.subheader(t("model.measured_heading"))
    st.markdown(t("model.measured_intro"))
    if analysis is None or not len(analysis) or not analysis.measured.any():
        st.info(t("model.measured_none"), icon=":material/info:")
        return
    sel = np.flatnonzero(analysis.measured)
    counts = np.array([analysis.kernels[i].count for i in sel], dtype=float)
    classes = kernel_classes(analysis)
    cls = [classes[i] for i in sel]
    # Per call: a row of the kernel table may sum `count` identical calls.
    m = match_kernels(ops, cls, analysis.flops[sel], analysis.seconds[sel], calls=counts)
    labels = operator_labels(t, ops)
    rows = []
    for j, i in enumerate(sel):
        c = cls[j]
        k = int(m.op_index[j])
        rows.append({
            t("model.col.kernel"): analysis.names[i],
            t("model.col.class"): t(f"model.class.{c if c in SHOWN_CLASSES[:4] else 'other'}"),
            t("model.col.matched"): labels[k] if k >= 0 else t("model.unmatched"),
            t("model.col.measured"): format_si(float(m.seconds_per_call[j]), "s"),
            t("model.col.model_time"): format_si(float(m.model_seconds[j]), "s") if k >= 0 else "—",
            t("model.col.of_bound"): format_percent(m.of_bound[j], 0) if k >= 0 else "—",
        })
    st.dataframe(rows, hide_index=True, width="stretch")
