"""The roofline chart: log-log, x = arithmetic intensity (FLOP/byte), y = FLOP/s.

Pure function of its inputs (no Streamlit): `roofline_figure(...)` returns a
`plotly.graph_objects.Figure`. Every number on it comes from `calc.roofline`; this
module only draws. Tick labels are written by hand (one per decade, SI prefixes) because
plotly's own SI ticks print "G" as "B" in some themes.

Plotly annotations on log axes take log10 coordinates: see `_log`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from calc.roofline import attainable_flops, ridge_point
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


@dataclass(frozen=True)
class Roof:
    """One roofline: a compute roof `peak_flops` (FLOP/s) over a slope `mem_bw` (B/s)."""
    label: str
    peak_flops: float
    mem_bw: float
    color: str = ROOF_COLORS[0]
    dash: str = "solid"

    @property
    def ridge(self) -> float:
        return ridge_point(self.peak_flops, self.mem_bw)


@dataclass(frozen=True)
class KernelPoints:
    """Kernels already placed by `calc.roofline.place_kernels` (arrays of equal length).

    `y` is where each point is drawn: achieved FLOP/s when a time is known, else the
    attainable FLOP/s. `verdict` holds "near_roof" / "below_roof" / "above_roof" or
    "unmeasured". `hover` holds one ready-made (translated) hover text per kernel.
    """
    names: Sequence[str]
    intensity: np.ndarray
    y: np.ndarray
    attainable: np.ndarray
    measured: np.ndarray          # bool: a time was given
    verdict: Sequence[str]
    hover: Sequence[str]
    size: np.ndarray | None = None   # marker sizes (px), e.g. by time share
    highlight: np.ndarray | None = None  # bool: top-N by time, drawn with a ring
    labels: Sequence[str] | None = None  # short text drawn next to each point (few kernels)


def _log(v: float) -> float:
    return math.log10(v)


def decade_ticks(lo: float, hi: float, unit: str) -> tuple[list[float], list[str]]:
    """One tick per decade between lo and hi, labelled with SI prefixes ("10 TFLOP/s")."""
    first, last = math.floor(_log(lo)), math.ceil(_log(hi))
    values = [10.0 ** e for e in range(first, last + 1)]
    return values, [format_si(v, unit) for v in values]


def axis_ranges(roofs: Sequence[Roof], intensities: np.ndarray | None = None,
                ys: np.ndarray | None = None) -> tuple[tuple[float, float], tuple[float, float]]:
    """x and y ranges (linear units) that show every roof's ridge and every point."""
    ridges = [r.ridge for r in roofs]
    x_lo = min(ridges) / 1000.0
    x_hi = max(ridges) * 30.0
    if intensities is not None and len(intensities):
        finite = intensities[np.isfinite(intensities) & (intensities > 0)]
        if finite.size:
            x_lo = min(x_lo, float(finite.min()) / 3.0)
            x_hi = max(x_hi, float(finite.max()) * 3.0)
    x_lo = 10.0 ** math.floor(_log(x_lo))
    x_hi = 10.0 ** math.ceil(_log(x_hi))
    y_hi = max(r.peak_flops for r in roofs) * 3.0
    y_lo = min(float(attainable_flops(x_lo, r.peak_flops, r.mem_bw)) for r in roofs)
    if ys is not None and len(ys):
        finite = ys[np.isfinite(ys) & (ys > 0)]
        if finite.size:
            y_lo = min(y_lo, float(finite.min()) / 3.0)
            y_hi = max(y_hi, float(finite.max()) * 3.0)
    y_lo = 10.0 ** math.floor(_log(y_lo))
    y_hi = 10.0 ** math.ceil(_log(y_hi))
    return (x_lo, x_hi), (y_lo, y_hi)


