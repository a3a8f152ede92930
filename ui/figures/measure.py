"""Measure page charts (no Streamlit): measured roofs beside a datasheet's on one roofline,
and bandwidth against working-set size.

Every number comes from measure/ (the measurement) and calc.roofline (through
ui.figures.roofline); this module only draws.
"""
from __future__ import annotations

import math
from typing import Mapping, Optional, Sequence

import numpy as np
import plotly.graph_objects as go

from calc.hardware import Accelerator
from calc.units import format_si
from measure.report import format_bytes
from ui.figures.roofline import KernelPoints, Roof, decade_ticks, make_figure, roofline_figure
from ui.i18n import Translator

MEASURED_COLOR = "#2e7d32"
DATASHEET_COLOR = "#757575"
CACHE_COLORS = {"l1": "#00897b", "l2": "#43a047", "l3": "#7cb342"}
KERNEL_COLORS = {"copy": "#1565c0", "triad": "#ef6c00"}

__all__ = ["measured_translator", "comparison_roofs", "comparison_figure", "bandwidth_curve_figure"]


def comparison_roofs(t: Translator, measured: Accelerator, precision: str,
                     datasheet: Optional[tuple[str, float, float]] = None) -> list[Roof]:
    """Roofs: measured (peak at `precision`, DRAM bandwidth), the datasheet's
    (label, peak FLOP/s, bandwidth B/s) dashed grey, and the measured cache levels dotted
    (same peak, the level's bandwidth)."""
    prec = t(f"common.prec.{precision}")
    label = t("measure.fig.measured_roof", precision=prec)
    if datasheet is not None:
        # measured ÷ datasheet for the two ceilings drawn: the roof and the slope
        label = t("measure.fig.measured_roof_ratio", precision=prec,
                  peak=f"{measured.peak_flops(precision) / datasheet[1] * 100:.3g} %",
                  bw=f"{measured.mem_bw / datasheet[2] * 100:.3g} %")
    roofs = [Roof(label, measured.peak_flops(precision), measured.mem_bw, color=MEASURED_COLOR,
                  precision=precision)]
    if datasheet is not None:
        label, peak, bw = datasheet
        roofs.append(Roof(t("measure.fig.datasheet_roof", device=label), peak, bw,
                          color=DATASHEET_COLOR, dash="dash", precision=precision))
    for level, bw in measured.cache_bw.items():
        roofs.append(Roof(t("measure.fig.cache_roof", level=level.upper()), measured.peak_flops(precision),
                          bw, color=CACHE_COLORS.get(level, MEASURED_COLOR), dash="dot",
                          precision=precision))
    return roofs


def measured_translator(t: Translator) -> Translator:
    """`t`, except that a point above a MEASURED roof is named for what it means here (the
    machine was quieter than during the measurement), not "check the numbers"."""
    def mt(key: str, **fields):
        if key == "fig.verdict.above_roof":
            return t("measure.fig.above_measured", **fields)
        return t(key, **fields)
    return mt


def comparison_figure(t: Translator, measured: Accelerator, precision: str,
                      datasheet: Optional[tuple[str, float, float]] = None,
                      kernels: Optional[KernelPoints] = None, height: int = 560) -> go.Figure:
    """One roofline: the measured roofs beside the datasheet's, and live kernel points
    (placed with ui.figures.roofline.kernel_points(measured_translator(t), ...))."""
    return roofline_figure(measured_translator(t), comparison_roofs(t, measured, precision, datasheet),
                           kernels, height=height)


def _vline(x: float, text: str) -> tuple[dict, dict]:
    shape = {"type": "line", "xref": "x", "yref": "y domain", "x0": x, "x1": x, "y0": 0, "y1": 1,
             "line": {"color": "#9e9e9e", "width": 1, "dash": "dash"}}
    note = {"x": math.log10(x), "xref": "x", "yref": "y domain", "y": 1.0, "yanchor": "bottom",
            "text": text, "showarrow": False, "font": {"size": 12, "color": "#616161"}}
    return shape, note


