"""Hierarchical roofline for Nsight Compute imports: one point per memory level.

A kernel imported from ``ncu`` may carry bytes per level (DRAM, L2, L1:
``KernelRecord.level_bytes``). Drawn once per level at the same FLOP/s, its points spread
horizontally (intensity = FLOPs / bytes at that level) and are joined by a thin line.
User-entered L2/L1 bandwidth ceilings (URL ``l2_bw``, ``l1_bw``; blank = not drawn) are
extra slopes under the same compute roof. Toggle: URL ``hier``.

The page calls :func:`render_hierarchy_controls` (the section), passes
:func:`hierarchy_roofs` to the chart's roofs and :func:`add_hierarchy` the figure.
Arithmetic (intensities, heights) is :func:`calc.views.level_points`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from calc.kernel_table import KernelRecord
from calc.units import MIN_MAGNITUDE, QuantityError, format_si, parse_quantity
from calc.views import level_points
from ui.roofline.compare import judged_unit
from ui.figures.roofline import Roof, _plain, decade_ticks
from ui.i18n import Translator
from ui.state import bound, kept, set_value
from ui.widgets import Bounds, bound_checkbox, check_bounds, quantity_error

HIER_KEY = "hier"
L2_KEY = "l2_bw"
L1_KEY = "l1_bw"
CEILING_BOUNDS = Bounds(hi=1e18)

#: Marker symbol and colour per memory level.
LEVEL_STYLE = {
    "dram": ("circle", "#1565c0"),
    "l2": ("square", "#8e24aa"),
    "l1": ("diamond", "#00897b"),
}
_OTHER_STYLE = ("triangle-up", "#6d4c41")
CEILING_STYLE = {"l2": ("#8e24aa", "dash"), "l1": ("#00897b", "dot")}


@dataclass(frozen=True)
class HierarchyOptions:
    """``enabled``: draw per-level points; ``l2_bw`` / ``l1_bw``: ceilings (bytes/s) or None."""

    enabled: bool = False
    l2_bw: float | None = None
    l1_bw: float | None = None


def parse_ceiling(text: Any) -> float | None:
    """A ceiling field's value in bytes/s; None when blank. Raises ValueError when bad."""
    if text is None or not str(text).strip():
        return None
    value = float(parse_quantity(str(text), kind="bandwidth"))
    # Below MIN_MAGNITUDE (1e-30 B/s; 1e-320 parses as a denormal > 0) the ridge
    # peak ÷ bandwidth overflows to inf and no chart can be drawn.
    if not math.isfinite(value) or value < MIN_MAGNITUDE or value > CEILING_BOUNDS.hi:
        raise ValueError(f"out of range: {text!r}")
    return value


def exact_text(value: float | None, unit: str) -> str:
    """Text for a quantity field that reads back to exactly ``value``: "12 TB/s" when
    that is exact, else the float's shortest scientific form ("1.23456789e+13")."""
    if value is None:
        return ""
    v = float(value)
    for digits in (3, 6):
        text = format_si(v, unit, digits=digits)
        try:
            if float(parse_quantity(text)) == v:
                return text
        except (QuantityError, ValueError, TypeError):
            pass
    return np.format_float_scientific(v, unique=True, trim="-")


def ceiling_text(value: float | None) -> str:
    """The text a ceiling field shows for ``value`` (reads back exactly)."""
    return exact_text(value, "B/s")


def current_options() -> HierarchyOptions:
    """The hierarchy options from session state (quietly: a bad field counts as blank)."""

    def read(key: str) -> float | None:
        text = st.session_state.get(key, kept(key, ""))
        if not text and key in st.query_params:
            text = st.query_params.get(key)
        try:
            return parse_ceiling(text)
        except (QuantityError, ValueError, TypeError):
            return None

    enabled = st.session_state.get(HIER_KEY, kept(HIER_KEY))
    if enabled is None:
        enabled = st.query_params.get(HIER_KEY) in ("True", "true", "1")
    return HierarchyOptions(bool(enabled), read(L2_KEY), read(L1_KEY))


