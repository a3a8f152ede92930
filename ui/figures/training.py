"""Training-time page figure: wall-clock days against MFU, two MFUs marked.

Pure function of its inputs (no Streamlit). The curve and the marked points are
computed by the page with `calc.training.training_seconds` and `calc.training.days`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from ui.figures.roofline import AXIS_BOTTOM, NUMBER_AXIS_LEFT, log_axis, make_figure
from ui.i18n import Translator
from ui.numbers import SECONDS_PER_DAY, format_duration

CURVE = "#1565c0"
CHOSEN = "#2e7d32"
COMPARE = "#c62828"


def days_vs_mfu_figure(t: Translator, mfu_grid: Sequence[float], days_grid: Sequence[float],
                       chosen: tuple[float, float], compare: tuple[float, float] | None = None,
                       *, log_y: bool = False, height: int = 440) -> go.Figure:
    """Days vs MFU. `chosen` and `compare` are (mfu fraction, days) points to mark; a
    comparison at the chosen MFU itself is not drawn (two labels on one point)."""
    if compare is not None and compare[0] == chosen[0]:
        compare = None
    x = np.asarray(mfu_grid, dtype=float)
    y = np.asarray(days_grid, dtype=float)
    data = [{"type": "scatter", "x": x, "y": y, "mode": "lines", "name": t("training.fig.curve"),
             "line": {"color": CURVE, "width": 3},
             "hovertemplate": t("training.fig.curve_hover") + "<extra></extra>"}]
    # Each point's label is its marker's own text (a scatter with mode "markers+text"), and
    # the bracket between the two points one dotted line trace: a slider moves them, and
    # plotly redraws layout annotations and shapes (each measured, its arrow traced) at about
    # a third of a one-chart page's whole redraw (README, "Slider -> page redrawn").
    if compare is not None:
        # a dotted bracket from the comparison's days down to the chosen days, then across
        data.append({"type": "scatter", "x": [compare[0], compare[0], chosen[0]],
                     "y": [compare[1], chosen[1], chosen[1]], "mode": "lines", "hoverinfo": "skip",
                     "line": {"color": "#757575", "width": 1, "dash": "dot"}, "showlegend": False})
    # above-right of the chosen point and below-left of the comparison, off the curve (it
    # falls to the right); turned inward near the axis ends so the label stays on the chart
    points = [(chosen, CHOSEN, "training.fig.chosen", "top right" if chosen[0] <= 0.6 else "top left")]
    if compare is not None:
        points.append((compare, COMPARE, "training.fig.compare",
                       "bottom left" if compare[0] >= 0.17 else "top right"))
    for (m, d), color, key, where in points:
        label = t(key, mfu=f"{m:.0%}", time=format_duration(t, d * SECONDS_PER_DAY))
        data.append({"type": "scatter", "x": [m], "y": [d], "mode": "markers+text", "name": label,
                     "text": [f"<b>{label}</b>"], "textposition": where,
                     "textfont": {"size": 14, "color": color}, "cliponaxis": False,
                     "marker": {"size": 14, "color": color, "line": {"color": "white", "width": 2}},
                     "hovertemplate": label + "<extra></extra>", "showlegend": False})
    ticks = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
    return make_figure(data, {
        "xaxis": {"title": {"text": t("training.fig.x_title")}, "tickvals": ticks,
                  "ticktext": [f"{v:.0%}" for v in ticks], "range": [0.03, 0.82],
                  "showgrid": True, "gridcolor": "#e0e0e0", "zeroline": False},
        "yaxis": {"title": {"text": t("training.fig.y_title")}, "type": "log" if log_y else "linear",
                  "showgrid": True, "gridcolor": "#e0e0e0", "zeroline": False, "rangemode": "tozero",
                  # log: days labelled 50, 100, 200 (plotly's own: "5 4 3 2 100 9 8 …")
                  **(log_axis([*y, chosen[1], *(compare[1:] if compare else ())], "",
                              fmt=lambda v: f"{v:,.0f}" if v >= 1 else f"{v:.2g}") if log_y else {})},
        # held margins (ui.figures.roofline): y ticks up to "1,000" and the y title
        "height": height, "font": {"size": 13}, "margin": {"l": NUMBER_AXIS_LEFT, "r": 10, "t": 30, "b": AXIS_BOTTOM},
        "hoverlabel": {"align": "left"}, "showlegend": False,
    })