def bandwidth_curve_figure(t: Translator, points: Sequence, caches: Sequence[tuple[str, int]],
                           plateaus: Mapping[str, float],
                           datasheet: Optional[tuple[str, float]] = None,
                           height: int = 420) -> go.Figure:
    """Bandwidth (B/s, best sample) against working set (bytes), one line per streaming
    kernel (points: measure.cpu.StreamPoint), the cache capacities as vertical lines, the
    plateaus (measure.cpu.plateaus) and the datasheet bandwidth as horizontal lines."""
    data: list[dict] = []
    shapes: list[dict] = []
    annotations: list[dict] = []
    ys: list[float] = []
    for kernel in dict.fromkeys(p.kernel for p in points):
        pts = [p for p in points if p.kernel == kernel]
        x = np.array([p.working_set_bytes for p in pts], dtype=float)
        y = np.array([p.bandwidth for p in pts], dtype=float)
        med = np.array([p.bandwidth_median for p in pts], dtype=float)
        spread = np.array([p.timing.spread for p in pts], dtype=float)
        ys += list(y)
        data.append({
            "type": "scatter", "x": x, "y": y, "mode": "lines+markers",
            "name": t(f"measure.fig.kernel.{kernel}"),
            "line": {"color": KERNEL_COLORS.get(kernel, "#455a64"), "width": 2},
            "marker": {"size": 6},
            "customdata": np.column_stack([med, spread]),
            "hovertext": [format_bytes(v) for v in x],
            "hovertemplate": t("measure.fig.curve_hover", kernel=t(f"measure.fig.kernel.{kernel}"),
                               ws="%{hovertext}", best="%{y:.3~s}B/s",
                               median="%{customdata[0]:.3~s}B/s",
                               spread="%{customdata[1]:.0%}") + "<extra></extra>"})
    for name, size in caches:
        s, a = _vline(size, t("measure.fig.cache_size", level=name, size=format_bytes(size)))
        shapes.append(s)
        annotations.append(a)
    for level, bw in plateaus.items():
        ys.append(bw)
        label = t("measure.fig.dram") if level == "dram" else level
        shapes.append({"type": "line", "xref": "x domain", "yref": "y", "x0": 0, "x1": 1,
                       "y0": bw, "y1": bw, "line": {"color": MEASURED_COLOR, "width": 1, "dash": "dot"}})
        annotations.append({"xref": "x domain", "x": 1.0, "xanchor": "right", "y": math.log10(bw),
                            "yanchor": "bottom", "showarrow": False,
                            "text": t("measure.fig.plateau", level=label, bw=format_si(bw, "B/s")),
                            "font": {"size": 11, "color": MEASURED_COLOR}})
    if datasheet is not None:
        label, bw = datasheet
        ys.append(bw)
        shapes.append({"type": "line", "xref": "x domain", "yref": "y", "x0": 0, "x1": 1,
                       "y0": bw, "y1": bw, "line": {"color": DATASHEET_COLOR, "width": 2, "dash": "dash"}})
        annotations.append({"xref": "x domain", "x": 0.0, "xanchor": "left", "y": math.log10(bw),
                            "yanchor": "bottom", "showarrow": False,
                            "text": t("measure.fig.datasheet_bw", device=label, bw=format_si(bw, "B/s")),
                            "font": {"size": 11, "color": DATASHEET_COLOR}})
    xs = [p.working_set_bytes for p in points] or [4096, 2**30]
    x_lo, x_hi = min(xs) / 1.5, max(xs) * 1.5
    finite = [v for v in ys if v > 0 and math.isfinite(v)] or [1e9]
    y_lo, y_hi = min(finite) / 2, max(finite) * 2
    tick_x = [2.0 ** e for e in range(math.floor(math.log2(x_lo)), math.ceil(math.log2(x_hi)) + 1, 2)]
    y_ticks, y_text = decade_ticks(y_lo, y_hi, "B/s")
    layout = {
        "shapes": shapes, "annotations": annotations, "height": height,
        "xaxis": {"type": "log", "range": [math.log10(x_lo), math.log10(x_hi)], "tickvals": tick_x,
                  "ticktext": [format_bytes(v) for v in tick_x],
                  "title": {"text": t("measure.fig.ws_title")}, "showgrid": True, "gridcolor": "#e0e0e0"},
        "yaxis": {"type": "log", "range": [math.log10(y_lo), math.log10(y_hi)], "tickvals": y_ticks,
                  "ticktext": y_text, "title": {"text": t("measure.fig.bw_title")},
                  "showgrid": True, "gridcolor": "#e0e0e0"},
        "margin": {"l": 10, "r": 10, "t": 40, "b": 10},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.06, "x": 0},
    }
    return make_figure(data, layout)

