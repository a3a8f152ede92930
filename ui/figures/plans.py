"""Plans page figure: one labelled point per plan with the published range as error bars.

Pure function of its inputs (no Streamlit). The chart's data (:class:`ChartData`, one
:class:`Point` per plan) is defined here, with the figure; ui.plans.points fills it from
calc.plans, and the report's SVG (ui.plans.svg) draws the same points.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import plotly.graph_objects as go

from ui.figures.roofline import make_figure


@dataclass(frozen=True)
class Point:
    label: str
    x: float
    y: float
    x_lo: Optional[float] = None
    x_hi: Optional[float] = None
    y_lo: Optional[float] = None
    y_hi: Optional[float] = None
    baseline: bool = False


@dataclass(frozen=True)
class ChartData:
    title: str
    x_label: str
    y_label: str
    points: tuple[Point, ...]


POINT = "#1565c0"
BASELINE = "#c62828"
PALETTE = ("#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457",
           "#283593")


def _bars(lo, hi, v):
    if lo is None or hi is None:
        return None
    return {"type": "data", "symmetric": False, "array": [max(hi - v, 0.0)],
            "arrayminus": [max(v - lo, 0.0)], "thickness": 1.5, "width": 5}


def plans_figure(chart: ChartData, *, height: int = 420) -> go.Figure:
    """Scatter of ``chart.points`` (x, y) with labels; the baseline in red (★)."""
    data = []
    for k, p in enumerate(chart.points):
        color = BASELINE if p.baseline else PALETTE[k % len(PALETTE)]
        trace = {"type": "scatter", "x": [p.x], "y": [p.y], "mode": "markers+text",
                 "text": [p.label], "textposition": "top center",
                 "textfont": {"color": color, "size": 13}, "name": p.label,
                 "marker": {"size": 14, "color": color, "symbol": "star" if p.baseline else "circle",
                            "line": {"color": "white", "width": 1.5}},
                 "hovertemplate": f"<b>{p.label}</b><br>{chart.x_label}: %{{x:,.3~g}}<br>"
                                  f"{chart.y_label}: %{{y:,.4~g}}<extra></extra>",
                 "showlegend": False}
        ex, ey = _bars(p.x_lo, p.x_hi, p.x), _bars(p.y_lo, p.y_hi, p.y)
        if ex:
            trace["error_x"] = dict(ex, color=color)
        if ey:
            trace["error_y"] = dict(ey, color=color)
        data.append(trace)
    xs = [v for p in chart.points for v in (p.x, p.x_lo, p.x_hi) if v is not None]
    ys = [v for p in chart.points for v in (p.y, p.y_lo, p.y_hi) if v is not None]
    return make_figure(data, {
        "title": {"text": chart.title, "font": {"size": 15}},
        "xaxis": {"title": {"text": chart.x_label}, "showgrid": True, "gridcolor": "#e0e0e0",
                  "zeroline": False, "range": [0, max(xs) * 1.3 if xs else 1]},
        "yaxis": {"title": {"text": chart.y_label}, "showgrid": True, "gridcolor": "#e0e0e0",
                  "zeroline": False, "range": [0, max(ys) * 1.18 if ys else 1]},
        "height": height, "font": {"size": 13}, "margin": {"l": 10, "r": 10, "t": 50, "b": 10},
        "hoverlabel": {"align": "left"}, "showlegend": False,
    })
