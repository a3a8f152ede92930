"""Figure builder for the Model page: a model's operators as points on the device's roofline
(plotly, drawn by the page's chart section ui/model/chart.py).

Pure function of its inputs (no Streamlit). Each operator is drawn at its ceiling (the
roofline at its arithmetic intensity, from calc.roofline), coloured by bound, sized by its
share of the step's time bound, labelled; zero-FLOP operators (the embedding gather) sit at
the left edge of the axis. Measured kernels of the Roofline page can be overlaid as
`KernelPoints`. The axis ranges depend on the roof only (a fixed span around the ridge),
so the points move and the axes stay put while the batch slider moves.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from calc.model_ops import ModelOps
from calc.roofline import attainable_flops
from calc.units import format_percent, format_si
from ui.figures.roofline import KernelPoints, Roof, legend_below_margin, roofline_figure
from ui.i18n import Translator

BOUND_COLORS = {"memory": "#1565c0", "compute": "#2e7d32"}
ZERO_COLOR = "#757575"
#: The x span of the chart around the ridge: from ridge ÷ 2000 to ridge × 60 (decades).
X_SPAN = (1 / 2000.0, 60.0)
#: Operators with a text label: the LABELLED_TOP largest shares and any above LABELLED_SHARE.
LABELLED_TOP = 6
LABELLED_SHARE = 0.05
#: Labelled operators closer than this (decades, in x and in y) share one label.
LABEL_JOIN_DECADES = 0.25


def op_formula(formula: str, op: str) -> str:
    """An operator's formula (calc.model_ops, written in FLOP) in the roof's unit: at INT8
    the same count is OPs ("FLOP = 2·T·d·F" reads "OP = 2·T·d·F")."""
    return formula if op == "FLOP" else formula.replace("FLOP", op)


def operator_traces(t: Translator, ops: ModelOps, labels: Sequence[str], x_floor: float,
                    op: str = "FLOP") -> list[dict]:
    """One marker trace per bound (plus one for zero-FLOP operators), with text labels and
    a hover over the operator's numbers. `labels[i]` names `ops.operators[i]`; `op` is what
    the roof counts, "FLOP" or "OP" (INT8: calc.hardware.rate_unit), the hover's unit."""
    p, bw = ops.peak_flops, ops.mem_bw
    rows = ops.operators
    flops = np.array([o.flops for o in rows], dtype=float)
    nbytes = np.array([o.bytes_moved for o in rows], dtype=float)
    zero = flops <= 0
    with np.errstate(divide="ignore"):
        x = np.where(zero, x_floor, flops / nbytes)
    y = np.where(zero, float(attainable_flops(x_floor, p, bw)), attainable_flops(np.where(zero, 1.0, x), p, bw))
    shares = np.array([ops.share(o) for o in rows], dtype=float)
    sizes = 9.0 + 30.0 * np.sqrt(shares)
    bounds = np.array(["zero" if z else o.bound(p, bw) for z, o in zip(zero, rows)], dtype=object)
    custom = [[format_si(o.flops, op), format_si(o.bytes_moved, "B"),
               f"{o.intensity:.3g} {op}/B", format_si(float(yy), op + "/s"),
               format_si(ops.op_seconds(o), "s") + (f" ({o.count} × {format_si(o.seconds(p, bw), 's')})"
                                                   if o.count > 1 else ""),
               format_percent(s, 1, keep_small=True), op_formula(o.formula, op).replace("<", "&lt;")]
              for o, yy, s in zip(rows, y, shares)]
    # Label the operators that matter (the largest shares); the rest say who they are on hover.
    order = np.argsort(-shares)
    labelled = np.zeros(len(rows), dtype=bool)
    labelled[order[:LABELLED_TOP]] = True
    labelled |= shares >= LABELLED_SHARE
    labelled |= zero
    text = [labels[i] if labelled[i] else "" for i in range(len(rows))]
    # Operators at the same point (decode: routed experts, QKV, output projection, router,
    # LM head all at ~1 FLOP/B) would print on top of each other: the largest keeps its
    # label and says how many more sit there; the others are named on hover.
    lx = np.log10(np.where(x > 0, x, x_floor))
    ly = np.log10(np.where(y > 0, y, 1.0))
    anchors: list[list] = []           # [index, more]
    for i in order.tolist():
        if not labelled[i]:
            continue
        near = next((a for a in anchors if abs(lx[a[0]] - lx[i]) < LABEL_JOIN_DECADES
                     and abs(ly[a[0]] - ly[i]) < LABEL_JOIN_DECADES), None)
        if near is None:
            anchors.append([i, 0])
        else:
            near[1] += 1
            text[i] = ""
    for i, more in anchors:
        if more:
            text[i] = t("model.fig.and_more", label=labels[i], n=more)
    hover = t("model.fig.hover", name="%{hovertext}", op=op, flops="%{customdata[0]}",
              bytes="%{customdata[1]}", intensity="%{customdata[2]}", ceiling="%{customdata[3]}",
              time="%{customdata[4]}", share="%{customdata[5]}", formula="%{customdata[6]}")
    traces = []
    for bound, color, name_key in (("memory", BOUND_COLORS["memory"], "model.fig.memory"),
                                   ("compute", BOUND_COLORS["compute"], "model.fig.compute"),
                                   ("zero", ZERO_COLOR, "model.fig.zero")):
        sel = np.flatnonzero(bounds == bound)
        if not sel.size:
            continue
        traces.append({
            "type": "scatter", "x": x[sel].tolist(), "y": y[sel].tolist(), "mode": "markers+text",
            "name": t(name_key), "text": [text[i] for i in sel],
            # Right of the ridge the labels go above their point (they would leave the chart).
            "textposition": "top center" if bound == "compute" else "middle right",
            "textfont": {"size": 11, "color": color}, "hovertext": [labels[i] for i in sel],
            "customdata": [custom[i] for i in sel],
            "marker": {"color": color, "size": sizes[sel].tolist(), "opacity": 0.85,
                       "symbol": "triangle-left" if bound == "zero" else "circle",
                       "line": {"color": "white", "width": 1}},
            "hovertemplate": hover + "<extra></extra>"})
    return traces


