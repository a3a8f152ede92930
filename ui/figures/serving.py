"""Serving page figures: tokens/s per GPU against tokens/s per user (one curve per
configuration, the TPOT target as a line, the Pareto front marked), and the simulator's
TTFT / TPOT against the request rate.

Pure functions of their inputs (no Streamlit): every number comes from calc.serving
(``compare_candidates``, ``rate_sweep``); this module only draws.
"""
from __future__ import annotations

import math
from typing import Sequence

import plotly.graph_objects as go

from calc.units import format_si, format_si_many
from ui.figures.roofline import AXIS_BOTTOM, NUMBER_AXIS_LEFT, log_axis, make_figure
from ui.i18n import Translator

PALETTE = ("#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457",
           "#283593", "#9e9d24", "#c62828", "#37474f", "#f9a825")
DASHES = ("solid", "dash", "dot", "dashdot")
TARGET = "#c62828"
FRONT = "#212121"


def candidate_label(t: Translator, device_name: str, precision: str, tp: int) -> str:
    return t("serving.fig.label", device=device_name, prec=precision.upper(), tp=tp)


PLOT_HEIGHT = 420        # px: the plot area and its axes, without the legend
LEGEND_ROW = 20          # px: one row of the two-column legend under the plot


def frontier_figure(t: Translator, candidates: Sequence, names: dict, *, per_user_target: float,
                    pareto_x, pareto_y, height: int | None = None, ttft_stat: str = "mean",
                    ttft_quantile: float | None = None) -> go.Figure:
    """One line per candidate (colour by device × precision, dash by tp); points that meet
    both targets filled, the others hollow; the TPOT target as a vertical line at
    1 / TPOT tokens/s per user; the Pareto front (of points within the TTFT target) black.
    The hover's TTFT is the queued ``ttft_stat`` ("mean", "p90": ``ttft_quantile`` 0.9) the
    target holds.

    The legend sits at the bottom of the figure (``yref="container"``), so plotly makes
    room for it under the x-axis title however many rows it has (at ``y=-0.15`` of the
    plot, 16 candidates' rows covered the title); the figure grows by ``LEGEND_ROW`` per
    row of two entries, so the plot keeps ``PLOT_HEIGHT``."""
    data = []
    keys = []
    for c in candidates:
        key = (c.device_id, c.precision)
        if key not in keys:
            keys.append(key)
        color = PALETTE[keys.index(key) % len(PALETTE)]
        cv = c.curve
        label = candidate_label(t, names[c.device_id], c.precision, c.tp)
        stat = t(f"serving.stat.{ttft_stat}")
        hover = [t("serving.fig.hover", label=label, batch=int(b), ttft=tt, tpot=tp_, mem=m,
                   bound=t(f"serving.bound.{bd}"), stat=stat)
                 for b, tt, tp_, m, bd in zip(cv.batch, format_si_many(cv.queued_ttft(ttft_quantile), "s"),
                                              format_si_many(cv.tpot_seconds, "s"),
                                              format_si_many(cv.memory_bytes_per_gpu, "B"), cv.bound)]
        data.append({"type": "scatter", "x": list(cv.tokens_per_s_per_user),
                     "y": list(cv.tokens_per_s_per_gpu), "mode": "lines+markers", "name": label,
                     "line": {"color": color, "dash": DASHES[(c.tp.bit_length() - 1) % len(DASHES)], "width": 2},
                     "marker": {"size": 7, "color": [color if m else "white" for m in c.meets],
                                "line": {"color": color, "width": 1.5}},
                     "text": hover, "hovertemplate": "%{text}<extra></extra>"})
    if len(pareto_x):
        data.append({"type": "scatter", "x": list(pareto_x), "y": list(pareto_y), "mode": "lines",
                     "name": t("serving.fig.pareto"), "hoverinfo": "skip",
                     "line": {"color": FRONT, "width": 5}, "opacity": 0.25})
    ys = [v for c in candidates for v in c.curve.tokens_per_s_per_gpu]
    top = max(ys) * 1.1 if ys else 1.0
    data.append({"type": "scatter", "x": [per_user_target, per_user_target], "y": [0, top],
                 "mode": "lines", "name": t("serving.fig.target", value=format_si(per_user_target, "tok/s")),
                 "line": {"color": TARGET, "dash": "dash", "width": 2}, "hoverinfo": "skip"})
    legend_height = LEGEND_ROW * math.ceil(len(data) / 2)
    if height is None:
        height = PLOT_HEIGHT + legend_height
    return make_figure(data, {
        "title": {"text": t("serving.fig.title"), "font": {"size": 15}},
        "xaxis": {"title": {"text": t("serving.fig.x")}, "type": "log", "showgrid": True,
                  "gridcolor": "#e0e0e0",
                  **log_axis([v for c in candidates for v in c.curve.tokens_per_s_per_user]
                             + [per_user_target], "tok/s")},
        "yaxis": {"title": {"text": t("serving.fig.y")}, "showgrid": True, "gridcolor": "#e0e0e0",
                  "rangemode": "tozero", "range": [0, top]},
        # held margins (ui.figures.roofline): the y ticks and title; the x axis and the legend
        "height": height, "font": {"size": 13},
        "margin": {"l": NUMBER_AXIS_LEFT, "r": 10, "t": 50, "b": AXIS_BOTTOM + legend_height},
        "hoverlabel": {"align": "left"},
        "legend": {"orientation": "h", "yref": "container", "yanchor": "bottom", "y": 0, "font": {"size": 11}},
    })


