"""Plans page figure: one labelled point per plan with the published range as error bars.

Pure function of its inputs (no Streamlit). The chart's data (:class:`ChartData`, one
:class:`Point` per plan) is defined here, with the figure; ui.plans.points fills it from
calc.plans, and the report's SVG (ui.plans.svg) draws the same points.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import plotly.graph_objects as go

from ui.figures.roofline import NUMBER_AXIS_LEFT, make_figure


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


#: The narrowest the plot area gets on the page (two charts side by side at 1,280 px).
PLOT_WIDTH_PX = 380

POINT = "#1565c0"
BASELINE = "#c62828"
PALETTE = ("#1565c0", "#2e7d32", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457",
           "#283593")


def _bars(lo, hi, v):
    if lo is None or hi is None:
        return None
    return {"type": "data", "symmetric": False, "array": [max(hi - v, 0.0)],
            "arrayminus": [max(v - lo, 0.0)], "thickness": 1.5, "width": 5}


#: Pixels a label character takes (13 px sans: Latin ~7, CJK ~13) and a label's height.
LABEL_CHAR_PX, LABEL_WIDE_PX, LABEL_HEIGHT_PX = 7.0, 13.0, 16.0


def label_width(text: str, char_px: float = LABEL_CHAR_PX) -> float:
    wide = sum(1 for ch in text if ord(ch) >= 0x2E80)
    return (len(text) - wide) * char_px + wide * char_px * LABEL_WIDE_PX / LABEL_CHAR_PX


def label_places(points, x_max: float, y_max: float, width_px: float, height_px: float,
                 char_px: float = LABEL_CHAR_PX) -> list[Optional[tuple[str, str]]]:
    """Where each point's label goes, as (vertical, horizontal) = ("top" | "bottom",
    "left" | "center" | "right": the side of the point the text lies on), or None when
    no place is free (the name stays on hover).

    Pixel boxes on a plot of ``width_px`` × ``height_px`` (axes from 0 to ``x_max`` /
    ``y_max``): a label never crosses the plot's edge (left of the point near the right
    edge, right of it near the left edge), and never overlaps a label placed before it
    (the baseline first, then in order): above the point, else below, else not drawn."""
    order = sorted(range(len(points)), key=lambda k: (not points[k].baseline, k))
    placed: list[tuple[float, float, float, float]] = []
    out: list[Optional[tuple[str, str]]] = [None] * len(points)
    gap = 9.0
    for k in order:
        p = points[k]
        px = width_px * p.x / x_max if x_max else 0.0
        py = height_px * (1 - p.y / y_max) if y_max else 0.0
        w, h = label_width(p.label, char_px), LABEL_HEIGHT_PX
        options = []
        for v in ("top", "bottom"):
            y0 = py - gap - h if v == "top" else py + gap
            for hz in ("center", "left", "right"):
                x0 = {"center": px - w / 2, "left": px - w - 4, "right": px + 4}[hz]
                if x0 < 0 or x0 + w > width_px or y0 < 0 or y0 + h > height_px:
                    continue
                options.append((v, hz, (x0, y0, x0 + w, y0 + h)))
        for v, hz, box in options:
            if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3]
                       for b in placed):
                placed.append(box)
                out[k] = (v, hz)
                break
    return out


def plans_figure(chart: ChartData, *, height: int = 420) -> go.Figure:
    """Scatter of ``chart.points`` (x, y) with labels; the baseline in red (★)."""
    data = []
    xs = [v for p in chart.points for v in (p.x, p.x_lo, p.x_hi) if v is not None]
    ys = [v for p in chart.points for v in (p.y, p.y_lo, p.y_hi) if v is not None]
    x_max, y_max = (max(xs) * 1.3 if xs else 1.0), (max(ys) * 1.18 if ys else 1.0)
    # the plot area in pixels: half of a wide page (two charts side by side), the margins
    # and axis titles taken off
    places = label_places(chart.points, x_max, y_max, PLOT_WIDTH_PX, height - 130)
    for k, p in enumerate(chart.points):
        color = BASELINE if p.baseline else PALETTE[k % len(PALETTE)]
        place = places[k]
        trace = {"type": "scatter", "x": [p.x], "y": [p.y],
                 "mode": "markers+text" if place else "markers",
                 "text": [p.label], "textposition": f"{place[0]} {place[1]}" if place else "top center",
                 "textfont": {"color": color, "size": 13}, "name": p.label,
                 "marker": {"size": 14, "color": color, "symbol": "star" if p.baseline else "circle",
                            "line": {"color": "white", "width": 1.5}},
                 "hovertemplate": f"<b>{p.label}</b><br>{chart.x_label}: %{{x:,.3~g}}<br>"
                                  f"{chart.y_label}: %{{y:,.4~g}}<extra></extra>",
                 "showlegend": True}
        ex, ey = _bars(p.x_lo, p.x_hi, p.x), _bars(p.y_lo, p.y_hi, p.y)
        if ex:
            trace["error_x"] = dict(ex, color=color)
        if ey:
            trace["error_y"] = dict(ey, color=color)
        data.append(trace)
    return make_figure(data, {
        "title": {"text": chart.title, "font": {"size": 15}},
        "xaxis": {"title": {"text": chart.x_label}, "showgrid": True, "gridcolor": "#e0e0e0",
                  "zeroline": False, "range": [0, x_max]},
        "yaxis": {"title": {"text": chart.y_label}, "showgrid": True, "gridcolor": "#e0e0e0",
                  "zeroline": False, "range": [0, y_max]},
        # held margins (ui.figures.roofline): the y axis; the x axis and one legend row
        "height": height, "font": {"size": 13}, "margin": {"l": NUMBER_AXIS_LEFT, "r": 10, "t": 50, "b": 100},
        "hoverlabel": {"align": "left"},
        # every plan's name in the legend under the plot: a label that finds no free place
        # beside its point (label_places) is still named there, by its colour
        "showlegend": True, "legend": {"orientation": "h", "yanchor": "top", "y": -0.22,
                                       "x": 0, "font": {"size": 12}},
    })