def _roof_trace(roof: Roof, x_lo: float, x_hi: float, t: Translator, main: bool) -> go.Scatter:
    # Three points draw the whole roofline: the slope from x_lo, the ridge, the roof to x_hi.
    xs = [x_lo, roof.ridge, x_hi]
    ys = [float(attainable_flops(x, roof.peak_flops, roof.mem_bw)) for x in xs]
    hover = t("fig.roof_hover", label=roof.label,
              peak=format_si(roof.peak_flops, "FLOP/s"),
              bw=format_si(roof.mem_bw, "B/s"),
              ridge=format_si(roof.ridge, "FLOP/B"))
    return go.Scatter(x=xs, y=ys, mode="lines", name=roof.label,
                      line={"color": roof.color, "width": 3 if main else 2, "dash": roof.dash},
                      hovertemplate=hover + "<extra></extra>")


def roofline_figure(t: Translator, roofs: Sequence[Roof], kernels: KernelPoints | None = None,
                    *, height: int = 560, compact: bool = False,
                    show_regions: bool = True, title: str | None = None) -> go.Figure:
    """A log-log roofline chart.

    roofs[0] is the main roofline: its ridge is marked and labelled, and the memory- and
    compute-bound regions are named relative to it. The other roofs (other precisions,
    other devices) are drawn as extra lines. `kernels` are drawn as WebGL points coloured
    by verdict, measured ones with a dotted line up to their roof.
    """
    if not roofs:
        raise ValueError("roofline_figure needs at least one roof")
    main = roofs[0]
    intens = kernels.intensity if kernels is not None else None
    ys = kernels.y if kernels is not None else None
    (x_lo, x_hi), (y_lo, y_hi) = axis_ranges(roofs, intens, ys)

    fig = go.Figure()
    if show_regions:
        fig.add_vrect(x0=x_lo, x1=main.ridge, fillcolor=MEMORY_REGION, line_width=0, layer="below")
        fig.add_vrect(x0=main.ridge, x1=x_hi, fillcolor=COMPUTE_REGION, line_width=0, layer="below")
    for i, roof in enumerate(roofs):
        fig.add_trace(_roof_trace(roof, x_lo, x_hi, t, main=(i == 0)))

    # The ridge point of the main roof: marker, dotted drop line and its value.
    fig.add_trace(go.Scatter(
        x=[main.ridge], y=[main.peak_flops], mode="markers", name=t("fig.ridge"),
        marker={"size": 11, "color": main.color, "symbol": "diamond"},
        hovertemplate=t("fig.ridge_hover", ridge=format_si(main.ridge, "FLOP/B"),
                        peak=format_si(main.peak_flops, "FLOP/s")) + "<extra></extra>",
        showlegend=False))
    fig.add_shape(type="line", x0=main.ridge, x1=main.ridge, y0=y_lo, y1=main.peak_flops,
                  line={"color": main.color, "width": 1, "dash": "dot"})
    fig.add_annotation(x=_log(main.ridge), y=_log(main.peak_flops),
                       text=t("fig.ridge_label", ridge=format_si(main.ridge, "FLOP/B")),
                       showarrow=True, arrowhead=0, ax=0, ay=-34,
                       font={"size": 12 if compact else 13, "color": main.color},
                       bgcolor="rgba(255,255,255,0.85)")
    if show_regions:
        # Region names sit at the bottom of each region, under the roofline.
        fig.add_annotation(x=(_log(x_lo) + _log(main.ridge)) / 2, y=_log(y_lo),
                           yanchor="bottom", yshift=6, text=t("fig.memory_bound"),
                           showarrow=False,
                           font={"size": 12 if compact else 14, "color": "#1565c0"})
        fig.add_annotation(x=(_log(main.ridge) + _log(x_hi)) / 2, y=_log(y_lo),
                           yanchor="bottom", yshift=6, text=t("fig.compute_bound"),
                           showarrow=False,
                           font={"size": 12 if compact else 14, "color": "#2e7d32"})

    if kernels is not None and len(kernels.intensity):
        _add_kernels(fig, t, kernels)

    x_ticks, x_text = decade_ticks(x_lo, x_hi, "")
    y_ticks, y_text = decade_ticks(y_lo, y_hi, "FLOP/s")
    fig.update_xaxes(type="log", range=[_log(x_lo), _log(x_hi)], tickvals=x_ticks,
                     ticktext=[_plain(v) for v in x_ticks], title=t("fig.x_title"),
                     showgrid=True, gridcolor="#e0e0e0", zeroline=False)
    fig.update_yaxes(type="log", range=[_log(y_lo), _log(y_hi)], tickvals=y_ticks,
                     ticktext=y_text, title=t("fig.y_title"),
                     showgrid=True, gridcolor="#e0e0e0", zeroline=False)
    fig.update_layout(
        height=height, template="plotly_white", title=title,
        margin={"l": 10, "r": 10, "t": 40 if title else 20, "b": 10},
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.01, "x": 0},
        hoverlabel={"align": "left"}, showlegend=not compact or len(roofs) > 1,
    )
    return fig