def model_ranges(roof: Roof, measured: KernelPoints | None = None
                 ) -> tuple[tuple[float, float], tuple[float, float]]:
    """Axis ranges: whole decades from ridge × X_SPAN[0] to ridge × X_SPAN[1] (wider only to
    show measured kernels), y from the slope's value at the left edge to 3 × the peak."""
    x_lo = 10.0 ** math.floor(math.log10(roof.ridge * X_SPAN[0]))
    x_hi = 10.0 ** math.ceil(math.log10(roof.ridge * X_SPAN[1]))
    y_lo = float(attainable_flops(x_lo, roof.peak_flops, roof.mem_bw))
    if measured is not None and len(measured.intensity):
        x = np.asarray(measured.intensity, dtype=float)
        y = np.asarray(measured.y, dtype=float)
        ok = np.isfinite(x) & (x > 0) & np.isfinite(y) & (y > 0)
        if ok.any():
            x_lo = min(x_lo, 10.0 ** math.floor(math.log10(float(x[ok].min()) / 3)))
            x_hi = max(x_hi, 10.0 ** math.ceil(math.log10(float(x[ok].max()) * 3)))
            y_lo = min(y_lo, float(y[ok].min()) / 3)
    y_lo = 10.0 ** math.floor(math.log10(y_lo))
    y_hi = 10.0 ** math.ceil(math.log10(roof.peak_flops * 3))
    return (x_lo, x_hi), (y_lo, y_hi)


def model_roofline_figure(t: Translator, roof: Roof, ops: ModelOps, labels: Sequence[str],
                          measured: KernelPoints | None = None, *, height: int = 620) -> go.Figure:
    """The roofline of `roof` with every operator of `ops` (and measured kernels) on it.
    `labels[i]` is the text of `ops.operators[i]`."""
    ranges = model_ranges(roof, measured)
    fig = roofline_figure(t, [roof], measured, height=height, ranges=ranges)
    x_floor = ranges[0][0] * 1.6          # the zero-FLOP strip, just inside the left edge
    data = list(fig.data) + operator_traces(t, ops, labels, x_floor, roof.unit(""))
    layout = fig.layout.to_plotly_json()
    layout["uirevision"] = "model-ops"
    # the operator traces are legend entries too; the Model page's chart is narrower
    layout["margin"]["b"] = legend_below_margin(data, per_row=2)
    return go.Figure(data=data, layout=layout, _validate=False)
