"""The roofline chart: log-log, x = arithmetic intensity (FLOP/byte), y = FLOP/s.

Pure function of its inputs (no Streamlit): `roofline_figure(...)` returns a
`plotly.graph_objects.Figure`. Every number on it comes from `calc.roofline`; this
module only draws. Tick labels are written by hand (one per decade, SI prefixes) because
plotly's own SI ticks print "G" as "B" in some themes.

Plotly annotations on log axes take log10 coordinates: see `_log`.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from calc.roofline import attainable_flops, ridge_point
from calc.hardware import rate_unit
from calc.units import format_si
from ui.i18n import Translator

VERDICT_COLORS = {
    "near_roof": "#2e7d32",     # green: done, optimise elsewhere
    "below_roof": "#ef6c00",    # orange: worth digging into
    "above_roof": "#c62828",    # red: the numbers are wrong
    "unmeasured": "#1565c0",    # blue: no time given, drawn at its attainable FLOP/s
}
ROOF_COLORS = ("#37474f", "#8e24aa", "#00897b", "#6d4c41", "#3949ab", "#c0ca33")
MEMORY_REGION = "rgba(21, 101, 192, 0.06)"
COMPUTE_REGION = "rgba(46, 125, 50, 0.06)"

#: The layout part of plotly's "plotly_white" template that these charts use, inlined:
#: naming the template makes plotly deep-copy all of it (~14 ms) on every figure.
_AXIS = {"gridcolor": "#EBF0F8", "linecolor": "#EBF0F8", "ticks": "", "title": {"standoff": 15},
         "zerolinecolor": "#EBF0F8", "automargin": True, "zerolinewidth": 2}
WHITE_TEMPLATE = {"layout": {
    "autotypenumbers": "strict",
    "colorway": ["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692",
                 "#B6E880", "#FF97FF", "#FECB52"],
    "font": {"color": "#2a3f5f"}, "hovermode": "closest", "hoverlabel": {"align": "left"},
    "paper_bgcolor": "white", "plot_bgcolor": "white", "xaxis": _AXIS, "yaxis": _AXIS,
    "shapedefaults": {"line": {"color": "#2a3f5f"}},
    "annotationdefaults": {"arrowcolor": "#2a3f5f", "arrowhead": 0, "arrowwidth": 1},
    "title": {"x": 0.05},
}}


#: Build figures without plotly's per-property validation: it is most of a figure's cost
#: (~6 ms for the MFU strip, 0.5 ms without). `_validate` is a keyword of plotly's
#: BaseFigure since plotly 4; a plotly without it ignores it and validates as usual.
#: tests/figures/test_valid.py checks that every builder's figure validates.
VALIDATE = False


#: Margins (px) that already hold the tick labels, axis titles and legends plotly's
#: ``automargin`` would push them to. A margin smaller than what its labels need makes
#: plotly lay the chart out and draw it a second time (``Plots.doAutoMargin``): measured
#: ~20 of ~45 ms per chart drawn, and a chart is drawn anew at every rerun that changes
#: it. automargin stays on, so a longer label than these is never clipped, only drawn
#: twice; tests/browser/test_pages.py checks that no chart needs it on the default pages.
#: The figures are the rendered needs of each chart (Source Sans at 13 px, both
#: languages), rounded up.
LOG_FLOPS_AXIS_LEFT = 120     # "100 TFLOP/s" tick labels and the y title (need: 117)
ROOFLINE_RIGHT = 24           # the last x tick label, centred on the right edge (need: 21)
AXIS_BOTTOM = 68              # x tick labels and the x title (need: 65-67)
NUMBER_AXIS_LEFT = 80         # y tick labels of up to 5 characters ("1,400") and the y title (need: 71-77)
LEGEND_ROW_BELOW = 36         # one row of a legend under the plot, with its gap to the axis
LEGEND_FIRST_ROW = 48


def legend_below_margin(data: Sequence[Any], per_row: int) -> int:
    """The bottom margin of an x axis with a legend under it: AXIS_BOTTOM, then the first
    row and a row more for each further ``per_row`` entries (what fits across the chart)."""
    entries = sum(1 for d in data if (d.get("showlegend") if isinstance(d, dict)
                                      else d.showlegend) is not False)
    rows = max(1, math.ceil(entries / per_row))
    return AXIS_BOTTOM + LEGEND_FIRST_ROW + LEGEND_ROW_BELOW * (rows - 1)


def make_figure(data: list[dict[str, Any]], layout: dict[str, Any]) -> go.Figure:
    """One `go.Figure` from plain trace dicts and a layout dict (the white template
    inlined), instead of dozens of mutating add_*/update_* calls that each validate."""
    layout = {"template": WHITE_TEMPLATE, **layout}
    return go.Figure(data=data, layout=layout, _validate=VALIDATE)


@dataclass(frozen=True)
class Roof:
    """One roofline: a compute roof `peak_flops` (FLOP/s; OP/s for an INT8 `precision`) over
    a slope `mem_bw` (B/s)."""
    label: str
    peak_flops: float
    mem_bw: float
    color: str = ROOF_COLORS[0]
    dash: str = "solid"
    precision: str = ""     # the peak's precision: "int8" labels it in OP/s, its ridge in OP/B

    @property
    def ridge(self) -> float:
        return ridge_point(self.peak_flops, self.mem_bw)

    def unit(self, per: str = "/s") -> str:
        """"FLOP/s" or "OP/s" (``per="/B"``: the ridge's, FLOP/B or OP/B): calc.hardware.rate_unit."""
        return rate_unit(self.precision, per)


def axis_op(ops: Sequence[str]) -> str | None:
    """What the axes count, from the operations drawn ("FLOP" or "OP" each): the one of them
    when all agree (FLOP when none), None for both (a BF16 roof beside an INT8 one)."""
    kinds = set(ops) or {"FLOP"}
    return kinds.pop() if len(kinds) == 1 else None


@dataclass(frozen=True)
class KernelPoints:
    """Kernels already placed by `calc.roofline.place_kernels` (arrays of equal length).

    `y` is where each point is drawn: achieved FLOP/s when a time is known, else the
    attainable FLOP/s. `verdict` holds "near_roof" / "below_roof" / "above_roof" or
    "unmeasured", `bound` "memory" / "compute". `hover` maps (verdict, bound) to one
    translated plotly hovertemplate that formats the row's numbers in `customdata`
    (2-D, one row per kernel) and the escaped name (`%{hovertext}`): no text per kernel.
    """
    names: Sequence[str]
    intensity: np.ndarray
    y: np.ndarray
    attainable: np.ndarray
    measured: np.ndarray          # bool: a time was given
    verdict: Sequence[str]
    hover: Mapping[tuple[str, str], str]
    size: np.ndarray | None = None   # marker sizes (px), e.g. by time share
    highlight: np.ndarray | None = None  # bool: top-N by time, drawn with a ring
    labels: Sequence[str] | None = None  # short text drawn next to each point (few kernels)
    customdata: np.ndarray | None = None  # numbers the hovertemplates format, one row per kernel
    bound: np.ndarray | None = None       # "memory" / "compute" / "zero_flop" per kernel
    fraction: np.ndarray | None = None    # fraction of the roof (NaN: no time), per kernel
    op: np.ndarray | None = None          # "FLOP" / "OP" (INT8) per kernel: its hover's unit


def _log(v: float) -> float:
    return math.log10(v)


MAX_TICKS = 14
"""Most tick labels on a log axis: past that, every 2nd, 3rd, ... decade is labelled (a
span of 60 decades would otherwise print 60 overlapping labels)."""


def decade_ticks(lo: float, hi: float, unit: str) -> tuple[list[float], list[str]]:
    """One tick per decade between lo and hi (every k-th decade when there would be more
    than MAX_TICKS), labelled with SI prefixes ("10 TFLOP/s")."""
    first, last = math.floor(_log(lo)), math.ceil(_log(hi))
    step = max(1, math.ceil((last - first + 1) / MAX_TICKS))
    values = [10.0 ** e for e in range(first, last + 1, step)]
    return values, [format_si(v, unit) for v in values]


def log_axis(values: Sequence[float], unit: str, pad: float = 1.25,
             fmt: Callable[[float], str] | None = None) -> dict[str, Any]:
    """A log axis over the finite positive ``values`` (padded by ``pad`` each side), its
    ticks labelled with SI prefixes ("20 ms"): 1, 2 and 5 of each decade when the axis
    spans at most two decades, 1 and 3 up to four, else decade_ticks.  (Plotly's own labels
    on a short log axis print bare digits between the decades: "0.01 9 8 7 … 2 0.1".)
    ``fmt``: another label for a value (days: "200", not "200 d"); no values: {}."""
    vals = [float(v) for v in values if v is not None and math.isfinite(v) and v > 0]
    if not vals:
        return {}
    lo, hi = min(vals) / pad, max(vals) * pad
    span = _log(hi) - _log(lo)
    if span <= 4.0:
        mantissas = (1, 2, 5) if span <= 2.0 else (1, 3)
        ticks = [m * 10.0 ** e for e in range(math.floor(_log(lo)), math.ceil(_log(hi)) + 1)
                 for m in mantissas if lo <= m * 10.0 ** e <= hi]
    else:
        ticks = [v for v in decade_ticks(lo, hi, unit)[0] if lo <= v <= hi]
    text = [fmt(v) if fmt else format_si(v, unit) for v in ticks]
    return {"type": "log", "range": [_log(lo), _log(hi)], "tickvals": ticks, "ticktext": text}


def linear_axis(hi: float, unit: str, max_ticks: int = 10) -> dict[str, Any]:
    """A linear axis from 0 to ``hi`` (> 0) with ticks every 1, 2 or 5 × 10^k — the smallest
    step giving at most ``max_ticks`` steps — labelled with SI prefixes and the unit ("20 GB";
    plotly's own "20B" reads as 20 billion next to a 7B model).  hi ≤ 0 or not finite: {}."""
    if not (math.isfinite(hi) and hi > 0):
        return {}
    e = math.floor(_log(hi / max_ticks))
    step = next(m * 10.0 ** k for k in (e, e + 1) for m in (1, 2, 5) if hi / (m * 10.0 ** k) <= max_ticks)
    ticks = [i * step for i in range(math.floor(hi / step + 1e-9) + 1)]
    return {"range": [0.0, hi], "tickvals": ticks, "ticktext": [format_si(v, unit) for v in ticks]}


def _decades(lo: float, hi: float, values: np.ndarray | None) -> tuple[float, float]:
    """Widen [lo, hi] to show every finite positive value with a third of a decade to
    spare, then round out to whole decades."""
    lo_exp, hi_exp = _log(lo), _log(hi)
    if values is not None and len(values):
        finite = values[np.isfinite(values) & (values > 0)]
        if finite.size:
            # in log10 space: a value near 1e308 times 3 would overflow to inf
            lo_exp = min(lo_exp, _log(float(finite.min())) - math.log10(3.0))
            hi_exp = max(hi_exp, _log(float(finite.max())) + math.log10(3.0))
    lo_exp, hi_exp = max(lo_exp, -300.0), min(hi_exp, 300.0)
    return 10.0 ** math.floor(lo_exp), 10.0 ** math.ceil(hi_exp)


def axis_ranges(roofs: Sequence[Roof], intensities: np.ndarray | None = None,
                ys: np.ndarray | None = None) -> tuple[tuple[float, float], tuple[float, float]]:
    """x and y ranges (linear units) that show every roof's ridge and every point."""
    ridges = [min(r.ridge, 1e300) for r in roofs]      # an infinite ridge (bandwidth ~0) stays drawable
    x_lo, x_hi = _decades(min(ridges) / 1000.0, max(ridges) * 30.0, intensities)
    y_lo = min(float(attainable_flops(x_lo, r.peak_flops, r.mem_bw)) for r in roofs)
    y_hi = max(r.peak_flops for r in roofs) * 3.0
    return (x_lo, x_hi), _decades(y_lo, y_hi, ys)


def _roof_trace(roof: Roof, x_lo: float, x_hi: float, t: Translator, main: bool) -> dict:
    # Three points draw the whole roofline: the slope from x_lo, the ridge, the roof to x_hi.
    xs = [x_lo, min(max(roof.ridge, x_lo), x_hi), x_hi]     # the ridge kept inside the axes
    ys = [float(attainable_flops(x, roof.peak_flops, roof.mem_bw)) for x in xs]
    hover = t("fig.roof_hover", label=roof.label,
              peak=format_si(roof.peak_flops, roof.unit()),
              bw=format_si(roof.mem_bw, "B/s"),
              ridge=format_si(roof.ridge, roof.unit("/B")))
    return {"type": "scatter", "x": xs, "y": ys, "mode": "lines", "name": roof.label,
            "line": {"color": roof.color, "width": 3 if main else 2, "dash": roof.dash},
            "hovertemplate": hover + "<extra></extra>"}


def _region_label(text: str, compact: bool) -> str:
    """A region name; in a compact chart two lines, the colon (: or ：) becoming the break."""
    if not compact:
        return text
    for colon in ("：", ": "):
        head, sep, tail = text.partition(colon)
        if sep:
            return head + "<br>" + tail
    return text


def _vrect(x0: float, x1: float, color: str) -> dict:
    """What `fig.add_vrect(x0, x1, fillcolor=color, line_width=0, layer="below")` adds."""
    return {"type": "rect", "xref": "x", "yref": "y domain", "x0": x0, "x1": x1, "y0": 0, "y1": 1,
            "fillcolor": color, "line": {"width": 0}, "layer": "below"}


def roofline_figure(t: Translator, roofs: Sequence[Roof], kernels: KernelPoints | None = None,
                    *, height: int = 560, compact: bool = False,
                    show_regions: bool = True, title: str | None = None,
                    ranges: tuple[tuple[float, float], tuple[float, float]] | None = None) -> go.Figure:
    """A log-log roofline chart.

    roofs[0] is the main roofline: its ridge is marked and labelled, and the memory- and
    compute-bound regions are named relative to it. The other roofs (other precisions,
    other devices) are drawn as extra lines. `kernels` are drawn as WebGL points coloured
    by verdict, measured ones with a dotted line up to their roof. `ranges` ((x_lo, x_hi),
    (y_lo, y_hi)) fixes the axes (e.g. so that points move while the axes stay put).
    """
    if not roofs:
        raise ValueError("roofline_figure needs at least one roof")
    main = roofs[0]
    intens = kernels.intensity if kernels is not None else None
    ys = kernels.y if kernels is not None else None
    (x_lo, x_hi), (y_lo, y_hi) = ranges if ranges is not None else axis_ranges(roofs, intens, ys)
    ridge_x = min(max(main.ridge, x_lo), x_hi)      # inside the axes even when the ridge is inf
    zero_strip = None
    if kernels is not None and len(kernels.intensity) and np.any(np.asarray(kernels.intensity) == 0):
        kernels, zero_strip = _zero_flop_strip(kernels, main, x_lo)
        if ranges is None:        # the x range stays: the strip is at its left edge
            y_lo = min(y_lo, 10.0 ** math.floor(_log(float(np.nanmin(kernels.y)) / 3.0)))

    shapes: list[dict] = []
    annotations: list[dict] = []
    if show_regions:
        shapes += [_vrect(x_lo, ridge_x, MEMORY_REGION), _vrect(ridge_x, x_hi, COMPUTE_REGION)]
    data = [_roof_trace(roof, x_lo, x_hi, t, main=(i == 0)) for i, roof in enumerate(roofs)]

    # The ridge point of the main roof: marker, dotted drop line and its value.
    data.append({
        "type": "scatter", "x": [ridge_x], "y": [main.peak_flops], "mode": "markers",
        "name": t("fig.ridge"), "marker": {"size": 11, "color": main.color, "symbol": "diamond"},
        "hovertemplate": t("fig.ridge_hover", ridge=format_si(main.ridge, main.unit("/B")),
                           peak=format_si(main.peak_flops, main.unit())) + "<extra></extra>",
        "showlegend": False})
    shapes.append({"type": "line", "x0": ridge_x, "x1": ridge_x, "y0": y_lo,
                   "y1": main.peak_flops, "line": {"color": main.color, "width": 1, "dash": "dot"}})
    annotations.append({"x": _log(ridge_x), "y": _log(main.peak_flops),
                        "text": t("fig.ridge_label", ridge=format_si(main.ridge, main.unit("/B"))),
                        "showarrow": True, "arrowhead": 0, "ax": 0, "ay": -34,
                        "font": {"size": 12 if compact else 13, "color": main.color},
                        "bgcolor": "rgba(255,255,255,0.85)"})
    if show_regions:
        # Region names in opposite corners, so they can never run into each other: the
        # memory-bound one top-left (above the slope, just under the roof's height, below the
        # ridge label), the compute-bound one bottom-right (under the roof). In a compact
        # chart each name breaks after its colon.
        size = 12 if compact else 14
        annotations += [
            {"x": _log(x_lo), "y": _log(main.peak_flops), "xanchor": "left", "yanchor": "top",
             "xshift": 4, "yshift": -4, "text": _region_label(t("fig.memory_bound"), compact),
             "showarrow": False, "align": "left", "font": {"size": size, "color": "#1565c0"}},
            {"x": _log(x_hi), "y": _log(y_lo), "xanchor": "right", "yanchor": "bottom",
             "xshift": -4, "yshift": 4, "text": _region_label(t("fig.compute_bound"), compact),
             "showarrow": False, "align": "right", "font": {"size": size, "color": "#2e7d32"}},
        ]

    if zero_strip is not None:
        # Zero-FLOP kernels (copies, fills) have intensity 0, which a log axis cannot show:
        # they sit in a strip at the smallest drawn intensity, at their fraction of the
        # memory roof (bandwidth utilisation), labelled as zero-FLOP.
        shapes.append({"type": "rect", "xref": "x", "yref": "y domain", "x0": x_lo,
                       "x1": zero_strip * 10 ** 0.15, "y0": 0, "y1": 1,
                       "fillcolor": "rgba(96,125,139,0.13)", "line": {"width": 0}, "layer": "below"})
        annotations.append({"x": _log(x_lo), "y": 1.0, "yref": "paper", "xanchor": "left",
                            "yanchor": "top", "text": t("fig.zero_flop_strip"), "showarrow": False,
                            "font": {"size": 12, "color": "#455a64"},
                            "bgcolor": "rgba(255,255,255,0.85)"})
    if kernels is not None and len(kernels.intensity):
        data += kernel_traces(t, kernels)

    # The axes count what is drawn: FLOP, OP (INT8) or both (ticks "100T", both in the titles).
    op = axis_op([r.unit("") for r in roofs] + (list(np.unique(kernels.op)) if kernels is not None
                                                  and kernels.op is not None else []))
    x_ticks, _ = decade_ticks(x_lo, x_hi, "")
    y_ticks, y_text = decade_ticks(y_lo, y_hi, op + "/s" if op else "")
    x_title = t("fig.x_title", op=op) if op else t("fig.x_title_mixed")
    y_title = t("fig.y_title", op=op) if op else t("fig.y_title_mixed")
    layout = {
        "shapes": shapes, "annotations": annotations,
        "xaxis": {"type": "log", "range": [_log(x_lo), _log(x_hi)], "tickvals": x_ticks,
                  "ticktext": [_plain(v) for v in x_ticks], "title": {"text": x_title},
                  "showgrid": True, "gridcolor": "#e0e0e0", "zeroline": False},
        "yaxis": {"type": "log", "range": [_log(y_lo), _log(y_hi)], "tickvals": y_ticks,
                  "ticktext": y_text, "title": {"text": y_title},
                  "showgrid": True, "gridcolor": "#e0e0e0", "zeroline": False},
        "height": height, "title": {"text": title} if title else {},
        # the legend under the plot, not above it: there it sat under the plotly toolbar
        # (top right) once an import added its verdict entries (issue 23 item 9)
        "margin": {"l": LOG_FLOPS_AXIS_LEFT, "r": ROOFLINE_RIGHT, "t": 40 if title else 20,
                   "b": legend_below_margin(data, per_row=4) if not compact or len(roofs) > 1
                   else AXIS_BOTTOM},
        "legend": {"orientation": "h", "yanchor": "top", "y": -0.16, "x": 0,
                   "yref": "paper"},
        "hoverlabel": {"align": "left"}, "showlegend": not compact or len(roofs) > 1,
    }
    return make_figure(data, layout)


def _zero_flop_strip(k: KernelPoints, main: Roof, x_lo: float) -> tuple[KernelPoints, float]:
    """Move zero-FLOP points (intensity 0) to x = the smallest drawn intensity (a strip at
    the left edge); y = their fraction of the memory roof times the slope there, so the
    height reads as bandwidth utilisation.  Returns the moved points and the strip's x."""
    x = np.asarray(k.intensity, dtype=float).copy()
    zero = x == 0
    xs = x_lo * 10 ** 0.15
    slope = xs * main.mem_bw
    frac = np.asarray(k.fraction, dtype=float) if k.fraction is not None else np.full(x.shape, np.nan)
    y = np.asarray(k.y, dtype=float).copy()
    att = np.asarray(k.attainable, dtype=float).copy()
    x[zero] = xs
    att[zero] = slope
    y[zero] = np.where(np.isfinite(frac[zero]), frac[zero] * slope, slope)
    return dataclasses.replace(k, intensity=x, y=y, attainable=att), xs


def _plain(v: float) -> str:
    """Intensity tick labels: 0.01, 0.1, 1, 10, 100, 1k, 10k."""
    if v >= 1000:
        return format_si(v, "")
    return f"{v:g}"


#: Kernel points are drawn with WebGL (scattergl) above this many, as SVG below: a WebGL
#: context costs more to set up and redraw than a few SVG markers (headless Chromium
#: without a GPU renders WebGL in software), and thousands of SVG markers cost more.
GL_ABOVE = 1000


def kernel_traces(t: Translator, k: KernelPoints) -> list[dict]:
    """The kernel points as trace dicts: the dotted gap lines (one trace) and one marker
    trace per verdict, bound and operation (FLOP or INT8's OP; the same legend entry per
    verdict), each with one
    hovertemplate over numeric `customdata` and the escaped names in `hovertext`. WebGL
    (scattergl) above :data:`GL_ABOVE` points, SVG (scatter) up to it."""
    x = np.asarray(k.intensity, dtype=float)
    kind = "scattergl" if x.size > GL_ABOVE else "scatter"
    y = np.asarray(k.y, dtype=float)
    measured = np.asarray(k.measured, dtype=bool)
    traces: list[dict] = []
    # Dotted lines from each measured point up (or down) to its roof, in one WebGL trace.
    if measured.any():
        xm, ym, am = x[measured], y[measured], np.asarray(k.attainable, dtype=float)[measured]
        n = xm.size
        lx = np.empty(3 * n, dtype=np.float32)
        ly = np.empty(3 * n, dtype=np.float32)
        lx[0::3], lx[1::3], lx[2::3] = xm, xm, np.nan
        ly[0::3], ly[1::3], ly[2::3] = ym, am, np.nan
        traces.append({"type": kind, "x": lx, "y": ly, "mode": "lines", "hoverinfo": "skip",
                       "line": {"color": "rgba(90,90,90,0.45)", "width": 1, "dash": "dot"},
                       "showlegend": False, "name": t("fig.gap")})
    verdicts = np.asarray(k.verdict)
    bounds = np.asarray(k.bound).astype(str) if k.bound is not None else np.full(x.shape, "")
    ops = np.asarray(k.op).astype(str) if k.op is not None else np.full(x.shape, "FLOP")
    names = np.asarray(_escape_all(k.names), dtype=object)
    labels = np.asarray(k.labels, dtype=object) if k.labels is not None else None
    sizes = np.asarray(k.size, dtype=float) if k.size is not None else None
    custom = np.asarray(k.customdata) if k.customdata is not None else None
    for verdict, color in VERDICT_COLORS.items():
        in_verdict = verdicts == verdict
        if not in_verdict.any():
            continue
        first = True
        for bound, op in sorted({(str(b), str(o)) for b, o in zip(bounds[in_verdict], ops[in_verdict])}):
            sel = in_verdict & (bounds == bound) & (ops == op)
            tr = {"type": kind, "x": x[sel], "y": y[sel], "mode": "markers",
                  "name": t(f"fig.verdict.{verdict}"), "legendgroup": verdict,
                  "showlegend": first,
                  "marker": {"color": color, "size": sizes[sel] if sizes is not None else 11,
                             "line": {"color": "white", "width": 1}, "opacity": 0.9},
                  "hovertext": names[sel],
                  "hovertemplate": k.hover[(verdict, bound, op)] + "<extra></extra>"}
            first = False
            if custom is not None:
                tr["customdata"] = custom[sel]
            if labels is not None:
                # Row numbers next to the points (the results table and sentences use them).
                tr.update(mode="markers+text", text=labels[sel], textposition="middle right",
                          textfont={"color": color, "size": 12})
            traces.append(tr)
    if k.highlight is not None and np.asarray(k.highlight, dtype=bool).any():
        hl = np.asarray(k.highlight, dtype=bool)
        traces.append({
            "type": kind, "x": x[hl], "y": y[hl], "mode": "markers", "name": t("fig.top_n"),
            "hoverinfo": "skip",
            "marker": {"size": (sizes[hl] + 8) if sizes is not None else 18,
                       "color": "rgba(0,0,0,0)", "line": {"color": "#212121", "width": 2}}})
    return traces


# d3-format specifiers (plotly hovertemplate): 3 significant digits with an SI prefix
# ("312T", "2.04G"), trailing zeros dropped; intensities get no prefix, as format_si.
_SI = ".3~s"
_PLAIN = ".3~r"
_PCT = ".0%"


def kernel_points(t: Translator, names: Sequence[str], flops: np.ndarray,
                  bytes_moved: np.ndarray, placement, *, size: np.ndarray | None = None,
                  highlight: np.ndarray | None = None, labels: Sequence[str] | None = None,
                  light: bool = False, op: str | Sequence[str] = "FLOP") -> KernelPoints:
    """Turn `calc.roofline.place_kernels(...)` output into drawable, hoverable points.

    `placement` has arrays `intensity`, `attainable_flops`, `achieved_flops` (NaN where
    no time was given), `fraction_of_roof` and `verdict`, and `bound`. `labels`: short
    text drawn next to each point. `light=True` (thousands of kernels) writes a shorter
    hover (name, intensity, FLOP/s, % of roof). Vectorized: the numbers go to the chart as
    one numeric `customdata` array, formatted by one hovertemplate per verdict, bound and
    `op`: what a kernel's FLOPs count, "FLOP" or "OP" (INT8, calc.hardware.rate_unit), one for
    all or one per kernel.
    """
    intensity = np.asarray(placement.intensity, dtype=float)
    attainable = np.asarray(placement.attainable_flops, dtype=float)
    nan = np.full(intensity.shape, np.nan)
    achieved = nan if placement.achieved_flops is None else np.asarray(placement.achieved_flops, dtype=float)
    fraction = nan if placement.fraction_of_roof is None else np.asarray(placement.fraction_of_roof, dtype=float)
    measured = np.isfinite(achieved)
    y = np.where(measured, achieved, attainable)
    if placement.verdict is None:
        verdict = np.full(intensity.shape, "unmeasured", dtype=object)
    else:
        raw = np.asarray(placement.verdict, dtype=object)
        given = measured & np.frompyfunc(bool, 1, 1)(raw).astype(bool)
        verdict = np.where(given, raw, "unmeasured").astype(str)
    bound = np.where(intensity == 0, "zero_flop", np.asarray(placement.bound).astype(str))
    achieved_bw = getattr(placement, "achieved_bw", None)
    bw = np.full(intensity.shape, np.nan) if achieved_bw is None else np.asarray(achieved_bw, dtype=float)
    ops = np.full(intensity.shape, op) if isinstance(op, str) else np.asarray(op).astype(str)
    dash = "—"
    hover: dict[tuple[str, str, str], str] = {}
    for v in VERDICT_COLORS:
        for b, o in sorted({(str(b), str(o)) for b, o in zip(bound[verdict == v], ops[verdict == v])}):
            has_time = v != "unmeasured"
            if b == "zero_flop":
                hover[(v, b, o)] = t(
                    "fig.kernel_hover_zero", name="%{hovertext}",
                    bytes=f"%{{customdata[1]:{_SI}}}B" if not light else dash,
                    achieved=(f"%{{customdata[{1 if light else 4}]:{_SI}}}B/s" if has_time else dash),
                    fraction=f"%{{customdata[{0 if light else 3}]:{_PCT}}}" if has_time else dash,
                    verdict=t(f"fig.verdict.{v}"))
                continue
            if light:
                hover[(v, b, o)] = t("fig.kernel_hover_light", name="%{hovertext}", op=o,
                                  intensity=f"%{{x:{_PLAIN}}} ", perf=f"%{{y:{_SI}}}",
                                  fraction=f"%{{customdata[0]:{_PCT}}}" if has_time else dash)
            else:
                hover[(v, b, o)] = t(
                    "fig.kernel_hover", name="%{hovertext}", op=o,
                    flops=f"%{{customdata[0]:{_SI}}}{o}", bytes=f"%{{customdata[1]:{_SI}}}B",
                    intensity=f"%{{x:{_PLAIN}}} {o}/B",
                    bound=t(f"fig.bound.{b}") if b in ("memory", "compute") else b,
                    attainable=f"%{{customdata[2]:{_SI}}}{o}/s",
                    achieved=f"%{{y:{_SI}}}{o}/s" if has_time else dash,
                    fraction=f"%{{customdata[3]:{_PCT}}}" if has_time else dash,
                    verdict=t(f"fig.verdict.{v}"))
    if light:
        custom = np.column_stack([fraction, bw]).astype(np.float32)
    else:
        custom = np.column_stack([np.asarray(flops, dtype=float), np.asarray(bytes_moved, dtype=float),
                                  attainable, fraction, bw]).astype(np.float32)
    return KernelPoints(names=list(names), intensity=intensity, y=y, attainable=attainable,
                        measured=measured, verdict=verdict, hover=hover, size=size,
                        highlight=highlight, labels=labels, customdata=custom, bound=bound,
                        fraction=fraction, op=ops)


def _escape_all(names: Sequence[str]) -> list[str]:
    """`_escape` of every name, in three string replaces over the joined names."""
    names = [str(n) for n in names]
    sep = "\x00"
    joined = sep.join(names)
    if joined.count(sep) != max(len(names) - 1, 0):
        return [_escape(n) for n in names]
    return _escape(joined).split(sep) if names else []


def _escape(text: str) -> str:
    """Kernel names are user text: show them as text in plotly's HTML-ish hover labels."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