def rate_figure(t: Translator, capacity: float, sweep: Sequence, *, ttft_target: float,
                tpot_target: float, ttft_stat: str = "p90", height: int = 380) -> go.Figure:
    """TTFT (p50 and ``ttft_stat``, what the TTFT target holds for: "mean", "p90" or "p99";
    p50 and p90 when the target holds the p50 itself) and TPOT (p50, p90) of the simulator
    against the request rate, the analytic capacity as a vertical line and the targets as
    horizontal ones (log y)."""
    if ttft_stat not in ("mean", "p50", "p90", "p99"):
        raise ValueError(f"ttft_stat must be 'mean', 'p50', 'p90' or 'p99', got {ttft_stat!r}")
    rates = [r for r, _ in sweep]
    second = "p90" if ttft_stat == "p50" else ttft_stat      # the p50 line is drawn already
    series = (("ttft_p50", "#1565c0", "solid", "y"), (f"ttft_{second}", "#1565c0", "dot", "y"),
              ("tpot_p50", "#ef6c00", "solid", "y2"), ("tpot_p90", "#ef6c00", "dot", "y2"))
    data = []
    for field, color, dash, axis in series:
        vals = [getattr(s, field) for _, s in sweep]
        data.append({"type": "scatter", "x": rates, "y": vals, "mode": "lines+markers",
                     "name": t(f"serving.rate_fig.{field}"), "yaxis": axis,
                     "line": {"color": color, "dash": dash},
                     "text": [format_si(v, "s") for v in vals],
                     "hovertemplate": "%{x:.3~g} req/s: %{text}<extra>%{fullData.name}</extra>"})
    for value, axis, color in ((ttft_target, "y", "#1565c0"), (tpot_target, "y2", "#ef6c00")):
        data.append({"type": "scatter", "x": [min(rates), max(rates)] if rates else [0, 1],
                     "y": [value, value], "mode": "lines", "yaxis": axis, "showlegend": False,
                     "line": {"color": color, "dash": "dash", "width": 1}, "hoverinfo": "skip"})
    layout = {
        "title": {"text": t("serving.rate_fig.title"), "font": {"size": 15}},
        "xaxis": {"title": {"text": t("serving.rate_fig.x")}, "showgrid": True, "gridcolor": "#e0e0e0",
                  "anchor": "y2"},
        "yaxis": {"title": {"text": t("serving.rate_fig.y_ttft")}, "type": "log", "showgrid": True,
                  "gridcolor": "#e0e0e0", "domain": [0.55, 1.0],
                  **log_axis([v for tr in data if tr["yaxis"] == "y" for v in tr["y"]], "s")},
        "yaxis2": {"title": {"text": t("serving.rate_fig.y_tpot")}, "type": "log", "showgrid": True,
                   "gridcolor": "#e0e0e0", "domain": [0.0, 0.45],
                   **log_axis([v for tr in data if tr["yaxis"] == "y2" for v in tr["y"]], "s")},
        "height": height, "font": {"size": 13},
        "margin": {"l": 90, "r": 14, "t": 50, "b": 90},     # held margins: ui.figures.roofline
        "legend": {"orientation": "h", "yanchor": "top", "y": -0.2, "font": {"size": 11}},
        "shapes": [{"type": "line", "xref": "x", "yref": "paper", "x0": capacity, "x1": capacity,
                    "y0": 0, "y1": 1, "line": {"color": "#424242", "dash": "dot"}}],
        "annotations": [{"x": capacity, "y": 1.0, "xref": "x", "yref": "paper", "yanchor": "bottom",
                         "text": t("serving.rate_fig.capacity"), "showarrow": False,
                         "font": {"size": 11, "color": "#424242"}}],
    }
    return make_figure(data, layout)
