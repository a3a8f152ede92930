"""The roofline page's intro and chart: the selected device's roof, other precisions'
roofs, compared devices' and cache ceilings' roofs, the kernels as points (with the view
controls' filter, sizes and highlight) and the per-level points of the hierarchy view.

:func:`render_intro` reads a shared link and says what the page is for;
:func:`render_chart` draws the chart (or, without a valid device, says why not).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import streamlit as st

from calc.roofline import attainable_flops
from calc.units import format_si
from ui.figures.roofline import ROOF_COLORS, KernelPoints, Roof, kernel_points, roofline_figure
from ui.i18n import Translator
from ui.roofline import compare, hierarchy, state, view
from ui.roofline.results import LIGHT_HOVER_ABOVE, Analysis, subset
from ui.state import kept, remember, say_ignored, url_changed, write_url

#: Intensity used in the intro's example ("at 2 FLOP/B this device reaches at most …").
INTRO_INTENSITY = 2.0


def render_intro(ctx) -> None:
    """Load a shared link's kernel table (a bad one is reported) and the intro sentence."""
    t = ctx.t
    link_error = state.load_from_url()
    if link_error:
        st.warning(t("roofline.link.bad", message=link_error), icon=":material/warning:")
    if ctx.ready:
        capped = attainable_flops(INTRO_INTENSITY, ctx.peak_flops, ctx.mem_bw)
        st.markdown(t("roofline.intro", capped=format_si(capped, ctx.op() + "/s")))


def precision_roofs(t: Translator, device, device_label: str, precisions: Sequence[str],
                    mem_bw: float) -> list[Roof]:
    """Extra roofs: the same device at other precisions (dashed, own colours)."""
    out = []
    for j, prec in enumerate(precisions):
        try:
            peak = device.peak_flops(prec)
        except (KeyError, ValueError):
            continue
        out.append(Roof(label=f"{device_label} · {t('common.prec.' + prec)}", peak_flops=peak,
                        mem_bw=mem_bw, color=ROOF_COLORS[1 + j % (len(ROOF_COLORS) - 1)], dash="dash",
                        precision=prec))
    return out


def points(t: Translator, a: Analysis, *, size: np.ndarray | None = None,
           highlight: np.ndarray | None = None) -> KernelPoints:
    """Drawable points for the chart (labels = table row numbers when few kernels)."""
    labels = [str(r) for r in a.rows] if len(a) <= 30 else None
    return kernel_points(t, a.names, a.flops, a.bytes_moved, a.placement, size=size,
                         highlight=highlight, labels=labels, light=len(a) > LIGHT_HOVER_ABOVE,
                         op=np.where(a.integer_ops, "OP", "FLOP"))


ROOFS_KEY = "roofs"          # URL name: comma-separated precision ids


def _as_list(value) -> list[str]:
    if value is None:
        return []
    items = value.split(",") if isinstance(value, str) else list(value)
    return [str(p).strip() for p in items if str(p).strip()]


def roofs_selector(t: Translator, precisions: Sequence[str], current: str, container=None) -> list[str]:
    """Multiselect of the device's other precisions, synced by hand with the URL `roofs`
    ("fp32,fp8"); kept across pages. Returns the chosen precision ids."""
    box = container if container is not None else st
    options = [p for p in precisions if p != current]
    from_url = url_changed(ROOFS_KEY)
    wanted = None
    ignored: list[str] = []
    if from_url is not None:
        wanted = _as_list(from_url)                  # a new link wins
        ignored = [p for p in wanted if p not in options and p != current]
    elif ROOFS_KEY in st.session_state:
        wanted = _as_list(st.session_state[ROOFS_KEY])   # may be text set by a scenario
    elif kept(ROOFS_KEY) is not None:
        wanted = _as_list(kept(ROOFS_KEY))           # back from another page
    if wanted is not None:
        clean = []
        for p in wanted:
            if p in options and p not in clean:
                clean.append(p)
        st.session_state[ROOFS_KEY] = clean
    if not options:
        value: list[str] = []
        st.session_state.pop(ROOFS_KEY, None)
        box.caption(t("roofline.roofs_none"))
    else:
        value = list(box.multiselect(t("roofline.roofs"), options, key=ROOFS_KEY,
                                     format_func=lambda p: t(f"common.prec.{p}"),
                                     help=t("roofline.roofs_help"),
                                     placeholder=t("roofline.roofs_placeholder")))
    say_ignored(ROOFS_KEY, ignored, t("roofline.roofs"), box)
    remember(ROOFS_KEY, value)
    write_url(ROOFS_KEY, ",".join(value))
    return value


def render_chart(ctx, analysis: Analysis | None) -> None:
    """The chart, its caption and the view controls; without a valid custom device
    (``analysis`` None) a warning instead, and the view controls."""
    t = ctx.t
    if analysis is None:
        st.warning(t("common.custom_incomplete"))
        with st.expander(t("roofline.view_heading")):
            view.render_view_controls(ctx)
        return
    roofs = [ctx.roof()]
    precisions = list(ctx.device.precisions) if ctx.device is not None else []
    chosen = roofs_selector(t, precisions, ctx.precision)
    roofs.extend(precision_roofs(t, ctx.device, ctx.device_label(), chosen, ctx.mem_bw))
    roofs.extend(compare.compare_roofs(ctx))
    hier_opts = hierarchy.current_options()
    roofs.extend(hierarchy.hierarchy_roofs(t, ctx.peak_flops, hier_opts, ctx.precision))
    shown = analysis
    size = highlight = None
    if len(analysis):
        arrays = view.view_arrays(analysis.kernels, view.view_options())
        shown = subset(analysis, arrays.mask)
        size = None if arrays.size is None else arrays.size[arrays.mask]
        highlight = None if arrays.highlight is None else arrays.highlight[arrays.mask]
    pts = points(t, shown, size=size, highlight=highlight) if len(shown) else None
    fig = roofline_figure(t, roofs, pts, height=600)
    if hier_opts.enabled:
        hierarchy.add_hierarchy(fig, t, shown.kernels, ctx.peak_flops, ctx.mem_bw,
                                precision=ctx.precision,
                                peaks=dict(ctx.device.peaks) if ctx.device is not None else None)
    st.plotly_chart(fig, config=ctx.chart_config("roofline"), key="roofline_chart")
    labelled = pts is not None and pts.labels is not None
    st.caption((t("roofline.chart_labels") + " " if labelled else "") + t("roofline.chart_caption"))
    with st.expander(t("roofline.view_heading")):
        view.render_view_controls(ctx)