def _plain(v: float) -> str:
    """Intensity tick labels: 0.01, 0.1, 1, 10, 100, 1k, 10k."""
    if v >= 1000:
        return format_si(v, "")
    return f"{v:g}"


def _add_kernels(fig: go.Figure, t: Translator, k: KernelPoints) -> None:
    x = np.asarray(k.intensity, dtype=float)
    y = np.asarray(k.y, dtype=float)
    measured = np.asarray(k.measured, dtype=bool)
    # Dotted lines from each measured point up (or down) to its roof, in one WebGL trace.
    if measured.any():
        xm, ym, am = x[measured], y[measured], np.asarray(k.attainable, dtype=float)[measured]
        n = xm.size
        lx = np.empty(3 * n)
        ly = np.empty(3 * n)
        lx[0::3], lx[1::3], lx[2::3] = xm, xm, np.nan
        ly[0::3], ly[1::3], ly[2::3] = ym, am, np.nan
        fig.add_trace(go.Scattergl(x=lx, y=ly, mode="lines", hoverinfo="skip",
                                   line={"color": "rgba(90,90,90,0.45)", "width": 1, "dash": "dot"},
                                   showlegend=False, name=t("fig.gap")))
    verdicts = np.asarray(k.verdict, dtype=object)
    hover = np.asarray(k.hover, dtype=object)
    labels = np.asarray(k.labels, dtype=object) if k.labels is not None else None
    sizes = np.asarray(k.size, dtype=float) if k.size is not None else None
    for verdict, color in VERDICT_COLORS.items():
        sel = verdicts == verdict
        if not sel.any():
            continue
        marker = {"color": color, "size": sizes[sel] if sizes is not None else 11,
                  "line": {"color": "white", "width": 1}, "opacity": 0.9}
        extra = {}
        if labels is not None:
            # Row numbers next to the points (the results table and sentences use them).
            extra = {"mode": "markers+text", "text": labels[sel], "textposition": "middle right",
                     "textfont": {"color": color, "size": 12}}
        fig.add_trace(go.Scattergl(
            x=x[sel], y=y[sel], mode=extra.pop("mode", "markers"), name=t(f"fig.verdict.{verdict}"),
            marker=marker, customdata=hover[sel],
            hovertemplate="%{customdata}<extra></extra>", **extra))
    if k.highlight is not None and np.asarray(k.highlight, dtype=bool).any():
        hl = np.asarray(k.highlight, dtype=bool)
        fig.add_trace(go.Scattergl(
            x=x[hl], y=y[hl], mode="markers", name=t("fig.top_n"), hoverinfo="skip",
            marker={"size": (sizes[hl] + 8) if sizes is not None else 18,
                    "color": "rgba(0,0,0,0)", "line": {"color": "#212121", "width": 2}}))