def set_ceilings(l2_bw: float | None, l1_bw: float | None) -> None:
    """Set the ceiling fields from code (call in a callback, before they are drawn)."""
    set_value(L2_KEY, ceiling_text(l2_bw))
    set_value(L1_KEY, ceiling_text(l1_bw))


def _ceiling_input(t: Translator, label: str, key: str) -> float | None:
    text = bound(st.text_input, label, "", key=key,
                 placeholder=t("roofline.hier.ceiling_placeholder"), help=t("roofline.hier.ceiling_help"))
    if not str(text or "").strip():
        return None
    try:
        value = float(parse_quantity(str(text), kind="bandwidth"))
    except (QuantityError, ValueError, TypeError) as exc:
        st.error(t("common.err.field", label=label,
                   message=quantity_error(t, str(text), exc, "bandwidth")),
                 icon=":material/warning:")
        return None
    problem = check_bounds(value, CEILING_BOUNDS, "B/s", t)
    if problem:
        st.error(t("common.err.field", label=label, message=problem), icon=":material/warning:")
        return None
    return value


def has_levels(kernels: Sequence[KernelRecord]) -> bool:
    """True when some kernel has bytes for at least one memory level."""
    return any(k.level_bytes for k in kernels)


def render_hierarchy_controls(ctx, kernels: Sequence[KernelRecord] = ()) -> HierarchyOptions:
    """The hierarchical-view section: toggle (URL ``hier``) and L2/L1 ceilings."""
    t = ctx.t
    st.subheader(t("roofline.hier.heading"))
    enabled = bound_checkbox(t("roofline.hier.toggle"), HIER_KEY, value=False,
                             help=t("roofline.hier.toggle_help"))
    if enabled and not has_levels(kernels):
        st.info(t("roofline.hier.no_levels"))
    c1, c2 = st.columns(2)
    with c1:
        l2 = _ceiling_input(t, t("roofline.hier.l2"), L2_KEY)
    with c2:
        l1 = _ceiling_input(t, t("roofline.hier.l1"), L1_KEY)
    st.caption(t("roofline.hier.caption"))
    return HierarchyOptions(bool(enabled), l2, l1)


def hierarchy_roofs(t: Translator, peak_flops: float | None, options: HierarchyOptions,
                    precision: str = ""):
    """Extra roofs (ui.figures.roofline.Roof) for the entered L2/L1 ceilings, under the
    main compute roof ``peak_flops`` (of ``precision``). Empty when no ceiling is entered or
    no peak known."""
    if not peak_flops:
        return []
    roofs = []
    for level, bw in (("l2", options.l2_bw), ("l1", options.l1_bw)):
        if bw:
            color, dash = CEILING_STYLE[level]
            roofs.append(Roof(label=t(f"roofline.hier.roof.{level}", bw=format_si(bw, "B/s")),
                              peak_flops=float(peak_flops), mem_bw=float(bw), color=color,
                              dash=dash, precision=precision))
    return roofs


