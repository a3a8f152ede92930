"""Learn page figures: an unlabelled roofline to read the ridge off, and a GPU timeline of
a synthetic trace. Pure functions of their inputs (no Streamlit); every number comes from
calc.roofline or calc.lessons.
"""
from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from calc.lessons import TraceArrays
from calc.roofline import attainable_flops, ridge_point
from calc.units import format_si
from ui.figures.roofline import AXIS_BOTTOM, LOG_FLOPS_AXIS_LEFT, ROOFLINE_RIGHT, decade_ticks, make_figure
from ui.i18n import Translator

SLOPE_COLOR = "#1565c0"
ROOF_COLOR = "#2e7d32"
KERNEL_COLOR = "#ef6c00"
CLASS_COLORS = {"compute": "#1565c0", "comm": "#c62828"}


def _log_axis(title: str, lo: float, hi: float, unit: str) -> dict:
    values, labels = decade_ticks(lo, hi, unit)
    return {"type": "log", "title": {"text": title}, "range": [math.log10(lo), math.log10(hi)],
            "tickvals": values, "ticktext": labels, "showgrid": True,
            "minor": {"showgrid": True, "gridcolor": "#F5F7FB"}}


def lesson_roofline_figure(t: Translator, peak_flops: float, mem_bw: float,
                           intensity: float | None = None, *, height: int = 420) -> go.Figure:
    """The roofline of one device with nothing written on it: the slope and the roof
    (hover gives the coordinates of any point on them), for reading the ridge off the
    chart. With `intensity`, a dotted vertical line marks a kernel's arithmetic intensity."""
    ridge = ridge_point(peak_flops, mem_bw)
    x_lo = 10.0 ** math.floor(math.log10(ridge / 300.0))
    x_hi = 10.0 ** math.ceil(math.log10(ridge * 30.0))
    if intensity is not None:
        x_lo = min(x_lo, 10.0 ** math.floor(math.log10(intensity / 3.0)))
        x_hi = max(x_hi, 10.0 ** math.ceil(math.log10(intensity * 3.0)))
    y_lo = 10.0 ** math.floor(math.log10(float(attainable_flops(x_lo, peak_flops, mem_bw))))
    y_hi = 10.0 ** math.ceil(math.log10(peak_flops * 3.0))
    xs = np.geomspace(x_lo, x_hi, 121)
    slope_x = np.append(xs[xs < ridge], ridge)
    roof_x = np.insert(xs[xs > ridge], 0, ridge)
    hover = "%{x:.3~s} FLOP/B<br>%{y:.3~s}FLOP/s<extra></extra>"
    data = [
        {"type": "scatter", "x": slope_x, "y": slope_x * mem_bw, "mode": "lines",
         "name": t("learn.fig.slope"), "line": {"color": SLOPE_COLOR, "width": 3},
         "hovertemplate": hover},
        {"type": "scatter", "x": roof_x, "y": np.full(roof_x.shape, peak_flops), "mode": "lines",
         "name": t("learn.fig.roof"), "line": {"color": ROOF_COLOR, "width": 3},
         "hovertemplate": hover},
    ]
    shapes = []
    if intensity is not None:
        shapes.append({"type": "line", "x0": intensity, "x1": intensity, "yref": "paper",
                       "y0": 0, "y1": 1, "line": {"color": KERNEL_COLOR, "width": 2, "dash": "dot"}})
        data.append({"type": "scatter", "x": [intensity], "y": [y_lo * 1.5], "mode": "markers",
                     "name": t("learn.fig.kernel"),
                     "marker": {"color": KERNEL_COLOR, "size": 10, "symbol": "triangle-up"},
                     "hovertemplate": t("learn.fig.kernel_at", intensity=f"{intensity:g}")
                     + "<extra></extra>"})
    layout = {
        # held margins (ui.figures.roofline): the log FLOP/s axis, the legend above
        "height": height, "margin": {"l": LOG_FLOPS_AXIS_LEFT, "r": ROOFLINE_RIGHT, "t": 40, "b": AXIS_BOTTOM},
        "xaxis": _log_axis(t("fig.x_title", op="FLOP"), x_lo, x_hi, ""),
        "yaxis": _log_axis(t("fig.y_title", op="FLOP"), y_lo, y_hi, "FLOP/s"),
        "legend": {"orientation": "h", "y": 1.08, "x": 0},
        "shapes": shapes, "hovermode": "closest",
    }
    return make_figure(data, layout)