def kernel_points(t: Translator, names: Sequence[str], flops: np.ndarray,
                  bytes_moved: np.ndarray, placement, *, size: np.ndarray | None = None,
                  highlight: np.ndarray | None = None, labels: Sequence[str] | None = None,
                  light: bool = False) -> KernelPoints:
    """Turn `calc.roofline.place_kernels(...)` output into drawable, hoverable points.

    `placement` has arrays `intensity`, `attainable_flops`, `achieved_flops` (NaN where
    no time was given), `fraction_of_roof` and `verdict`, and `bound`. `labels`: short
    text drawn next to each point. `light=True` (thousands of kernels) writes a shorter
    hover (name, intensity, FLOP/s, % of roof) to keep the page responsive.
    """
    intensity = np.asarray(placement.intensity, dtype=float)
    attainable = np.asarray(placement.attainable_flops, dtype=float)
    nan = np.full(intensity.shape, np.nan)
    achieved = nan if placement.achieved_flops is None else np.asarray(placement.achieved_flops, dtype=float)
    fraction = nan if placement.fraction_of_roof is None else np.asarray(placement.fraction_of_roof, dtype=float)
    measured = np.isfinite(achieved)
    y = np.where(measured, achieved, attainable)
    verdict_raw = (np.full(intensity.shape, None, dtype=object) if placement.verdict is None
                   else np.asarray(placement.verdict, dtype=object))
    verdict = [str(v) if m and v else "unmeasured" for v, m in zip(verdict_raw, measured)]
    bound = np.asarray(placement.bound, dtype=object)
    bound_text = {"memory": t("fig.bound.memory"), "compute": t("fig.bound.compute")}
    verdict_text = {v: t(f"fig.verdict.{v}") for v in VERDICT_COLORS}
    dash = "—"
    if light:
        hover = _light_hover(t, names, intensity, y, fraction, measured)
        return KernelPoints(names=list(names), intensity=intensity, y=y, attainable=attainable,
                            measured=measured, verdict=verdict, hover=hover, size=size,
                            highlight=highlight, labels=labels)
    hover = []
    for i, name in enumerate(names):
        hover.append(t(
            "fig.kernel_hover",
            name=_escape(name),
            flops=format_si(float(flops[i]), "FLOP"),
            bytes=format_si(float(bytes_moved[i]), "B"),
            intensity=format_si(float(intensity[i]), "FLOP/B"),
            bound=bound_text.get(str(bound[i]), str(bound[i])),
            attainable=format_si(float(attainable[i]), "FLOP/s"),
            achieved=format_si(float(achieved[i]), "FLOP/s") if measured[i] else dash,
            fraction=f"{fraction[i]:.0%}" if measured[i] else dash,
            verdict=verdict_text[verdict[i]],
        ))
    return KernelPoints(names=list(names), intensity=intensity, y=y, attainable=attainable,
                        measured=measured, verdict=verdict, hover=hover, size=size,
                        highlight=highlight, labels=labels)


def _short_si(values: np.ndarray) -> list[str]:
    """Fast 3-digit SI text for many values (no unit), e.g. 2.5e14 -> "250T"."""
    out = []
    prefixes = {-6: "µ", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
    for v in values:
        if not np.isfinite(v) or v <= 0:
            out.append("—")
            continue
        e = int(math.floor(math.log10(v) / 3) * 3)
        e = max(-6, min(18, e))
        out.append(f"{v / 10.0 ** e:.3g} {prefixes[e]}")
    return out


def _light_hover(t: Translator, names: Sequence[str], intensity: np.ndarray, y: np.ndarray,
                 fraction: np.ndarray, measured: np.ndarray) -> list[str]:
    template = t("fig.kernel_hover_light")     # translated once, filled per kernel
    inten = _short_si(intensity)
    perf = _short_si(y)
    frac = [f"{f:.0%}" if m else "—" for f, m in zip(fraction, measured)]
    return [template.format(name=_escape(n), intensity=i, perf=p, fraction=f)
            for n, i, p, f in zip(names, inten, perf, frac)]


def _escape(text: str) -> str:
    """Kernel names are user text: show them as text in plotly's HTML-ish hover labels."""
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
