"""Decode-speed page figures: throughput and per-request speed against batch size, and
the decode step on a small roofline.

Pure functions of their inputs (no Streamlit). The curves, the knee and the step's
FLOP and bytes are computed by the page with `calc.decode`; this module only draws.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from calc.roofline import place_kernels
from calc.units import format_si
from ui.figures.roofline import AXIS_BOTTOM, NUMBER_AXIS_LEFT, Roof, decade_ticks, kernel_points, make_figure, roofline_figure
from ui.i18n import Translator

THROUGHPUT = "#1565c0"
PER_REQUEST = "#ef6c00"
KNEE = "#6a1b9a"
NO_FIT = "#c62828"


def _log(v: float) -> float:
    return math.log10(v)


def curve_batches(knee: float | None = None, lo: float = 1.0, hi: float = 4096.0,
                  per_octave: int = 4) -> np.ndarray:
    """Batch sizes at which the page evaluates the batch curves: ``per_octave`` per
    doubling from ``lo`` to ``hi`` (every power of two among them), plus the critical batch
    ``knee`` when it falls inside. Both curves are straight on log-log axes on each side of
    the knee without a KV cache (tokens/s = b·B/W, then P/2N) and gently curved with one
    (b·B/(W + b·KV)), so a few points per octave and the corner itself draw them exactly
    or to well under a pixel; 49-50 points instead of 241."""
    n = int(round(math.log2(hi / lo))) * per_octave + 1
    b = np.geomspace(lo, hi, n)
    if knee is not None and math.isfinite(knee) and lo < knee < hi:
        b = np.union1d(b, [float(knee)])
    return b


def batch_figure(t: Translator, batches: Sequence[float], throughput: Sequence[float],
                 per_request: Sequence[float], *, knee: float | None = None,
                 current: tuple[float, float, float] | None = None,
                 max_fit: float | None = None, height: int = 460) -> go.Figure:
    """Aggregate tokens/s (left axis) and per-request tokens/s (right axis) vs batch.

    Both axes log. `knee` is the critical batch (None or inf: never compute-bound within
    reach); `current` is (batch, throughput, per-request) of the selected batch;
    `max_fit` the largest batch whose weights + KV cache fit in memory (None or inf: no
    limit drawn; 0: not even batch 1 fits) -- beyond it the curve is shaded "does not fit".
    """
    b = np.asarray(batches, dtype=float)
    thr = np.asarray(throughput, dtype=float)
    per = np.asarray(per_request, dtype=float)
    data = [
        {"type": "scatter", "x": b, "y": thr, "mode": "lines", "name": t("decode.fig.throughput"),
         "line": {"color": THROUGHPUT, "width": 3},
         "hovertemplate": t("decode.fig.throughput_hover") + "<extra></extra>"},
        {"type": "scatter", "x": b, "y": per, "mode": "lines", "name": t("decode.fig.per_request"),
         "yaxis": "y2", "line": {"color": PER_REQUEST, "width": 3, "dash": "dash"},
         "hovertemplate": t("decode.fig.per_request_hover") + "<extra></extra>"},
    ]
    if current is not None:
        cb, ct, cp = current
        for y, axis, color in ((ct, "y", THROUGHPUT), (cp, "y2", PER_REQUEST)):
            data.append({
                "type": "scatter", "x": [cb], "y": [y], "mode": "markers",
                **({"yaxis": axis} if axis != "y" else {}), "name": t("decode.fig.current"),
                "marker": {"size": 13, "color": color, "line": {"color": "white", "width": 2}},
                "hovertemplate": t("decode.fig.current_hover", batch=f"{cb:g}",
                                   tps=format_si(y, "tok/s")) + "<extra></extra>",
                "showlegend": False})
    shapes, annotations = [], []
    x_lo, x_hi = float(b.min()), float(b.max())
    if knee is not None and math.isfinite(knee) and x_lo <= knee <= x_hi:
        # what add_vline / add_vrect would add, written out
        shapes.append({"type": "line", "x0": knee, "x1": knee, "xref": "x", "y0": 0, "y1": 1,
                       "yref": "y domain", "line": {"color": KNEE, "width": 2, "dash": "dot"}})
        annotations.append({"x": _log(knee), "y": 0.02, "yref": "paper", "yanchor": "bottom",
                            "xanchor": "right" if knee > math.sqrt(x_lo * x_hi) else "left",
                            "text": t("decode.fig.knee", batch=f"{knee:,.0f}"),
                            "showarrow": False, "font": {"size": 13, "color": KNEE},
                            "bgcolor": "rgba(255,255,255,0.85)"})
        shapes.append({"type": "rect", "x0": x_lo, "x1": knee, "xref": "x", "y0": 0, "y1": 1,
                       "yref": "y domain", "fillcolor": "rgba(21,101,192,0.06)",
                       "line": {"width": 0}, "layer": "below"})
        annotations.append({"x": (_log(x_lo) + _log(knee)) / 2, "y": 1.0, "yref": "paper",
                            "yanchor": "top", "text": t("decode.fig.free_zone"), "showarrow": False,
                            "font": {"size": 12, "color": "#1565c0"}})
    if max_fit is not None and math.isfinite(max_fit) and max_fit < x_hi:
        edge = max(max_fit, x_lo)
        shapes.append({"type": "rect", "x0": edge, "x1": x_hi, "xref": "x", "y0": 0, "y1": 1,
                       "yref": "y domain", "fillcolor": "rgba(198,40,40,0.10)",
                       "line": {"width": 0}, "layer": "below"})
        if max_fit >= x_lo:
            shapes.append({"type": "line", "x0": max_fit, "x1": max_fit, "xref": "x", "y0": 0,
                           "y1": 1, "yref": "y domain",
                           "line": {"color": NO_FIT, "width": 2, "dash": "dash"}})
        annotations.append({"x": _log(edge), "y": 0.12, "yref": "paper", "yanchor": "bottom",
                            "xanchor": "left", "showarrow": False,
                            "text": (t("decode.fig.max_fit", batch=f"{max_fit:,.0f}")
                                     if max_fit >= 1 else t("decode.fig.none_fit")),
                            "font": {"size": 13, "color": NO_FIT},
                            "bgcolor": "rgba(255,255,255,0.85)"})
    x_ticks = [v for v in (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)
               if x_lo <= v <= x_hi]
    y1_ticks, y1_text = decade_ticks(max(float(np.nanmin(thr)), 1e-3), float(np.nanmax(thr)), "")
    y2_ticks, y2_text = decade_ticks(max(float(np.nanmin(per)), 1e-3), float(np.nanmax(per)), "")
    return make_figure(data, {
        "shapes": shapes, "annotations": annotations,
        "height": height, "font": {"size": 13},
        "margin": {"l": NUMBER_AXIS_LEFT, "r": 82, "t": 50, "b": AXIS_BOTTOM},    # held margins: ui.figures.roofline
        "hoverlabel": {"align": "left"},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.02, "x": 0},
        "xaxis": {"type": "log", "title": {"text": t("decode.fig.x_title")}, "tickvals": x_ticks,
                  "ticktext": [str(v) for v in x_ticks], "gridcolor": "#e0e0e0"},
        "yaxis": {"type": "log", "title": {"text": t("decode.fig.y_title"),
                                           "font": {"color": THROUGHPUT}},
                  "tickvals": y1_ticks, "ticktext": y1_text, "gridcolor": "#e0e0e0",
                  "range": [_log(y1_ticks[0]), _log(y1_ticks[-1])]},
        "yaxis2": {"type": "log", "title": {"text": t("decode.fig.y2_title"),
                                            "font": {"color": PER_REQUEST}},
                   "overlaying": "y", "side": "right", "tickvals": y2_ticks,
                   "ticktext": y2_text, "showgrid": False,
                   "range": [_log(y2_ticks[0]), _log(y2_ticks[-1])]},
    })


def decode_roofline_figure(t: Translator, roof: Roof, names: Sequence[str],
                           flops: Sequence[float], bytes_moved: Sequence[float],
                           *, n_params: float | None = None, height: int = 380) -> go.Figure:
    """The decode step(s) as points on a small roofline (drawn at their attainable FLOP/s).

    The step's intensity (2·b / bytes per parameter without a KV cache) does not depend on
    the parameter count, so when only N changes the points stay where they are. Streamlit
    replaces a chart whose figure changed in any way (even one hover string) and plotly
    draws it again from scratch, so the hover gives the step's work PER WEIGHT (FLOPs / N =
    2·b, bytes / N = b_w + b·KV/N) when `n_params` is given: then moving the parameters
    slider leaves this figure identical and redraws the batch chart only (the totals are in
    "How this is computed")."""
    f = np.asarray(flops, dtype=float)
    by = np.asarray(bytes_moved, dtype=float)
    placement = place_kernels(f, by, roof.peak_flops, roof.mem_bw)
    points = kernel_points(t, list(names), f, by, placement, op=roof.unit(""))
    fig = roofline_figure(t, [roof], kernels=points, height=height, compact=True)
    dash = "—"
    hover = {}
    for i, name in enumerate(names):
        bound = str(placement.bound[i])
        escaped = str(name).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        common = dict(name=escaped, op=roof.unit(""), intensity=format_si(float(placement.intensity[i]), roof.unit("/B")),
                      bound=t(f"fig.bound.{bound}") if bound in ("memory", "compute") else bound,
                      attainable=format_si(float(placement.attainable_flops[i]), roof.unit()))
        if n_params:
            hover[escaped] = t("decode.fig.step_hover", flops=f"{f[i] / n_params:.4g}",
                               bytes=f"{by[i] / n_params:.4g}", **common)
        else:
            hover[escaped] = t("fig.kernel_hover", flops=format_si(float(f[i]), roof.unit("")),
                               bytes=format_si(float(by[i]), "B"), achieved=dash, fraction=dash,
                               verdict=t("fig.verdict.unmeasured"), **common)
    for tr in fig.data:
        if tr.customdata is not None and tr.hovertext is not None:
            tr.hovertext = [hover.get(h, h) for h in tr.hovertext]
            tr.hovertemplate = "%{hovertext}<extra></extra>"
            tr.customdata = None
    return fig