def trace_classes(trace: TraceArrays) -> np.ndarray:
    """Colour class per kernel, by name as a profiler shows it: "comm" (NCCL) or "compute".
    (Kernel length is left for the learner to see.)"""
    comm = np.array(["nccl" in n.lower() for n in trace.name], dtype=bool)
    return np.where(comm, "comm", "compute")


def zoom_span(trace: TraceArrays, n_kernels: int = 24) -> float:
    """Seconds from the first kernel's start to the end of the `n_kernels`-th: a zoom
    in which single kernels are wide enough to see and hover."""
    order = np.argsort(trace.start)
    last = order[min(n_kernels, len(order)) - 1]
    return float(trace.start[last] + trace.duration[last] - trace.start.min())


def trace_figure(t: Translator, trace: TraceArrays, *, height: int = 430) -> go.Figure:
    """The GPU timeline of `trace`: one row per stream, one bar per kernel (white edges show
    where one kernel ends and the next begins), NCCL kernels in red; the top panel is the
    whole window, the bottom one a zoom on its first couple of dozen kernels. Hover shows
    a kernel's name and duration (µs)."""
    t0 = float(trace.start.min())
    start_ms = (trace.start - t0) * 1e3
    dur_ms = trace.duration * 1e3
    window_ms = float((start_ms + dur_ms).max())
    zoom_ms = zoom_span(trace) * 1e3
    streams = sorted(set(int(s) for s in trace.stream))
    labels = {s: t("learn.fig.stream", stream=s) for s in streams}
    rows = [labels[int(s)] for s in trace.stream]
    classes = trace_classes(trace)
    names = [n[:90] for n in trace.name]
    data = []
    for axis in ("", "2"):
        for cls in ("compute", "comm"):
            idx = np.flatnonzero(classes == cls)
            if not idx.size:
                continue
            data.append({"type": "bar", "orientation": "h", "base": start_ms[idx],
                         "x": dur_ms[idx], "y": [rows[i] for i in idx],
                         "width": 0.6, "marker": {"color": CLASS_COLORS[cls],
                                                  "line": {"color": "white", "width": 0.6}},
                         "name": t(f"learn.fig.class.{cls}"), "legendgroup": cls,
                         "showlegend": axis == "",
                         "hovertext": [names[i] for i in idx], "customdata": dur_ms[idx] * 1e3,
                         "hovertemplate": t("learn.fig.kernel_hover") + "<extra></extra>",
                         "xaxis": "x" + axis, "yaxis": "y" + axis})
    order = [labels[s] for s in streams]
    y_axis = {"type": "category", "categoryorder": "array", "categoryarray": order,
              "showgrid": False, "fixedrange": True}
    layout = {
        "height": height, "margin": {"l": 10, "r": 10, "t": 40, "b": 10}, "barmode": "overlay",
        "bargap": 0, "xaxis": {"domain": [0, 1], "anchor": "y", "range": [0, window_ms * 1.01],
                               "title": {"text": t("learn.fig.time")}},
        "yaxis": {**y_axis, "domain": [0.6, 1.0], "anchor": "x"},
        "xaxis2": {"domain": [0, 1], "anchor": "y2", "range": [0, zoom_ms * 1.02],
                   "title": {"text": t("learn.fig.time")}},
        "yaxis2": {**y_axis, "domain": [0.0, 0.36], "anchor": "x2"},
        "legend": {"orientation": "h", "y": 1.12, "x": 1, "xanchor": "right"},
        "annotations": [
            {"text": t("learn.fig.window"), "xref": "paper", "yref": "paper", "x": 0,
             "y": 1.02, "yanchor": "bottom", "showarrow": False, "font": {"size": 13}},
            {"text": t("learn.fig.zoom", span=format_si(zoom_ms / 1e3, "s")), "xref": "paper",
             "yref": "paper", "x": 0, "y": 0.38, "yanchor": "bottom", "showarrow": False,
             "font": {"size": 13}},
        ],
        "hovermode": "closest",
    }
    return make_figure(data, layout)