def _escape(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def hierarchy_traces(t: Translator, kernels: Sequence[KernelRecord], peak_flops: float,
                     mem_bw: float, mask: np.ndarray | None = None, precision: str = "",
                     peaks: Mapping[str, float] | None = None) -> list:
    """Plotly traces of the hierarchical view: one WebGL marker trace per memory level and
    one line trace joining each kernel's points. ``mask`` (bool per kernel) keeps only
    some kernels (e.g. the name filter). Empty when no kernel has level bytes and FLOPs.
    A kernel is judged as the Results table judges it (calc.views.kernel_peaks): at its own
    precision where the device has that peak (``peaks``: precision -> FLOP/s), else at
    ``precision``, the sidebar's; its hover's rates read OP/s when that is integer math
    (calc.hardware.rate_unit)."""
    ks = list(kernels)
    if mask is not None:
        keep = np.asarray(mask, dtype=bool)
        ks = [k for k, m in zip(ks, keep) if m]
    pts = level_points(ks, peak_flops, mem_bw, peaks)
    if not len(pts):
        return []
    traces = []
    # lines joining each kernel's points, in one trace separated by gaps
    xs: list[float] = []
    ys: list[float] = []
    for idx in np.unique(pts.kernel):
        sel = pts.kernel == idx
        if sel.sum() < 2:
            continue
        order = np.argsort(pts.intensity[sel])
        xs.extend(pts.intensity[sel][order].tolist() + [np.nan])
        ys.extend(pts.y[sel][order].tolist() + [np.nan])
    if xs:
        traces.append(go.Scattergl(x=xs, y=ys, mode="lines", hoverinfo="skip", showlegend=False,
                                   name=t("roofline.hier.link"),
                                   line={"color": "rgba(60,60,60,0.5)", "width": 1}))
    levels = [lv for lv in ("dram", "l2", "l1") if lv in set(pts.level)]
    levels += sorted(set(pts.level) - set(levels))
    for level in levels:
        sel = pts.level == level
        symbol, color = LEVEL_STYLE.get(level, _OTHER_STYLE)
        label = _level_label(t, level)
        hover = [
            t("roofline.hier.hover", name=_escape(ks[int(i)].name), level=label,
              bytes=format_si(float(b), "B"),
              intensity=format_si(float(x), judged_unit(ks[int(i)], peaks, precision, "/B")),
              flops=format_si(float(y), judged_unit(ks[int(i)], peaks, precision)))
            for i, b, x, y in zip(pts.kernel[sel], pts.bytes[sel], pts.intensity[sel], pts.y[sel])
        ]
        traces.append(go.Scattergl(
            x=pts.intensity[sel], y=pts.y[sel], mode="markers",
            name=t("roofline.hier.level_legend", level=label),
            marker={"symbol": symbol, "color": color, "size": 9, "opacity": 0.85,
                    "line": {"color": "white", "width": 1}},
            customdata=hover, hovertemplate="%{customdata}<extra></extra>"))
    return traces


def _level_label(t: Translator, level: str) -> str:
    try:
        return t(f"roofline.hier.level.{level}")
    except KeyError:
        return level.upper()


def add_hierarchy(fig: go.Figure, t: Translator, kernels: Sequence[KernelRecord],
                  peak_flops: float, mem_bw: float, mask: np.ndarray | None = None,
                  precision: str = "", peaks: Mapping[str, float] | None = None) -> int:
    """Add :func:`hierarchy_traces` to a roofline figure and widen its x axis (with decade
    ticks) so every level point is visible. Returns the number of traces added."""
    traces = hierarchy_traces(t, kernels, peak_flops, mem_bw, mask, precision, peaks)
    if not traces:
        return 0
    fig.add_traces(traces)
    xs = np.concatenate([np.asarray(tr.x, dtype=float) for tr in traces])
    xs = xs[np.isfinite(xs) & (xs > 0)]
    rng = fig.layout.xaxis.range
    if xs.size and rng is not None:
        lo_exp, hi_exp = float(rng[0]), float(rng[1])
        # the axis range: a third of a decade of margin around the points
        need_lo = math.floor(math.log10(float(xs.min()) / 3.0))  # not a formula: axis range
        need_hi = math.ceil(math.log10(float(xs.max()) * 3.0))  # not a formula: axis range
        new_lo, new_hi = min(lo_exp, need_lo), max(hi_exp, need_hi)
        if (new_lo, new_hi) != (lo_exp, hi_exp):
            ticks, _ = decade_ticks(10.0 ** new_lo, 10.0 ** new_hi, "")  # not a formula: axis range
            fig.update_xaxes(range=[new_lo, new_hi], tickvals=ticks,
                             ticktext=[_plain(v) for v in ticks])
    return len(traces)
